//! Texel tuning of the evaluation weights (`chariot tune`).
//!
//! Loads `FEN;result;…` lines (result from Red's view: `1-0`, `0-1`, `1/2-1/2`), keeps quiet
//! positions, computes each position's feature vector with the evaluation's own trace
//! ([`crate::eval::trace`]), fits the logistic scale K, then minimises the mean squared error
//! between `sigmoid(K · eval)` and the result with Adam, full batch, gradients summed in
//! parallel with rayon. Left/right mirrored piece-square entries share one value, so the
//! tables stay symmetric; Red/Black symmetry is built into the features. A result is only
//! returned if it is finite, fits the packed evaluation ([`check_packed_bounds`]) and does
//! not raise the loss; the command line writes it in the form of `src/weights/tuned.rs`.

use std::fmt::{self, Write as _};
use std::time::Instant;

use rayon::prelude::*;

use crate::eval::endgame::SCALE_NORMAL;
use crate::eval::{self, trace};
use crate::movegen::captures;
use crate::position::Position;
use crate::search::see::see_ge;
use crate::types::{PieceKind, Square};
use crate::weights::{check_packed_bounds, Weights, MAX_PHASE, TERM_COUNT};

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    features: Vec<(u16, i8)>,
    /// Midgame share, phase / MAX_PHASE.
    mg: f32,
    /// Endgame scale (a fraction) of a score in Red's favour and in Black's.
    scales: [f32; 2],
    /// Game result from Red's view: 1, 0.5 or 0.
    result: f32,
}

/// Why a data line was skipped.
#[derive(Default, Debug, Clone, Copy)]
pub struct LoadStats {
    /// Lines read.
    pub lines: usize,
    /// Positions kept.
    pub kept: usize,
    /// Lines that did not parse.
    pub malformed: usize,
    /// Positions in check or with a winning capture (not quiet).
    pub noisy: usize,
}

/// Whether a position is quiet: not in check and no capture that wins material.
pub fn is_quiet(pos: &Position) -> bool {
    !pos.in_check() && !captures(pos).iter().any(|&m| see_ge(pos, m, 1))
}

fn parse_result(s: &str) -> Option<f32> {
    match s.trim() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The text of `bytes` without its lines that are not valid UTF-8, and how many lines those
/// were (a stray byte costs its line, not the whole file).
pub fn utf8_lines(bytes: Vec<u8>) -> (String, usize) {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return (text, 0),
        Err(e) => e.into_bytes(),
    };
    let mut text = String::with_capacity(bytes.len());
    let mut bad = 0;
    for line in bytes.split(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(line) => {
                text.push_str(line);
                text.push('\n');
            }
            Err(_) => bad += 1,
        }
    }
    (text, bad)
}

/// Parses the data (in parallel), keeping quiet positions.
pub fn load(text: &str, limit: Option<usize>) -> (Vec<Sample>, LoadStats) {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let lines = &lines[..limit.map_or(lines.len(), |n| n.min(lines.len()))];
    let parsed: Vec<Result<Sample, bool>> = lines
        .par_iter()
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().ok_or(false)?;
            let result = fields.next().and_then(parse_result).ok_or(false)?;
            let pos = Position::from_fen(fen).map_err(|_| false)?;
            if !is_quiet(&pos) {
                return Err(true);
            }
            let tr = trace(&pos);
            Ok(Sample {
                features: tr.features,
                mg: tr.phase as f32 / MAX_PHASE as f32,
                scales: tr.scales.map(|k| k as f32 / SCALE_NORMAL as f32),
                result,
            })
        })
        .collect();
    let mut stats = LoadStats {
        lines: lines.len(),
        ..LoadStats::default()
    };
    let mut samples = Vec::with_capacity(parsed.len());
    for p in parsed {
        match p {
            Ok(s) => samples.push(s),
            Err(true) => stats.noisy += 1,
            Err(false) => stats.malformed += 1,
        }
    }
    stats.kept = samples.len();
    (samples, stats)
}

