//! The `chariot` binary: with no subcommand, the protocol loop on stdin/stdout; otherwise a
//! command-line tool (perft, magic finder, …).

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use chariot::args::{count_in, hash_mb as hash_arg, positive_count, threads as threads_arg};
use chariot::movegen::perft::{self, parse_epd};
use chariot::position::Position;

/// Deepest `chariot perft` and `--epd` depth (see `perft::MAX_DEPTH` for why).
const PERFT_DEPTHS: std::ops::RangeInclusive<i64> = 1..=perft::MAX_DEPTH as i64;
/// Deepest `chariot bench --depth` (see `bench::MAX_DEPTH`).
const BENCH_DEPTHS: std::ops::RangeInclusive<i64> = 1..=chariot::bench::MAX_DEPTH as i64;

#[derive(Parser)]
#[command(
    name = "chariot",
    version,
    about = "Chariot, a Xiangqi engine (UCI, UCCI or XBoard on stdin/stdout by default)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree (one position, or a whole EPD suite).
    Perft {
        /// Depth in plies (1-64; with --epd, run only this depth of each position).
        #[arg(value_parser = clap::value_parser!(u32).range(PERFT_DEPTHS))]
        depth: Option<u32>,
        /// Position (default: the start position).
        #[arg(long, conflicts_with = "epd")]
        fen: Option<String>,
        /// Print the count below each root move (`h2e2: 1234`).
        #[arg(long, conflicts_with = "epd")]
        divide: bool,
        /// Run every position of a suite in `FEN;D1 n;D2 n;…` form.
        #[arg(long)]
        epd: Option<PathBuf>,
        /// With --epd: skip depths whose expected count is above this.
        #[arg(long, requires = "epd", value_parser = clap::value_parser!(u64).range(1..))]
        max_nodes: Option<u64>,
        /// Split the root moves across this many threads (1-256).
        #[arg(long, default_value_t = 1, value_parser = threads_arg)]
        threads: usize,
    },
    /// Replay a game and print its result under docs/rules.md (`1-0 checkmate ply 31`, `* ply 4`).
    Judge {
        /// Start position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// The moves, space-separated, ranks 0–9 (`"h2e2 h9g7"`).
        #[arg(long, default_value = "")]
        moves: String,
        /// Move-count rule: cxq, sixty or none.
        #[arg(long, default_value = "cxq")]
        rule: chariot::rules::MoveCountRule,
    },
    /// Search fixed positions to a fixed depth; the total node count is the engine signature.
    Bench {
        /// Search depth (1-64).
        #[arg(long, default_value_t = chariot::bench::DEFAULT_DEPTH,
              value_parser = clap::value_parser!(u32).range(BENCH_DEPTHS))]
        depth: u32,
        /// Search threads (1-256).
        #[arg(long, default_value_t = 1, value_parser = threads_arg)]
        threads: usize,
        /// Transposition table size in MiB (1-65536).
        #[arg(long, default_value_t = 16, value_parser = hash_arg)]
        hash: usize,
        /// A search parameter, `NAME=VALUE` (repeatable; `--features tune` builds only).
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
    },
    /// Print the evaluation terms of a position.
    Eval {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Fit the evaluation weights to game results (Texel method) and write the weights file
    /// (only if the fit is finite, fits the evaluation and does not raise the loss).
    Tune {
        /// Training data, one `FEN;result;...` line per position (e.g. from `chariot selfplay`).
        #[arg(long)]
        data: PathBuf,
        /// Passes of Adam over the data (at least 1).
        #[arg(long, default_value_t = 300, value_parser = positive_count)]
        epochs: usize,
        /// Adam step size in centipawns (above 0, at most 100).
        #[arg(long, default_value_t = 1.0, value_parser = learning_rate_arg)]
        lr: f64,
        /// Use only the first N lines (at least 1).
        #[arg(long, value_parser = positive_count)]
        limit: Option<usize>,
        /// Where to write the generated weights; `--out src/weights/tuned.rs` replaces the
        /// weights the engine is built with.
        #[arg(long, default_value = "tuning/data/weights.rs")]
        out: PathBuf,
        /// Where to write the loss curve (SVG).
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Let the overall evaluation scale drift instead of anchoring it to the start weights.
        #[arg(long)]
        free_scale: bool,
        /// Fit only the terms from this index on (e.g. newly added ones; see `weights::Weights`);
        /// the others stay as compiled in. Below the number of terms (717).
        #[arg(long, default_value_t = 0, value_parser = term_index)]
        from_term: usize,
        /// Held-out data (same format, positions not in --data): the loss of the starting and
        /// the fitted weights on its quiet positions is reported, and a fit that raises it
        /// (overfitting) is refused like one that raises the training loss.
        #[arg(long)]
        validate: Option<PathBuf>,
    },
    /// Self-play training data: `FEN;result;score;ply` lines (and PGN), in-process.
    Selfplay(chariot::selfplay::cli::SelfplayArgs),
    /// Engine-vs-engine match refereed by the rules module, with Elo, LOS and SPRT.
    Match(chariot::matches::cli::MatchArgs),
    /// Opening book: build one from games, or show a book's moves.
    Book(chariot::book::cli::BookArgs),
    /// Elo ratings of several players from their games (maximum likelihood, with margins).
    Rate(chariot::rating::RateArgs),
    /// Fit the win/draw/loss model and the normalised score to self-play data.
    Wdl(chariot::wdl::fit::WdlArgs),
    /// Tune the search parameters by SPSA (needs a `--features tune` build).
    Spsa(chariot::spsa::cli::SpsaArgs),
    /// Developer tool: search magic numbers and print `src/attacks/magic_numbers.rs`.
    Magics {
        /// Seed of the search.
        #[arg(long, default_value_t = 0x00c4_a410_7000_0001)]
        seed: u64,
    },
}

