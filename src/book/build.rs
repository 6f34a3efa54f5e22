//! Building a book from games (`chariot book build`).
//!
//! 1. **Games in.** PGN files (our own match and self-play PGN, or any xiangqi PGN with ICCS or
//!    coordinate moves), or self-play data (`FEN;result;score;ply` lines): consecutive lines
//!    whose plies follow each other and whose positions one legal move connects are one game,
//!    and that move is recovered. In a PGN where some moves carry comments (engine output),
//!    the uncommented moves at the start are the opening book or random plies of the run, not
//!    choices of the players: they are replayed but not counted (unless asked to, for games
//!    started from a trusted list of openings).
//! 2. **Tally.** Every counted move played before ply `max_ply` adds one game to its (position
//!    key, move) pair, with the points it brought the side that played it (win 1, draw ½).
//! 3. **Filter by results and counts.** A pair needs `min_games` games and a score (with one
//!    win and one loss added, so a few games cannot look perfect) of at least `min_score`.
//! 4. **Filter by search.** Each remaining position is searched to `check_nodes` nodes for its
//!    best move; then the candidates and that move are searched together, one principal
//!    variation each (`searchmoves`, `check_nodes` per line), so that all are scored at the
//!    same depth; a candidate scoring more than `margin` centipawns below the best of them is
//!    dropped. Positions are searched in parallel, each with a cleared hash table, so the
//!    result does not depend on the thread count.
//! 5. **Weights.** A move's weight is its games times its smoothed score (expected points),
//!    scaled so the largest weight in the book is 65535 (at least 1).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::format::Entry;
use crate::matches::pgn;
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::search::limits::Limits;
use crate::search::report::{Reporter, Score, SearchInfo, SearchResult};
use crate::threads::{Engine, EngineOptions, SilentReporter};
use crate::types::{Color, Move};

/// The settings of a build.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildConfig {
    /// Count moves played before this game ply.
    pub max_ply: u32,
    /// Games a move needs.
    pub min_games: u32,
    /// Smoothed score a move needs (0–1, the mover's view).
    pub min_score: f64,
    /// Nodes per search of the soundness check (0: no check).
    pub check_nodes: u64,
    /// Largest score loss against the best move, in centipawns, that passes the check.
    pub margin: i32,
    /// Threads for the check.
    pub threads: usize,
}

impl Default for BuildConfig {
    fn default() -> BuildConfig {
        BuildConfig {
            max_ply: 20,
            min_games: 3,
            min_score: 0.3,
            check_nodes: 20_000,
            margin: 40,
            threads: 1,
        }
    }
}

/// One game as the builder sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMoves {
    /// The start position.
    pub start_fen: String,
    /// All moves from it.
    pub moves: Vec<Move>,
    /// Moves before this index are replayed, not counted.
    pub counted_from: usize,
    /// The winner (`None`: a draw).
    pub winner: Option<Color>,
}

/// The games of a PGN text (games with an unknown result, `*`, are skipped), and one warning
/// per game that could not be read. With `all_moves`, uncommented opening moves count too
/// (for games started from a trusted list of openings).
pub fn games_from_pgn(text: &str, all_moves: bool) -> (Vec<GameMoves>, Vec<String>) {
    let mut games = Vec::new();
    let mut warnings = Vec::new();
    for g in pgn::read_games(text) {
        match g {
            Ok(g) => {
                let winner = match g.result.as_str() {
                    "1-0" => Some(Color::Red),
                    "0-1" => Some(Color::Black),
                    "1/2-1/2" => None,
                    _ => continue,
                };
                let counted_from = if !all_moves && g.comments.iter().any(|c| !c.trim().is_empty())
                {
                    g.comments
                        .iter()
                        .position(|c| !c.trim().is_empty())
                        .unwrap_or(0)
                } else {
                    0
                };
                games.push(GameMoves {
                    start_fen: g.start_fen().to_string(),
                    moves: g.moves,
                    counted_from,
                    winner,
                });
            }
            Err(e) => warnings.push(format!("skipping PGN {e}")),
        }
    }
    (games, warnings)
}

