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
#[command(name = "chariot", version, about = "Chariot, a Xiangqi engine (UCI on stdin/stdout by default)")]
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
        None => {
            if io::stdin().is_terminal() {
                eprintln!("Chariot {} (Xiangqi engine): type uci", env!("CARGO_PKG_VERSION"));
            }
            let stdin = io::stdin();
            match chariot::protocol::uci::run(stdin.lock(), io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("chariot: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Judge { fen, moves, rule }) => ExitCode::from(chariot::rules::cli::judge(
            fen.as_deref(),
            &moves,
            rule,
            &mut io::stdout().lock(),
            &mut io::stderr().lock(),
        )),
        Some(Command::Magics { seed }) => {
            print!("{}", chariot::attacks::finder::generate(seed));
            ExitCode::SUCCESS
        }
        Some(Command::Perft { depth, fen, divide, epd, max_nodes, threads }) => match epd {
            Some(path) => run_suite(&path, depth, max_nodes, threads),
            None => run_perft(fen.as_deref(), depth.unwrap_or(1), divide, threads),
        },
    }
}

fn run_perft(fen: Option<&str>, depth: u32, divide: bool, threads: usize) -> ExitCode {
    let pos = match fen.map(Position::from_fen).unwrap_or_else(|| Ok(Position::startpos())) {
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
    eprintln!("time {:.3} s, {:.0} nodes/s", secs, nodes as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}

fn run_suite(path: &PathBuf, only_depth: Option<u32>, max_nodes: Option<u64>, threads: usize) -> ExitCode {
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
                eprintln!("\nFAIL {} depth {depth}: expected {expected}, got {got}", entry.fen);
            }
        }
        correct += ok as usize;
        let progress = format!("[{}/{}] {} nodes, {:.1} s", i + 1, entries.len(), total_nodes, start.elapsed().as_secs_f64());
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

