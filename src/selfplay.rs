//! `chariot selfplay`: Chariot against itself, in-process, to make training data.
//!
//! Games run on a rayon pool of `threads` workers; each worker owns one single-threaded
//! [`Engine`] with a small hash, cleared before every game, and searches a fixed number of
//! nodes or a fixed depth per move, so a game depends only on its seed: game `i` is seeded
//! from `seed + i` and the output is the same for any number of threads. Openings come from
//! an EPD/PGN book (game `i` takes opening `i mod n`) and/or `random_plies` random legal
//! moves. Every game is refereed by [`Game`] (mate, stalemate, perpetual check/chase, CXQ
//! draws), optionally shortened by score-based resign/draw adjudication.
//!
//! Output: one line per sampled position, `FEN;result;score;ply`, where `result` is the game
//! result from Red's view (`1-0`, `0-1`, `1/2-1/2`), `score` the search score from Red's
//! view in centipawns (a mate in `n` plies is written `±(32000 − n)`), and `ply` the number of
//! moves played from the game's start position. Positions where the side to move is in check
//! and positions whose best move is a capture can be skipped. Games are written in game
//! order. `--shard I/N` plays the `I`-th of `N` contiguous blocks of games; the shards'
//! outputs concatenated in shard order are byte for byte the output of the whole run.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::matches::openings::Opening;
use crate::matches::{Ending, GameRecord, MoveLimit};
use crate::movegen::legal_moves;
use crate::position::START_FEN;
use crate::rules::{GameResult, MoveCountRule};
use crate::search::limits::Limits;
use crate::search::report::Score;
use crate::search::score::MATE;
use crate::threads::{Engine, EngineOptions, SilentReporter};
use crate::types::{Color, Move};

pub use crate::shard::Shard;

/// The search limit per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// Fixed nodes.
    Nodes(u64),
    /// Fixed depth.
    Depth(u32),
}

/// Score-based adjudication: a side resigns when the score from Red's view has been at least
/// `resign_cp` (or at most `−resign_cp`) for `resign_moves` moves of each side; a draw is
/// agreed after `draw_after` plies when `|score| ≤ draw_cp` for `draw_moves` moves of each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign threshold in centipawns and the number of moves per side it must hold.
    pub resign: Option<(i32, usize)>,
    /// Draw threshold in centipawns, moves per side, and the earliest ply.
    pub draw: Option<(i32, usize, usize)>,
}

/// Everything a self-play run needs.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// Games in the whole run (all shards).
    pub games: usize,
    /// Nodes or depth per move.
    pub limit: SearchLimit,
    /// Worker threads (one game each).
    pub threads: usize,
    /// Base seed.
    pub seed: u64,
    /// Opening book (empty: the start position).
    pub openings: Vec<Opening>,
    /// Random legal moves played after the book moves.
    pub random_plies: usize,
    /// Which games this process plays.
    pub shard: Shard,
    /// Hash per worker in MiB.
    pub hash_mb: usize,
    /// Move-count rule of the referee and the search.
    pub rule: MoveCountRule,
    /// Skip positions where the side to move is in check.
    pub skip_check: bool,
    /// Skip positions whose best move is a capture.
    pub skip_noisy: bool,
    /// Score-based adjudication.
    pub adjudication: Adjudication,
    /// Draw a game that reaches this many plies.
    pub max_plies: usize,
}

impl SelfplayConfig {
    /// Defaults around the essentials: 1 thread, seed 1, no book, 8 random plies, 4 MiB hash,
    /// CXQ rules, all positions kept, no adjudication, 1000 plies at most.
    pub fn new(games: usize, limit: SearchLimit) -> SelfplayConfig {
        SelfplayConfig {
            games,
            limit,
            threads: 1,
            seed: 1,
            openings: Vec::new(),
            random_plies: 8,
            shard: Shard::default(),
            hash_mb: 4,
            rule: MoveCountRule::Cxq,
            skip_check: false,
            skip_noisy: false,
            adjudication: Adjudication::default(),
            max_plies: 1000,
        }
    }

    /// The game numbers this shard plays, in order: the shard's contiguous block of the run
    /// (see [`Shard::range`]).
    pub fn my_games(&self) -> Vec<usize> {
        self.shard.range(self.games).collect()
    }
}

/// One position written to the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position.
    pub fen: String,
    /// Search score from Red's view (centipawns; mates as `±(32000 − plies)`).
    pub score: i32,
    /// Moves played from the game's start position.
    pub ply: usize,
}