/// The games of self-play data (`FEN;result;score;ply` lines, see
/// [`selfplay`](crate::selfplay)): runs of lines with consecutive plies and positions joined
/// by a legal move. Lines that do not parse are skipped with a warning (at most 10 listed).
pub fn games_from_samples(text: &str) -> (Vec<GameMoves>, Vec<String>) {
    let mut games = Vec::new();
    let mut warnings = Vec::new();
    let mut skipped = 0usize;
    // The game being joined: its start, moves, result, and the last position and ply.
    let mut current: Option<(GameMoves, Position, u64)> = None;
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split(';').collect();
        let parsed = (fields.len() >= 4)
            .then(|| {
                let pos = Position::from_fen(fields[0].trim()).ok()?;
                let winner = match fields[1].trim() {
                    "1-0" => Some(Color::Red),
                    "0-1" => Some(Color::Black),
                    "1/2-1/2" => None,
                    _ => return None,
                };
                let ply: u64 = fields[3].trim().parse().ok()?;
                Some((pos, winner, ply))
            })
            .flatten();
        let Some((pos, winner, ply)) = parsed else {
            if !line.trim().is_empty() {
                skipped += 1;
                if skipped <= 10 {
                    warnings.push(format!("line {}: not FEN;result;score;ply", n + 1));
                }
            }
            continue;
        };
        let joined = current.as_mut().and_then(|(game, last, last_ply)| {
            if ply != *last_ply + 1 || game.winner != winner {
                return None;
            }
            let mv = legal_moves(last)
                .into_iter()
                .find(|&m| last.key_after(m) == pos.key())?;
            game.moves.push(mv);
            *last = pos.clone();
            *last_ply = ply;
            Some(())
        });
        if joined.is_none() {
            if let Some((game, _, _)) = current.take() {
                games.push(game);
            }
            current = Some((
                GameMoves {
                    start_fen: pos.fen(),
                    moves: Vec::new(),
                    counted_from: 0,
                    winner,
                },
                pos,
                ply,
            ));
        }
    }
    if let Some((game, _, _)) = current {
        games.push(game);
    }
    if skipped > 10 {
        warnings.push(format!("… {} more lines skipped", skipped - 10));
    }
    games.retain(|g| !g.moves.is_empty());
    (games, warnings)
}

/// Games and points of one (position, move) pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games in which the move was played here.
    pub games: u32,
    /// Half points those games brought the side that played it.
    pub half_points: u32,
}

impl Tally {
    /// The score with one win and one loss added (Laplace smoothing), 0–1.
    pub fn smoothed_score(&self) -> f64 {
        (f64::from(self.half_points) / 2.0 + 1.0) / (f64::from(self.games) + 2.0)
    }
}

/// The moves played in one position.
#[derive(Clone, Debug, Default)]
pub struct PositionTally {
    /// The position (as first met).
    pub fen: String,
    /// Per move.
    pub moves: BTreeMap<Move, Tally>,
}

/// Counts the moves of `games` (see the module docs); keyed by position key.
pub fn tally(games: &[GameMoves], max_ply: u32) -> HashMap<u64, PositionTally> {
    let mut table: HashMap<u64, PositionTally> = HashMap::new();
    for g in games {
        let Ok(mut pos) = Position::from_fen(&g.start_fen) else {
            continue;
        };
        for (i, &mv) in g.moves.iter().enumerate() {
            if pos.game_ply() >= max_ply || !pos.is_legal(mv) {
                break;
            }
            if i >= g.counted_from {
                let mover = pos.side_to_move();
                let half = match g.winner {
                    Some(w) if w == mover => 2,
                    Some(_) => 0,
                    None => 1,
                };
                let entry = table.entry(pos.key()).or_insert_with(|| PositionTally {
                    fen: pos.fen(),
                    moves: BTreeMap::new(),
                });
                let t = entry.moves.entry(mv).or_default();
                t.games += 1;
                t.half_points += half;
            }
            pos.make_move(mv);
        }
    }
    table
}

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Games read.
    pub games: usize,
    /// Distinct (position, move) pairs seen before `max_ply`.
    pub pairs_seen: usize,
    /// Pairs left after the count and score filters.
    pub pairs_frequent: usize,
    /// Pairs dropped by the search check.
    pub pairs_unsound: usize,
    /// Positions in the book.
    pub positions: usize,
    /// Moves in the book.
    pub moves: usize,
}

/// A search score as centipawns for comparisons (mates far beyond any centipawn score).
fn as_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// Collects the lines of the last iteration in which all `lines` principal variations were
/// reported.
struct LineCollector {
    lines: usize,
    latest: Mutex<Vec<Option<(Move, i32)>>>,
    complete: Mutex<Option<Vec<(Move, i32)>>>,
}

