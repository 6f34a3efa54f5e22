//! Material imbalance: what a piece is worth beside the others on the board, as a quadratic
//! form over the piece counts (the idea of Kaufman's "The Evaluation of Material Imbalances"
//! and of the Stockfish family's imbalance tables). In Xiangqi the classic cases are the horse
//! gaining on the cannon as the board empties (the cannon needs screens), chariots and
//! attackers against the advisors and elephants that stand in their way, and soldiers that
//! count for more once the big pieces are off.
//!
//! Each term is the product of two counts, so the tuner fits it like any other. The
//! evaluation takes the weighted sum directly from the twelve piece counts with the weights
//! laid out as two 6 × 6 matrices ([`score`]: a few dozen multiply-adds by constants, small
//! beside the attack terms), so no material-key cache is needed.

use super::{weight, TermSink};
use crate::position::Position;
use crate::types::Color;
use crate::weights::{MgEg, Weights, IMBALANCE_KINDS};

/// The counts of the kinds of [`IMBALANCE_KINDS`] of one side.
#[inline(always)]
fn counts(pos: &Position, color: Color) -> [i32; 6] {
    IMBALANCE_KINDS.map(|k| pos.pieces_of(color, k).count() as i32)
}

/// Gives `sink` the imbalance counts (Red's minus Black's).
#[inline(always)]
pub(super) fn terms(pos: &Position, sink: &mut impl TermSink) {
    let (r, b) = (counts(pos, Color::Red), counts(pos, Color::Black));
    for i in 0..6 {
        for j in i..6 {
            sink.add(Weights::imbalance_own(i, j), r[i] * r[j] - b[i] * b[j]);
            if j > i {
                sink.add(Weights::imbalance_theirs(i, j), r[i] * b[j] - b[i] * r[j]);
            }
        }
    }
}

/// The compiled-in weights of the own × own terms: `OWN[i][j]` for `i <= j`, zero below the
/// diagonal.
const OWN: [[MgEg; 6]; 6] = {
    let mut out = [[MgEg::ZERO; 6]; 6];
    let mut i = 0;
    while i < 6 {
        let mut j = i;
        while j < 6 {
            out[i][j] = weight(Weights::imbalance_own(i, j));
            j += 1;
        }
        i += 1;
    }
    out
};

/// The compiled-in weights of the own × enemy terms as one matrix over (own kind, enemy
/// kind): the term of `i < j` counts `+own[i]·enemy[j]` and `−enemy[i]·own[j]`, so
/// `CROSS[i][j]` is its weight and `CROSS[j][i]` the weight negated; the diagonal is zero.
const CROSS: [[MgEg; 6]; 6] = {
    let mut out = [[MgEg::ZERO; 6]; 6];
    let mut i = 0;
    while i < 6 {
        let mut j = i + 1;
        while j < 6 {
            let w = weight(Weights::imbalance_theirs(i, j));
            out[i][j] = w;
            out[j][i] = MgEg::new(-w.mg(), -w.eg());
            j += 1;
        }
        i += 1;
    }
    out
};

/// The weighted sum of all imbalance terms with the compiled-in weights (Red's view): what
/// [`terms`] gives a summing sink, with every index a constant.
#[inline(always)]
pub(super) fn score(pos: &Position) -> MgEg {
    let (r, b) = (counts(pos, Color::Red), counts(pos, Color::Black));
    let mut sum = MgEg::ZERO;
    for i in 0..6 {
        let mut red_row = MgEg::ZERO;
        let mut black_row = MgEg::ZERO;
        for j in i..6 {
            red_row += OWN[i][j] * r[j];
            black_row += OWN[i][j] * b[j];
        }
        for j in 0..6 {
            red_row += CROSS[i][j] * b[j];
        }
        sum += red_row * r[i] - black_row * b[i];
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::{imbalance_pairs, TERM_COUNT};

    /// Sums the weighted counts [`terms`] gives, as the evaluation did term by term.
    struct Sum(MgEg);

    impl TermSink for Sum {
        fn add(&mut self, term: usize, count: i32) {
            self.0 += weight(term) * count;
        }
    }

    #[test]
    fn the_matrix_score_equals_the_sum_of_the_terms() {
        // Random subsets of the start position's pieces (generals kept): many materials of
        // both sides, each scored both ways.
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for _ in 0..2000 {
            let board: String = start
                .chars()
                .map(|c| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let keep = c == 'k' || c == 'K' || !c.is_ascii_alphabetic() || seed >> 62 != 0;
                    if keep {
                        c
                    } else {
                        '1'
                    }
                })
                .collect();
            let Ok(pos) = Position::from_fen(&format!("{board} w - - 0 1")) else {
                continue;
            };
            let mut sum = Sum(MgEg::ZERO);
            terms(&pos, &mut sum);
            assert_eq!(score(&pos), sum.0, "{board}");
            checked += 1;
        }
        assert!(checked > 1000, "{checked} positions");
    }

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
