//! Fitting the win/draw/loss model (`chariot wdl`): maximum likelihood over self-play
//! positions, a generated [`params`](super::params) file, and a calibration plot.
//!
//! Data are self-play lines `FEN;result;score;ply` (Red's view; see
//! [`selfplay`](crate::selfplay)). Each line becomes (score, phase, outcome) from the side to
//! move's view; mate scores are left out (the model is for centipawn scores). The fit
//! maximises the mean log-likelihood of the outcomes under the model of [`super`] with
//! Levenberg–Marquardt steps (the Hessian from finite differences of the analytic gradient):
//! once with quadratic `a(x)`, `b(x)` (the model) and once with constants (the normalising
//! score, over all phases together).

use std::fmt::Write as _;

use clap::Args;
use plotters::style::RGBColor;
use rayon::prelude::*;

use super::{phase_x, Model};
use crate::plot;
use crate::position::Position;
use crate::search::score::MATE_BOUND;
use crate::types::Color;

/// One position: internal score and phase position `x`, and the outcome for the side to move
/// (0 loss, 1 draw, 2 win).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Internal score, the side to move's view.
    pub v: f64,
    /// Phase as 0–1.
    pub x: f64,
    /// 0 loss, 1 draw, 2 win.
    pub outcome: u8,
}

/// What loading kept and dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// Lines read.
    pub lines: usize,
    /// Positions kept.
    pub kept: usize,
    /// Lines with a mate score.
    pub mates: usize,
    /// Lines that did not parse.
    pub malformed: usize,
}

/// Reads self-play lines.
pub fn load(text: &str) -> (Vec<Sample>, LoadStats) {
    let mut stats = LoadStats::default();
    let mut samples = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        stats.lines += 1;
        let f: Vec<&str> = line.split(';').collect();
        let parsed = (f.len() >= 3)
            .then(|| {
                let pos = Position::from_fen(f[0].trim()).ok()?;
                let red = match f[1].trim() {
                    "1-0" => 2u8,
                    "1/2-1/2" => 1,
                    "0-1" => 0,
                    _ => return None,
                };
                let score: i32 = f[2].trim().parse().ok()?;
                Some((pos, red, score))
            })
            .flatten();
        let Some((pos, red, score)) = parsed else {
            stats.malformed += 1;
            continue;
        };
        if score.abs() >= MATE_BOUND {
            stats.mates += 1;
            continue;
        }
        let (v, outcome) = if pos.side_to_move() == Color::Red {
            (score, red)
        } else {
            (-score, 2 - red)
        };
        samples.push(Sample {
            v: f64::from(v),
            x: phase_x(pos.phase()),
            outcome,
        });
    }
    stats.kept = samples.len();
    (samples, stats)
}

/// `a` and `b` coefficients packed: the first half is `a`.
fn model_of(theta: &[f64]) -> Model {
    let n = theta.len() / 2;
    Model {
        a: theta[..n].to_vec(),
        b: theta[n..].to_vec(),
    }
}

fn poly(c: &[f64], x: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, k| acc * x + k)
}

/// Mean log-likelihood of `samples` under `theta`, and its gradient.
fn log_likelihood(samples: &[Sample], theta: &[f64]) -> (f64, Vec<f64>) {
    let n = theta.len() / 2;
    let (a_c, b_c) = theta.split_at(n);
    let (ll, grad) = samples
        .par_iter()
        .fold(
            || (0.0f64, vec![0.0f64; theta.len()]),
            |(mut ll, mut g), s| {
                let a = poly(a_c, s.x);
                let b = poly(b_c, s.x).max(1e-6);
                let u = (s.v - a) / b;
                let t = (-s.v - a) / b;
                let w = super::sigmoid(u);
                let l = super::sigmoid(t);
                let (dw, dl) = (w * (1.0 - w), l * (1.0 - l));
                // Derivatives of W and L by a and b.
                let (w_a, w_b) = (-dw / b, -dw * u / b);
                let (l_a, l_b) = (-dl / b, -dl * t / b);
                let (p, p_a, p_b) = match s.outcome {
                    2 => (w, w_a, w_b),
                    0 => (l, l_a, l_b),
                    _ => (1.0 - w - l, -w_a - l_a, -w_b - l_b),
                };
                let p = p.max(1e-12);
                ll += p.ln();
                let mut xk = 1.0;
                for k in 0..n {
                    g[k] += p_a / p * xk;
                    g[n + k] += p_b / p * xk;
                    xk *= s.x;
                }
                (ll, g)
            },
        )
        .reduce(
            || (0.0, vec![0.0; theta.len()]),
            |(l1, g1), (l2, g2)| (l1 + l2, g1.iter().zip(&g2).map(|(a, b)| a + b).collect()),
        );
    let m = samples.len().max(1) as f64;
    (ll / m, grad.iter().map(|g| g / m).collect())
}

