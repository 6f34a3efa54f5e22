//! `chariot spsa`: tunes the search parameters ([`crate::search::params`]) by simultaneous
//! perturbation stochastic approximation, the method of fishtest and OpenBench.
//!
//! Every iteration draws a random sign per parameter, plays game pairs (one opening, colours
//! swapped) between θ + c·Δ and θ − c·Δ in-process, and moves θ by `a/c · (wins − losses of
//! θ+) · Δ`. The gains follow Spall's schedule as fishtest parameterises it: `c_k = c /
//! k^γ`, `a_k = a / (A + k)^α` with `c = c_end · N^γ`, `a = r_end · c_end² · (A + N)^α`, `A =
//! N / 10`, so that after the last of `N` iterations each parameter is perturbed by its
//! `c_end` (the spec's `step`) and moves `r_end · c_end` per net win.
//!
//! The state (iteration and θ) is rewritten after every iteration, so a stopped run resumes
//! with `--resume`; every iteration also appends θ to a CSV history, from which the path of
//! each parameter is drawn as an SVG. Only a `--features tune` build can search with other
//! parameter values, so only such a build runs it.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rayon::prelude::*;

use crate::matches::openings::Opening;
use crate::matches::player::InternalPlayer;
use crate::matches::{play_game, MatchConfig, MoveLimit};
use crate::search::params::{ParamSpec, SearchParams, SPECS};
use crate::selfplay::SplitMix;
use crate::threads::EngineOptions;
use crate::types::Color;

/// Settings of one SPSA run.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// Indices into [`SPECS`] of the parameters to tune.
    pub params: Vec<usize>,
    /// Iterations planned (`N`); the schedule depends on it.
    pub iterations: usize,
    /// Game pairs per iteration, each with its own perturbation (played in parallel).
    pub pairs: usize,
    /// Search limit per move.
    pub limit: MoveLimit,
    /// Openings; pair `j` of iteration `k` uses a pseudo-random one.
    pub openings: Vec<Opening>,
    /// Learning rate at the end (`r_end`).
    pub r_end: f64,
    /// Exponent of the step-size decay (`α`).
    pub alpha: f64,
    /// Exponent of the perturbation decay (`γ`).
    pub gamma: f64,
    /// Stability constant as a fraction of `N` (`A = a_ratio · N`).
    pub a_ratio: f64,
    /// Seed of the perturbations and opening choice.
    pub seed: u64,
    /// Hash per engine in MiB.
    pub hash_mb: usize,
    /// Worker threads (rayon), one game pair each.
    pub threads: usize,
}

/// The tuner's state: the iteration reached and θ.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    /// Iterations completed.
    pub iteration: usize,
    /// Current values, one per tuned parameter (same order as [`SpsaConfig::params`]).
    pub theta: Vec<f64>,
}

/// One parameter's gains at iteration `k` (1-based): `(c_k, a_k / c_k)`.
pub fn gains(spec: &ParamSpec, k: usize, config: &SpsaConfig) -> (f64, f64) {
    let n = config.iterations.max(1) as f64;
    let big_a = config.a_ratio * n;
    let c_end = spec.step as f64;
    let c = c_end * n.powf(config.gamma);
    let a = config.r_end * c_end * c_end * (big_a + n).powf(config.alpha);
    let c_k = c / (k as f64).powf(config.gamma);
    let a_k = a / (big_a + k as f64).powf(config.alpha);
    (c_k, a_k / c_k)
}

/// The integer value a player uses for `theta` moved by `delta`, within the spec's range.
fn play_value(spec: &ParamSpec, theta: f64, delta: f64) -> i32 {
    (theta + delta)
        .round()
        .clamp(spec.min as f64, spec.max as f64) as i32
}

