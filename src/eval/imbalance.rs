//! Material imbalance: what a piece is worth beside the others on the board, as a quadratic
//! form over the piece counts (the idea of Kaufman's "The Evaluation of Material Imbalances"
//! and of the Stockfish family's imbalance tables). In Xiangqi the classic cases are the horse
//! gaining on the cannon as the board empties (the cannon needs screens), chariots and
//! attackers against the advisors and elephants that stand in their way, and soldiers that
//! count for more once the big pieces are off.
//!
//! Each term is the product of two counts, so the tuner fits it like any other. Computed
//! directly from the twelve piece counts (a few dozen multiply-adds per call, small beside the
//! attack terms), so no material-key cache is needed.

use super::TermSink;
use crate::position::Position;
use crate::types::Color;
use crate::weights::{Weights, IMBALANCE_KINDS};

/// Gives `sink` the imbalance counts (Red's minus Black's).
#[inline(always)]
pub(super) fn terms(pos: &Position, sink: &mut impl TermSink) {
    let count = |color: Color| IMBALANCE_KINDS.map(|k| pos.pieces_of(color, k).count() as i32);
    let (r, b) = (count(Color::Red), count(Color::Black));
    for i in 0..6 {
        for j in i..6 {
            sink.add(Weights::imbalance_own(i, j), r[i] * r[j] - b[i] * b[j]);
            if j > i {
                sink.add(Weights::imbalance_theirs(i, j), r[i] * b[j] - b[i] * r[j]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::{imbalance_pairs, TERM_COUNT};

    #[test]
    fn imbalance_indices_cover_their_ranges_once() {
        let mut seen = vec![false; TERM_COUNT];
        for own in [true, false] {
            for (i, j) in imbalance_pairs(own) {
                let t = if own {
                    Weights::imbalance_own(i, j)
                } else {
                    Weights::imbalance_theirs(i, j)
                };
                assert!(!seen[t], "{t} twice");
                seen[t] = true;
            }
        }
        let used: Vec<usize> = (0..TERM_COUNT).filter(|&t| seen[t]).collect();
        assert_eq!(used.first(), Some(&Weights::IMBALANCE_OWN));
        assert_eq!(used.last(), Some(&(Weights::ROOK_OPEN_FILE - 1)));
        assert_eq!(used.len(), Weights::ROOK_OPEN_FILE - Weights::IMBALANCE_OWN);
        assert_eq!(
            Weights::name(Weights::imbalance_theirs(1, 2)),
            "imbalance Nx enemy C"
        );
        assert_eq!(Weights::name(Weights::imbalance_own(0, 0)), "imbalance RxR");
    }
}