/// Solves `m · x = r` (small, dense) by Gaussian elimination with partial pivoting.
fn solve(mut m: Vec<Vec<f64>>, mut r: Vec<f64>) -> Option<Vec<f64>> {
    let n = r.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[piv][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, piv);
        r.swap(col, piv);
        for row in col + 1..n {
            let f = m[row][col] / m[col][col];
            let (top, bottom) = m.split_at_mut(row);
            for (x, p) in bottom[0][col..].iter_mut().zip(&top[col][col..]) {
                *x -= f * p;
            }
            r[row] -= f * r[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (r[row] - s) / m[row][row];
    }
    Some(x)
}

/// The result of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The model.
    pub model: Model,
    /// Mean log-likelihood per position.
    pub log_likelihood: f64,
    /// Steps taken.
    pub iterations: usize,
}

/// Fits `a` and `b` as polynomials of `degree` in the phase by maximum likelihood.
pub fn fit(samples: &[Sample], degree: usize) -> Fit {
    let n = degree + 1;
    let mut theta = vec![0.0; 2 * n];
    theta[0] = 150.0;
    theta[n] = 100.0;
    let (mut ll, mut grad) = log_likelihood(samples, &theta);
    let mut lambda = 1e-3;
    let mut iterations = 0;
    for _ in 0..200 {
        iterations += 1;
        // Hessian by central differences of the gradient.
        let dim = theta.len();
        let mut h = vec![vec![0.0; dim]; dim];
        for j in 0..dim {
            let step = 1e-3 * theta[j].abs().max(1.0);
            let mut up = theta.clone();
            up[j] += step;
            let mut down = theta.clone();
            down[j] -= step;
            let (_, gu) = log_likelihood(samples, &up);
            let (_, gd) = log_likelihood(samples, &down);
            for i in 0..dim {
                h[i][j] = (gu[i] - gd[i]) / (2.0 * step);
            }
        }
        let mut improved = false;
        for _ in 0..30 {
            // Maximising: step δ solves (−H + λ·diag) δ = g.
            let m: Vec<Vec<f64>> = (0..dim)
                .map(|i| {
                    (0..dim)
                        .map(|j| {
                            let sym = -(h[i][j] + h[j][i]) / 2.0;
                            if i == j {
                                sym + lambda * sym.abs().max(1e-9)
                            } else {
                                sym
                            }
                        })
                        .collect()
                })
                .collect();
            let Some(delta) = solve(m, grad.clone()) else {
                lambda *= 10.0;
                continue;
            };
            let candidate: Vec<f64> = theta.iter().zip(&delta).map(|(t, d)| t + d).collect();
            let (cll, cgrad) = log_likelihood(samples, &candidate);
            if cll.is_finite() && cll > ll {
                let gain = cll - ll;
                theta = candidate;
                ll = cll;
                grad = cgrad;
                lambda = (lambda / 10.0).max(1e-9);
                improved = gain > 1e-12;
                break;
            }
            lambda *= 10.0;
        }
        if !improved {
            break;
        }
    }
    Fit {
        model: model_of(&theta),
        log_likelihood: ll,
        iterations,
    }
}

/// Whether a model is usable: finite, with `a` and `b` positive across all phases.
pub fn is_sane(m: &Model) -> bool {
    (0..=48).all(|p| {
        let x = f64::from(p) / 48.0;
        let (a, b) = (poly(&m.a, x), poly(&m.b, x));
        a.is_finite() && b.is_finite() && a > 1.0 && b > 1.0
    })
}