/// One self-play game and its samples.
#[derive(Clone, Debug)]
pub struct SelfplayGame {
    /// The game (engine 0 plays both sides).
    pub record: GameRecord,
    /// Positions sampled for the output.
    pub samples: Vec<Sample>,
}

impl SelfplayGame {
    /// The output lines `FEN;result;score;ply`, each ending in a newline.
    pub fn lines(&self) -> String {
        let result = self.record.result();
        let mut out = String::new();
        for s in &self.samples {
            out.push_str(&format!("{};{};{};{}\n", s.fen, result, s.score, s.ply));
        }
        out
    }
}

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator for game `index` of a run with `seed`.
    pub fn for_game(seed: u64, index: usize) -> SplitMix {
        SplitMix(seed.wrapping_add(index as u64))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// A search score as centipawns from the side to move's view (mates as `±(32000 − plies)`).
pub fn score_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -(MATE - 2 * n.abs()),
    }
}

/// The engine options of one self-play worker.
pub fn worker_options(config: &SelfplayConfig) -> EngineOptions {
    EngineOptions {
        threads: 1,
        hash_mb: config.hash_mb,
        move_rule: config.rule,
        move_overhead: Duration::ZERO,
        ..EngineOptions::default()
    }
}

/// Sets up game `index`: the book opening, then random plies. A random line that ends the
/// game is replaced by another (up to 100 tries).
fn opening_game(config: &SelfplayConfig, index: usize, rng: &mut SplitMix) -> (Game, usize) {
    let opening = match config.openings.len() {
        0 => Opening {
            fen: START_FEN.to_string(),
            moves: Vec::new(),
        },
        n => config.openings[index % n].clone(),
    };
    let fresh = || {
        let mut game = Game::with_rule(&opening.fen, config.rule)
            .unwrap_or_else(|_| Game::with_rule(START_FEN, config.rule).expect("start FEN"));
        for &mv in &opening.moves {
            if game.push(mv).is_err() {
                break;
            }
        }
        game
    };
    let mut game = fresh();
    for _attempt in 0..100 {
        game = fresh();
        for _ in 0..config.random_plies {
            let moves = legal_moves(game.position());
            if moves.is_empty() || game.result().is_decided() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            if game.push(mv).is_err() {
                break;
            }
        }
        if !game.result().is_decided() {
            break;
        }
    }
    let plies = game.moves().len();
    (game, plies)
}

/// Plays game `index` with `engine` (cleared first).
pub fn play_game(engine: &mut Engine, config: &SelfplayConfig, index: usize) -> SelfplayGame {
    let mut rng = SplitMix::for_game(config.seed, index);
    let (mut game, opening_plies) = opening_game(config, index, &mut rng);
    engine.new_game();
    let limits = match config.limit {
        SearchLimit::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        SearchLimit::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
    };
    let reporter = Arc::new(SilentReporter);
    let mut samples = Vec::new();
    let mut comments = vec![String::new(); opening_plies];
    let (mut red_ahead, mut black_ahead, mut level) = (0usize, 0usize, 0usize);
    let (winner, ending) = loop {
        if let GameResult::Decided { winner, reason, .. } = game.result() {
            break (winner, Ending::Rules(reason));
        }
        if game.moves().len() >= config.max_plies {
            break (None, Ending::MaxPlies(game.moves().len()));
        }
        let pos = game.position();
        let result = engine.search(pos, limits.clone(), reporter.clone());
        let Some(best) = result.best else {
            log::warn!("selfplay game {}: no move in {}", index + 1, pos.fen());
            break (None, Ending::Abandoned);
        };
        let red_view = |cp: i32| {
            if pos.side_to_move() == Color::Red {
                cp
            } else {
                -cp
            }
        };
        let score = red_view(score_cp(result.score));
        let skip =
            (config.skip_check && pos.in_check()) || (config.skip_noisy && pos.is_capture(best));
        let keep = !skip;
        if keep {
            samples.push(Sample {
                fen: pos.fen(),
                score,
                ply: game.moves().len(),
            });
        }
        comments.push(format!("{score:+}/{}", result.depth));
        if game.push(best).is_err() {
            log::warn!(
                "selfplay game {}: search returned an illegal move {best}",
                index + 1
            );
            break (None, Ending::Abandoned);
        }
        if let Some((cp, moves)) = config.adjudication.resign {
            red_ahead = if score >= cp { red_ahead + 1 } else { 0 };
            black_ahead = if score <= -cp { black_ahead + 1 } else { 0 };
            if red_ahead >= 2 * moves {
                break (
                    Some(Color::Red),
                    Ending::Adjudication("adjudication-resign"),
                );
            }
            if black_ahead >= 2 * moves {
                break (
                    Some(Color::Black),
                    Ending::Adjudication("adjudication-resign"),
                );
            }
        }
        if let Some((cp, moves, after)) = config.adjudication.draw {
            level = if score.abs() <= cp { level + 1 } else { 0 };
            if level >= 2 * moves && game.moves().len() >= after {
                break (None, Ending::Adjudication("adjudication-draw"));
            }
        }
    };
    let moves: Vec<Move> = game.moves().to_vec();
    comments.resize(moves.len(), String::new());
    let record = GameRecord {
        index,
        red: 0,
        start_fen: game.start_fen().to_string(),
        moves,
        comments,
        opening_plies,
        winner,
        ending,
        lowest_clock_ms: [None; 2],
    };
    SelfplayGame { record, samples }
}

