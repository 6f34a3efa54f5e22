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