/// The generated parameter file.
pub fn params_file(model: &Model, normalize: f64, command: &str, summary: &str) -> String {
    let list = |c: &[f64]| {
        c.iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// @generated by `{command}`; do not edit by hand (see tuning/README.md)."
    );
    let _ = writeln!(
        s,
        "//! The fitted win/draw/loss model and the normalising score (see [`super`])."
    );
    for line in summary.lines() {
        let _ = writeln!(s, "//! {line}");
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "/// Coefficients of `a(x)`, lowest power first (internal centipawns)."
    );
    let _ = writeln!(
        s,
        "pub const A: [f64; {}] = [{}];",
        model.a.len(),
        list(&model.a)
    );
    let _ = writeln!(
        s,
        "/// Coefficients of `b(x)`, lowest power first (internal centipawns)."
    );
    let _ = writeln!(
        s,
        "pub const B: [f64; {}] = [{}];",
        model.b.len(),
        list(&model.b)
    );
    let _ = writeln!(
        s,
        "/// The internal score at which self-play wins 50 % over all phases: printed as 100."
    );
    let _ = writeln!(s, "pub const NORMALIZE: f64 = {normalize:.4};");
    s
}

/// One bin of the calibration plot: mean predicted probability, observed frequency, count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bin {
    /// Mean predicted probability.
    pub predicted: f64,
    /// Observed frequency.
    pub observed: f64,
    /// Positions in the bin.
    pub count: usize,
}

/// Calibration of outcome `k` (0 win, 1 draw, 2 loss): positions binned by predicted
/// probability into `bins` equal bins.
pub fn calibration(samples: &[Sample], model: &Model, k: usize, bins: usize) -> Vec<Bin> {
    let mut acc = vec![(0.0f64, 0.0f64, 0usize); bins];
    for s in samples {
        let p = model.probabilities(s.v, s.x)[k];
        let happened = match k {
            0 => s.outcome == 2,
            1 => s.outcome == 1,
            _ => s.outcome == 0,
        };
        let i = ((p * bins as f64) as usize).min(bins - 1);
        acc[i].0 += p;
        acc[i].1 += f64::from(u8::from(happened));
        acc[i].2 += 1;
    }
    acc.into_iter()
        .filter(|a| a.2 > 0)
        .map(|(p, o, n)| Bin {
            predicted: p / n as f64,
            observed: o / n as f64,
            count: n,
        })
        .collect()
}

/// Colours of the calibration chart's win, draw and loss series.
const CRIMSON: RGBColor = RGBColor(220, 20, 60);
const GRAY: RGBColor = RGBColor(128, 128, 128);
const ROYAL_BLUE: RGBColor = RGBColor(65, 105, 225);

/// The calibration plot: observed against predicted frequency of wins, draws and losses
/// (bins of fewer than 50 positions are left out: their frequencies are mostly noise).
pub fn calibration_svg(
    series: &[(&str, RGBColor, Vec<Bin>)],
    title: &str,
    note: &str,
) -> Result<String, String> {
    let series: Vec<plot::Calibration> = series
        .iter()
        .map(|(name, color, bins)| plot::Calibration {
            name,
            color: *color,
            points: bins
                .iter()
                .filter(|b| b.count >= 50)
                .map(|b| (b.predicted, b.observed))
                .collect(),
        })
        .collect();
    plot::calibration(&series, title, note)
}

/// Flags of `chariot wdl`.
#[derive(Args, Debug, Clone)]
pub struct WdlArgs {
    /// Self-play data, `FEN;result;score;ply` lines (repeatable).
    #[arg(long, required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// Where to write the generated parameters (the engine's `src/wdl/params.rs` only when
    /// named: a fit never overwrites the source unless told to).
    #[arg(long, default_value = "tuning/data/wdl-params.rs")]
    pub out: std::path::PathBuf,
    /// Where to write the calibration plot (SVG).
    #[arg(long)]
    pub svg: Option<std::path::PathBuf>,
}

/// Runs `chariot wdl`; returns the exit code (0, or 2 on bad input, a failed fit or I/O errors:
/// nothing is written then).
pub fn main(args: WdlArgs) -> u8 {
    match run(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("chariot wdl: {e}");
            2
        }
    }
}

