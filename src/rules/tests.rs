//! Unit tests of the chase rules (docs/rules.md#check-chase-and-idle-moves), one small position
//! per exception.
//!
//! Positions are written as piece lists (`"Kd0 Ra1 ke9 nd9"`: upper case Red, the square after
//! the letter) and Red is to move unless stated.

use super::*;
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, Square};

/// The position with `pieces` on an otherwise empty board and `side` (`w`/`b`) to move.
fn board(pieces: &str, side: char) -> Position {
    let mut grid = [['.'; 9]; 10];
    for token in pieces.split_whitespace() {
        let letter = token.chars().next().unwrap();
        let sq: Square = token[1..].parse().unwrap();
        grid[sq.rank().index()][sq.file().index()] = letter;
    }
    let rows: Vec<String> = (0..10)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for c in grid[rank] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    let fen = format!("{} {side} - - 0 1", rows.join("/"));
    Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn squares(list: &str) -> Bitboard {
    list.split_whitespace()
        .map(|s| s.parse::<Square>().unwrap())
        .collect()
}

/// The class of `m` in the position `pieces`, Red to move; checks the move is legal first.
fn class(pieces: &str, m: &str) -> MoveClass {
    let pos = board(pieces, 'w');
    assert!(pos.is_legal(mv(m)), "{m} is not legal in {}", pos.fen());
    classify_move(&pos, mv(m))
}

fn chase(list: &str) -> MoveClass {
    MoveClass::Chase(ChaseSet::new(squares(list)))
}

#[test]
fn general_never_chases() {
    // The red general steps next to an unprotected cannon: idle.
    assert_eq!(class("Ke0 kd9 cf1", "e0e1"), MoveClass::Idle);
    // An advisor doing the same chases it (an advisor attacking a cannon always counts).
    assert_eq!(class("Ke0 Ad0 kd9 cf2", "d0e1"), chase("f2"));
}

#[test]
fn soldier_never_chases() {
    assert_eq!(class("Ke0 kd9 Pc6 nc8", "c6c7"), MoveClass::Idle);
    // The same unprotected horse attacked by a chariot is chased.
    assert_eq!(class("Ke0 kd9 Ra7 nc8", "a7a8"), chase("c8"));
}

#[test]
fn uncrossed_soldier_is_never_a_victim() {
    assert_eq!(class("Ke0 kd9 Rb1 pa6", "b1a1"), MoveClass::Idle);
    assert_eq!(class("Ke0 kd9 Rb1 pa4", "b1a1"), chase("a4"));
}

#[test]
fn chariot_offering_a_trade_does_not_chase() {
    // The black chariot can take straight back: an exchange offer.
    assert_eq!(class("Ke0 kd9 Rb1 ra7", "b1a1"), MoveClass::Idle);
}

#[test]
fn chariot_attacking_a_pinned_chariot_chases() {
    // The e7 chariot is pinned on the file by Re1, so it cannot take back on a7.
    assert_eq!(class("Kd0 Re1 Ra0 ke9 re7", "a0a7"), chase("e7"));
}

#[test]
fn horse_whose_leg_is_blocked_cannot_trade_back() {
    // Nd5 attacks the unprotected e7 horse, which could take back on d5 ...
    assert_eq!(class("Kd0 Nc3 kf9 ne7", "c3d5"), MoveClass::Idle);
    // ... unless its own leg toward d5 (e6) is blocked.
    assert_eq!(class("Kd0 Nc3 kf9 ne7 pe6", "c3d5"), chase("e7"));
}

#[test]
fn pinned_protector_does_not_protect() {
    // The e7 chariot guards c7 along the rank, but leaving the e-file would expose its general.
    assert_eq!(class("Kd0 Re1 Ra0 ke9 re7 nc7", "a0c0"), chase("c7"));
    assert_eq!(class("Kd0 Ra0 ke9 re7 nc7", "a0c0"), MoveClass::Idle);
}

#[test]
fn general_protects_only_if_it_would_not_face_the_other_general() {
    // Taking back on d9 would put the black general opposite the red one on the open d-file.
    assert_eq!(class("Kd0 Ra1 ke9 nd9", "a1d1"), chase("d9"));
    assert_eq!(class("Kf0 Ra1 ke9 nd9", "a1d1"), MoveClass::Idle);
}

#[test]
fn chariot_is_never_protected_against_horse_or_cannon() {
    // The c7 chariot is guarded by the c9 chariot; the horse chases it anyway ...
    assert_eq!(class("Kd0 Nb4 ke9 rc7 rc9", "b4d5"), chase("c7"));
    // ... but not a guarded horse in its place.
    assert_eq!(class("Kd0 Nb4 ke9 nc7 rc9", "b4d5"), MoveClass::Idle);
    // A cannon (screen: the crossed c4 soldier) chases a guarded chariot too.
    assert_eq!(class("Kd0 Ca1 ke9 pc4 rc7 rc9", "a1c1"), chase("c7"));
}

#[test]
fn elephant_chases_a_guarded_horse() {
    assert_eq!(class("Kd0 Bg4 ke9 nc4 rc9", "g4e2"), chase("c4"));
}

#[test]
fn cannon_chase_discovered_by_a_screen_moving_in() {
    // The horse becomes the screen of the a1 cannon, which now attacks the a7 horse.
    assert_eq!(class("Kd0 Ca1 Nb2 ke9 na7", "b2a4"), chase("a7"));
}

#[test]
fn check_is_never_a_chase() {
    // Re1 checks along the e-file and attacks the unprotected h1 horse: a check.
    assert_eq!(class("Kd0 Ra1 ke9 nh1", "a1e1"), MoveClass::Check);
}

#[test]
fn pinned_attacker_does_not_chase() {
    // The d-file chariot is pinned by rd9: its capture on b3 would be illegal.
    assert_eq!(class("Kd0 Rd2 kf9 rd9 nb3", "d2d3"), MoveClass::Idle);
    assert_eq!(class("Kd0 Rd2 kf9 nb3", "d2d3"), chase("b3"));
}

#[test]
fn chase_set_is_judged_for_either_side_to_move() {
    // Black to move, but Red's chase set is what Red could take if it were Red's turn.
    let pos = board("Kd0 Ra1 ke9 na7", 'b');
    assert_eq!(chase_set(&pos, Color::Red), squares("a7"));
    assert_eq!(chase_set(&pos, Color::Black), Bitboard::EMPTY);
}

#[test]
fn classify_is_safe_on_nonsense_moves() {
    let pos = Position::startpos();
    assert_eq!(classify_move(&pos, Move::NULL), MoveClass::Idle);
    assert_eq!(classify_move(&pos, mv("e5e6")), MoveClass::Idle);
    assert_eq!(classify_move(&pos, mv("a9a8")), MoveClass::Idle);
    assert_eq!(classify_move(&pos, mv("a0b0")), MoveClass::Idle);
}

#[test]
fn judge_span_outside_the_history_is_a_draw() {
    let mut pos = Position::startpos();
    assert_eq!(judge_span(&pos, 4), (Verdict::Draw, RepetitionKind::Draw));
    for m in ["b0c2", "b9c7", "c2b0", "c7b9"] {
        pos.make_move(mv(m));
    }
    assert_eq!(judge_span(&pos, 0), (Verdict::Draw, RepetitionKind::Draw));
    assert_eq!(judge_span(&pos, 5), (Verdict::Draw, RepetitionKind::Draw));
    assert_eq!(judge_span(&pos, 4), (Verdict::Draw, RepetitionKind::Draw));
}

#[test]
fn span_across_a_null_move_or_capture_is_a_draw() {
    // Red passes, Black's chariot checks and leaves: a null move ends any repetition.
    let mut pos = board("Kd0 Ra1 ke9 ri8", 'w');
    for m in ["0000", "i8h8", "0000", "h8i8"] {
        if m == "0000" {
            pos.make_null_move();
        } else {
            pos.make_move(mv(m));
        }
    }
    assert_eq!(judge_span(&pos, 4), (Verdict::Draw, RepetitionKind::Draw));
    // A capture inside the span: no repetition either, whatever the moves were.
    let mut pos = board("Kd0 Ra1 Rb1 ke9 ra7", 'w');
    for m in ["b1b7", "a7a1", "b7a7", "a1b1"] {
        pos.make_move(mv(m));
    }
    assert_eq!(judge_span(&pos, 4), (Verdict::Draw, RepetitionKind::Draw));
}