/// The outcome of one game pair for θ+: +1 per win, −1 per loss.
fn play_pair(
    config: &SpsaConfig,
    plus: &SearchParams,
    minus: &SearchParams,
    opening: &Opening,
) -> i32 {
    let options = |params: &SearchParams| EngineOptions {
        threads: 1,
        hash_mb: config.hash_mb,
        move_overhead: std::time::Duration::ZERO,
        params: params.clone(),
        ..EngineOptions::default()
    };
    let mut match_config = MatchConfig::new(Default::default(), config.limit, 2);
    match_config.max_plies = Some(600);
    let stop = AtomicBool::new(false);
    let mut score = 0;
    for plus_is_red in [true, false] {
        let mut p = InternalPlayer::with_options("plus", options(plus));
        let mut m = InternalPlayer::with_options("minus", options(minus));
        let (red, black): (&mut InternalPlayer, &mut InternalPlayer) = if plus_is_red {
            (&mut p, &mut m)
        } else {
            (&mut m, &mut p)
        };
        let record = play_game([red, black], opening, &match_config, 0, 0, &stop);
        score += match record.winner {
            Some(Color::Red) if plus_is_red => 1,
            Some(Color::Black) if !plus_is_red => 1,
            Some(_) => -1,
            None => 0,
        };
    }
    score
}

/// Runs iterations `state.iteration + 1 ..= config.iterations`, calling `after` with the state
/// and the iteration's summed pair results after each one (which saves it).
pub fn run(
    config: &SpsaConfig,
    state: &mut SpsaState,
    mut after: impl FnMut(&SpsaState, i32) -> Result<(), String>,
) -> Result<(), String> {
    if config.openings.is_empty() {
        return Err("SPSA needs openings".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {} worker threads: {e}", config.threads))?;
    while state.iteration < config.iterations {
        let k = state.iteration + 1;
        let mut rng = SplitMix::for_game(config.seed, k);
        // One perturbation and opening per pair, drawn before the games so that the run
        // does not depend on the number of threads.
        let draws: Vec<(Vec<f64>, usize)> = (0..config.pairs)
            .map(|_| {
                let flips = config
                    .params
                    .iter()
                    .map(|_| if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 })
                    .collect();
                (flips, rng.below(config.openings.len()))
            })
            .collect();
        let gains: Vec<(f64, f64)> = config
            .params
            .iter()
            .map(|&i| gains(&SPECS[i], k, config))
            .collect();
        let results: Vec<i32> = pool.install(|| {
            draws
                .par_iter()
                .map(|(flips, opening)| {
                    let mut plus = SearchParams::default();
                    let mut minus = SearchParams::default();
                    for (j, &i) in config.params.iter().enumerate() {
                        let spec = &SPECS[i];
                        let c = gains[j].0 * flips[j];
                        let set_plus = plus.set(spec.name, play_value(spec, state.theta[j], c));
                        let set_minus = minus.set(spec.name, play_value(spec, state.theta[j], -c));
                        debug_assert!(set_plus.is_ok() && set_minus.is_ok());
                    }
                    play_pair(config, &plus, &minus, &config.openings[*opening])
                })
                .collect()
        });
        for ((flips, _), &r) in draws.iter().zip(&results) {
            for (j, &i) in config.params.iter().enumerate() {
                let spec = &SPECS[i];
                let step = gains[j].1 * f64::from(r) * flips[j];
                state.theta[j] = (state.theta[j] + step).clamp(spec.min as f64, spec.max as f64);
            }
        }
        state.iteration = k;
        after(state, results.iter().sum())?;
    }
    Ok(())
}

/// The state file: `iteration K` then one `NAME VALUE` line per parameter.
pub fn state_text(config: &SpsaConfig, state: &SpsaState) -> String {
    let mut s = format!(
        "# chariot spsa state (resume with --resume)\niteration {}\n",
        state.iteration
    );
    for (j, &i) in config.params.iter().enumerate() {
        let _ = writeln!(s, "{} {:.4}", SPECS[i].name, state.theta[j]);
    }
    s
}

/// Reads a state written by [`state_text`] for the parameters of `config`.
pub fn parse_state(config: &SpsaConfig, text: &str) -> Result<SpsaState, String> {
    let mut iteration = None;
    let mut theta: Vec<Option<f64>> = vec![None; config.params.len()];
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(key), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!("bad state line '{line}'"));
        };
        if key == "iteration" {
            iteration = Some(
                value
                    .parse()
                    .map_err(|_| format!("bad iteration '{value}'"))?,
            );
            continue;
        }
        let v: f64 = value
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("bad value '{value}' for {key}"))?;
        if let Some(j) = config.params.iter().position(|&i| SPECS[i].name == key) {
            theta[j] = Some(v);
        }
    }
    let iteration = iteration.ok_or("the state has no iteration line")?;
    let theta = theta
        .into_iter()
        .enumerate()
        .map(|(j, v)| v.ok_or_else(|| format!("the state has no {}", SPECS[config.params[j]].name)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SpsaState { iteration, theta })
}