/// Totals of a run.
#[derive(Clone, Debug, Default)]
pub struct SelfplayReport {
    /// Games this shard plays.
    pub scheduled: usize,
    /// Games finished.
    pub games: usize,
    /// Red wins, draws, Black wins.
    pub red_wins: usize,
    /// Draws.
    pub draws: usize,
    /// Black wins.
    pub black_wins: usize,
    /// Positions written.
    pub positions: usize,
    /// Plies played in all games.
    pub plies: usize,
    /// Ending kind → count.
    pub endings: BTreeMap<String, usize>,
    /// Wall time.
    pub elapsed: Duration,
}

impl SelfplayReport {
    fn add(&mut self, g: &SelfplayGame) {
        self.games += 1;
        match g.record.winner {
            Some(Color::Red) => self.red_wins += 1,
            Some(Color::Black) => self.black_wins += 1,
            None => self.draws += 1,
        }
        self.positions += g.samples.len();
        self.plies += g.record.moves.len();
        *self
            .endings
            .entry(g.record.ending.kind().to_string())
            .or_default() += 1;
    }

    /// Games per second so far.
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The progress line: games done, rate, W/D/L, ETA.
    pub fn progress_line(&self) -> String {
        let rate = self.games_per_second();
        let left = self.scheduled.saturating_sub(self.games) as f64;
        let eta = if rate > 0.0 { left / rate } else { 0.0 };
        format!(
            "games {}/{}  {:.2} games/s  Red-Draw-Black {}-{}-{}  positions {}  ETA {}",
            self.games,
            self.scheduled,
            rate,
            self.red_wins,
            self.draws,
            self.black_wins,
            self.positions,
            hms(eta)
        )
    }
}

fn hms(secs: f64) -> String {
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

impl fmt::Display for SelfplayReport {
    /// The summary block.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        writeln!(f, "=== Self-play summary ===")?;
        writeln!(
            f,
            "Games: {} of {} in {:.1} s ({:.2} games/s), {} plies (avg {:.1})",
            self.games,
            self.scheduled,
            secs,
            self.games as f64 / secs,
            self.plies,
            self.plies as f64 / self.games.max(1) as f64
        )?;
        writeln!(
            f,
            "Red wins {}, draws {}, Black wins {}",
            self.red_wins, self.draws, self.black_wins
        )?;
        writeln!(
            f,
            "Positions written: {} ({:.0}/s)",
            self.positions,
            self.positions as f64 / secs
        )?;
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        writeln!(
            f,
            "Endings: {}",
            if endings.is_empty() {
                "-".into()
            } else {
                endings.join(", ")
            }
        )
    }
}

