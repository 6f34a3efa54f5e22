//! The `chariot match` command line: flags, loading openings, running, the summary; and
//! `chariot match merge`, the summary of the results files of many slices.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand};

use super::openings;
use super::results;
use super::spec::EngineSpec;
use super::stats::SprtConfig;
use super::{run_match_resumed, GameOutcome, MatchConfig, MatchReport, MoveLimit, TimeControl};
use crate::args::{minutes, positive_count, search_depth};
use crate::rules::MoveCountRule;
use crate::shard::Shard;

/// Flags of `chariot match`. Counts are checked when parsed: zero games, concurrency,
/// nodes, movetime, timeouts or plies and a depth beyond 64 are refused.
#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["tc", "movetime", "nodes", "depth"])))]
#[command(subcommand_negates_reqs = true, args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    /// `merge`: the summary of the results files of a match's slices.
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// An engine: "cmd=PATH name=NAME proto=uci|ucci|cyclone|internal ranks=0|1
    /// timeunit=auto|ms|s nodes=N option.Hash=16 …" (give exactly two).
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
    /// Number of games (of the whole match, all slices together; at least 1).
    #[arg(long, required = true, value_parser = positive_count)]
    pub games: Option<usize>,
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
    /// Play only the I-th of N contiguous blocks of game pairs (`I/N`), for array jobs; the
    /// SPRT then never stops the slice early (merge the slices' --results for the verdict).
    #[arg(long, default_value = "0/1")]
    pub slice: Shard,
    /// Write every game as a JSON line here (a header first, an end line when finished), for
    /// `chariot match merge`.
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Continue a stopped run of the same command: keep the finished games of the --results
    /// file (its settings and slice must match) and play only the rest, appending to --pgn.
    /// Without the file (or with an empty one) the run starts afresh.
    #[arg(long, requires = "results")]
    pub resume: bool,
    /// Start no new game after this many minutes (games in progress are played to their end),
    /// e.g. to end before a job's time limit. If games are left, the results file gets no end
    /// line (`--resume` plays them) and the exit status is 3.
    #[arg(long, value_name = "MINUTES", value_parser = minutes)]
    pub stop_after: Option<Duration>,
}

/// Subcommands of `chariot match`.
#[derive(Subcommand, Debug, Clone)]
pub enum MatchCommand {
    /// Merge the --results files of a match's slices and print the match summary, exactly as
    /// one machine playing the same games prints it.
    Merge {
        /// Results files, one per slice, in any order.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Count the games of the files at hand even if slices are missing or incomplete.
        #[arg(long)]
        partial: bool,
    },
}

/// Exit status of a run that stopped starting games at its `--stop-after` time with games of
/// the slice left (its results file can be resumed).
pub const STOPPED_EXIT: u8 = 3;

/// Runs `chariot match`; returns the process exit code: 0, 2 on bad input or a failed match,
/// [`STOPPED_EXIT`] when `--stop-after` left games unplayed.
pub fn main(args: MatchArgs) -> u8 {
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("chariot match: {e}");
            2
        }
    }
}

