//! Static exchange evaluation: the material balance of the capture sequence on one point,
//! each side always recapturing with its least valuable attacker. Attackers are recomputed
//! from the shrinking occupancy after every capture, so cannon screens appear and vanish
//! correctly (a capturer leaving a line can turn a cannon on or off) and lame legs open.

use crate::position::Position;
use crate::types::{Move, PieceKind};

/// Exchange values by kind (chariot, horse, elephant, advisor, general, cannon, soldier).
pub const SEE_VALUE: [i32; 7] = [600, 280, 120, 120, 5000, 300, 80];

/// Whether the exchange started by `mv` gains at least `threshold` for the mover.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let Some(moving) = pos.piece_at(from) else {
        return false;
    };
    // `swap` is what the side to capture next must win back for the result to flip.
    let mut swap = pos.piece_at(to).map_or(0, |p| SEE_VALUE[p.kind().index()]) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[moving.kind().index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ from.into();
    let mut side = moving.color();
    let mut res = true;
    loop {
        side = !side;
        let attackers = pos.attackers_to(to, side, occ) & occ;
        if attackers.is_empty() {
            break;
        }
        res = !res;
        let (sq, kind) = LEAST_VALUABLE_FIRST
            .iter()
            .find_map(|&k| (attackers & pos.kind(k)).lsb().map(|sq| (sq, k)))
            .expect("attackers not empty");
        if kind == PieceKind::King {
            // A general may only capture if nothing defends the point any more.
            let defended = (pos.attackers_to(to, !side, occ) & occ).any();
            return if defended { !res } else { res };
        }
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < res as i32 {
            break;
        }
        occ.clear(sq);
    }
    res
}

const LEAST_VALUABLE_FIRST: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        see_ge(&pos, mv.parse().unwrap(), threshold)
    }

    #[test]
    fn free_capture_wins_the_piece() {
        // Red chariot takes an undefended black horse.
        let fen = "4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1";
        assert!(see(fen, "e1e5", 280));
        assert!(!see(fen, "e1e5", 281));
    }

    #[test]
    fn chariot_for_defended_soldier_loses() {
        // The soldier on e6 is defended by the chariot on e8.
        let fen = "4k4/4r4/9/4p4/9/9/9/9/4R4/3K5 w - - 0 1";
        assert!(!see(fen, "e1e6", 0));
    }

    #[test]
    fn cannon_behind_the_capturer_gets_a_screen() {
        // Red horse f3 takes the black chariot on e5; the only defender is the cannon e9,
        // screened by the elephant on e7.
        let fen = "3kc4/9/4b4/9/4r4/9/5N3/9/9/5K3 w - - 0 1";
        // Horse f3 takes e5 (gains 600), cannon e9 recaptures over the screen on e7 (-280).
        assert!(see(fen, "f3e5", 320));
        assert!(!see(fen, "f3e5", 321));
    }
}
