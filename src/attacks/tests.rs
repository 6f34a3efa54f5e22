//! Every table entry against the slow reference, and the piece rules in readable cases.

use super::*;

#[test]
fn slider_tables_are_exact_for_every_subset() {
    let t = tables();
    for sq in Square::all() {
        let mask = reference::slider_mask(sq);
        for occ in mask.subsets() {
            let [rook, cannon] = reference::slider_entry(sq, occ);
            assert_eq!(t.rook(sq, occ), rook, "rook {sq} {occ:?}");
            assert_eq!(t.cannon(sq, occ), cannon, "cannon {sq} {occ:?}");
            // The edges, the piece's own point and the rest of the board never matter.
            let full = occ | !mask;
            assert_eq!(t.rook_and_cannon(sq, full), (rook, cannon), "{sq} {full:?}");
        }
    }
}

/// Checks a lame-leaper table against the reference for every subset of its mask, and that
/// points outside the mask never matter.
fn check_lame_leaper(
    name: &str,
    mask: fn(Square) -> Bitboard,
    table: impl Fn(Square, Bitboard) -> Bitboard,
    slow: fn(Square, Bitboard) -> Bitboard,
) {
    for sq in Square::all() {
        let mask = mask(sq);
        assert!(mask.count() <= 4, "{name} {sq}: mask {mask:?}");
        for occ in mask.subsets() {
            assert_eq!(table(sq, occ), slow(sq, occ), "{name} {sq} {occ:?}");
            let noisy = occ | (!mask - Bitboard::from(sq));
            assert_eq!(
                table(sq, noisy),
                slow(sq, occ),
                "{name} {sq}: outside the mask {noisy:?}"
            );
        }
    }
}

#[test]
fn horse_table_is_exact_for_every_leg_subset() {
    let t = tables();
    check_lame_leaper(
        "horse",
        reference::horse_mask,
        |s, o| t.horse(s, o),
        reference::horse,
    );
}

#[test]
fn horse_attackers_table_is_exact_for_every_leg_subset() {
    let t = tables();
    check_lame_leaper(
        "horse attackers",
        reference::horse_attackers_mask,
        |s, o| t.horse_attackers(s, o),
        reference::horse_attackers,
    );
}

#[test]
fn elephant_table_is_exact_for_every_eye_subset() {
    let t = tables();
    check_lame_leaper(
        "elephant",
        reference::elephant_mask,
        |s, o| t.elephant(s, o),
        reference::elephant,
    );
}

#[test]
fn horse_attackers_are_the_inverse_of_horse_moves() {
    let t = tables();
    let occ = crate::bitboard! {
        . X . . X . . . X
        . . X . . . X . .
        X . . X . X . . .
        . . . . X . . X .
        . X . . . . . . .
        . . X . . . X . .
        X . . . . X . . X
        . . . X . . . . .
        . X . . X . . X .
        . . . . . . X . .
    };
    for target in Square::all() {
        let attackers: Bitboard = Square::all()
            .filter(|&s| t.horse(s, occ).has(target))
            .collect();
        assert_eq!(t.horse_attackers(target, occ), attackers, "{target}");
    }
}

#[test]
fn leaper_tables_match_the_reference() {
    let t = tables();
    for sq in Square::all() {
        assert_eq!(t.king(sq), reference::king(sq), "king {sq}");
        assert_eq!(t.advisor(sq), reference::advisor(sq), "advisor {sq}");
        for color in Color::ALL {
            assert_eq!(
                t.pawn(color, sq),
                reference::pawn(color, sq),
                "{color} pawn {sq}"
            );
            let attackers: Bitboard = Square::all()
                .filter(|&s| reference::pawn(color, s).has(sq))
                .collect();
            assert_eq!(
                t.pawn_attackers(color, sq),
                attackers,
                "{color} pawn attackers {sq}"
            );
        }
    }
}

