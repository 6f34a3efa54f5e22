//! Match statistics: Elo difference with its 95% error margin and the likelihood of
//! superiority from win/draw/loss counts, the same figures from game pairs (pentanomial), and
//! the generalized sequential probability ratio test (GSPRT) used to stop a match early.
//!
//! The formulas are the usual ones of engine testing: the Elo difference of a score `s` is
//! `-400·log10(1/s − 1)`; the error margin maps the 95% normal interval of the mean score
//! through that function (cutechess); LOS is `Φ((W−L)/√(W+L))`; the SPRT log-likelihood ratio
//! is the generalized LLR of fishtest for bounds given in logistic Elo, computed over game
//! pairs (pentanomial) or single games (trinomial) with the maximum-likelihood distributions of
//! the two hypotheses.

use std::fmt;
use std::str::FromStr;

/// The 97.5% quantile of the standard normal distribution (two-sided 95% interval).
const Z_95: f64 = 1.959_963_984_540_054;

/// Win/draw/loss counts of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl Wdl {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Elo difference and its 95% error margin (`None` with no games).
    pub fn elo(&self) -> Option<EloEstimate> {
        let outcomes = [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)];
        EloEstimate::from_outcomes(&outcomes, 1.0)
    }

    /// Likelihood of superiority in [0, 1]: `Φ((W−L)/√(W+L))` (0.5 with no decisive game).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
    }

    /// The share of draws in [0, 1].
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => self.draws as f64 / n as f64,
        }
    }
}

/// Counts of game pairs by the pair's total score for the first engine:
/// `[0, ½, 1, 1½, 2]` points (LL, LD, DD or WL, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair worth `half_points` half-points (0 … 4) to the first engine.
    pub fn add(&mut self, half_points: usize) {
        if let Some(n) = self.0.get_mut(half_points) {
            *n += 1;
        }
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Elo difference and its 95% error margin from the pair scores (`None` with no pairs).
    pub fn elo(&self) -> Option<EloEstimate> {
        let outcomes: Vec<(f64, u64)> = self
            .0
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as f64 / 4.0, n))
            .collect();
        EloEstimate::from_outcomes(&outcomes, 1.0)
    }
}

/// An Elo difference with the half-width of its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Elo difference (positive: the first engine is stronger). Infinite at a 0% or 100% score.
    pub elo: f64,
    /// Half-width of the 95% interval (`NaN` when the interval reaches 0% or 100%).
    pub margin: f64,
}

impl EloEstimate {
    /// From `(score, count)` outcomes with scores in [0, 1] (per game or per pair scaled to
    /// [0, 1]). `scale` multiplies the resulting Elo (1 for logistic Elo).
    fn from_outcomes(outcomes: &[(f64, u64)], scale: f64) -> Option<EloEstimate> {
        let n: u64 = outcomes.iter().map(|&(_, c)| c).sum();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mean: f64 = outcomes.iter().map(|&(s, c)| s * c as f64).sum::<f64>() / n;
        let variance: f64 = outcomes
            .iter()
            .map(|&(s, c)| c as f64 * (s - mean).powi(2))
            .sum::<f64>()
            / n;
        let stdev = (variance / n).sqrt();
        let (low, high) = (mean - Z_95 * stdev, mean + Z_95 * stdev);
        let margin = if low <= 0.0 || high >= 1.0 {
            f64::NAN
        } else {
            (elo_from_score(high) - elo_from_score(low)) / 2.0
        };
        Some(EloEstimate {
            elo: scale * elo_from_score(mean),
            margin: scale * margin,
        })
    }
}

impl fmt::Display for EloEstimate {
    /// `+70.4 +/- 12.3` (`inf` and `nan` spelt out when the score is 0% or 100%).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Adding 0.0 turns −0.0 into 0.0.
        write!(f, "{:+.1} +/- {:.1}", self.elo + 0.0, self.margin + 0.0)
    }
}

/// The logistic Elo difference that gives an expected score of `score` (in (0, 1)).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to about 1e-12 (series for small arguments, continued fraction of
/// the complement for large ones).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: erf x = 2/√π · Σ (−1)^n x^(2n+1) / (n! (2n+1)).
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        for n in 1..200 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc x = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …))))).
        let mut tail = 0.0;
        for k in (1..60).rev() {
            tail = (k as f64 / 2.0) / (x + tail);
        }
        let erfc = (-x * x).exp() / std::f64::consts::PI.sqrt() / (x + tail);
        1.0 - erfc
    }
}

