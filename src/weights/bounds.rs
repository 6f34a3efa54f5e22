//! The range check of a weight vector against the packed evaluation: whether any position's
//! material + piece-square sum plus its dynamic terms could overflow a half of
//! [`MgEg`](super::MgEg). The tuner refuses weights that fail it; `eval`'s tests hold the
//! compiled-in weights to it.

use super::{Weights, TERM_COUNT};
use crate::types::PieceKind;

/// Number of terms computed at evaluation time (from `MOBILITY_ROOK` on).
const DYNAMIC_COUNT: usize = TERM_COUNT - Weights::MOBILITY_ROOK;

/// Pieces of each kind one side starts with (R N B A K C P).
pub(crate) const PIECE_COUNT: [i64; 7] = [2, 2, 2, 2, 1, 2, 5];

/// The largest count of each dynamic term (from `MOBILITY_ROOK` on) that one side's position
/// can give (Red's count minus Black's is at most one side's).
pub(crate) const MAX_DYNAMIC_COUNT: [i64; DYNAMIC_COUNT] = [
    34, 16, 34, 2, 6, 2, 1, 18, 18, 18, 16, 16, 2, 2, 2, 2, 4, 2, 2, 2, 5, 4, 1, 1, 1,
];

/// Checks that no evaluation with weights `terms` can overflow a half of the packed
/// midgame/endgame integer ([`MgEg`](super::MgEg)): each side's pieces on their best distinct
/// points (Red's sum minus Black's is at most twice that), plus every dynamic term at its
/// largest count, must stay within `i16` in both halves. The compiled-in weights pass (a test);
/// `chariot tune` refuses to write weights that do not. The error names the half and its sum.
pub fn check_packed_bounds(terms: &[(i32, i32); TERM_COUNT]) -> Result<(), String> {
    for (name, half) in [
        ("midgame", (|t: (i32, i32)| t.0) as fn((i32, i32)) -> i32),
        ("endgame", |t: (i32, i32)| t.1),
    ] {
        let mut side = 0i64;
        for kind in PieceKind::ALL {
            let material = i64::from(half(terms[Weights::material(kind)]));
            let mut values: Vec<i64> = (0..90)
                .map(|sq| (material + i64::from(half(terms[Weights::psqt(kind, sq)]))).abs())
                .collect();
            values.sort_unstable_by(|a, b| b.cmp(a));
            side += values[..PIECE_COUNT[kind.index()] as usize]
                .iter()
                .sum::<i64>();
        }
        let dynamic: i64 = (0..DYNAMIC_COUNT)
            .map(|i| {
                i64::from(half(terms[Weights::MOBILITY_ROOK + i])).abs() * MAX_DYNAMIC_COUNT[i]
            })
            .sum();
        let largest = 2 * side + dynamic;
        if largest > i64::from(i16::MAX) {
            return Err(format!(
                "the {name} evaluation could reach {largest}, beyond the packed limit {} \
                 (pieces {}, other terms {dynamic})",
                i16::MAX,
                2 * side
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::tuned;

    #[test]
    fn weights_that_could_overflow_a_half_are_refused() {
        let mut terms = tuned::TERMS;
        terms[Weights::material(PieceKind::Rook)].1 = 9000;
        let err = check_packed_bounds(&terms).unwrap_err();
        assert!(
            err.starts_with("the endgame evaluation could reach"),
            "{err}"
        );
        let mut terms = tuned::TERMS;
        terms[Weights::MOBILITY_ROOK].0 = i32::MAX;
        assert!(check_packed_bounds(&terms)
            .unwrap_err()
            .starts_with("the midgame"));
        let mut terms = tuned::TERMS;
        terms[Weights::TEMPO] = (-32000, 0);
        assert!(check_packed_bounds(&terms).is_err());
    }
}
