//! `chariot book`: `build` makes a book from games, `show` prints a book's summary or the moves
//! of one position.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};

use super::build::{self, BuildConfig, GameMoves};
use super::Book;
use crate::position::Position;
use crate::types::Move;

/// Flags of `chariot book`.
#[derive(Args, Debug, Clone)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The `chariot book` subcommands.
#[derive(Subcommand, Debug, Clone)]
pub enum BookCommand {
    /// Build a book from games (PGN) and/or self-play data (FEN;result;score;ply lines).
    Build {
        /// A PGN file of games (repeatable).
        #[arg(long)]
        pgn: Vec<PathBuf>,
        /// A self-play data file (repeatable).
        #[arg(long)]
        samples: Vec<PathBuf>,
        /// Count the uncommented opening moves of PGN games too (games started from a
        /// trusted list of openings).
        #[arg(long)]
        all_moves: bool,
        /// Where to write the book.
        #[arg(long)]
        out: PathBuf,
        /// Count moves played before this game ply.
        #[arg(long, default_value_t = 20)]
        max_ply: u32,
        /// Games a move needs.
        #[arg(long, default_value_t = 3)]
        min_games: u32,
        /// Smoothed score (0-1, the mover's view) a move needs.
        #[arg(long, default_value_t = 0.3)]
        min_score: f64,
        /// Nodes per search of the soundness check (0: no check).
        #[arg(long, default_value_t = 20_000)]
        check_nodes: u64,
        /// Centipawns a move may score below the best move and still pass the check.
        #[arg(long, default_value_t = 40)]
        margin: i32,
        /// Threads for the check.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Print a book's summary, or the moves of one position.
    Show {
        /// The book (default: the built-in book).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from it first (ranks 0-9, space-separated).
        #[arg(long)]
        moves: Option<String>,
    },
}

/// Runs `chariot book`; returns the exit code (0, or 2 on bad input or I/O errors).
pub fn main(args: BookArgs) -> u8 {
    let result = match args.command {
        BookCommand::Build {
            pgn,
            samples,
            all_moves,
            out,
            max_ply,
            min_games,
            min_score,
            check_nodes,
            margin,
            threads,
        } => {
            let cfg = BuildConfig {
                max_ply,
                min_games: min_games.max(1),
                min_score,
                check_nodes,
                margin,
                threads: threads.max(1),
            };
            run_build(&pgn, &samples, all_moves, &out, &cfg)
        }
        BookCommand::Show { book, fen, moves } => {
            run_show(book.as_deref(), fen.as_deref(), moves.as_deref())
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("chariot book: {e}");
            2
        }
    }
}

fn run_build(
    pgn: &[PathBuf],
    samples: &[PathBuf],
    all_moves: bool,
    out: &Path,
    cfg: &BuildConfig,
) -> Result<(), String> {
    if pgn.is_empty() && samples.is_empty() {
        return Err("give at least one --pgn or --samples file".into());
    }
    if !(0.0..=1.0).contains(&cfg.min_score) {
        return Err("--min-score must be between 0 and 1".into());
    }
    if cfg.margin < 0 {
        return Err("--margin must not be negative".into());
    }
    let mut games: Vec<GameMoves> = Vec::new();
    let read = |p: &PathBuf| {
        std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    for p in pgn {
        let (g, warnings) = build::games_from_pgn(&read(p)?, all_moves);
        report_warnings(p, &warnings);
        eprintln!("{}: {} games", p.display(), g.len());
        games.extend(g);
    }
    for p in samples {
        let (g, warnings) = build::games_from_samples(&read(p)?);
        report_warnings(p, &warnings);
        eprintln!("{}: {} games", p.display(), g.len());
        games.extend(g);
    }
    let start = Instant::now();
    let live = std::io::stderr().is_terminal();
    let (entries, report) = build::build(&games, cfg, |done, total| {
        if live && (done % 50 == 0 || done == total) {
            eprint!("\rsearch check {done}/{total}");
        } else if !live && (done % 1000 == 0 || done == total) {
            eprintln!("search check {done}/{total}");
        }
    });
    if live {
        eprintln!();
    }
    if entries.is_empty() {
        return Err(format!(
            "no move passed the filters ({} pairs seen, {} frequent); nothing written",
            report.pairs_seen, report.pairs_frequent
        ));
    }
    let inputs: String = pgn
        .iter()
        .map(|p| format!(" --pgn {}", p.display()))
        .chain(
            samples
                .iter()
                .map(|p| format!(" --samples {}", p.display())),
        )
        .collect();
    let comment = format!(
        "chariot book build{inputs}{} --max-ply {} --min-games {} --min-score {} --check-nodes {} \
         --margin {}\n{} games; {} (position, move) pairs seen, {} frequent, {} dropped by the \
         search check; {} positions, {} moves",
        if all_moves { " --all-moves" } else { "" },
        cfg.max_ply,
        cfg.min_games,
        cfg.min_score,
        cfg.check_nodes,
        cfg.margin,
        report.games,
        report.pairs_seen,
        report.pairs_frequent,
        report.pairs_unsound,
        report.positions,
        report.moves
    );
    let book = Book::new(&entries, &comment);
    let bytes = book.to_bytes();
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "{}: {} positions, {} moves, {} bytes ({:.1} s)",
        out.display(),
        book.positions(),
        book.len(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    println!("{comment}");
    Ok(())
}

fn report_warnings(path: &Path, warnings: &[String]) {
    for w in warnings.iter().take(10) {
        eprintln!("{}: warning: {w}", path.display());
    }
    if warnings.len() > 10 {
        eprintln!(
            "{}: … and {} more warnings",
            path.display(),
            warnings.len() - 10
        );
    }
}

fn run_show(path: Option<&Path>, fen: Option<&str>, moves: Option<&str>) -> Result<(), String> {
    let owned;
    let book: &Book = match path {
        Some(p) => {
            owned = Book::load(p).map_err(|e| e.to_string())?;
            &owned
        }
        None => super::builtin().ok_or("the built-in book is unusable")?,
    };
    if fen.is_none() && moves.is_none() {
        println!(
            "{}: {} positions, {} moves, {} bytes",
            path.map_or("built-in book".to_string(), |p| p.display().to_string()),
            book.positions(),
            book.len(),
            book.to_bytes().len()
        );
        println!("{}", book.comment());
        return Ok(());
    }
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    for token in moves.unwrap_or("").split_whitespace() {
        let mv: Move = token
            .parse()
            .map_err(|_| format!("cannot read move '{token}'"))?;
        if !pos.is_legal(mv) {
            return Err(format!("illegal move '{token}' in {}", pos.fen()));
        }
        pos.make_move(mv);
    }
    let entries = book.probe(pos.key());
    let total: u32 = entries.iter().map(|e| u32::from(e.weight)).sum();
    println!("{}: {} book moves", pos.fen(), entries.len());
    for e in entries {
        println!(
            "{} {:>5} {:5.1} %",
            e.mv,
            e.weight,
            100.0 * f64::from(e.weight) / f64::from(total.max(1))
        );
    }
    Ok(())
}