/// Writes `text` to `path` through a temporary file, so that a crash never leaves half a file.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The values of `state` as `setoption` lines, for a UCI session or a match spec.
pub fn options_text(config: &SpsaConfig, state: &SpsaState) -> String {
    config
        .params
        .iter()
        .zip(&state.theta)
        .map(|(&i, &v)| format!("{}={}\n", SPECS[i].name, v.round() as i64))
        .collect()
}

/// Reads the CSV history (`iteration,NAME…` header, one row per iteration).
pub fn read_history(path: &Path) -> Result<(Vec<String>, Vec<Vec<f64>>), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .ok_or("empty history")?
        .split(',')
        .skip(1)
        .map(str::to_string)
        .collect();
    let rows = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split(',')
                .map(|v| {
                    v.trim()
                        .parse::<f64>()
                        .map_err(|_| format!("bad value '{v}'"))
                })
                .collect::<Result<Vec<f64>, String>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((header, rows))
}

/// Appends one row (iteration then θ) to the CSV history, writing the header first.
pub fn append_history(path: &Path, config: &SpsaConfig, state: &SpsaState) -> Result<(), String> {
    let new = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut line = String::new();
    if new {
        line.push_str("iteration");
        for &i in &config.params {
            line.push(',');
            line.push_str(SPECS[i].name);
        }
        line.push('\n');
    }
    let _ = write!(line, "{}", state.iteration);
    for v in &state.theta {
        let _ = write!(line, ",{v:.4}");
    }
    line.push('\n');
    f.write_all(line.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Command-line front end (`chariot spsa`).
pub mod cli {
    use super::*;

    /// Arguments of `chariot spsa`.
    #[derive(clap::Args, Debug)]
    pub struct SpsaArgs {
        /// Iterations (N); the gain schedule depends on it.
        #[arg(long)]
        pub iterations: usize,
        /// Game pairs per iteration (each its own perturbation, played in parallel).
        #[arg(long, default_value_t = 8)]
        pub pairs: usize,
        /// Nodes per move (deterministic, fast; time-management parameters are then left
        /// out unless named).
        #[arg(long, conflicts_with = "tc")]
        pub nodes: Option<u64>,
        /// Time control `base+inc` in seconds, e.g. `2+0.02`.
        #[arg(long)]
        pub tc: Option<String>,
        /// Openings (EPD or PGN).
        #[arg(long)]
        pub openings: PathBuf,
        /// Parameters to tune, comma-separated (default: all; with --nodes all but TM_*).
        #[arg(long, value_delimiter = ',')]
        pub params: Vec<String>,
        /// Learning rate at the end (r_end).
        #[arg(long, default_value_t = 0.002)]
        pub r_end: f64,
        /// Step-size decay exponent (alpha).
        #[arg(long, default_value_t = 0.602)]
        pub alpha: f64,
        /// Perturbation decay exponent (gamma).
        #[arg(long, default_value_t = 0.101)]
        pub gamma: f64,
        /// A as a fraction of the iterations.
        #[arg(long, default_value_t = 0.1)]
        pub a_ratio: f64,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        pub seed: u64,
        /// Hash per engine in MiB.
        #[arg(long, default_value_t = 8)]
        pub hash: usize,
        /// Worker threads (default: all cores).
        #[arg(long)]
        pub threads: Option<usize>,
        /// Folder for the state, history and plot (created if missing).
        #[arg(long)]
        pub out: PathBuf,
        /// Continue from the state in --out.
        #[arg(long)]
        pub resume: bool,
        /// Also write the plot here (e.g. tuning/spsa-params.svg).
        #[arg(long)]
        pub svg: Option<PathBuf>,
    }

    /// Runs `chariot spsa`; returns the exit code.
    pub fn main(args: SpsaArgs) -> u8 {
        match run_cli(args) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("chariot spsa: {e}");
                2
            }
        }
    }

    fn config_of(args: &SpsaArgs) -> Result<SpsaConfig, String> {
        if !crate::search::params::TUNABLE {
            return Err(
                "this build has fixed search parameters: build with --features tune".into(),
            );
        }
        if args.iterations == 0 || args.pairs == 0 {
            return Err("--iterations and --pairs must be at least 1".into());
        }
        let positive = |v: f64| v.is_finite() && v > 0.0;
        let rates_ok = positive(args.r_end) && positive(args.alpha) && positive(args.gamma);
        if !rates_ok || !args.a_ratio.is_finite() || args.a_ratio < 0.0 {
            return Err("--r-end, --alpha and --gamma must be positive, --a-ratio ≥ 0".into());
        }
        if !(1..=4096).contains(&args.hash) {
            return Err("--hash must be in 1..=4096".into());
        }
        let limit = match (args.nodes, &args.tc) {
            (Some(0), _) => return Err("--nodes must be at least 1".into()),
            (Some(n), None) => MoveLimit::Nodes(n),
            (None, Some(tc)) => MoveLimit::Clock(tc.parse()?),
            _ => return Err("give --nodes N or --tc BASE+INC".into()),
        };
        let params: Vec<usize> = if args.params.is_empty() {
            (0..SPECS.len())
                .filter(|&i| args.tc.is_some() || !SPECS[i].name.starts_with("TM_"))
                .collect()
        } else {
            args.params
                .iter()
                .map(|name| {
                    SPECS
                        .iter()
                        .position(|s| s.name.eq_ignore_ascii_case(name.trim()))
                        .ok_or_else(|| format!("no search parameter called {name}"))
                })
                .collect::<Result<_, _>>()?
        };
        let (openings, warnings) = crate::matches::openings::load(&args.openings)?;
        for w in warnings {
            log::warn!("{w}");
        }
        Ok(SpsaConfig {
            params,
            iterations: args.iterations,
            pairs: args.pairs,
            limit,
            openings,
            r_end: args.r_end,
            alpha: args.alpha,
            gamma: args.gamma,
            a_ratio: args.a_ratio,
            seed: args.seed,
            hash_mb: args.hash,
            threads: args
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        })
    }

    fn run_cli(args: SpsaArgs) -> Result<(), String> {
        let config = config_of(&args)?;
        std::fs::create_dir_all(&args.out)
            .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
        let state_path = args.out.join("state.txt");
        let history_path = args.out.join("history.csv");
        let mut state = if args.resume {
            let text = std::fs::read_to_string(&state_path)
                .map_err(|e| format!("cannot resume from {}: {e}", state_path.display()))?;
            parse_state(&config, &text)?
        } else {
            if state_path.exists() {
                return Err(format!(
                    "{} exists: pass --resume to continue it, or another --out",
                    state_path.display()
                ));
            }
            let _ = std::fs::remove_file(&history_path);
            SpsaState {
                iteration: 0,
                theta: config
                    .params
                    .iter()
                    .map(|&i| f64::from(SPECS[i].default))
                    .collect(),
            }
        };
        eprintln!(
            "spsa: {} parameters, {} iterations of {} pairs at {}, from iteration {}",
            config.params.len(),
            config.iterations,
            config.pairs,
            config.limit,
            state.iteration
        );
        let start = Instant::now();
        let first = state.iteration;
        let svg_paths: Vec<PathBuf> = std::iter::once(args.out.join("spsa.svg"))
            .chain(args.svg.clone())
            .collect();
        let write_plot = || -> Result<(), String> {
            let (names, rows) = read_history(&history_path)?;
            let chart = plot::svg(&names, &rows, &config)?;
            for p in &svg_paths {
                write_atomically(p, &chart)?;
            }
            Ok(())
        };
        let mut net = 0i64;
        run(&config, &mut state, |s, result| {
            write_atomically(&state_path, &state_text(&config, s))?;
            append_history(&history_path, &config, s)?;
            net += i64::from(result);
            let done = s.iteration - first;
            if done % 10 == 0 {
                let rate = done as f64 / start.elapsed().as_secs_f64().max(1e-9);
                eprintln!(
                    "spsa: iteration {}/{} ({:.2}/s), net result of θ+ so far {net:+}",
                    s.iteration, config.iterations, rate
                );
                write_plot()?;
            }
            Ok(())
        })?;
        // Also when resuming a finished run: that redraws the plot from its history.
        write_plot()?;
        print!("{}", options_text(&config, &state));
        Ok(())
    }
}

