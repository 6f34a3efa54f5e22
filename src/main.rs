//! The `chariot` binary: with no subcommand, the protocol loop on stdin/stdout; otherwise a
//! command-line tool (perft, magic finder, …).

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use chariot::movegen::perft::{self, parse_epd};
use chariot::position::Position;

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
        /// Depth in plies.
        depth: Option<u32>,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move (`h2e2: 1234`).
        #[arg(long)]
        divide: bool,
        /// Run every position of a suite in `FEN;D1 n;D2 n;…` form.
        #[arg(long)]
        epd: Option<PathBuf>,
        /// With --epd: skip depths whose expected count is above this.
        #[arg(long)]
        max_nodes: Option<u64>,
        /// Split the root moves across this many threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Replay a game and print its result under RULES.md (`1-0 checkmate ply 31`, `* ply 4`).
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
        /// Search depth.
        #[arg(long, default_value_t = chariot::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Print the evaluation terms of a position.
    Eval {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Fit the evaluation weights to game results (Texel method) and write the weights file.
    Tune {
        /// Training data, one `FEN;result;...` line per position (e.g. from `chariot selfplay`).
        #[arg(long)]
        data: PathBuf,
        /// Passes of Adam over the data.
        #[arg(long, default_value_t = 300)]
        epochs: usize,
        /// Adam step size in centipawns.
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Use only the first N lines.
        #[arg(long)]
        limit: Option<usize>,
        /// Where to write the generated weights.
        #[arg(long, default_value = "src/eval/weights.rs")]
        out: PathBuf,
        /// Where to write the loss curve (SVG).
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Let the overall evaluation scale drift instead of anchoring it to the start weights.
        #[arg(long)]
        free_scale: bool,
        /// Fit only the terms from this index on (e.g. newly added ones; see `eval::Weights`);
        /// the others stay as compiled in.
        #[arg(long, default_value_t = 0)]
        from_term: usize,
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
    /// Developer tool: search magic numbers and print `src/attacks/magic_numbers.rs`.
    Magics {
        /// Seed of the search.
        #[arg(long, default_value_t = 0x00c4_a410_7000_0001)]
        seed: u64,
    },
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
        }) => {
            let result = chariot::bench::run(depth, threads, hash, |i, pos, nodes, ms| {
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
        }) => run_tune(
            &data,
            limit,
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
        }) => match epd {
            Some(path) => run_suite(&path, depth, max_nodes, threads),
            None => run_perft(fen.as_deref(), depth.unwrap_or(1), divide, threads),
        },
    }
}

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
    let nodes = if divide {
        let mut total = 0;
        for (mv, n) in perft::divide(&pos, depth, threads) {
            println!("{mv}: {n}");
            total += n;
        }
        total
    } else {
        perft::perft_threads(&pos, depth, threads)
    };
    let secs = start.elapsed().as_secs_f64();
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
    let start = Instant::now();
    let (mut correct, mut total_nodes) = (0, 0u64);
    let stderr_is_tty = io::stderr().is_terminal();
    for (i, entry) in entries.iter().enumerate() {
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
            let got = perft::perft_threads(&pos, depth, threads);
            total_nodes += got;
            if got != expected {
                ok = false;
                eprintln!(
                    "\nFAIL {} depth {depth}: expected {expected}, got {got}",
                    entry.fen
                );
            }
        }
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
    println!("{correct}/{} positions correct", entries.len());
    if correct == entries.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn run_tune(
    data: &std::path::Path,
    limit: Option<usize>,
    out: &std::path::Path,
    svg: Option<&std::path::Path>,
    cfg: chariot::tune::TuneConfig,
) -> ExitCode {
    use chariot::tune;
    let text = match std::fs::read_to_string(data) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("chariot tune: cannot read {}: {e}", data.display());
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let (samples, stats) = tune::load(&text, limit);
    eprintln!(
        "{} lines: {} quiet positions kept, {} noisy, {} malformed ({:.1} s)",
        stats.lines,
        stats.kept,
        stats.noisy,
        stats.malformed,
        start.elapsed().as_secs_f64()
    );
    if samples.is_empty() {
        eprintln!("chariot tune: no usable positions");
        return ExitCode::from(2);
    }
    let (weights, k, curve) = tune::tune(&samples, &tune::current_weights(), &cfg, |e, secs| {
        eprintln!("epoch {:>5}  loss {:.6}  ({secs:.1} s)", e.epoch, e.loss);
    });
    let command = format!(
        "chariot tune --data {} --epochs {} --lr {}{}{}{}",
        data.display(),
        cfg.epochs,
        cfg.learning_rate,
        limit.map_or(String::new(), |n| format!(" --limit {n}")),
        if cfg.keep_scale { "" } else { " --free-scale" },
        if cfg.first_term > 0 {
            format!(" --from-term {}", cfg.first_term)
        } else {
            String::new()
        }
    );
    if let Err(e) = std::fs::write(out, tune::weights_file(&weights, &command)) {
        eprintln!("chariot tune: cannot write {}: {e}", out.display());
        return ExitCode::from(2);
    }
    if let Some(svg) = svg {
        let title = format!("Texel loss, {} positions, K = {k:.5}", samples.len());
        if let Err(e) = std::fs::write(svg, tune::loss_svg(&curve, &title)) {
            eprintln!("chariot tune: cannot write {}: {e}", svg.display());
        }
    }
    let (first, last) = (
        curve[0].loss,
        curve.last().map_or(curve[0].loss, |e| e.loss),
    );
    println!(
        "positions {} K {k:.6} loss before {first:.6} after {last:.6} time {:.1} s",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
