//! The `chariot match` command line: flags, loading openings, running, the summary.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::openings;
use super::spec::EngineSpec;
use super::stats::SprtConfig;
use super::{run_match, MatchConfig, MoveLimit, TimeControl};
use crate::args::{positive_count, search_depth};
use crate::rules::MoveCountRule;

/// Flags of `chariot match`. Counts are checked when parsed: zero games, concurrency,
/// nodes, movetime, timeouts or plies and a depth beyond 64 are refused.
#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["tc", "movetime", "nodes", "depth"])))]
pub struct MatchArgs {
    /// An engine: "cmd=PATH name=NAME proto=uci|ucci|cyclone|internal ranks=0|1
    /// timeunit=auto|ms|s option.Hash=16 …" (give exactly two).
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// Time control `[moves/]seconds[+increment]`, e.g. 10+0.1.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move in milliseconds (at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Fixed nodes per move (at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Fixed depth per move (1-64).
    #[arg(long, value_parser = search_depth)]
    pub depth: Option<u32>,
    /// Number of games (at least 1).
    #[arg(long, value_parser = positive_count)]
    pub games: usize,
    /// Opening book: EPD (one position a line) or PGN (start position + moves).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Play each opening twice with colours swapped (the default).
    #[arg(long, conflicts_with = "no_repeat")]
    pub repeat: bool,
    /// Give every game its own opening.
    #[arg(long)]
    pub no_repeat: bool,
    /// Games played at the same time (at least 1).
    #[arg(long, default_value_t = 1, value_parser = positive_count)]
    pub concurrency: usize,
    /// Write the games here as PGN.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Sequential test: elo0=0 elo1=5 alpha=0.05 beta=0.05 (logistic Elo); stops when decided.
    #[arg(long, num_args = 1..=4, value_delimiter = None)]
    pub sprt: Option<Vec<String>>,
    /// Move-count rule of the referee: cxq, sixty or none.
    #[arg(long, default_value = "cxq")]
    pub rule: MoveCountRule,
    /// Milliseconds an engine may exceed its clock (or movetime) before it loses on time.
    #[arg(long, default_value_t = 100)]
    pub time_margin: u64,
    /// Seconds to wait for a move under --nodes/--depth before sending stop (at least 1).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub move_timeout: u64,
    /// Milliseconds to wait after stop before an engine counts as hung and is killed.
    #[arg(long, default_value_t = 2000)]
    pub hang_grace: u64,
    /// Seconds an engine has to start and answer `uci`/`ucci` (and each `isready`; at least 1).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub startup_timeout: u64,
    /// Adjudicate a draw after this many plies (at least 1).
    #[arg(long, value_parser = positive_count)]
    pub max_plies: Option<usize>,
    /// PGN Event tag.
    #[arg(long, default_value = "Chariot match")]
    pub event: String,
}

/// Runs `chariot match`; returns the process exit code (0, or 2 on bad input).
pub fn main(args: MatchArgs) -> u8 {
    match run(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("chariot match: {e}");
            2
        }
    }
}

fn run(args: MatchArgs) -> Result<(), String> {
    if args.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine specs, not {}",
            args.engines.len()
        ));
    }
    let first: EngineSpec = args.engines[0]
        .parse()
        .map_err(|e| format!("engine 1: {e}"))?;
    let second: EngineSpec = args.engines[1]
        .parse()
        .map_err(|e| format!("engine 2: {e}"))?;
    let limit = match (&args.tc, args.movetime, args.nodes, args.depth) {
        (Some(tc), ..) => MoveLimit::Clock(tc.parse::<TimeControl>()?),
        (_, Some(ms), ..) if ms > 0 => MoveLimit::MoveTime(Duration::from_millis(ms)),
        (_, _, Some(n), _) if n > 0 => MoveLimit::Nodes(n),
        (_, _, _, Some(d)) if d > 0 => MoveLimit::Depth(d),
        _ => return Err("the move limit must be positive".into()),
    };
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let mut config = MatchConfig::new([first, second], limit, args.games);
    if let Some(path) = &args.openings {
        let (book, warnings) = openings::load(path)?;
        for w in warnings.iter().take(10) {
            eprintln!("warning: {w}");
        }
        if warnings.len() > 10 {
            eprintln!("warning: … and {} more skipped", warnings.len() - 10);
        }
        config.openings = book;
    }
    config.repeat = !args.no_repeat;
    config.concurrency = args.concurrency;
    if let Some(words) = &args.sprt {
        config.sprt = Some(
            words
                .join(" ")
                .parse::<SprtConfig>()
                .map_err(|e| e.to_string())?,
        );
    }
    config.rule = args.rule;
    config.time_margin = Duration::from_millis(args.time_margin);
    config.move_timeout = Duration::from_secs(args.move_timeout);
    config.hang_grace = Duration::from_millis(args.hang_grace);
    config.max_plies = args.max_plies;
    config.startup_timeout = Duration::from_secs(args.startup_timeout);
    config.event = args.event.clone();
    let mut pgn_file = match &args.pgn {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                format!("cannot create {}: {e}", path.display())
            })?))
        }
        None => None,
    };
    let stderr = io::stderr();
    let mut progress = stderr.lock();
    let report = run_match(
        &config,
        &mut progress,
        pgn_file.as_mut().map(|f| f as &mut dyn Write),
    )?;
    if let Some(mut f) = pgn_file {
        f.flush()
            .map_err(|e| format!("cannot write the PGN: {e}"))?;
    }
    drop(progress);
    print!("{report}");
    Ok(())
}