/// Runs the games of this shard on a rayon pool; positions go to `out` and games to `pgn` in
/// game order; progress lines go to `progress` (with `\r` updates when `live`).
pub fn run(
    config: &SelfplayConfig,
    out: &mut dyn Write,
    mut pgn: Option<&mut dyn Write>,
    progress: &mut dyn Write,
    live: bool,
) -> io::Result<SelfplayReport> {
    let start = Instant::now();
    let games = config.my_games();
    let mut report = SelfplayReport {
        scheduled: games.len(),
        ..SelfplayReport::default()
    };
    let threads = config.threads.clamp(1, games.len().max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("selfplay-{i}"))
        .build()
        .map_err(io::Error::other)?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, SelfplayGame)>();
    let names = ["Chariot".to_string(), "Chariot".to_string()];
    let limit = match config.limit {
        SearchLimit::Nodes(n) => MoveLimit::Nodes(n),
        SearchLimit::Depth(d) => MoveLimit::Depth(d),
    };
    let mut result = Ok(());
    std::thread::scope(|scope| {
        let (games, next) = (&games, &next);
        scope.spawn(move || {
            pool.scope(|s| {
                for _ in 0..threads {
                    let tx = tx.clone();
                    s.spawn(move |_| {
                        let mut engine = Engine::new(worker_options(config));
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&index) = games.get(k) else { return };
                            let game = play_game(&mut engine, config, index);
                            if tx.send((k, game)).is_err() {
                                return;
                            }
                        }
                    });
                }
            });
            drop(tx);
        });
        let mut pending: BTreeMap<usize, SelfplayGame> = BTreeMap::new();
        let mut next_to_write = 0;
        let mut last_print = Instant::now();
        for (k, game) in rx {
            report.add(&game);
            pending.insert(k, game);
            while let Some(g) = pending.remove(&next_to_write) {
                if result.is_ok() {
                    result = out.write_all(g.lines().as_bytes());
                    if let (Some(p), true) = (pgn.as_mut(), result.is_ok()) {
                        let text = g
                            .record
                            .to_pgn(&names, "Chariot self-play", &limit)
                            .to_pgn();
                        result = p.write_all(text.as_bytes());
                    }
                }
                next_to_write += 1;
            }
            report.elapsed = start.elapsed();
            let every = if live {
                Duration::from_millis(250)
            } else {
                Duration::from_secs(10)
            };
            if last_print.elapsed() >= every || report.games == report.scheduled {
                last_print = Instant::now();
                if live {
                    let _ = write!(progress, "\r{}", report.progress_line());
                } else {
                    let _ = writeln!(progress, "{}", report.progress_line());
                }
                let _ = progress.flush();
            }
        }
    });
    if live {
        let _ = writeln!(progress);
    }
    out.flush()?;
    if let Some(p) = pgn {
        p.flush()?;
    }
    result?;
    report.elapsed = start.elapsed();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_plays_its_contiguous_block_of_games() {
        let mut c = SelfplayConfig::new(10, SearchLimit::Nodes(10));
        c.shard = Shard { index: 1, count: 3 };
        assert_eq!(c.my_games(), vec![3, 4, 5]);
    }

    #[test]
    fn mate_scores_become_large_centipawns() {
        assert_eq!(score_cp(Score::Mate(1)), 31999);
        assert_eq!(score_cp(Score::Mate(-2)), -31996);
        assert_eq!(score_cp(Score::Cp(-12)), -12);
    }
}

/// The `chariot selfplay` command line.
pub mod cli {
    use std::fs::File;
    use std::io::{self, BufWriter, IsTerminal, Write};
    use std::path::PathBuf;

    use clap::Args;

    use super::{run, Adjudication, SearchLimit, SelfplayConfig, Shard};
    use crate::args::{hash_mb, positive_count, search_depth, threads};
    use crate::matches::openings;
    use crate::rules::MoveCountRule;