impl Reporter for LineCollector {
    fn info(&self, info: &SearchInfo) {
        let i = info.multipv as usize;
        let Some(&mv) = info.pv.first() else { return };
        if !(1..=self.lines).contains(&i) {
            return;
        }
        let mut latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        latest[i - 1] = Some((mv, as_cp(info.score)));
        if i == self.lines {
            *self.complete.lock().unwrap_or_else(|e| e.into_inner()) =
                latest.iter().copied().collect();
        }
    }

    fn best_move(&self, _: &SearchResult) {}
}

/// The candidates of `fen` that pass the search check. A full search finds the best move;
/// then one search of the candidates and that move together, one principal variation each
/// (`check_nodes` per line), scores them all at the same depth; a candidate passes if it
/// scores at most `margin` below the best of them. (Scores of separate searches would come
/// from different depths and not compare.)
fn sound_moves(
    engine: &mut Engine,
    fen: &str,
    candidates: &[Move],
    cfg: &BuildConfig,
) -> Vec<Move> {
    let Ok(pos) = Position::from_fen(fen) else {
        return Vec::new();
    };
    engine.new_game();
    let full = engine.search(
        &pos,
        Limits {
            nodes: Some(cfg.check_nodes),
            ..Limits::default()
        },
        Arc::new(SilentReporter),
    );
    let mut moves: Vec<Move> = candidates.to_vec();
    if let Some(best) = full.best.filter(|b| !moves.contains(b)) {
        moves.push(best);
    }
    let collector = Arc::new(LineCollector {
        lines: moves.len(),
        latest: Mutex::new(vec![None; moves.len()]),
        complete: Mutex::new(None),
    });
    engine.new_game();
    engine.search(
        &pos,
        Limits {
            nodes: Some(cfg.check_nodes.saturating_mul(moves.len() as u64)),
            search_moves: moves.clone(),
            lines: Some(moves.len()),
            ..Limits::default()
        },
        collector.clone(),
    );
    let Some(scored) = collector
        .complete
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
    else {
        return Vec::new();
    };
    let best = scored.iter().map(|&(_, s)| s).max().unwrap_or(0);
    candidates
        .iter()
        .copied()
        .filter(|m| {
            scored
                .iter()
                .any(|&(mv, s)| mv == *m && s >= best.saturating_sub(cfg.margin))
        })
        .collect()
}