#[test]
fn between_and_line_tables_match_the_rays() {
    let t = tables();
    for a in Square::all() {
        for b in Square::all() {
            let (df, dr) = (
                b.file().index() as i32 - a.file().index() as i32,
                b.rank().index() as i32 - a.rank().index() as i32,
            );
            if a != b && (df == 0 || dr == 0) {
                // Between: the rays from both ends, meeting in the middle.
                let expected =
                    reference::rook(a, Bitboard::from(b)) & reference::rook(b, Bitboard::from(a));
                assert_eq!(t.between(a, b), expected, "between {a} {b}");
                let line = if df == 0 {
                    Bitboard::file_mask(a.file().index())
                } else {
                    Bitboard::rank_mask(a.rank().index())
                };
                assert_eq!(t.line(a, b), line, "line {a} {b}");
            } else if reference::horse(b, Bitboard::EMPTY).has(a) {
                // A horse on b attacking a: between is its leg, the one point whose occupancy
                // stops the jump.
                let legs: Bitboard = reference::horse_mask(b)
                    .iter()
                    .filter(|&leg| !reference::horse(b, Bitboard::from(leg)).has(a))
                    .collect();
                assert_eq!(legs.count(), 1);
                assert_eq!(t.between(a, b), legs, "horse leg {b} -> {a}");
                assert!(t.line(a, b).is_empty());
            } else {
                assert!(t.between(a, b).is_empty(), "between {a} {b}");
                assert!(t.line(a, b).is_empty(), "line {a} {b}");
            }
        }
    }
}

#[test]
fn leaper_tables_follow_the_piece_rules() {
    let t = tables();
    let sq = |s: &str| s.parse::<Square>().unwrap();
    // General: orthogonal steps inside the palace.
    assert_eq!(t.king(sq("e1")).count(), 4);
    assert_eq!(
        t.king(sq("d0")),
        Bitboard::from(sq("e0")) | Bitboard::from(sq("d1"))
    );
    assert!(
        t.king(sq("e4")).is_empty(),
        "no general moves outside a palace"
    );
    // Advisor: diagonal steps inside the palace.
    assert_eq!(t.advisor(sq("e8")).count(), 4);
    assert_eq!(t.advisor(sq("f9")), Bitboard::from(sq("e8")));
    // Soldier: forward only before the river, forward and sideways after, never back.
    assert_eq!(t.pawn(Color::Red, sq("c3")), Bitboard::from(sq("c4")));
    assert_eq!(
        t.pawn(Color::Red, sq("a5")),
        Bitboard::from(sq("a6")) | Bitboard::from(sq("b5"))
    );
    assert_eq!(
        t.pawn(Color::Red, sq("e9")),
        Bitboard::from(sq("d9")) | Bitboard::from(sq("f9"))
    );
    assert_eq!(t.pawn(Color::Black, sq("e4")).count(), 3);
    assert_eq!(t.pawn(Color::Black, sq("g6")), Bitboard::from(sq("g5")));
    // Elephant: never across the river.
    assert_eq!(
        t.elephant(sq("c4"), Bitboard::EMPTY),
        Bitboard::from(sq("a2")) | Bitboard::from(sq("e2"))
    );
    assert_eq!(
        t.elephant(sq("g5"), Bitboard::EMPTY),
        Bitboard::from(sq("e7")) | Bitboard::from(sq("i7"))
    );
}

#[test]
fn soldier_set_attacks_are_the_union_of_the_table() {
    let t = tables();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for color in Color::ALL {
        for sq in Square::all() {
            let single = t.pawns_attacks(color, Bitboard::from(sq));
            assert_eq!(single, t.pawn(color, sq), "{color:?} {sq}");
        }
        for _ in 0..1000 {
            let mut set = Bitboard::EMPTY;
            for _ in 0..5 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                set.set(Square::from_index((seed >> 33) as usize % 90));
            }
            let union = set
                .iter()
                .fold(Bitboard::EMPTY, |a, s| a | t.pawn(color, s));
            assert_eq!(t.pawns_attacks(color, set), union);
        }
    }
}

#[test]
fn cross_and_horse_reach_are_the_empty_board_attacks() {
    let t = tables();
    for sq in Square::all() {
        assert_eq!(t.cross(sq), t.rook(sq, Bitboard::EMPTY), "{sq}");
        assert_eq!(
            t.horse_reach(sq),
            t.horse_attackers(sq, Bitboard::EMPTY),
            "{sq}"
        );
        assert_eq!(t.cross(sq).count(), 17, "{sq}");
    }
}