    /// Flags of `chariot selfplay`. Counts are checked when parsed: zero games, threads,
    /// hash, moves or plies, a depth beyond 64 and a negative score threshold are refused.
    #[derive(Args, Debug, Clone)]
    #[command(group(clap::ArgGroup::new("limit").required(true).args(["nodes", "depth"])))]
    pub struct SelfplayArgs {
        /// Number of games (of the whole run, all shards together; at least 1).
        #[arg(long, value_parser = positive_count)]
        pub games: usize,
        /// Nodes per move (at least 1).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        pub nodes: Option<u64>,
        /// Depth per move (1-64).
        #[arg(long, value_parser = search_depth)]
        pub depth: Option<u32>,
        /// Worker threads (one game each, single-threaded search; 1-256).
        #[arg(long, default_value_t = 1, value_parser = threads)]
        pub threads: usize,
        /// Base seed; game i uses seed + i.
        #[arg(long, default_value_t = 1)]
        pub seed: u64,
        /// Output file for `FEN;result;score;ply` lines.
        #[arg(long)]
        pub out: PathBuf,
        /// Also write the games as PGN.
        #[arg(long)]
        pub pgn: Option<PathBuf>,
        /// Opening book (EPD, or PGN by extension); game i takes opening i mod n.
        #[arg(long)]
        pub openings: Option<PathBuf>,
        /// Random legal moves after the book (default 8 without a book, 0 with one).
        #[arg(long)]
        pub random_plies: Option<usize>,
        /// Play only the I-th of N contiguous blocks of the games (`I/N`), for array jobs;
        /// the shards' outputs concatenated in order are the whole run's.
        #[arg(long, default_value = "0/1")]
        pub shard: Shard,
        /// Hash per worker in MiB (1-65536).
        #[arg(long, default_value_t = 4, value_parser = hash_mb)]
        pub hash: usize,
        /// Move-count rule: cxq, sixty or none.
        #[arg(long, default_value = "cxq")]
        pub rule: MoveCountRule,
        /// Do not write positions where the side to move is in check.
        #[arg(long)]
        pub skip_check: bool,
        /// Do not write positions whose best move is a capture.
        #[arg(long)]
        pub skip_noisy: bool,
        /// Resign when |score| ≥ CP (centipawns, at least 1) for --resign-moves moves of each
        /// side.
        #[arg(long, value_parser = clap::value_parser!(i32).range(1..))]
        pub resign_score: Option<i32>,
        /// Moves per side for resign adjudication (at least 1).
        #[arg(long, default_value_t = 4, value_parser = positive_count)]
        pub resign_moves: usize,
        /// Agree a draw when |score| ≤ CP (centipawns, 0 or more) for --draw-moves moves of
        /// each side.
        #[arg(long, value_parser = clap::value_parser!(i32).range(0..))]
        pub draw_score: Option<i32>,
        /// Moves per side for draw adjudication (at least 1).
        #[arg(long, default_value_t = 8, value_parser = positive_count)]
        pub draw_moves: usize,
        /// Earliest ply for draw adjudication.
        #[arg(long, default_value_t = 80)]
        pub draw_after: usize,
        /// Draw a game that reaches this many plies (at least 1).
        #[arg(long, default_value_t = 1000, value_parser = positive_count)]
        pub max_plies: usize,
    }

    /// Runs `chariot selfplay`; returns the exit code (0, or 2 on bad input or I/O errors).
    pub fn main(args: SelfplayArgs) -> u8 {
        match run_cli(args) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("chariot selfplay: {e}");
                2
            }
        }
    }

    fn run_cli(args: SelfplayArgs) -> Result<(), String> {
        let limit = match (args.nodes, args.depth) {
            (Some(n), _) if n > 0 => SearchLimit::Nodes(n),
            (_, Some(d)) if d > 0 => SearchLimit::Depth(d),
            _ => return Err("the search limit must be positive".into()),
        };
        if args.games == 0 {
            return Err("--games must be at least 1".into());
        }
        let mut config = SelfplayConfig::new(args.games, limit);
        config.shard = args.shard;
        if config.my_games().is_empty() {
            return Err(format!(
                "shard {}/{} of {} games plays none",
                args.shard.index, args.shard.count, args.games
            ));
        }
        config.threads = args.threads;
        config.seed = args.seed;
        if let Some(path) = &args.openings {
            let (book, warnings) = openings::load(path)?;
            for w in warnings.iter().take(10) {
                eprintln!("warning: {w}");
            }
            config.openings = book;
        }
        config.random_plies =
            args.random_plies
                .unwrap_or(if config.openings.is_empty() { 8 } else { 0 });
        config.hash_mb = args.hash;
        config.rule = args.rule;
        config.skip_check = args.skip_check;
        config.skip_noisy = args.skip_noisy;
        config.adjudication = Adjudication {
            resign: args.resign_score.map(|cp| (cp, args.resign_moves)),
            draw: args
                .draw_score
                .map(|cp| (cp, args.draw_moves, args.draw_after)),
        };
        config.max_plies = args.max_plies;
        let create = |path: &PathBuf| {
            File::create(path)
                .map(BufWriter::new)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))
        };
        let mut out = create(&args.out)?;
        let mut pgn = args.pgn.as_ref().map(create).transpose()?;
        let stderr = io::stderr();
        let live = stderr.is_terminal();
        let mut progress = stderr.lock();
        let report = run(
            &config,
            &mut out,
            pgn.as_mut().map(|p| p as &mut dyn Write),
            &mut progress,
            live,
        )
        .map_err(|e| format!("cannot write the output: {e}"))?;
        let _ = write!(progress, "{report}");
        Ok(())
    }
}
