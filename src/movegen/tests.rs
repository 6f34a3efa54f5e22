//! Piece rules and generator consistency in small readable cases.

use super::*;
use crate::types::Square;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let from: Square = from.parse().unwrap();
    let mut v: Vec<String> = legal_moves(p)
        .iter()
        .filter(|m| m.from() == from)
        .map(|m| m.to().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn start_position_has_44_moves() {
    assert_eq!(legal_moves(&Position::startpos()).len(), 44);
}

#[test]
fn cannon_needs_exactly_one_screen() {
    // Red cannon e2; black pieces e5 (screen), e7 (target) and e8 (behind the target).
    let p = pos("4k4/4r4/4n4/9/4p4/9/9/4C4/9/3K5 w - - 0 1");
    let to = moves_from(&p, "e2");
    assert!(
        to.contains(&"e7".to_string()),
        "captures over one screen: {to:?}"
    );
    assert!(
        !to.contains(&"e5".to_string()),
        "cannot capture the screen itself"
    );
    assert!(!to.contains(&"e8".to_string()), "cannot jump two screens");
    assert!(to.contains(&"e4".to_string()) && !to.contains(&"e6".to_string()));
}

#[test]
fn horse_leg_blocks_two_targets() {
    let free = pos("4k4/9/9/9/9/9/9/4N4/5K3/9 w - - 0 1");
    assert_eq!(
        moves_from(&free, "e2"),
        ["c1", "c3", "d0", "d4", "f0", "f4", "g1", "g3"]
    );
    let blocked = pos("4k4/9/9/9/9/9/4P4/4N4/5K3/9 w - - 0 1");
    assert_eq!(
        moves_from(&blocked, "e2"),
        ["c1", "c3", "d0", "f0", "g1", "g3"]
    );
}

#[test]
fn elephant_never_crosses_river_and_needs_free_eye() {
    let p = pos("4k4/9/9/9/9/9/9/9/9/2BK5 w - - 0 1");
    assert_eq!(moves_from(&p, "c0"), ["a2", "e2"]);
    let p = pos("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1");
    assert_eq!(moves_from(&p, "c4"), ["a2", "e2"]);
    let p = pos("4k4/9/9/9/9/9/9/9/1N7/2BK5 w - - 0 1");
    assert_eq!(moves_from(&p, "c0"), ["e2"]);
}

#[test]
fn soldier_moves_sideways_only_after_crossing() {
    let p = pos("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1");
    assert_eq!(moves_from(&p, "e3"), ["e4"]);
    let p = pos("3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(moves_from(&p, "e5"), ["d5", "e6", "f5"]);
}

#[test]
fn general_and_advisor_stay_in_palace() {
    let p = pos("3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1");
    assert_eq!(moves_from(&p, "d0"), ["e1"]);
    assert_eq!(moves_from(&p, "e0"), ["e1", "f0"]);
}

#[test]
fn generals_may_not_face() {
    // The red general may not step onto the open e-file facing the black general.
    let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(moves_from(&p, "d0"), ["d1"]);
    // A lone piece between the generals is pinned to the file.
    let p = pos("4k4/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1");
    assert!(moves_from(&p, "e2").iter().all(|s| s.starts_with('e')));
}

#[test]
fn moving_into_an_empty_cannon_line_is_illegal() {
    // Black cannon e7 faces the red general e0 over an empty file: the chariot may not become
    // the screen.
    let p = pos("3k5/9/4c4/9/9/9/9/R8/9/4K4 w - - 0 1");
    assert!(!moves_from(&p, "a2").contains(&"e2".to_string()));
}

#[test]
fn one_of_two_cannon_screens_may_not_leave_the_line() {
    let p = pos("3k5/9/4c4/9/9/9/4P4/9/4R4/4K4 w - - 0 1");
    let rook = moves_from(&p, "e1");
    assert!(rook.iter().all(|s| s.starts_with('e')), "{rook:?}");
}

#[test]
fn horse_leg_piece_is_pinned() {
    // Black horse d2 attacks e0 only through its leg d1, occupied by a red chariot.
    let p = pos("3k5/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1");
    let rook = moves_from(&p, "d1");
    assert_eq!(rook, ["d2"], "the leg may only capture the horse: {rook:?}");
}

#[test]
fn captures_and_quiets_partition_the_legal_moves() {
    for fen in [
        crate::position::START_FEN,
        "3k5/9/4c4/9/9/9/4P4/9/4R4/4K4 w - - 0 1",
    ] {
        let p = pos(fen);
        let mut all: Vec<_> = legal_moves(&p).to_vec();
        let mut parts: Vec<_> = captures(&p)
            .iter()
            .chain(quiets(&p).iter())
            .copied()
            .collect();
        all.sort();
        parts.sort();
        assert_eq!(all, parts);
    }
}

fn all_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(p).iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn chariot_slides_to_the_first_piece_and_captures_only_enemies() {
    // Red chariot e4: up to the black soldier e6 (captured), left up to its own soldier c4.
    let p = pos("4k4/9/9/4p4/9/2P1R4/9/9/9/3K5 w - - 0 1");
    assert_eq!(
        moves_from(&p, "e4"),
        ["d4", "e0", "e1", "e2", "e3", "e5", "e6", "f4", "g4", "h4", "i4"]
    );
}

#[test]
fn cannon_cannot_capture_without_screen() {
    // Red cannon b2 and black chariot b7 with nothing between: the cannon stops below it.
    let p = pos("4k4/9/1r7/9/9/9/9/1C7/9/3K5 w - - 0 1");
    let to = moves_from(&p, "b2");
    assert!(to.contains(&"b6".to_string()), "{to:?}");
    assert!(
        !to.contains(&"b7".to_string()),
        "no capture without a screen: {to:?}"
    );
}

#[test]
fn cannon_jumps_a_screen_of_either_colour_but_never_captures_its_own() {
    // Own soldier e3 as the screen, black horse e7 beyond it: captured.
    let p = pos("4k4/9/4n4/9/9/9/4P4/4C4/9/3K5 w - - 0 1");
    assert!(moves_from(&p, "e2").contains(&"e7".to_string()));
    // The same with a red horse on e7: nothing to capture, and no quiet move past the screen.
    let p = pos("4k4/9/4N4/9/9/9/4P4/4C4/9/3K5 w - - 0 1");
    let to = moves_from(&p, "e2");
    assert!(
        !to.contains(&"e7".to_string()) && !to.contains(&"e4".to_string()),
        "{to:?}"
    );
}

#[test]
fn soldier_never_moves_backward() {
    let p = pos("3k5/9/9/4P4/9/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(moves_from(&p, "e6"), ["d6", "e7", "f6"]);
    let p = pos("3k5/9/9/9/9/9/4p4/9/9/5K3 b - - 0 1");
    assert_eq!(moves_from(&p, "e3"), ["d3", "e2", "f3"]);
}

#[test]
fn soldier_on_the_last_rank_only_moves_sideways() {
    let p = pos("P2k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(moves_from(&p, "a9"), ["b9"]);
}

#[test]
fn horse_cannot_jump_off_the_board() {
    let p = pos("3k5/9/9/9/9/9/9/9/9/N3K4 w - - 0 1");
    assert_eq!(moves_from(&p, "a0"), ["b2", "c1"]);
}

#[test]
fn advisor_steps_diagonally_inside_the_palace() {
    let p = pos("3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
    assert_eq!(moves_from(&p, "e1"), ["d0", "d2", "f0", "f2"]);
    let p = pos("3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1");
    assert_eq!(moves_from(&p, "d0"), ["e1"]);
}

#[test]
fn flying_general_counts_as_check() {
    // Black general d9 in check from the chariot d5: e9 would face the red general on the open
    // e-file and d8 stays on the chariot's file, so Black is mated ("white-face general").
    let p = pos("3k5/9/9/9/3R5/9/9/9/9/4K4 b - - 0 1");
    assert!(p.in_check());
    assert_eq!(all_moves(&p), Vec::<String>::new());
    // A red soldier on e5 closes the e-file: e9 becomes a flight.
    let p = pos("3k5/9/9/9/3RP4/9/9/9/9/4K4 b - - 0 1");
    assert_eq!(all_moves(&p), ["d9e9"]);
}

#[test]
fn general_may_not_capture_a_protected_piece() {
    // The chariot e8 is protected by the soldier e7; d9 faces the red general.
    let p = pos("4k4/4R4/4P4/9/9/9/9/9/9/3K5 b - - 0 1");
    assert_eq!(all_moves(&p), ["e9f9"]);
}

#[test]
fn double_check_forces_a_general_move() {
    // Chariot e5 and horse g8 both check e9; the black chariot could block only one of them.
    // e8 stays on the chariot's file and f9 would face the red general on f0.
    let p = pos("4k4/6N2/r8/9/4R4/9/9/9/9/5K3 b - - 0 1");
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(all_moves(&p), ["e9d9"]);
}

#[test]
fn cannon_check_is_answered_by_adding_a_second_screen() {
    // Red cannon e2 checks e9 over the red soldier e5. The chariot a4 may interpose on e4; the
    // chariot a5 may not take the screen (it would become the screen itself).
    let p = pos("4k4/9/9/9/r3P4/r8/9/4C4/9/3K5 b - - 0 1");
    assert!(p.in_check());
    assert_eq!(all_moves(&p), ["a4e4", "e9f9"]);
}

#[test]
fn cannon_check_is_answered_by_moving_the_screen_away() {
    // The screen is the black horse e5: every horse move leaves the file and ends the check.
    let p = pos("4k4/9/9/9/4n4/9/9/4C4/9/3K5 b - - 0 1");
    assert!(p.in_check());
    let expected = ["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"];
    assert_eq!(moves_from(&p, "e5"), expected);
    assert_eq!(all_moves(&p).len(), expected.len() + 1, "plus e9f9");
}

#[test]
fn horse_check_is_blocked_on_its_leg() {
    // Red horse g8 checks e9 through its leg f8; the chariot f5 may block there.
    let p = pos("4k4/6N2/9/9/5r3/9/9/9/9/3K5 b - - 0 1");
    assert!(p.in_check());
    let to = moves_from(&p, "f5");
    assert_eq!(to, ["f8"], "{to:?}");
}

#[test]
fn pinned_chariot_moves_only_along_the_pin() {
    let p = pos("3k5/9/4r4/9/9/9/4R4/9/9/4K4 w - - 0 1");
    assert_eq!(moves_from(&p, "e3"), ["e1", "e2", "e4", "e5", "e6", "e7"]);
}

#[test]
fn stalemated_side_has_no_legal_moves() {
    // Not in check, but every general move is attacked: in Xiangqi this loses
    // (docs/rules.md#mate-and-stalemate).
    let p = pos("4k4/3P1P3/9/9/9/9/9/9/9/3K5 b - - 0 1");
    assert!(!p.in_check());
    assert!(legal_moves(&p).is_empty());
    assert_eq!(count_legal(&p), 0);
}

#[test]
fn gives_check_agrees_with_making_the_move() {
    // Every legal move of positions along pseudo-random games and of the perft suite.
    let mut positions = Vec::new();
    for seed in 1..=40u64 {
        let mut p = Position::startpos();
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for _ in 0..120 {
            let moves = legal_moves(&p);
            if moves.is_empty() {
                break;
            }
            positions.push(p.clone());
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            p.make_move(moves[(x % moves.len() as u64) as usize]);
        }
    }
    let suite = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/xiangqi.epd"));
    for line in suite.iter().flat_map(|s| s.lines()) {
        if let Some(p) = line
            .split(';')
            .next()
            .and_then(|f| Position::from_fen(f.trim()).ok())
        {
            positions.push(p);
        }
    }
    assert!(positions.len() > 3000, "{}", positions.len());
    let mut checks = 0;
    for p in &positions {
        for mv in legal_moves(p) {
            let mut q = p.clone();
            q.make_move(mv);
            assert_eq!(p.gives_check(mv), q.in_check(), "{} {mv}", p.fen());
            checks += q.in_check() as usize;
        }
    }
    assert!(checks > 500, "{checks}");
}

#[test]
fn gives_check_sees_new_screens_and_discovered_checks() {
    let mv = |s: &str| s.parse::<crate::types::Move>().unwrap();
    // Red cannon e2 aims at e9 over an empty file: the horse c4 jumping to e5 becomes its
    // screen (the horse itself does not attack e9 from there).
    let p = pos("4k4/9/9/9/9/2N6/9/4C4/9/3K5 w - - 0 1");
    assert!(p.gives_check(mv("c4e5")), "new screen for the cannon");
    assert!(!p.gives_check(mv("c4b6")));
    // Two screens, soldier e3 and horse e5: a horse move leaves exactly one.
    let p = pos("4k4/9/9/9/4N4/9/4P4/4C4/9/3K5 w - - 0 1");
    assert!(p.gives_check(mv("e5c4")), "discovered cannon check");
    assert!(!p.gives_check(mv("e3e4")), "still two screens");
    // The horse e5 stands between the chariot e3 and the black general: any horse move
    // uncovers the chariot; chariot moves do not check.
    let p = pos("4k4/9/9/9/4N4/9/4R4/9/9/3K5 w - - 0 1");
    assert!(p.gives_check(mv("e5d7")), "discovered chariot check");
    assert!(p.gives_check(mv("e5g4")), "discovered chariot check");
    assert!(!p.gives_check(mv("e3d3")));
    assert!(!p.gives_check(mv("e3e4")));
}
