//! Hand-set starting weights: the ideas of Xiangqi strategy in numbers. The tuner replaces
//! them with fitted values; this file stays as the reference the tuned weights are matched
//! against. Squares are seen from Red: relative rank 0 is the own back rank, files a–i.

use super::{Weights, TERM_COUNT};
use crate::types::PieceKind;

/// (midgame, endgame) material. A chariot is worth about two horses; a cannon is stronger
/// than a horse while the board is full (screens abound) and weaker in the endgame, the horse
/// the other way round; a soldier is worth little before the river (see the PST).
const MATERIAL: [(i32, i32); 7] = [
    (600, 650), // chariot
    (270, 300), // horse
    (120, 110), // elephant
    (120, 110), // advisor
    (0, 0),     // general
    (290, 260), // cannon
    (30, 40),   // soldier
];

/// Piece-square bonus of `kind` on relative rank `r` (0–9) and file `f` (0–8).
fn psqt(kind: PieceKind, f: i32, r: i32) -> (i32, i32) {
    let fd = (f - 4).abs(); // distance from the central file
    match kind {
        // Chariots like the ribs (d/f files) and the enemy's second and third ranks, where
        // they pin advisors and elephants; an idle chariot on its own back rank is weak.
        PieceKind::Rook => {
            let mut mg = 0;
            if fd == 1 {
                mg += 8;
            }
            if r == 7 || r == 8 {
                mg += 15;
            }
            if r == 0 {
                mg -= 8;
            }
            (mg, if fd <= 1 { 5 } else { 0 })
        }
        // Horses belong in the centre and forward; on the edge or the back rank they are
        // lame. A horse on the enemy's "palace corner" (ranks 7–8 near the centre) is deadly.
        PieceKind::Horse => {
            let mut mg = 12 - 5 * fd;
            if (3..=8).contains(&r) {
                mg += 4 * (r - 2).min(5);
            }
            if (7..=8).contains(&r) && fd <= 2 {
                mg += 15;
            }
            if r == 0 {
                mg -= 10;
            }
            if r == 9 {
                mg -= 15;
            }
            (mg, 10 - 4 * fd + if r >= 3 { 5 } else { 0 })
        }
        // The central cannon is the classic opening weapon; a cannon on the enemy back rank
        // (bottom cannon) or its palace line also threatens the general.
        PieceKind::Cannon => {
            let mut mg = if f == 4 { 12 } else { 4 - 2 * fd };
            if r == 9 || r == 7 {
                mg += 6;
            }
            (mg, if f == 4 { 3 } else { 0 })
        }
        // Soldiers gain value when they cross the river, most in the centre near the palace;
        // one on the last rank ("old soldier") can only move sideways.
        PieceKind::Pawn => match r {
            0..=4 => (if f == 4 { 5 } else { 0 }, 0),
            5 => (20, 40),
            6..=8 => (35 + 15 * (2 - fd).max(0), 60 + 20 * (2 - fd).max(0)),
            _ => (10, 25),
        },
        // Defenders are most useful at the heart of the palace.
        PieceKind::Advisor => (if f == 4 { 6 } else { 0 }, if f == 4 { 4 } else { 0 }),
        PieceKind::Elephant => match (f, r) {
            (4, 2) => (8, 5),
            (0 | 8, _) => (-4, -2),
            (_, 4) => (-2, 0),
            _ => (0, 0),
        },
        // The general stays at home in the middlegame; leaving the back rank exposes it.
        PieceKind::King => ((-12 * r) - 4 * fd, (-4 * r) - 2 * fd),
    }
}

/// The full baseline weight vector.
pub fn weights() -> Weights {
    let mut w = Weights {
        terms: [(0, 0); TERM_COUNT],
    };
    for kind in PieceKind::ALL {
        w.terms[Weights::material(kind)] = MATERIAL[kind.index()];
        for sq in 0..90 {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            w.terms[Weights::psqt(kind, sq)] = psqt(kind, f, r);
        }
    }
    // Mobility per reachable point: chariots and horses need room; cannons less so.
    w.terms[Weights::MOBILITY_ROOK] = (3, 4);
    w.terms[Weights::MOBILITY_HORSE] = (6, 6);
    w.terms[Weights::MOBILITY_CANNON] = (2, 1);
    // A cannon facing the enemy general over an empty file ("hollow cannon") ties down
    // the defence.
    w.terms[Weights::HOLLOW_CANNON] = (40, 10);
    // Chariots, horses and cannons across the river are attackers.
    w.terms[Weights::ATTACKER_CROSSED] = (10, 5);
    // A general without its advisors is open to attack.
    w.terms[Weights::MISSING_ADVISOR] = (-15, -5);
    w.terms[Weights::TEMPO] = (10, 5);
    // King safety: attacks on the enemy palace, more when several pieces join in and when
    // the defenders are gone; x-ray lines on the general threaten discovered checks.
    w.terms[Weights::PALACE_ROOK] = (10, 5);
    w.terms[Weights::PALACE_HORSE] = (15, 8);
    w.terms[Weights::PALACE_CANNON] = (10, 5);
    w.terms[Weights::PALACE_ATTACKERS_SQ] = (8, 4);
    w.terms[Weights::ATTACK_X_MISSING_DEFENDERS] = (8, 6);
    w.terms[Weights::CANNON_XRAY_KING] = (20, 5);
    w.terms[Weights::ROOK_XRAY_KING] = (20, 10);
    w.terms[Weights::MISSING_ELEPHANT] = (-20, -10);
    // Threats: what is attacked by a cheaper piece or not defended at all is likely lost
    // unless the side to move can save it; safe checks are the start of most attacks.
    w.terms[Weights::THREAT_ON_ROOK] = (30, 20);
    w.terms[Weights::THREAT_ON_MINOR] = (20, 15);
    w.terms[Weights::HANGING_ROOK] = (20, 20);
    w.terms[Weights::HANGING_HORSE] = (15, 15);
    w.terms[Weights::HANGING_CANNON] = (15, 15);
    w.terms[Weights::HANGING_PAWN] = (5, 10);
    w.terms[Weights::HANGING_DEFENDER] = (5, 5);
    w.terms[Weights::SAFE_CHECK_ROOK] = (20, 10);
    w.terms[Weights::SAFE_CHECK_HORSE] = (15, 10);
    w.terms[Weights::SAFE_CHECK_CANNON] = (15, 5);
    // The same threats against the side to move (it must parry them; the quiescence search
    // resolves only its own captures) and the material imbalance start at 0: the piece
    // values and the threat terms above already say what a hand-set start can.
    // Chariots want open files; crossed soldiers side by side defend each other.
    w.terms[Weights::ROOK_OPEN_FILE] = (10, 10);
    w.terms[Weights::PAWN_CONNECTED] = (10, 20);
    // Piece placement: half-open files, trapped horses, the bottom cannon, a horse stuck in
    // its palace's centre facing a central cannon, defenders that guard each other, and
    // attackers all on one wing.
    w.terms[Weights::ROOK_HALF_OPEN_FILE] = (5, 5);
    w.terms[Weights::HORSE_TRAPPED] = (-20, -10);
    w.terms[Weights::BOTTOM_CANNON] = (15, 0);
    w.terms[Weights::PALACE_HORSE_UNDER_CANNON] = (-30, -10);
    w.terms[Weights::ADVISORS_CONNECTED] = (10, 10);
    w.terms[Weights::ELEPHANTS_CONNECTED] = (10, 10);
    w.terms[Weights::WING_CROWDING] = (-5, 0);
    w
}
