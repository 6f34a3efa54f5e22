//! The range check of a weight vector against the packed evaluation: whether any position's
//! material + piece-square sum plus its dynamic terms could overflow a half of
//! [`MgEg`](super::MgEg). The tuner refuses weights that fail it; `eval`'s tests hold the
//! compiled-in weights to it.

use super::{imbalance_pairs, Weights, IMBALANCE_KINDS, TERM_COUNT};
use crate::types::PieceKind;

/// Number of terms computed at evaluation time (from `MOBILITY_ROOK` on).
const DYNAMIC_COUNT: usize = TERM_COUNT - Weights::MOBILITY_ROOK;

/// Pieces of each kind one side starts with (R N B A K C P).
pub(crate) const PIECE_COUNT: [i64; 7] = [2, 2, 2, 2, 1, 2, 5];

/// The largest count of each dynamic term (from `MOBILITY_ROOK` on) that one side's position
/// can give (Red's count minus Black's is at most one side's).
pub(crate) const MAX_DYNAMIC_COUNT: [i64; DYNAMIC_COUNT] = [
    34, 16, 34, 2, 6, 2, 1, 18, 18, 18, 16, 16, 2, 2, 2, 2, 4, 2, 2, 2, 5, 4, 1, 1, 1, 2, 4, 2, 2,
    2, 5, 4, 1, 1, 1, 4, 4, 4, 10, 4, 4, 4, 4, 10, 4, 4, 4, 10, 4, 4, 25, 10, 10, 4, 4, 4, 4, 4,
    10, 4, 4, 4, 10, 4, 4, 10, 4, 4, 10, 10, 4, 2, 5, 2, 2, 2, 1, 1, 1, 6,
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
            .filter(|&i| !is_imbalance(Weights::MOBILITY_ROOK + i))
            .map(|i| {
                i64::from(half(terms[Weights::MOBILITY_ROOK + i])).abs() * MAX_DYNAMIC_COUNT[i]
            })
            .sum::<i64>()
            + max_imbalance(terms, half);
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

/// Whether term `t` is one of the material imbalance terms.
fn is_imbalance(t: usize) -> bool {
    Weights::IMBALANCE.contains(&t)
}

/// The largest size of the imbalance terms' sum (Red's minus Black's) over every pair of
/// piece counts the sides can have: exact, where the sum of each term's largest count would
/// be several times too large (the terms are products of the same counts).
pub(crate) fn max_imbalance(terms: &[(i32, i32); TERM_COUNT], half: fn((i32, i32)) -> i32) -> i64 {
    let start = PIECE_COUNT.map(|n| n as usize);
    let counts: Vec<[i64; 6]> = (0..IMBALANCE_KINDS
        .iter()
        .map(|k| start[k.index()] + 1)
        .product())
        .map(|mut code: usize| {
            IMBALANCE_KINDS.map(|k| {
                let n = start[k.index()] + 1;
                let c = code % n;
                code /= n;
                c as i64
            })
        })
        .collect();
    let w = |t: usize| i64::from(half(terms[t]));
    let own: Vec<i64> = counts
        .iter()
        .map(|c| {
            imbalance_pairs(true)
                .map(|(i, j)| w(Weights::imbalance_own(i, j)) * c[i] * c[j])
                .sum()
        })
        .collect();
    let theirs: Vec<(usize, usize, i64)> = imbalance_pairs(false)
        .map(|(i, j)| (i, j, w(Weights::imbalance_theirs(i, j))))
        .collect();
    let mut largest = 0;
    for (r, own_r) in counts.iter().zip(&own) {
        for (b, own_b) in counts.iter().zip(&own) {
            let cross: i64 = theirs
                .iter()
                .map(|&(i, j, v)| v * (r[i] * b[j] - b[i] * r[j]))
                .sum();
            largest = largest.max((own_r - own_b + cross).abs());
        }
    }
    largest
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