fn run(args: MatchArgs) -> Result<u8, String> {
    if let Some(MatchCommand::Merge { files, partial }) = &args.command {
        return merge(files, *partial).map(|()| 0);
    }
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
    let games = args.games.unwrap_or(0);
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    if first.nodes.or(second.nodes).is_some()
        && !matches!(limit, MoveLimit::Nodes(_) | MoveLimit::Depth(_))
    {
        return Err("an engine's nodes= needs the match to use --nodes or --depth".into());
    }
    let mut config = MatchConfig::new([first, second], limit, games);
    config.slice = args.slice;
    if config.game_range().is_empty() {
        return Err(format!(
            "slice {} of {games} games ({} pairs) plays none",
            config.slice,
            config.pairs()
        ));
    }
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
    config.stop_after = args.stop_after;
    let kept = match (&args.results, args.resume) {
        (Some(path), true) => match resumable(path, &config)? {
            Resume::Fresh => Vec::new(),
            Resume::Kept(games) => games,
            Resume::Complete(report) => {
                eprintln!("{}: the slice is complete; nothing to play", path.display());
                print!("{report}");
                return Ok(0);
            }
        },
        _ => Vec::new(),
    };
    let mut pgn_file = match &args.pgn {
        Some(path) => {
            let file = if args.resume {
                OpenOptions::new().create(true).append(true).open(path)
            } else {
                File::create(path)
            };
            Some(BufWriter::new(file.map_err(|e| {
                format!("cannot create {}: {e}", path.display())
            })?))
        }
        None => None,
    };
    let mut results_file: Option<Box<dyn Write>> = match &args.results {
        // The old file stays as it is until the engines have started and the rewrite begins.
        Some(path) if args.resume => Some(Box::new(CreateOnWrite {
            path: path.clone(),
            file: None,
        })),
        Some(path) => Some(Box::new(BufWriter::new(
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        ))),
        None => None,
    };
    if !config.slice.is_whole() {
        let range = config.game_range();
        eprintln!(
            "slice {}: games {}..{} of {}",
            config.slice,
            range.start + 1,
            range.end,
            config.games
        );
    }
    let stderr = io::stderr();
    let mut progress = stderr.lock();
    let report = run_match_resumed(
        &config,
        &kept,
        &mut progress,
        pgn_file.as_mut().map(|f| f as &mut dyn Write),
        results_file.as_mut().map(|f| f.as_mut() as &mut dyn Write),
    )?;
    if let Some(mut f) = pgn_file {
        f.flush()
            .map_err(|e| format!("cannot write the PGN: {e}"))?;
    }
    if let Some(mut f) = results_file {
        f.flush()
            .map_err(|e| format!("cannot write the results: {e}"))?;
    }
    drop(progress);
    print!("{report}");
    Ok(if report.unplayed > 0 { STOPPED_EXIT } else { 0 })
}

/// A file that is created (an old one truncated) at its first write.
struct CreateOnWrite {
    path: PathBuf,
    file: Option<BufWriter<File>>,
}

impl Write for CreateOnWrite {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let file = match &mut self.file {
            Some(file) => file,
            None => self.file.insert(BufWriter::new(File::create(&self.path)?)),
        };
        file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().map_or(Ok(()), Write::flush)
    }
}

/// What `--resume` finds in the results file.
enum Resume {
    /// No file, or an empty one: play the whole slice.
    Fresh,
    /// The games that were played (the rest are to be played).
    Kept(Vec<GameOutcome>),
    /// The slice finished: its summary.
    Complete(Box<MatchReport>),
}

/// Reads the results file of a stopped run for `--resume`; refuses a file of another run or
/// slice, or one that does not read.
fn resumable(path: &Path, config: &MatchConfig) -> Result<Resume, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Resume::Fresh),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    // A run killed while writing a line leaves it unfinished (no newline): it is dropped.
    let complete = text.rfind('\n').map_or(0, |end| end + 1);
    if complete < text.len() {
        eprintln!("{}: dropping its unfinished last line", path.display());
    }
    let text = &text[..complete];
    if text.trim().is_empty() {
        return Ok(Resume::Fresh);
    }
    let old = results::read(text).map_err(|e| format!("cannot resume {}: {e}", path.display()))?;
    if old.header.settings != results::settings_fingerprint(config) {
        return Err(format!(
            "cannot resume {}: it is from another run (engines, limit, games, slices, \
             openings, rules or SPRT differ)",
            path.display()
        ));
    }
    if old.header.slice != config.slice {
        return Err(format!(
            "cannot resume {}: it holds slice {}, not {}",
            path.display(),
            old.header.slice,
            config.slice
        ));
    }
    if old.is_complete() {
        let mut report = MatchReport::new(old.header.names, old.header.sprt, old.header.repeat);
        report.scheduled = config.game_range().len();
        for game in &old.games {
            report.add_outcome(game);
        }
        report.elapsed = old.elapsed.unwrap_or_default();
        return Ok(Resume::Complete(Box::new(report)));
    }
    Ok(Resume::Kept(old.games))
}

/// `chariot match merge`: reads the files, prints the summary (stdout) and what is missing
/// (stderr).
fn merge(files: &[PathBuf], partial: bool) -> Result<(), String> {
    let mut texts = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        texts.push((path.display().to_string(), text));
    }
    let merged = results::merge(&texts, partial)?;
    if !merged.missing.is_empty() || !merged.incomplete.is_empty() {
        let show = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
        eprintln!(
            "warning: partial merge: missing slices [{}], incomplete slices [{}]",
            show(&merged.missing),
            show(&merged.incomplete)
        );
    }
    // A closed stdout (`| head`) is no error worth a panic.
    let _ = write!(io::stdout().lock(), "{}", merged.report);
    Ok(())
}