/// A term index of the evaluation (`0..TERM_COUNT`).
fn term_index(s: &str) -> Result<usize, String> {
    count_in(s, 0..=chariot::weights::TERM_COUNT - 1)
}

/// An Adam step size: finite, above 0, at most `tune::MAX_LEARNING_RATE`.
fn learning_rate_arg(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= chariot::tune::MAX_LEARNING_RATE => Ok(x),
        _ => Err(format!(
            "'{s}' is not a step size above 0 and at most {}",
            chariot::tune::MAX_LEARNING_RATE
        )),
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => match chariot::protocol::run_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("chariot: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Judge { fen, moves, rule }) => ExitCode::from(chariot::rules::cli::judge(
            fen.as_deref(),
            &moves,
            rule,
            &mut io::stdout().lock(),
            &mut io::stderr().lock(),
        )),
        Some(Command::Bench {
            depth,
            threads,
            hash,
            params,
        }) => {
            let mut options = chariot::threads::EngineOptions {
                threads,
                hash_mb: hash,
                ..Default::default()
            };
            for p in &params {
                let set = p
                    .split_once('=')
                    .ok_or_else(|| format!("--param {p}: expected NAME=VALUE"))
                    .and_then(|(name, value)| {
                        let v = value
                            .trim()
                            .parse()
                            .map_err(|_| format!("--param {p}: the value is not an integer"))?;
                        options.params.set(name.trim(), v)
                    });
                if let Err(e) = set {
                    eprintln!("chariot: {e}");
                    return ExitCode::from(2);
                }
            }
            chariot::interrupt::install();
            let stop = chariot::interrupt::flag();
            let result = chariot::bench::run_with(depth, options, stop, |i, pos, nodes, ms| {
                eprintln!(
                    "Position {:>2}/{}: {:>10} nodes {:>7} ms  {}",
                    i + 1,
                    chariot::bench::POSITIONS.len(),
                    nodes,
                    ms,
                    pos.fen()
                );
            });
            let nps = result.total * 1000 / result.millis.max(1);
            eprintln!("===========================");
            eprintln!("Total time (ms) : {}", result.millis);
            if !result.complete {
                // A partial total is no signature: nothing on stdout.
                eprintln!(
                    "Interrupted after {} of {} positions: {} nodes, {nps} nodes/second",
                    result.nodes.len(),
                    chariot::bench::POSITIONS.len(),
                    result.total
                );
                return ExitCode::from(INTERRUPTED);
            }
            println!("Nodes searched: {}", result.total);
            println!("Nodes/second: {nps}");
            ExitCode::SUCCESS
        }
        Some(Command::Eval { fen }) => {
            match fen
                .map(|f| Position::from_fen(&f))
                .unwrap_or_else(|| Ok(Position::startpos()))
            {
                Ok(pos) => {
                    println!("{}", chariot::eval::describe(&pos));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("chariot eval: bad FEN: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Tune {
            data,
            epochs,
            lr,
            limit,
            out,
            svg,
            free_scale,
            from_term,
            validate,
        }) => run_tune(
            &data,
            limit,
            validate.as_deref(),
            &out,
            svg.as_deref(),
            chariot::tune::TuneConfig {
                epochs,
                learning_rate: lr,
                keep_scale: !free_scale,
                first_term: from_term,
            },
        ),
        Some(Command::Selfplay(args)) => ExitCode::from(chariot::selfplay::cli::main(args)),
        Some(Command::Match(args)) => ExitCode::from(chariot::matches::cli::main(args)),
        Some(Command::Book(args)) => ExitCode::from(chariot::book::cli::main(args)),
        Some(Command::Rate(args)) => ExitCode::from(chariot::rating::main(args)),
        Some(Command::Wdl(args)) => ExitCode::from(chariot::wdl::fit::main(args)),
        Some(Command::Spsa(args)) => ExitCode::from(chariot::spsa::cli::main(args)),
        Some(Command::Magics { seed }) => {
            print!("{}", chariot::attacks::finder::generate(seed));
            ExitCode::SUCCESS
        }
        Some(Command::Perft {
            depth,
            fen,
            divide,
            epd,
            max_nodes,
            threads,
        }) => {
            chariot::interrupt::install();
            match epd {
                Some(path) => run_suite(&path, depth, max_nodes, threads),
                None => run_perft(fen.as_deref(), depth.unwrap_or(1), divide, threads),
            }
        }
    }
}