/// Weights as floats: `[mg_0, eg_0, mg_1, eg_1, …]`.
fn to_params(w: &Weights) -> Vec<f64> {
    w.terms
        .iter()
        .flat_map(|&(m, e)| [m as f64, e as f64])
        .collect()
}

/// The evaluation of `s` with weights `p` (as `evaluate_trace`, unrounded).
#[inline]
fn sample_eval(s: &Sample, p: &[f64]) -> f64 {
    scaled_eval(s, p).0
}

/// The evaluation of `s` and the endgame scale applied to it (the derivative of the
/// evaluation by a weight is the scale times the feature's tapered count).
#[inline]
fn scaled_eval(s: &Sample, p: &[f64]) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, n) in &s.features {
        mg += p[2 * i as usize] * n as f64;
        eg += p[2 * i as usize + 1] * n as f64;
    }
    let e = mg * s.mg as f64 + eg * (1.0 - s.mg as f64);
    let scale = if e > 0.0 { s.scales[0] } else { s.scales[1] } as f64;
    (e * scale, scale)
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `sigmoid(k · eval)` against the results.
pub fn loss(samples: &[Sample], p: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .par_iter()
        .map(|s| {
            let d = sigmoid(k * sample_eval(s, p)) - s.result as f64;
            d * d
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The loss of weights `w` on `samples` at the K that suits them best: how a fit's result is
/// judged against its start, on the training data and on held-out data alike.
pub fn loss_at_best_k(samples: &[Sample], w: &Weights) -> f64 {
    let p = to_params(w);
    loss(samples, &p, fit_k(samples, &p))
}

/// The K minimising the loss for fixed weights (golden-section search on [0.0001, 0.05]).
pub fn fit_k(samples: &[Sample], p: &[f64]) -> f64 {
    let (mut a, mut b) = (0.0001f64, 0.05f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(samples, p, c) < loss(samples, p, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

fn gradient(samples: &[Sample], p: &[f64], k: f64) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    samples
        .par_chunks(4096)
        .map(|chunk| {
            let mut g = vec![0.0; p.len()];
            for s in chunk {
                let (e, scale) = scaled_eval(s, p);
                let sig = sigmoid(k * e);
                let common = 2.0 * (sig - s.result as f64) * sig * (1.0 - sig) * k * scale / n;
                let (wm, we) = (s.mg as f64, 1.0 - s.mg as f64);
                for &(i, c) in &s.features {
                    g[2 * i as usize] += common * c as f64 * wm;
                    g[2 * i as usize + 1] += common * c as f64 * we;
                }
            }
            g
        })
        .reduce(
            || vec![0.0; p.len()],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// Parameters that are never tuned: the general's material (it is never captured).
fn frozen(i: usize) -> bool {
    i / 2 == Weights::material(PieceKind::King)
}

/// Ties every left/right mirrored pair of piece-square entries (their gradients are averaged).
fn symmetrize(g: &mut [f64]) {
    for kind in PieceKind::ALL {
        for sq in Square::all() {
            let m = sq.flip_file();
            if m.index() > sq.index() {
                for phase in 0..2 {
                    let (a, b) = (
                        2 * Weights::psqt(kind, sq.index()) + phase,
                        2 * Weights::psqt(kind, m.index()) + phase,
                    );
                    let avg = (g[a] + g[b]) / 2.0;
                    g[a] = avg;
                    g[b] = avg;
                }
            }
        }
    }
}

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam step size (centipawns).
    pub learning_rate: f64,
    /// Rescale the result to the starting weights' mean absolute evaluation.
    pub keep_scale: bool,
    /// Fit only the terms from this index on (0: all), e.g. newly added ones; the others
    /// keep their values and anchor the scale, so no rescaling happens then.
    pub first_term: usize,
}

/// One line of the loss curve.
#[derive(Clone, Copy, Debug)]
pub struct EpochLoss {
    /// Epoch number (0 = before training).
    pub epoch: usize,
    /// Training loss.
    pub loss: f64,
}

/// The largest Adam step size accepted: Adam moves each weight by about this many centipawns an
/// epoch, and the weights are a few hundred centipawns, so larger steps cannot settle.
pub const MAX_LEARNING_RATE: f64 = 100.0;

/// A tuning run that succeeded.
#[derive(Clone, Debug)]
pub struct TuneResult {
    /// The fitted weights (integers, as they will be compiled in).
    pub weights: Weights,
    /// The logistic scale fitted to the starting weights (used during the fit).
    pub k: f64,
    /// The loss every 10 epochs (epoch 0: the starting weights).
    pub curve: Vec<EpochLoss>,
    /// Loss of the starting weights (at their best K).
    pub loss_before: f64,
    /// Loss of the fitted integer weights (at their best K).
    pub loss_after: f64,
}

/// Why a tuning run produced nothing to write.
#[derive(Clone, Debug, PartialEq)]
pub enum TuneError {
    /// A weight or the loss stopped being a finite number (e.g. a step size of NaN).
    NonFinite {
        /// The epoch where it happened (after the fit for the final loss).
        epoch: usize,
    },
    /// The weights would overflow the packed evaluation (see [`check_packed_bounds`]).
    OutOfRange(String),
    /// The fitted weights predict the results worse than the starting ones.
    Worse {
        /// Loss of the starting weights.
        before: f64,
        /// Loss of the fitted weights.
        after: f64,
    },
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::NonFinite { epoch } => {
                write!(
                    f,
                    "the weights stopped being finite numbers at epoch {epoch}"
                )
            }
            TuneError::OutOfRange(why) => write!(f, "the fitted weights do not fit: {why}"),
            TuneError::Worse { before, after } => write!(
                f,
                "the fitted weights are worse than the starting ones (loss {before:.6} -> \
                 {after:.6})"
            ),
        }
    }
}

impl std::error::Error for TuneError {}

/// Runs Adam from `start` and returns the tuned weights, K, the loss curve and the losses
/// before and after; or why the result must not be used (non-finite, out of the packed range,
/// or a higher loss than the start).
pub fn tune(
    samples: &[Sample],
    start: &Weights,
    cfg: &TuneConfig,
    mut progress: impl FnMut(&EpochLoss, f64),
) -> Result<TuneResult, TuneError> {
    let mut p = to_params(start);
    let k = fit_k(samples, &p);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; p.len()];
    let mut v = vec![0.0; p.len()];
    let started = Instant::now();
    let mut curve = vec![EpochLoss {
        epoch: 0,
        loss: loss(samples, &p, k),
    }];
    progress(&curve[0], 0.0);
    for epoch in 1..=cfg.epochs {
        let mut g = gradient(samples, &p, k);
        symmetrize(&mut g);
        for i in 0..p.len() {
            if frozen(i) || i / 2 < cfg.first_term {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            p[i] -= cfg.learning_rate * mh / (vh.sqrt() + eps);
        }
        if !p.iter().all(|x| x.is_finite()) {
            return Err(TuneError::NonFinite { epoch });
        }
        if epoch % 10 == 0 || epoch == cfg.epochs {
            let e = EpochLoss {
                epoch,
                loss: loss(samples, &p, k),
            };
            progress(&e, started.elapsed().as_secs_f64());
            curve.push(e);
            if !e.loss.is_finite() {
                return Err(TuneError::NonFinite { epoch });
            }
        }
    }
    // Anchor the scale: with K fixed the fit may inflate every weight (sharper predictions),
    // which would silently change what the search's centipawn margins mean. Scale the result
    // so the mean absolute evaluation over the data equals the starting weights'.
    if cfg.keep_scale && cfg.first_term == 0 {
        let start_p = to_params(start);
        let mean_abs = |q: &[f64]| {
            samples
                .par_iter()
                .map(|s| sample_eval(s, q).abs())
                .sum::<f64>()
        };
        let factor = mean_abs(&start_p) / mean_abs(&p).max(1e-9);
        p.iter_mut().for_each(|x| *x *= factor);
        let e = EpochLoss {
            epoch: cfg.epochs,
            loss: loss(samples, &p, fit_k(samples, &p)),
        };
        progress(&e, started.elapsed().as_secs_f64());
    }
    if !p.iter().all(|x| x.is_finite()) {
        return Err(TuneError::NonFinite { epoch: cfg.epochs });
    }
    let mut w = start.clone();
    for (i, t) in w.terms.iter_mut().enumerate() {
        // Saturating conversions: a weight beyond i32 fails the bound check below.
        *t = (p[2 * i].round() as i32, p[2 * i + 1].round() as i32);
    }
    check_packed_bounds(&w.terms).map_err(TuneError::OutOfRange)?;
    // Judge what will be written: the integer weights, each side at its own best K.
    let loss_before = curve[0].loss;
    let q = to_params(&w);
    let loss_after = loss(samples, &q, fit_k(samples, &q));
    if !loss_after.is_finite() {
        return Err(TuneError::NonFinite { epoch: cfg.epochs });
    }
    if loss_after > loss_before {
        return Err(TuneError::Worse {
            before: loss_before,
            after: loss_after,
        });
    }
    Ok(TuneResult {
        weights: w,
        k,
        curve,
        loss_before,
        loss_after,
    })
}

/// The text of `src/weights/tuned.rs` for `w`.
pub fn weights_file(w: &Weights, command: &str) -> String {
    let mut s = String::new();
    writeln!(
        s,
        "// @generated by `{command}`; do not edit by hand (see tuning/README.md)."
    )
    .unwrap();
    writeln!(
        s,
        "//! The evaluation weights in use, fitted by the Texel tuner (`chariot tune`)."
    )
    .unwrap();
    writeln!(
        s,
        "//! Layout: see `weights::Weights`; `(midgame, endgame)` per term, Red's view.\n"
    )
    .unwrap();
    writeln!(s, "use super::{{Weights, TERM_COUNT}};\n").unwrap();
    writeln!(s, "/// The weights, `(midgame, endgame)` per term.").unwrap();
    writeln!(s, "#[rustfmt::skip]").unwrap();
    writeln!(s, "pub const TERMS: [(i32, i32); TERM_COUNT] = [").unwrap();
    for kind in PieceKind::ALL {
        writeln!(
            s,
            "    // piece-square {} (rank 0 first, files a-i)",
            kind.char()
        )
        .unwrap();
        for rank in 0..10 {
            let row: Vec<String> = (0..9)
                .map(|f| {
                    let (m, e) = w.terms[Weights::psqt(kind, rank * 9 + f)];
                    format!("({m}, {e})")
                })
                .collect();
            writeln!(s, "    {},", row.join(", ")).unwrap();
        }
    }
    writeln!(s, "    // material R N B A K C P").unwrap();
    let row: Vec<String> = PieceKind::ALL
        .iter()
        .map(|&k| format!("{:?}", w.terms[Weights::material(k)]))
        .collect();
    writeln!(s, "    {},", row.join(", ")).unwrap();
    for i in Weights::MOBILITY_ROOK..TERM_COUNT {
        writeln!(s, "    {:?}, // {}", w.terms[i], Weights::name(i)).unwrap();
    }
    writeln!(s, "];\n").unwrap();
    writeln!(s, "/// The weights the engine evaluates with.").unwrap();
    writeln!(s, "pub fn weights() -> Weights {{").unwrap();
    writeln!(s, "    Weights {{ terms: TERMS }}").unwrap();
    writeln!(s, "}}").unwrap();
    s
}

/// An SVG line chart of the loss curve.
pub fn loss_svg(curve: &[EpochLoss], title: &str) -> Result<String, String> {
    let points: Vec<(f64, f64)> = curve.iter().map(|e| (e.epoch as f64, e.loss)).collect();
    crate::plot::line_chart(&points, title, "epoch", "loss")
}

/// The weights currently compiled in.
pub fn current_weights() -> Weights {
    eval::eval_tables().weights.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_lowers_the_loss_on_a_biased_sample() {
        // Positions where Red has an extra chariot are all won by Red, one with a horse and a
        // soldier drawn: the tuner must learn it.
        let data = "\
4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1;1-0\n\
4k4/9/9/9/9/9/9/9/8R/3K5 b - - 0 1;1-0\n\
4k4/9/9/9/4P4/9/9/9/4N4/3K5 w - - 0 1;1/2-1/2\n\
4k4/9/9/9/R8/9/9/9/9/3K5 b - - 0 1;1-0\n\
garbage line\n";
        let (samples, stats) = load(data, None);
        assert_eq!(stats.malformed, 1);
        assert_eq!(samples.len(), 4);
        let start = current_weights();
        let cfg = TuneConfig {
            epochs: 30,
            learning_rate: 2.0,
            keep_scale: false,
            first_term: 0,
        };
        let TuneResult {
            weights: w,
            k,
            curve,
            loss_before,
            loss_after,
        } = tune(&samples, &start, &cfg, |_, _| {}).unwrap();
        assert!(k > 0.0);
        assert!(curve.last().unwrap().loss < curve[0].loss);
        assert!(loss_after < loss_before);
        assert!(
            w.terms[Weights::material(PieceKind::Rook)].0
                >= start.terms[Weights::material(PieceKind::Rook)].0
        );
        // Fitting only the last terms leaves every other weight as it was.
        let only_last = TuneConfig {
            first_term: Weights::TEMPO,
            ..cfg
        };
        let w2 = tune(&samples, &start, &only_last, |_, _| {})
            .unwrap()
            .weights;
        assert_eq!(w2.terms[..Weights::TEMPO], start.terms[..Weights::TEMPO]);
        // The generated file names its command.
        assert!(weights_file(&w, "chariot tune").starts_with("// @generated by `chariot tune`"));
    }

    fn biased_samples() -> Vec<Sample> {
        let data = "\
4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1;1-0\n\
4k4/9/9/9/9/9/9/9/8R/3K5 b - - 0 1;1-0\n\
4k4/9/9/9/4P4/9/9/9/4N4/3K5 w - - 0 1;1/2-1/2\n\
4k4/9/9/9/R8/9/9/9/9/3K5 b - - 0 1;1-0\n";
        load(data, None).0
    }

    #[test]
    fn lines_with_invalid_utf8_are_dropped_one_by_one() {
        let (text, bad) = utf8_lines(b"a;1-0\n\xff\xfe;0-1\nb;0-1\n".to_vec());
        assert_eq!((text.as_str(), bad), ("a;1-0\nb;0-1\n\n", 1));
        assert_eq!(utf8_lines(b"x\ny".to_vec()), ("x\ny".to_string(), 0));
    }

    #[test]
    fn a_step_size_that_breaks_the_fit_yields_nothing_to_write() {
        let samples = biased_samples();
        let start = current_weights();
        let run = |lr: f64, epochs: usize| {
            let cfg = TuneConfig {
                epochs,
                learning_rate: lr,
                keep_scale: false,
                first_term: 0,
            };
            tune(&samples, &start, &cfg, |_, _| {})
        };
        assert_eq!(
            run(f64::NAN, 5).unwrap_err(),
            TuneError::NonFinite { epoch: 1 }
        );
        assert!(run(1e308, 5).is_err());
        assert!(matches!(run(1e6, 5).unwrap_err(), TuneError::OutOfRange(_)));
        // Steps against the gradient raise the loss: refused, with both losses.
        match run(-2.0, 5).unwrap_err() {
            TuneError::Worse { before, after } => assert!(after > before),
            other => panic!("{other:?}"),
        }
        assert!(run(2.0, 30).is_ok());
    }
}
