//! Win/draw/loss probabilities from a score, and the normalised centipawn scale of the
//! protocols' output, both fitted to Chariot's own self-play (see [`fit`] and
//! tuning/README.md).
//!
//! **Model.** For an internal score `v` (centipawns, the side to move's view) in a position of
//! game phase `p` (0–48, [`crate::position::Position::phase`]; `x = p / 48`):
//!
//! ```text
//! P(win)  = σ(( v − a(x)) / b(x))        σ(t) = 1 / (1 + e^−t)
//! P(loss) = σ((−v − a(x)) / b(x))
//! P(draw) = 1 − P(win) − P(loss)
//! a(x) = a₀ + a₁x + a₂x²,  b(x) = b₀ + b₁x + b₂x²
//! ```
//!
//! `a` is the score at which the side to move wins half its games, `b` how fast the win
//! probability rises around it. The coefficients are fitted by maximum likelihood to self-play
//! results (`chariot wdl`, generated into [`params`]). The shape is the one Stockfish uses
//! for its WDL output (there with material and move number); the fit and its data are ours.
//!
//! **Normalised scores.** What the protocols print as centipawns is
//! `v × 100 / NORMALIZE`, where [`params::NORMALIZE`] is the internal score at which
//! self-play wins 50 % of the games, fitted over all phases together (Stockfish's
//! `NormalizeToPawnValue` idea): "+100" means "wins half the time". The search, the
//! transposition table and the draw and resign policies keep the internal scale; only output
//! converts.

pub mod fit;
pub mod params;

use crate::search::report::Score;

/// Largest game phase (the start position).
pub const MAX_PHASE: i32 = crate::weights::MAX_PHASE;

/// The logistic function.
pub fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

/// A fitted model: the coefficients of `a(x)` and `b(x)`, lowest power first.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Coefficients of `a`.
    pub a: Vec<f64>,
    /// Coefficients of `b`.
    pub b: Vec<f64>,
}

/// The polynomial with `coefs` (lowest power first) at `x`.
fn poly(coefs: &[f64], x: f64) -> f64 {
    coefs.iter().rev().fold(0.0, |acc, c| acc * x + c)
}

/// `phase` as `x` in 0–1.
pub fn phase_x(phase: i32) -> f64 {
    f64::from(phase.clamp(0, MAX_PHASE)) / f64::from(MAX_PHASE)
}

impl Model {
    /// The model compiled in ([`params`]).
    pub fn current() -> Model {
        Model {
            a: params::A.to_vec(),
            b: params::B.to_vec(),
        }
    }

    /// `a` at `x` (at least 1 centipawn: the model needs `a > 0` for draws to be possible).
    pub fn a_at(&self, x: f64) -> f64 {
        poly(&self.a, x).max(1.0)
    }

    /// `b` at `x` (at least 1 centipawn).
    pub fn b_at(&self, x: f64) -> f64 {
        poly(&self.b, x).max(1.0)
    }

    /// (win, draw, loss) probabilities of internal score `v` at `x`.
    pub fn probabilities(&self, v: f64, x: f64) -> [f64; 3] {
        let (a, b) = (self.a_at(x), self.b_at(x));
        let win = sigmoid((v - a) / b);
        let loss = sigmoid((-v - a) / b);
        [win, (1.0 - win - loss).max(0.0), loss]
    }
}

/// `wdl W D L` of UCI: per mille, summing to 1000, for the side to move with search score
/// `score` (internal scale) in a position of game phase `phase`. A mate found is 1000 0 0 (or
/// 0 0 1000).
pub fn wdl(score: Score, phase: i32) -> [u32; 3] {
    match score {
        Score::Mate(n) if n > 0 => [1000, 0, 0],
        Score::Mate(_) => [0, 0, 1000],
        Score::Cp(cp) => {
            let p = Model::current().probabilities(f64::from(cp), phase_x(phase));
            let mut w = (p[0] * 1000.0).round() as u32;
            let mut l = (p[2] * 1000.0).round() as u32;
            // Rounding can overshoot by one when draws are all but impossible.
            if w + l > 1000 {
                if w >= l {
                    w = 1000 - l;
                } else {
                    l = 1000 - w;
                }
            }
            [w, 1000 - w - l, l]
        }
    }
}

/// An internal centipawn score on the normalised scale (100 = self-play wins half the time).
pub fn normalized_cp(cp: i32) -> i32 {
    (f64::from(cp) * 100.0 / params::NORMALIZE).round() as i32
}

/// A search score as the protocols print it: centipawns normalised, mates unchanged.
pub fn normalize(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(normalized_cp(cp)),
        mate => mate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_sums_to_a_thousand_and_is_monotone_in_the_score() {
        for phase in [0, 7, 20, 33, 48] {
            let mut last = wdl(Score::Cp(-40_000), phase);
            for cp in (-4000..=4000).step_by(7) {
                let now = wdl(Score::Cp(cp), phase);
                assert_eq!(now.iter().sum::<u32>(), 1000, "{cp} at {phase}");
                assert!(now[0] >= last[0], "wins never fall as the score rises");
                assert!(now[2] <= last[2], "losses never rise as the score rises");
                last = now;
            }
            let even = wdl(Score::Cp(0), phase);
            assert_eq!(even[0], even[2], "a level score is symmetric");
            assert!(wdl(Score::Cp(40_000), phase)[0] > 990);
        }
        assert_eq!(wdl(Score::Mate(3), 10), [1000, 0, 0]);
        assert_eq!(wdl(Score::Mate(-2), 10), [0, 0, 1000]);
    }

    #[test]
    fn normalising_keeps_sign_zero_and_mates() {
        assert_eq!(normalized_cp(0), 0);
        assert!(normalized_cp(500) > 0 && normalized_cp(-500) < 0);
        assert_eq!(normalized_cp(-300), -normalized_cp(300));
        assert_eq!(normalize(Score::Mate(4)), Score::Mate(4));
        let fifty = params::NORMALIZE.round() as i32;
        assert!((normalized_cp(fifty) - 100).abs() <= 1);
    }

    #[test]
    fn the_normalising_score_wins_about_half_the_time() {
        // NORMALIZE comes from a phase-free fit; the phase model should agree within reason
        // at a typical middle-game phase.
        let p = Model::current().probabilities(params::NORMALIZE, phase_x(30));
        assert!((0.3..0.7).contains(&p[0]), "{p:?}");
    }
}