/// Parameters of a sequential probability ratio test, bounds in logistic Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    /// Elo difference of the null hypothesis H0.
    pub elo0: f64,
    /// Elo difference of the alternative H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Default for SprtConfig {
    fn default() -> Self {
        SprtConfig {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl SprtConfig {
    /// The LLR below which H0 is accepted: `ln(β/(1−α))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR above which H1 is accepted: `ln((1−β)/α)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// The generalized log-likelihood ratio of H1 against H0 for outcome counts ordered from
    /// worst to best for the first engine: 3 counts (losses, draws, wins) or 5 (pairs worth
    /// 0, ½, 1, 1½, 2 points). Zero counts get a tiny weight, as fishtest does.
    pub fn llr(&self, counts: &[u64]) -> f64 {
        llr_logistic(self.elo0, self.elo1, counts)
    }
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// The null hypothesis (Elo = elo0) is accepted.
    AcceptH0,
    /// The alternative (Elo = elo1) is accepted.
    AcceptH1,
}

/// A malformed `--sprt` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSprtError(pub String);

impl fmt::Display for ParseSprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad SPRT parameters: {}", self.0)
    }
}

impl std::error::Error for ParseSprtError {}

impl FromStr for SprtConfig {
    type Err = ParseSprtError;

    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any subset, any order; separated by spaces or
    /// commas). Missing keys keep their defaults.
    fn from_str(s: &str) -> Result<SprtConfig, ParseSprtError> {
        let mut config = SprtConfig::default();
        for item in s.split([' ', ',']).filter(|t| !t.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| ParseSprtError(format!("'{item}' is not key=value")))?;
            let value: f64 = value
                .parse()
                .map_err(|_| ParseSprtError(format!("'{value}' is not a number")))?;
            if !value.is_finite() {
                return Err(ParseSprtError(format!("{key} must be finite")));
            }
            match key {
                "elo0" => config.elo0 = value,
                "elo1" => config.elo1 = value,
                "alpha" => config.alpha = value,
                "beta" => config.beta = value,
                _ => return Err(ParseSprtError(format!("unknown key '{key}'"))),
            }
        }
        if !(config.alpha > 0.0 && config.alpha < 1.0 && config.beta > 0.0 && config.beta < 1.0) {
            return Err(ParseSprtError(
                "alpha and beta must lie strictly between 0 and 1".into(),
            ));
        }
        if config.alpha + config.beta >= 1.0 {
            return Err(ParseSprtError("alpha + beta must be below 1".into()));
        }
        if config.elo0 >= config.elo1 {
            return Err(ParseSprtError("elo0 must be below elo1".into()));
        }
        Ok(config)
    }
}

/// Generalized LLR for logistic-Elo bounds over outcome counts (3 or 5 classes, see
/// [`SprtConfig::llr`]). Returns 0 with no results.
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[u64]) -> f64 {
    if counts.len() < 2 || counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let regularized: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = regularized.iter().sum();
    let last = (counts.len() - 1) as f64;
    // The empirical distribution: (score in [0, 1], probability).
    let pdf: Vec<(f64, f64)> = regularized
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / last, c / n))
        .collect();
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    let (Some(p0), Some(p1)) = (mle_with_mean(&pdf, s0), mle_with_mean(&pdf, s1)) else {
        return 0.0;
    };
    let per_sample: f64 = pdf
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&(_, p), (&q0, &q1))| p * (q1 / q0).ln())
        .sum();
    n * per_sample
}

/// The distribution closest in likelihood to `pdf` (same support) whose mean is `s`:
/// `p_i / (1 + x (a_i − s))` where `x` solves `Σ p_i (a_i − s) / (1 + x (a_i − s)) = 0`.
/// `None` if `s` is not strictly inside the support.
fn mle_with_mean(pdf: &[(f64, f64)], s: f64) -> Option<Vec<f64>> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let low = shifted
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::INFINITY, f64::min);
    let high = shifted
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    if !(low < 0.0 && high > 0.0) {
        return None;
    }
    // f is decreasing on (−1/high, −1/low), from +∞ to −∞: bisect.
    let f = |x: f64| {
        shifted
            .iter()
            .map(|&(a, p)| p * a / (1.0 + x * a))
            .sum::<f64>()
    };
    let eps = 1e-12;
    let (mut lo, mut hi) = (-1.0 / high + eps, -1.0 / low - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    Some(shifted.iter().map(|&(a, p)| p / (1.0 + x * a)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_percent_is_seventy_elo() {
        assert!((elo_from_score(0.6) - 70.437).abs() < 0.001);
        let wdl = Wdl {
            wins: 60,
            draws: 0,
            losses: 40,
        };
        assert!((wdl.elo().unwrap().elo - 70.437).abs() < 0.001);
    }

    #[test]
    fn erf_matches_tables() {
        assert!((erf(0.5) - 0.520_499_877_813_046_5).abs() < 1e-12);
        assert!((erf(1.0) - 0.842_700_792_949_714_9).abs() < 1e-12);
        assert!((erf(3.0) - 0.999_977_909_503_001_4).abs() < 1e-12);
        assert_eq!(erf(0.0), 0.0);
    }
}