/// The exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
const INTERRUPTED: u8 = 130;

fn run_perft(fen: Option<&str>, depth: u32, divide: bool, threads: usize) -> ExitCode {
    let pos = match fen
        .map(Position::from_fen)
        .unwrap_or_else(|| Ok(Position::startpos()))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("chariot perft: bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let stop = chariot::interrupt::flag();
    let counted = if divide {
        let counts = perft::divide_until(&pos, depth, threads, stop);
        for (mv, n) in &counts {
            if let Some(n) = n {
                println!("{mv}: {n}");
            }
        }
        let done = perft::Partial::of(&counts);
        if done.finished == done.moves {
            Ok(done.nodes)
        } else {
            Err(done)
        }
    } else {
        perft::perft_threads_until(&pos, depth, threads, stop)
    };
    let secs = start.elapsed().as_secs_f64();
    let nodes = match counted {
        Ok(nodes) => nodes,
        Err(done) => {
            eprintln!(
                "Interrupted after {:.3} s: {} of {} root moves counted, {} nodes",
                secs, done.finished, done.moves, done.nodes
            );
            return ExitCode::from(INTERRUPTED);
        }
    };
    println!("Nodes searched: {nodes}");
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

fn run_suite(
    path: &PathBuf,
    only_depth: Option<u32>,
    max_nodes: Option<u64>,
    threads: usize,
) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("chariot perft: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let entries = match parse_epd(&text) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("chariot perft: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    if entries.is_empty() {
        eprintln!("chariot perft: {}: no positions", path.display());
        return ExitCode::from(2);
    }
    let start = Instant::now();
    let (mut correct, mut total_nodes, mut checked) = (0, 0u64, 0usize);
    let stderr_is_tty = io::stderr().is_terminal();
    let stop = chariot::interrupt::flag();
    let mut visited = 0;
    for (i, entry) in entries.iter().enumerate() {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let pos = match Position::from_fen(&entry.fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("\nFAIL {}: bad FEN: {e}", entry.fen);
                continue;
            }
        };
        let mut ok = true;
        for &(depth, expected) in &entry.counts {
            if only_depth.is_some_and(|d| d != depth) || max_nodes.is_some_and(|m| expected > m) {
                continue;
            }
            let Ok(got) = perft::perft_threads_until(&pos, depth, threads, stop) else {
                break;
            };
            checked += 1;
            total_nodes += got;
            if got != expected {
                ok = false;
                eprintln!(
                    "\nFAIL {} depth {depth}: expected {expected}, got {got}",
                    entry.fen
                );
            }
        }
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        visited += 1;
        correct += ok as usize;
        let progress = format!(
            "[{}/{}] {} nodes, {:.1} s",
            i + 1,
            entries.len(),
            total_nodes,
            start.elapsed().as_secs_f64()
        );
        if stderr_is_tty {
            eprint!("\r{progress}");
        } else if (i + 1) % 10 == 0 || i + 1 == entries.len() {
            eprintln!("{progress}");
        }
    }
    if stderr_is_tty {
        eprintln!();
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        eprintln!(
            "Interrupted after {visited} of {} positions ({correct} correct, {total_nodes} nodes, {:.1} s)",
            entries.len(),
            start.elapsed().as_secs_f64()
        );
        return ExitCode::from(INTERRUPTED);
    }
    if checked == 0 {
        eprintln!(
            "chariot perft: {}: no count to check{}{}",
            path.display(),
            only_depth.map_or(String::new(), |d| format!(" at depth {d}")),
            max_nodes.map_or(String::new(), |m| format!(" with at most {m} nodes"))
        );
        return ExitCode::from(2);
    }
    println!("{correct}/{} positions correct", entries.len());
    if correct == entries.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The quiet positions of the data file `path` (its first `limit` lines), with what was
/// skipped said on stderr; `None` (after saying why) if the file cannot be read or holds no
/// usable position.
fn read_samples(
    path: &std::path::Path,
    limit: Option<usize>,
) -> Option<Vec<chariot::tune::Sample>> {
    use chariot::tune;
    let text = match std::fs::read(path) {
        Ok(bytes) => {
            let (text, skipped) = tune::utf8_lines(bytes);
            if skipped > 0 {
                eprintln!(
                    "chariot tune: {}: skipped {skipped} line(s) that are not valid UTF-8",
                    path.display()
                );
            }
            text
        }
        Err(e) => {
            eprintln!("chariot tune: cannot read {}: {e}", path.display());
            return None;
        }
    };
    let start = Instant::now();
    let (samples, stats) = tune::load(&text, limit);
    eprintln!(
        "{}: {} lines: {} quiet positions kept, {} noisy, {} malformed ({:.1} s)",
        path.display(),
        stats.lines,
        stats.kept,
        stats.noisy,
        stats.malformed,
        start.elapsed().as_secs_f64()
    );
    if samples.is_empty() {
        eprintln!("chariot tune: {}: no usable positions", path.display());
        return None;
    }
    Some(samples)
}

fn run_tune(
    data: &std::path::Path,
    limit: Option<usize>,
    validate: Option<&std::path::Path>,
    out: &std::path::Path,
    svg: Option<&std::path::Path>,
    cfg: chariot::tune::TuneConfig,
) -> ExitCode {
    use chariot::tune;
    let start = Instant::now();
    let Some(samples) = read_samples(data, limit) else {
        return ExitCode::from(2);
    };
    let held_out = match validate.map(|path| read_samples(path, None)) {
        None => None,
        Some(Some(samples)) => Some(samples),
        Some(None) => return ExitCode::from(2),
    };
    let fitted = tune::tune(&samples, &tune::current_weights(), &cfg, |e, secs| {
        eprintln!("epoch {:>5}  loss {:.6}  ({secs:.1} s)", e.epoch, e.loss);
    });
    let tune::TuneResult {
        weights,
        k,
        curve,
        loss_before,
        loss_after,
    } = match fitted {
        Ok(r) => r,
        Err(e) => {
            eprintln!("chariot tune: {e}; nothing written");
            return ExitCode::FAILURE;
        }
    };
    // The held-out loss, judged as the training loss is: each weight set at its own best K.
    let held_out_losses = held_out.as_ref().map(|h| {
        (
            tune::loss_at_best_k(h, &tune::current_weights()),
            tune::loss_at_best_k(h, &weights),
        )
    });
    if let Some((before, after)) = held_out_losses {
        eprintln!("held-out loss {before:.6} -> {after:.6}");
        if !after.is_finite() || after > before {
            eprintln!(
                "chariot tune: the fitted weights predict the held-out positions worse than the \
                 starting ones (loss {before:.6} -> {after:.6}); nothing written"
            );
            return ExitCode::FAILURE;
        }
    }
    let command = format!(
        "chariot tune --data {} --epochs {} --lr {}{}{}{}{}",
        data.display(),
        cfg.epochs,
        cfg.learning_rate,
        limit.map_or(String::new(), |n| format!(" --limit {n}")),
        validate.map_or(String::new(), |v| format!(" --validate {}", v.display())),
        if cfg.keep_scale { "" } else { " --free-scale" },
        if cfg.first_term > 0 {
            format!(" --from-term {}", cfg.first_term)
        } else {
            String::new()
        }
    );
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("chariot tune: cannot create {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    }
    if let Err(e) = std::fs::write(out, tune::weights_file(&weights, &command)) {
        eprintln!("chariot tune: cannot write {}: {e}", out.display());
        return ExitCode::from(2);
    }
    eprintln!("wrote {}", out.display());
    let mut code = ExitCode::SUCCESS;
    if let Some(svg) = svg {
        let title = format!("Texel loss, {} positions, K = {k:.5}", samples.len());
        let written = tune::loss_svg(&curve, &title)
            .and_then(|chart| std::fs::write(svg, chart).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("chariot tune: cannot write {}: {e}", svg.display());
            code = ExitCode::from(2);
        }
    }
    println!(
        "positions {} K {k:.6} loss before {loss_before:.6} after {loss_after:.6} time {:.1} s{}",
        samples.len(),
        start.elapsed().as_secs_f64(),
        held_out_losses.map_or(String::new(), |(before, after)| format!(
            " held-out {} before {before:.6} after {after:.6}",
            held_out.as_ref().map_or(0, |h| h.len())
        ))
    );
    code
}