/// The SVG chart of every tuned parameter's path.
pub mod plot {
    use super::*;

    /// One small panel per parameter: its value by iteration, scaled to its range.
    pub fn svg(names: &[String], rows: &[Vec<f64>], config: &SpsaConfig) -> Result<String, String> {
        let _ = config;
        plot_impl(names, rows)
    }

    /// Points drawn per parameter path.
    const MAX_POINTS: usize = 250;

    fn plot_impl(names: &[String], rows: &[Vec<f64>]) -> Result<String, String> {
        use plotters::prelude::*;
        let cols = 4;
        let panels = names.len().max(1);
        let grid_rows = panels.div_ceil(cols);
        let (w, h) = (cols as u32 * 300, grid_rows as u32 * 180);
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| e.to_string())?;
            let areas = root.split_evenly((grid_rows, cols));
            let last = rows.last().map_or(0.0, |r| r[0]).max(1.0);
            for (j, name) in names.iter().enumerate() {
                let spec = SPECS.iter().find(|s| s.name == name);
                let (lo, hi) = spec.map_or((0.0, 1.0), |s| (f64::from(s.min), f64::from(s.max)));
                // At most about `MAX_POINTS` points a path (and always the last): a long
                // run's every iteration would only make the file large, not the chart clearer.
                let step = rows.len().div_ceil(MAX_POINTS).max(1);
                let points: Vec<(f64, f64)> = rows
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i % step == 0 || i + 1 == rows.len())
                    .map(|(_, r)| (r[0], r[j + 1]))
                    .collect();
                let mut chart = ChartBuilder::on(&areas[j])
                    .caption(name, ("sans-serif", 13))
                    .margin(6)
                    .x_label_area_size(18)
                    .y_label_area_size(40)
                    .build_cartesian_2d(0.0..last, lo..hi)
                    .map_err(|e| e.to_string())?;
                chart
                    .configure_mesh()
                    .x_labels(3)
                    .y_labels(4)
                    .max_light_lines(1)
                    .label_style(("sans-serif", 10))
                    .draw()
                    .map_err(|e| e.to_string())?;
                if let Some(s) = spec {
                    let d = f64::from(s.default);
                    chart
                        .draw_series(LineSeries::new([(0.0, d), (last, d)], &BLACK.mix(0.3)))
                        .map_err(|e| e.to_string())?;
                }
                chart
                    .draw_series(LineSeries::new(points, &BLUE))
                    .map_err(|e| e.to_string())?;
            }
            root.present().map_err(|e| e.to_string())?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(iterations: usize) -> SpsaConfig {
        SpsaConfig {
            params: vec![0, 2],
            iterations,
            pairs: 2,
            limit: MoveLimit::Nodes(200),
            openings: Vec::new(),
            r_end: 0.002,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
            seed: 1,
            hash_mb: 1,
            threads: 1,
        }
    }

    #[test]
    fn the_schedule_ends_at_the_spec_step_and_rate() {
        let c = config(1000);
        let spec = &SPECS[2];
        let (c_end, r) = gains(spec, 1000, &c);
        assert!((c_end - spec.step as f64).abs() < 1e-9);
        assert!((r - 0.002 * spec.step as f64).abs() < 1e-9);
        let (c_1, r_1) = gains(spec, 1, &c);
        assert!(c_1 > c_end && r_1 > r);
    }

    #[test]
    fn the_state_survives_a_round_trip_and_bad_states_are_refused() {
        let c = config(10);
        let s = SpsaState {
            iteration: 7,
            theta: vec![21.5, 83.25],
        };
        assert_eq!(parse_state(&c, &state_text(&c, &s)).unwrap(), s);
        assert!(parse_state(&c, "iteration 3\n").is_err());
        assert!(parse_state(&c, &state_text(&c, &s).replace("83.2500", "NaN")).is_err());
    }

    #[test]
    fn play_values_stay_in_range() {
        let spec = &SPECS[0];
        assert_eq!(play_value(spec, spec.max as f64, 1000.0), spec.max);
        assert_eq!(play_value(spec, spec.min as f64, -1000.0), spec.min);
    }

    #[cfg(feature = "tune")]
    #[test]
    fn an_iteration_moves_theta_and_is_resumable() {
        use crate::position::START_FEN;
        let mut c = config(2);
        c.openings = vec![Opening {
            fen: START_FEN.to_string(),
            moves: Vec::new(),
        }];
        let mut a = SpsaState {
            iteration: 0,
            theta: c.params.iter().map(|&i| SPECS[i].default as f64).collect(),
        };
        let mut b = a.clone();
        run(&c, &mut a, |_, _| Ok(())).unwrap();
        // The same run in two parts, through the state text.
        c.iterations = 2;
        let mut stop_after_one = c.clone();
        stop_after_one.iterations = 2;
        let mut first = true;
        let r = run(&stop_after_one, &mut b, |_, _| {
            if first {
                first = false;
                Err("stop".into())
            } else {
                Ok(())
            }
        });
        assert!(r.is_err());
        let mut resumed = parse_state(&c, &state_text(&c, &b)).unwrap();
        run(&c, &mut resumed, |_, _| Ok(())).unwrap();
        assert_eq!(resumed.iteration, 2);
        for (x, y) in resumed.theta.iter().zip(&a.theta) {
            assert!((x - y).abs() < 1e-3, "{x} {y}");
        }
    }

    #[test]
    fn a_long_run_plots_no_larger_than_a_short_one() {
        let names: Vec<String> = ["RFP_MARGIN", "LMR_BASE"].map(String::from).to_vec();
        let rows = |n: usize| -> Vec<Vec<f64>> {
            (1..=n)
                .map(|i| vec![i as f64, 70.0 + (i % 7) as f64, 70.0 - (i % 5) as f64])
                .collect()
        };
        let c = config(10);
        let short = plot::svg(&names, &rows(MAX_SHORT), &c).unwrap();
        let long = plot::svg(&names, &rows(20 * MAX_SHORT), &c).unwrap();
        assert!(short.contains("RFP_MARGIN") && long.contains("LMR_BASE"));
        assert!(
            long.len() < short.len() * 3 / 2,
            "{} {}",
            long.len(),
            short.len()
        );
    }

    /// A run short enough to be drawn point by point.
    const MAX_SHORT: usize = 200;
}