fn run(args: &WdlArgs) -> Result<(), String> {
    let mut samples = Vec::new();
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let (s, stats) = load(&text);
        eprintln!(
            "{}: {} lines, {} positions kept, {} mate scores, {} malformed",
            path.display(),
            stats.lines,
            stats.kept,
            stats.mates,
            stats.malformed
        );
        samples.extend(s);
    }
    if samples.len() < 1000 {
        return Err(format!(
            "{} usable positions are too few for a fit",
            samples.len()
        ));
    }
    let model = fit(&samples, 2);
    let pooled = fit(&samples, 0);
    let normalize = pooled.model.a[0];
    if !is_sane(&model.model) || !is_sane(&pooled.model) || !normalize.is_finite() {
        return Err(format!(
            "the fit is not usable (a = {:?}, b = {:?}, normalize {normalize}); nothing written",
            model.model.a, model.model.b
        ));
    }
    let (w, d, l) = samples
        .iter()
        .fold((0, 0, 0), |(w, d, l), s| match s.outcome {
            2 => (w + 1, d, l),
            1 => (w, d + 1, l),
            _ => (w, d, l + 1),
        });
    let at = |x: f64| format!("a {:.0} b {:.0}", model.model.a_at(x), model.model.b_at(x));
    let summary = format!(
        "{} positions (side to move: {w} won, {d} drawn, {l} lost); mean log-likelihood {:.5} \
         (constant a, b: {:.5}).\nPhase 48 (start): {}; phase 32: {}; phase 16: {}; phase 0: {}.\n\
         Over all phases, self-play wins half its games at {:.1} internal centipawns (b {:.1}).",
        samples.len(),
        model.log_likelihood,
        pooled.log_likelihood,
        at(1.0),
        at(2.0 / 3.0),
        at(1.0 / 3.0),
        at(0.0),
        normalize,
        pooled.model.b[0]
    );
    let inputs: String = args
        .data
        .iter()
        .map(|p| format!(" --data {}", p.display()))
        .collect();
    let command = format!(
        "chariot wdl{inputs} --out {}{}",
        args.out.display(),
        args.svg
            .as_ref()
            .map_or(String::new(), |p| format!(" --svg {}", p.display()))
    );
    let text = params_file(&model.model, normalize, &command, &summary);
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(&args.out, text)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    if let Some(svg) = &args.svg {
        let series = [
            ("win", CRIMSON, calibration(&samples, &model.model, 0, 20)),
            ("draw", GRAY, calibration(&samples, &model.model, 1, 20)),
            (
                "loss",
                ROYAL_BLUE,
                calibration(&samples, &model.model, 2, 20),
            ),
        ];
        let title = format!(
            "WDL model calibration, {} self-play positions",
            samples.len()
        );
        let note = format!(
            "bins of 5 % by predicted probability (at least 50 positions); 100 cp = {normalize:.0} \
             internal"
        );
        calibration_svg(&series, &title, &note)
            .and_then(|chart| std::fs::write(svg, chart).map_err(|e| e.to_string()))
            .map_err(|e| format!("cannot write {}: {e}", svg.display()))?;
    }
    println!("{summary}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples drawn from a known model with a fixed generator.
    fn synthetic(model: &Model, n: usize) -> Vec<Sample> {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..n)
            .map(|_| {
                let v = (next() - 0.5) * 1600.0;
                let x = next();
                let p = model.probabilities(v, x);
                let r = next();
                let outcome = if r < p[0] {
                    2
                } else if r < p[0] + p[1] {
                    1
                } else {
                    0
                };
                Sample { v, x, outcome }
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = Model {
            a: vec![150.0, 60.0, -20.0],
            b: vec![90.0, 30.0, 0.0],
        };
        let samples = synthetic(&truth, 60_000);
        let got = fit(&samples, 2).model;
        for x in [0.0, 0.5, 1.0] {
            assert!(
                (got.a_at(x) - truth.a_at(x)).abs() < 15.0,
                "a at {x}: {got:?}"
            );
            assert!(
                (got.b_at(x) - truth.b_at(x)).abs() < 15.0,
                "b at {x}: {got:?}"
            );
        }
        assert!(is_sane(&got));
        let bins = calibration(&samples, &got, 0, 10);
        assert_eq!(bins.iter().map(|b| b.count).sum::<usize>(), samples.len());
        for b in bins.iter().filter(|b| b.count > 2000) {
            assert!((b.predicted - b.observed).abs() < 0.05, "{b:?}");
        }
    }

    #[test]
    fn loading_takes_the_side_to_moves_view_and_skips_mates() {
        let text = "4k4/9/9/9/9/9/9/9/R8/3K5 b - - 0 1;1-0;300;10\n\
                    4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1;1-0;31990;11\n\
                    nonsense\n";
        let (s, stats) = load(text);
        assert_eq!((stats.kept, stats.mates, stats.malformed), (1, 1, 1));
        assert_eq!(s[0].v, -300.0);
        assert_eq!(s[0].outcome, 0);
        let file = params_file(&Model::current(), 123.0, "chariot wdl --data x", "summary");
        assert!(file.starts_with("// @generated by `chariot wdl --data x`"));
    }
}