/// Builds the book records of `games` under `cfg`; `progress(done, total)` is called as the
/// search check advances.
pub fn build(
    games: &[GameMoves],
    cfg: &BuildConfig,
    progress: impl Fn(usize, usize) + Sync,
) -> (Vec<Entry>, BuildReport) {
    let table = tally(games, cfg.max_ply);
    let mut report = BuildReport {
        games: games.len(),
        pairs_seen: table.values().map(|p| p.moves.len()).sum(),
        ..BuildReport::default()
    };
    // Positions in key order, with the moves that pass the count and score filters.
    let mut work: Vec<(u64, &PositionTally, Vec<Move>)> = table
        .iter()
        .map(|(&key, p)| {
            let frequent = p
                .moves
                .iter()
                .filter(|(_, t)| t.games >= cfg.min_games && t.smoothed_score() >= cfg.min_score)
                .map(|(&m, _)| m)
                .collect::<Vec<Move>>();
            (key, p, frequent)
        })
        .filter(|(_, _, moves)| !moves.is_empty())
        .collect();
    work.sort_by_key(|(key, _, _)| *key);
    report.pairs_frequent = work.iter().map(|(_, _, m)| m.len()).sum();
    let kept: Vec<(u64, &PositionTally, Vec<Move>)> = if cfg.check_nodes == 0 {
        work
    } else {
        let done = AtomicUsize::new(0);
        let total = work.len();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cfg.threads.max(1))
            .build()
            .expect("a thread pool");
        pool.install(|| {
            work.into_par_iter()
                .map_init(
                    || {
                        Engine::new(EngineOptions {
                            hash_mb: 4,
                            ..EngineOptions::default()
                        })
                    },
                    |engine, (key, p, moves)| {
                        let sound = sound_moves(engine, &p.fen, &moves, cfg);
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                        (key, p, sound)
                    },
                )
                .collect()
        })
    };
    let checked: usize = kept.iter().map(|(_, _, m)| m.len()).sum();
    report.pairs_unsound = report.pairs_frequent - checked;
    let raw = |t: &Tally| f64::from(t.games) * t.smoothed_score();
    let max_raw = kept
        .iter()
        .flat_map(|(_, p, moves)| moves.iter().map(|m| raw(&p.moves[m])))
        .fold(0.0f64, f64::max);
    let mut entries = Vec::new();
    for (key, p, moves) in &kept {
        for m in moves {
            let w = (raw(&p.moves[m]) / max_raw * 65535.0).round();
            entries.push(Entry {
                key: *key,
                mv: *m,
                weight: w.clamp(1.0, 65535.0) as u16,
            });
        }
    }
    report.moves = entries.len();
    report.positions = kept.iter().filter(|(_, _, m)| !m.is_empty()).count();
    (entries, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str, winner: Option<Color>) -> GameMoves {
        GameMoves {
            start_fen: crate::position::START_FEN.to_string(),
            moves: moves
                .split_whitespace()
                .map(|m| m.parse().unwrap())
                .collect(),
            counted_from: 0,
            winner,
        }
    }

    #[test]
    fn tallies_count_games_and_points_per_mover() {
        let games = [
            game("h2e2 h9g7 h0g2", Some(Color::Red)),
            game("h2e2 b9c7", None),
            game("b2e2 h9g7", Some(Color::Black)),
        ];
        let t = tally(&games, 2);
        let start = Position::startpos();
        let first = &t[&start.key()].moves;
        let h2e2 = first[&"h2e2".parse().unwrap()];
        assert_eq!((h2e2.games, h2e2.half_points), (2, 3));
        let b2e2 = first[&"b2e2".parse().unwrap()];
        assert_eq!((b2e2.games, b2e2.half_points), (1, 0));
        // Ply 2 is beyond max_ply = 2: h0g2 is not counted; Black's replies are.
        assert_eq!(t.len(), 3);
        assert!((b2e2.smoothed_score() - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn uncommented_opening_moves_are_not_counted() {
        let pgn = "[Event \"t\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 {+0.1/3 0.01s} 2. h0g2 {+0.2/4 0.01s} 1-0\n";
        let (games, warnings) = games_from_pgn(pgn, false);
        assert!(warnings.is_empty());
        assert_eq!(games[0].counted_from, 1);
        let t = tally(&games, 20);
        assert!(!t.contains_key(&Position::startpos().key()));
        assert_eq!(t.len(), 2);
        let (games, _) = games_from_pgn(pgn, true);
        assert_eq!(games[0].counted_from, 0);
        assert_eq!(tally(&games, 20).len(), 3);
    }

    #[test]
    fn self_play_lines_are_joined_into_games() {
        let mut pos = Position::startpos();
        let mut text = String::new();
        for (ply, m) in ["h2e2", "h9g7", "h0g2"].iter().enumerate() {
            text += &format!("{};1-0;10;{ply}\n", pos.fen());
            pos.make_move(m.parse().unwrap());
        }
        text += "garbage\n";
        text += &format!("{};0-1;-5;0\n", Position::startpos().fen());
        text += &format!("{};0-1;-5;1\n", pos.fen()); // not one move away: a new game
        let (games, warnings) = games_from_samples(&text);
        assert_eq!(warnings.len(), 1);
        assert_eq!(games.len(), 1, "single-position games are dropped");
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[0].winner, Some(Color::Red));
    }

    #[test]
    fn the_search_check_drops_a_move_that_gives_material_away() {
        // Two sound first moves and b2b9, which trades the cannon for a horse (the chariot a9
        // takes back): frequent enough, but unsound. 20 000 nodes a line: at a few thousand
        // the scores are too shallow to compare (the mirror images h2e2 and b2e2 came out
        // 119 internal centipawns apart at 3000).
        let mut games = Vec::new();
        for _ in 0..5 {
            games.push(game("h2e2", None));
            games.push(game("a3a4", None));
            games.push(game("b2b9", None)); // cannon takes the horse, then is taken back
        }
        let cfg = BuildConfig {
            check_nodes: 20000,
            margin: 60,
            ..BuildConfig::default()
        };
        let (entries, report) = build(&games, &cfg, |_, _| {});
        let moves: Vec<String> = entries.iter().map(|e| e.mv.to_string()).collect();
        assert!(moves.contains(&"h2e2".to_string()), "{moves:?}");
        assert!(!moves.contains(&"b2b9".to_string()), "{moves:?}");
        assert_eq!(report.pairs_frequent, 3);
        assert!(report.pairs_unsound >= 1);
    }
}
