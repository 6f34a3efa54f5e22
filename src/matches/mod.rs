//! `chariot match`: engine-vs-engine matches refereed by the rules module.
//!
//! Two engines (external processes over UCI/UCCI/Cyclone, or Chariot in-process) play `N`
//! games on `C` worker threads. Game `2k` and `2k+1` share an opening with colours swapped.
//! Every move is checked and every position judged by [`Game`] (docs/rules.md); engine
//! faults end the game as a loss for the faulty side: an illegal or unreadable move, a crash,
//! a hang (no answer after `stop` and a grace period: the process is killed and restarted for
//! the next game), or a time forfeit (more time used than the clock had, plus a margin). A
//! move that is legal only in the other rank numbering is no fault but a setup error: it stops
//! the match with an error (see [`engine`]).
//! Results stream to stderr; the end is a summary block with W/D/L, Elo ± 95% margin, LOS,
//! pentanomial pair counts and, if asked, the SPRT log-likelihood ratio with its bounds.
//!
//! A match can be split over many machines: `slice` `I/N` plays the `I`-th of `N` contiguous
//! blocks of game pairs (a pair's two games stay together), and [`results`] writes every game
//! as a JSON line and merges the files of all slices into the summary one machine prints.
//! A stopped slice continues from its file ([`run_match_resumed`], `--resume`); a run can end
//! at a set time without losing a game in progress ([`MatchConfig::stop_after`]).
//!
//! Submodules: [`spec`] (engine specifications), [`player`] (the player trait and the
//! in-process player), [`engine`] (engine processes), [`pgn`] (writer and reader),
//! [`openings`] (EPD/PGN books), [`stats`] (Elo, LOS, SPRT), [`results`] (JSON-lines results
//! and their merge).

pub mod cli;
pub mod engine;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod results;
pub mod spec;
pub mod stats;

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use crate::game::Game;
use crate::position::START_FEN;
use crate::rules::{EndReason, GameResult, MoveCountRule};
use crate::search::report::Score;
use crate::shard::Shard;
use crate::types::{Color, Move};

use engine::{ExternalEngine, STARTUP_TIMEOUT};
use openings::Opening;
use pgn::PgnGame;
use player::{Go, InternalPlayer, MoveRequest, Player, Thought};
use spec::{EngineSpec, Protocol};
use stats::{Pentanomial, SprtConfig, SprtDecision, Wdl};

/// A time control: `[moves/]base[+increment]`, times in seconds (`10+0.1`, `40/60`, `1:30+1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game).
    pub moves: Option<u32>,
    /// Time per period.
    pub base: Duration,
    /// Increment per move.
    pub inc: Duration,
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(s: &str) -> Result<TimeControl, String> {
        let bad = || format!("bad time control '{s}' (expected e.g. 10+0.1 or 40/60)");
        let seconds = |t: &str| -> Result<Duration, String> {
            let secs = match t.split_once(':') {
                Some((m, sec)) => {
                    m.parse::<f64>().map_err(|_| bad())? * 60.0
                        + sec.parse::<f64>().map_err(|_| bad())?
                }
                None => t.parse::<f64>().map_err(|_| bad())?,
            };
            if !(0.0..1e7).contains(&secs) {
                return Err(bad());
            }
            Ok(Duration::from_secs_f64(secs))
        };
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => (Some(m.parse::<u32>().map_err(|_| bad())?), rest),
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b)?, seconds(i)?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        if moves == Some(0) || base.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl { moves, base, inc })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.inc.is_zero() {
            write!(f, "+{}", self.inc.as_secs_f64())?;
        }
        Ok(())
    }
}

/// How long each move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// A game clock.
    Clock(TimeControl),
    /// Fixed time per move.
    MoveTime(Duration),
    /// Fixed nodes per move.
    Nodes(u64),
    /// Fixed depth per move.
    Depth(u32),
}

impl fmt::Display for MoveLimit {
    /// The PGN `TimeControl` value (`10+0.1`, `movetime=100`, `nodes=1000`, `depth=8`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveLimit::Clock(tc) => write!(f, "{tc}"),
            MoveLimit::MoveTime(d) => write!(f, "movetime={}", d.as_millis()),
            MoveLimit::Nodes(n) => write!(f, "nodes={n}"),
            MoveLimit::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are counted from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// Time or search limit per move.
    pub limit: MoveLimit,
    /// Number of games.
    pub games: usize,
    /// Openings (empty: the start position).
    pub openings: Vec<Opening>,
    /// Play each opening twice with colours swapped (default); otherwise every game takes the
    /// next opening (colours still alternate).
    pub repeat: bool,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early when the test decides.
    pub sprt: Option<SprtConfig>,
    /// Move-count rule of the referee.
    pub rule: MoveCountRule,
    /// Extra time over the clock (or movetime) before a move counts as a time forfeit.
    pub time_margin: Duration,
    /// Time to wait for a move under `--nodes`/`--depth` before sending `stop`.
    pub move_timeout: Duration,
    /// Time to wait after `stop` before killing the engine as hung.
    pub hang_grace: Duration,
    /// Adjudicate a draw after this many plies (`None`: never).
    pub max_plies: Option<usize>,
    /// Time an engine process has to finish its handshake (and each `isready`).
    pub startup_timeout: Duration,
    /// PGN `Event` tag.
    pub event: String,
    /// The block of game pairs this process plays (`0/1`: the whole match). A slice never
    /// stops early on the SPRT: the decision belongs to the merge of all slices.
    pub slice: Shard,
    /// Start no game once this much time has passed since the run began (`None`: no limit).
    /// Games in progress are played to their end; a run that leaves games unplayed writes no
    /// end line to its results file, so `--resume` plays the rest.
    pub stop_after: Option<Duration>,
}

impl MatchConfig {
    /// A configuration with the usual defaults around the given essentials.
    pub fn new(engines: [EngineSpec; 2], limit: MoveLimit, games: usize) -> MatchConfig {
        MatchConfig {
            engines,
            limit,
            games,
            openings: Vec::new(),
            repeat: true,
            concurrency: 1,
            sprt: None,
            rule: MoveCountRule::Cxq,
            time_margin: Duration::from_millis(100),
            move_timeout: Duration::from_secs(60),
            hang_grace: Duration::from_secs(2),
            max_plies: None,
            startup_timeout: STARTUP_TIMEOUT,
            event: "Chariot match".into(),
            slice: Shard::default(),
            stop_after: None,
        }
    }

    /// Number of game pairs (`2k`, `2k+1`); the last one is a single game when `games` is odd.
    pub fn pairs(&self) -> usize {
        self.games.div_ceil(2)
    }

    /// The games of this slice: the games of its block of pairs.
    pub fn game_range(&self) -> Range<usize> {
        MatchConfig::slice_games(self.games, self.slice)
    }

    /// The games of `slice` of a match of `games` games: its block of the pairs.
    pub fn slice_games(games: usize, slice: Shard) -> Range<usize> {
        let pairs = slice.range(games.div_ceil(2));
        (2 * pairs.start).min(games)..(2 * pairs.end).min(games)
    }

    /// The index in the book of the opening of game `index` (`None` without a book).
    pub fn opening_index(&self, index: usize) -> Option<usize> {
        match self.openings.len() {
            0 => None,
            n if self.repeat => Some((index / 2) % n),
            n => Some(index % n),
        }
    }

    /// The opening and the engine playing Red (0 or 1) of game `index`.
    pub fn schedule(&self, index: usize) -> (Opening, usize) {
        let opening = match self.opening_index(index) {
            None => Opening {
                fen: START_FEN.to_string(),
                moves: Vec::new(),
            },
            Some(i) => self.openings[i].clone(),
        };
        (opening, index % 2)
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (mate, stalemate, perpetual check/chase, repetition, automatic draws).
    Rules(EndReason),
    /// The loser answered with an illegal or unreadable move (the text it sent).
    IllegalMove(String),
    /// The loser's process died (what we know about it).
    Crash(String),
    /// The loser did not answer even after `stop`; it was killed.
    Hang,
    /// The loser used more time than its clock held plus the margin.
    TimeForfeit,
    /// Drawn by the ply limit.
    MaxPlies(usize),
    /// Decided by score-based adjudication (self-play): the kind, e.g. `adjudication-resign`.
    Adjudication(&'static str),
    /// Interrupted (the match was stopped); not counted.
    Abandoned,
    /// Stopped because an engine is set up wrong (what showed it); not counted, and it ends
    /// the match with an error.
    Misconfigured(String),
}

impl Ending {
    /// A short name for tallies (`checkmate`, `illegal-move`, `crash`, `hang`, `time-forfeit`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Ending::Rules(r) => r.as_str(),
            Ending::IllegalMove(_) => "illegal-move",
            Ending::Crash(_) => "crash",
            Ending::Hang => "hang",
            Ending::TimeForfeit => "time-forfeit",
            Ending::MaxPlies(_) => "max-plies",
            Ending::Adjudication(kind) => kind,
            Ending::Abandoned => "abandoned",
            Ending::Misconfigured(_) => "misconfigured",
        }
    }

    /// Whether this ending is a fault of the loser's engine.
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            Ending::IllegalMove(_) | Ending::Crash(_) | Ending::Hang | Ending::TimeForfeit
        )
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// One finished (or abandoned) game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 0-based game number.
    pub index: usize,
    /// Which engine (0 or 1) played Red.
    pub red: usize,
    /// Start position.
    pub start_fen: String,
    /// All moves, the opening's included.
    pub moves: Vec<Move>,
    /// Per-move comments (`+0.35/12 0.52s`; empty for opening moves).
    pub comments: Vec<String>,
    /// Number of moves that came from the opening book.
    pub opening_plies: usize,
    /// The winner's colour, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub ending: Ending,
    /// Under a clock, the least time each engine (0 and 1) had left after one of its moves,
    /// in milliseconds; below zero when a move used part of the referee's margin.
    pub lowest_clock_ms: [Option<i64>; 2],
}

impl GameRecord {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` if abandoned.
    pub fn result(&self) -> &'static str {
        match (&self.ending, self.winner) {
            (Ending::Abandoned | Ending::Misconfigured(_), _) => "*",
            (_, Some(Color::Red)) => "1-0",
            (_, Some(Color::Black)) => "0-1",
            (_, None) => "1/2-1/2",
        }
    }

    /// Whether the game counts (was played to an end, not abandoned or stopped).
    pub fn counts(&self) -> bool {
        !matches!(self.ending, Ending::Abandoned | Ending::Misconfigured(_))
    }

    /// The engine (0 or 1) that won, if any.
    pub fn winning_engine(&self) -> Option<usize> {
        winning_engine(self.winner, self.red)
    }

    /// The result comment: `Red wins by checkmate`, `Black wins: Red lost on time`,
    /// `Draw by repetition`.
    pub fn comment(&self) -> String {
        let loser = self.winner.map(|w| color_name(!w)).unwrap_or("");
        let head = match self.winner {
            Some(w) => format!("{} wins", color_name(w)),
            None => "Draw".to_string(),
        };
        match &self.ending {
            Ending::Rules(EndReason::Stalemate) => format!("{head}: {loser} has no legal move"),
            Ending::Rules(EndReason::PerpetualCheck) => {
                format!("{head}: {loser} checked perpetually")
            }
            Ending::Rules(EndReason::PerpetualChase) => {
                format!("{head}: {loser} chased perpetually")
            }
            Ending::Rules(r) => format!("{head} by {}", r.as_str().replace('-', " ")),
            Ending::IllegalMove(m) => format!("{head}: {loser} played an illegal move ({m})"),
            Ending::Crash(why) => format!("{head}: {loser} crashed ({why})"),
            Ending::Hang => format!("{head}: {loser} stopped responding"),
            Ending::TimeForfeit => format!("{head}: {loser} lost on time"),
            Ending::MaxPlies(n) => format!("Draw by adjudication after {n} plies"),
            Ending::Adjudication(_) => match self.winner {
                Some(_) => format!("{head}: {loser} resigns (adjudication)"),
                None => "Draw by adjudication".to_string(),
            },
            Ending::Abandoned => "Game abandoned".to_string(),
            Ending::Misconfigured(why) => format!("Game stopped: {why}"),
        }
    }

    /// What the statistics need of this game.
    pub fn outcome(&self) -> GameOutcome {
        let detail = match &self.ending {
            Ending::IllegalMove(m) => Some(m.clone()),
            Ending::Crash(why) => Some(why.clone()),
            _ => None,
        };
        GameOutcome {
            index: self.index,
            red: self.red,
            winner: self.winner,
            kind: self.ending.kind().to_string(),
            detail,
            plies: self.moves.len(),
            opening_plies: self.opening_plies,
            lowest_clock_ms: self.lowest_clock_ms,
        }
    }

    /// The game as PGN (`names` of engine 0 and 1).
    pub fn to_pgn(&self, names: &[String; 2], event: &str, limit: &MoveLimit) -> PgnGame {
        let mut g = PgnGame::default();
        g.set_tag("Event", event);
        g.set_tag("Site", "?");
        g.set_tag("Date", today());
        g.set_tag("Round", (self.index + 1).to_string());
        g.set_tag("White", names[self.red].clone());
        g.set_tag("Black", names[1 - self.red].clone());
        g.set_tag("Result", self.result());
        g.set_tag("Variant", "xiangqi");
        g.set_tag("Format", "ICCS");
        if self.start_fen != START_FEN {
            g.set_tag("FEN", self.start_fen.clone());
            g.set_tag("SetUp", "1");
        }
        g.set_tag("TimeControl", limit.to_string());
        g.set_tag("PlyCount", self.moves.len().to_string());
        g.set_tag("Termination", self.ending.kind());
        g.moves = self.moves.clone();
        g.comments = self.comments.clone();
        g.final_comment = Some(self.comment());
        g.result = self.result().to_string();
        g
    }
}

/// The outcome of one game: all that the match statistics are computed from, and what a
/// results file keeps of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// 0-based game number.
    pub index: usize,
    /// Which engine (0 or 1) played Red.
    pub red: usize,
    /// The winner's colour, `None` for a draw (or an abandoned game).
    pub winner: Option<Color>,
    /// The ending's kind ([`Ending::kind`]): `checkmate`, `crash`, `abandoned`, …
    pub kind: String,
    /// The illegal move or the crash, if that ended the game.
    pub detail: Option<String>,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// Plies that came from the opening book.
    pub opening_plies: usize,
    /// See [`GameRecord::lowest_clock_ms`].
    pub lowest_clock_ms: [Option<i64>; 2],
}

impl GameOutcome {
    /// Whether the game counts: played to an end, not abandoned or stopped because an engine
    /// is set up wrong (the kinds of [`GameRecord::counts`]).
    pub fn counts(&self) -> bool {
        counts_kind(&self.kind)
    }

    /// The engine (0 or 1) that won, if any.
    pub fn winning_engine(&self) -> Option<usize> {
        winning_engine(self.winner, self.red)
    }

    /// Points (in half-points, 0–2) scored by engine 0.
    pub fn half_points_first(&self) -> usize {
        match self.winning_engine() {
            Some(0) => 2,
            Some(_) => 0,
            None => 1,
        }
    }

    /// The faulty engine (the loser) if the game ended by a fault: an illegal move, a crash,
    /// a hang or a time forfeit.
    pub fn faulty_engine(&self) -> Option<usize> {
        let fault = matches!(
            self.kind.as_str(),
            "illegal-move" | "crash" | "hang" | "time-forfeit"
        );
        self.winning_engine().filter(|_| fault).map(|w| 1 - w)
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` if it does not count.
    pub fn result(&self) -> &'static str {
        match (self.counts(), self.winner) {
            (false, _) => "*",
            (_, Some(Color::Red)) => "1-0",
            (_, Some(Color::Black)) => "0-1",
            (_, None) => "1/2-1/2",
        }
    }
}

/// Whether a game that ended in the [`Ending::kind`] `kind` counts (is neither `abandoned` nor
/// `misconfigured`).
pub fn counts_kind(kind: &str) -> bool {
    !matches!(kind, "abandoned" | "misconfigured")
}

/// The engine (0 or 1) that won a game in which engine `red` played Red, if any.
fn winning_engine(winner: Option<Color>, red: usize) -> Option<usize> {
    winner.map(|c| if c == Color::Red { red } else { 1 - red })
}

/// Today's date as `YYYY.MM.DD` (UTC).
fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A score as a PGN move comment: `+0.35`, `-M3`.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", -n),
    }
}

/// The lower of two clock readings, either of which may be missing.
fn lower(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    a.into_iter().chain(b).min()
}

/// Plays one game: `players[0]` is Red, `players[1]` Black. Returns the record with engine
/// numbers taken from `red` (which engine plays Red). `stop` abandons the game between moves.
pub fn play_game(
    players: [&mut dyn Player; 2],
    opening: &Opening,
    config: &MatchConfig,
    index: usize,
    red: usize,
    stop: &AtomicBool,
) -> GameRecord {
    let mut record = GameRecord {
        index,
        red,
        start_fen: opening.fen.clone(),
        moves: Vec::new(),
        comments: Vec::new(),
        opening_plies: 0,
        winner: None,
        ending: Ending::Abandoned,
        lowest_clock_ms: [None; 2],
    };
    let mut game = match Game::with_rule(&opening.fen, config.rule) {
        Ok(g) => g,
        Err(e) => {
            log::warn!("game {}: bad opening FEN {}: {e}", index + 1, opening.fen);
            return record;
        }
    };
    for &mv in &opening.moves {
        if game.push(mv).is_err() {
            break;
        }
    }
    record.opening_plies = game.moves().len();
    record.comments = vec![String::new(); record.opening_plies];
    let finish = |record: &mut GameRecord, game: &Game, winner, ending| {
        record.moves = game.moves().to_vec();
        record.comments.resize(record.moves.len(), String::new());
        record.winner = winner;
        record.ending = ending;
    };
    for side in Color::ALL {
        if let Err(e) = players[side.index()].new_game() {
            finish(&mut record, &game, Some(!side), Ending::Crash(e));
            return record;
        }
    }
    let (mut time, inc) = match config.limit {
        MoveLimit::Clock(tc) => ([tc.base; 2], [tc.inc; 2]),
        _ => ([Duration::ZERO; 2], [Duration::ZERO; 2]),
    };
    let mut moves_made = [0u32; 2];
    loop {
        if let GameResult::Decided { winner, reason, .. } = game.result() {
            finish(&mut record, &game, winner, Ending::Rules(reason));
            return record;
        }
        if stop.load(Ordering::Relaxed) {
            finish(&mut record, &game, None, Ending::Abandoned);
            return record;
        }
        if config.max_plies.is_some_and(|m| game.moves().len() >= m) {
            finish(
                &mut record,
                &game,
                None,
                Ending::MaxPlies(game.moves().len()),
            );
            return record;
        }
        let side = game.position().side_to_move();
        let us = side.index();
        let (go, allowed) = match config.limit {
            MoveLimit::Clock(tc) => {
                let moves_to_go = tc.moves.map(|m| m - moves_made[us] % m);
                (
                    Go::Clock {
                        time,
                        inc,
                        moves_to_go,
                    },
                    Some(time[us]),
                )
            }
            MoveLimit::MoveTime(t) => (Go::MoveTime(t), Some(t)),
            MoveLimit::Nodes(n) => (Go::Nodes(n), None),
            MoveLimit::Depth(d) => (Go::Depth(d), None),
        };
        let engine = if side == Color::Red { red } else { 1 - red };
        let (go, allowed) = match config.engines[engine].nodes {
            Some(n) => (Go::Nodes(n), None),
            None => (go, allowed),
        };
        let stop_after = allowed.map_or(config.move_timeout, |t| t + config.time_margin);
        let request = MoveRequest {
            go,
            stop_after,
            grace: config.hang_grace,
        };
        match players[us].think(&game, &request) {
            Thought::Crash(why) => {
                finish(&mut record, &game, Some(!side), Ending::Crash(why));
                return record;
            }
            Thought::Hang(_) => {
                finish(&mut record, &game, Some(!side), Ending::Hang);
                return record;
            }
            Thought::Misconfigured(why) => {
                finish(&mut record, &game, None, Ending::Misconfigured(why));
                return record;
            }
            Thought::Move {
                mv,
                elapsed,
                score,
                depth,
            } => {
                if allowed.is_some_and(|t| elapsed > t + config.time_margin) {
                    finish(&mut record, &game, Some(!side), Ending::TimeForfeit);
                    return record;
                }
                let mv = match mv {
                    Ok(mv) => mv,
                    Err(token) => {
                        finish(&mut record, &game, Some(!side), Ending::IllegalMove(token));
                        return record;
                    }
                };
                if game.push(mv).is_err() {
                    finish(
                        &mut record,
                        &game,
                        Some(!side),
                        Ending::IllegalMove(mv.to_string()),
                    );
                    return record;
                }
                let mut comment = String::new();
                if let Some(s) = score {
                    comment = score_text(s);
                    if let Some(d) = depth {
                        comment.push_str(&format!("/{d}"));
                    }
                    comment.push(' ');
                }
                comment.push_str(&format!("{:.3}s", elapsed.as_secs_f64()));
                record.comments.push(comment);
                moves_made[us] += 1;
                if let MoveLimit::Clock(tc) = config.limit {
                    let left = time[us].as_millis() as i64 - elapsed.as_millis() as i64;
                    let lowest = &mut record.lowest_clock_ms[engine];
                    *lowest = lower(*lowest, Some(left));
                    time[us] = time[us].saturating_sub(elapsed) + tc.inc;
                    if tc.moves.is_some_and(|m| moves_made[us] % m == 0) {
                        time[us] += tc.base;
                    }
                }
            }
        }
    }
}

/// Creates the player of `spec`; an engine process gets `timeout` for its handshake.
pub fn make_player(spec: &EngineSpec, timeout: Duration) -> Result<Box<dyn Player>, String> {
    match spec.proto {
        Protocol::Internal => Ok(Box::new(InternalPlayer::new(spec))),
        _ => Ok(Box::new(ExternalEngine::start(spec, timeout)?)),
    }
}

/// Faults counted per engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Illegal or unreadable moves.
    pub illegal: u64,
    /// Crashes.
    pub crash: u64,
    /// Hangs.
    pub hang: u64,
    /// Time forfeits.
    pub time: u64,
}

/// The outcome of a match so far (or at its end).
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// The engines' names.
    pub names: [String; 2],
    /// Results of engine 0.
    pub wdl: Wdl,
    /// Results of the Red side (colour bias).
    pub red_wdl: Wdl,
    /// Completed pairs (same opening, colours swapped), from engine 0's view.
    pub pentanomial: Pentanomial,
    /// The SPRT parameters, if any.
    pub sprt: Option<SprtConfig>,
    /// How games ended: ending kind → count.
    pub endings: BTreeMap<String, u64>,
    /// Faults of engine 0 and 1.
    pub faults: [Faults; 2],
    /// The least time engine 0 and 1 had left after a move in any game (ms, see
    /// [`GameRecord::lowest_clock_ms`]): how close each came to losing on time.
    pub lowest_clock_ms: [Option<i64>; 2],
    /// Games interrupted when the match stopped early.
    pub abandoned: u64,
    /// Games not started because the run's `stop_after` time had passed.
    pub unplayed: usize,
    /// Games scheduled.
    pub scheduled: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// Whether pairs share openings.
    pub paired: bool,
    /// Pairs with one game counted so far: pair number → engine 0's half-points in it.
    open_pairs: BTreeMap<usize, usize>,
}

impl MatchReport {
    /// An empty report of a match between `names`.
    pub fn new(names: [String; 2], sprt: Option<SprtConfig>, paired: bool) -> MatchReport {
        MatchReport {
            names,
            sprt,
            paired,
            ..MatchReport::default()
        }
    }

    /// Adds one finished game.
    pub fn add(&mut self, record: &GameRecord) {
        self.add_outcome(&record.outcome());
    }

    /// Adds the outcome of one game (in any order: a pair counts once both its games are in).
    pub fn add_outcome(&mut self, game: &GameOutcome) {
        for (lowest, game) in self.lowest_clock_ms.iter_mut().zip(game.lowest_clock_ms) {
            *lowest = lower(*lowest, game);
        }
        if !game.counts() {
            self.abandoned += 1;
            return;
        }
        match game.winning_engine() {
            Some(0) => self.wdl.wins += 1,
            Some(_) => self.wdl.losses += 1,
            None => self.wdl.draws += 1,
        }
        match game.winner {
            Some(Color::Red) => self.red_wdl.wins += 1,
            Some(Color::Black) => self.red_wdl.losses += 1,
            None => self.red_wdl.draws += 1,
        }
        *self.endings.entry(game.kind.clone()).or_default() += 1;
        if let Some(loser) = game.faulty_engine() {
            let f = &mut self.faults[loser];
            match game.kind.as_str() {
                "illegal-move" => f.illegal += 1,
                "crash" => f.crash += 1,
                "hang" => f.hang += 1,
                _ => f.time += 1,
            }
        }
        if self.paired {
            let pair = game.index / 2;
            match self.open_pairs.remove(&pair) {
                Some(first) => self.pentanomial.add(first + game.half_points_first()),
                None => {
                    self.open_pairs.insert(pair, game.half_points_first());
                }
            }
        }
    }

    /// The SPRT log-likelihood ratio (over pairs when pairs are played, else over games).
    pub fn llr(&self) -> Option<f64> {
        let sprt = self.sprt?;
        Some(if self.paired {
            sprt.llr(&self.pentanomial.0)
        } else {
            sprt.llr(&[self.wdl.losses, self.wdl.draws, self.wdl.wins])
        })
    }

    /// The one-line running score: `Score of A vs B: 5 - 3 - 4  [0.583] 12`.
    pub fn score_line(&self) -> String {
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            self.names[0],
            self.names[1],
            self.wdl.wins,
            self.wdl.losses,
            self.wdl.draws,
            self.wdl.score(),
            self.wdl.games()
        )
    }

    /// `Elo difference: …, LOS: …, DrawRatio: …`.
    pub fn elo_line(&self) -> String {
        match self.wdl.elo() {
            Some(e) => format!(
                "Elo difference: {e}, LOS: {:.1} %, DrawRatio: {:.1} %",
                100.0 * self.wdl.los(),
                100.0 * self.wdl.draw_ratio()
            ),
            None => "Elo difference: no games".to_string(),
        }
    }

    /// `SPRT: llr …, lbound …, ubound …` with the decision, if an SPRT runs.
    pub fn sprt_line(&self) -> Option<String> {
        let sprt = self.sprt?;
        let llr = self.llr()?;
        let verdict = match sprt.decide(llr) {
            SprtDecision::Continue => "",
            SprtDecision::AcceptH0 => " - H0 was accepted",
            SprtDecision::AcceptH1 => " - H1 was accepted",
        };
        Some(format!(
            "SPRT ({} elo0={} elo1={} alpha={} beta={}): llr {:.2} ({:.1}%), lbound {:.2}, \
             ubound {:.2}{verdict}",
            if self.paired {
                "pentanomial"
            } else {
                "trinomial"
            },
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            llr,
            100.0 * llr / sprt.upper_bound(),
            sprt.lower_bound(),
            sprt.upper_bound()
        ))
    }
}

impl fmt::Display for MatchReport {
    /// The summary block.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        writeln!(
            f,
            "=== Match summary: {} vs {} ===",
            self.names[0], self.names[1]
        )?;
        writeln!(
            f,
            "Games: {} of {} played in {:.1} s{}",
            self.wdl.games(),
            self.scheduled,
            secs,
            if self.abandoned > 0 {
                format!(" ({} abandoned)", self.abandoned)
            } else {
                String::new()
            }
        )?;
        if self.unplayed > 0 {
            let (games, them) = if self.unplayed == 1 {
                ("game", "it")
            } else {
                ("games", "them")
            };
            writeln!(
                f,
                "Stopped at the --stop-after time: {} {games} not started (--resume plays \
                 {them})",
                self.unplayed
            )?;
        }
        writeln!(f, "{}", self.score_line())?;
        writeln!(
            f,
            "Red vs Black: {} - {} - {}  [{:.3}]",
            self.red_wdl.wins,
            self.red_wdl.losses,
            self.red_wdl.draws,
            self.red_wdl.score()
        )?;
        let p = &self.pentanomial;
        if p.pairs() > 0 {
            let elo = p.elo().map_or_else(|| "-".to_string(), |e| e.to_string());
            writeln!(
                f,
                "Pairs (LL, LD, DD+WL, WD, WW): {} {} {} {} {}; Elo from pairs: {elo}",
                p.0[0], p.0[1], p.0[2], p.0[3], p.0[4]
            )?;
        }
        writeln!(f, "{}", self.elo_line())?;
        if let Some(line) = self.sprt_line() {
            writeln!(f, "{line}")?;
        }
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
        )?;
        for (i, name) in self.names.iter().enumerate() {
            let x = self.faults[i];
            writeln!(
                f,
                "Faults of {name}: illegal moves {}, crashes {}, hangs {}, time forfeits {}",
                x.illegal, x.crash, x.hang, x.time
            )?;
        }
        if self.lowest_clock_ms.iter().any(Option::is_some) {
            let lows: Vec<String> = self
                .names
                .iter()
                .zip(self.lowest_clock_ms)
                .map(|(name, ms)| match ms {
                    Some(ms) => format!("{name} {:.3} s", ms as f64 / 1000.0),
                    None => format!("{name} -"),
                })
                .collect();
            writeln!(f, "Lowest clock after a move: {}", lows.join(", "))?;
        }
        Ok(())
    }
}

/// Runs a match: games on `config.concurrency` threads, progress lines on `progress` (first
/// each engine's setup, e.g. its rank numbering), each game's PGN on `pgn` as the game ends.
/// Fails if an engine cannot be started at all, if a game shows that an engine is set up
/// wrong ([`Ending::Misconfigured`]; the match stops at once), or if the PGN cannot be written
/// (the match stops at the first write error).
pub fn run_match(
    config: &MatchConfig,
    progress: &mut dyn Write,
    pgn: Option<&mut dyn Write>,
) -> Result<MatchReport, String> {
    run_match_to(config, progress, pgn, None)
}

/// [`run_match`] that also writes the results file (see [`results`]) on `results`: a header,
/// one line per game as it ends, and a closing line once the match finished. Fails if an
/// engine cannot be started at all, an engine is set up wrong, or the results or the PGN
/// cannot be written (the first write error stops the match; the results file then has no
/// closing line, so `--resume` can play the rest).
pub fn run_match_to(
    config: &MatchConfig,
    progress: &mut dyn Write,
    pgn: Option<&mut dyn Write>,
    results: Option<&mut dyn Write>,
) -> Result<MatchReport, String> {
    run_match_resumed(config, &[], progress, pgn, results)
}

/// [`run_match_to`] continuing a stopped run: `kept` are the games of this slice that were
/// already played (read from its results file, any set of games). They are counted and
/// written to `results` again first, in game order, but not played again and not written to
/// `pgn`; every other game of the slice is played. Kept games outside the slice or that do
/// not count are ignored. The report's time is that of this run only. With
/// [`MatchConfig::stop_after`], games not started by then are left for a later resume.
pub fn run_match_resumed(
    config: &MatchConfig,
    kept: &[GameOutcome],
    progress: &mut dyn Write,
    mut pgn: Option<&mut dyn Write>,
    mut results: Option<&mut dyn Write>,
) -> Result<MatchReport, String> {
    let start = Instant::now();
    // Start each engine once: checks the command and learns its name.
    let mut names: [String; 2] = Default::default();
    for (i, spec) in config.engines.iter().enumerate() {
        let player = make_player(spec, config.startup_timeout)
            .map_err(|e| format!("engine {}: {e}", i + 1))?;
        names[i] = player.name();
        if let Some(note) = player.setup_note() {
            let _ = writeln!(progress, "Engine {}: {note}", i + 1);
        }
    }
    let mut setup_error = None;
    if names[0] == names[1] {
        names[1].push_str(" (2)");
    }
    let range = config.game_range();
    let mut report = MatchReport::new(names.clone(), config.sprt, config.repeat);
    report.scheduled = range.len();
    // The games of a stopped run that count, by game number; they are not played again.
    let kept_games: BTreeMap<usize, &GameOutcome> = kept
        .iter()
        .filter(|g| range.contains(&g.index) && g.counts())
        .map(|g| (g.index, g))
        .collect();
    let to_play: Vec<usize> = range
        .clone()
        .filter(|i| !kept_games.contains_key(i))
        .collect();
    if !kept_games.is_empty() {
        let _ = writeln!(
            progress,
            "Resuming: {} of the slice's {} games kept from the results file, {} to play",
            kept_games.len(),
            range.len(),
            to_play.len()
        );
    }
    let stop = AtomicBool::new(false);
    let deadline = config.stop_after.map(|after| start + after);
    for g in kept_games.values() {
        report.add_outcome(g);
    }
    if let (Some(sprt), Some(llr), true) = (config.sprt, report.llr(), config.slice.is_whole()) {
        if sprt.decide(llr) != SprtDecision::Continue {
            stop.store(true, Ordering::Relaxed);
        }
    }
    // The first error writing the results or the PGN stops the match: a game that cannot be
    // recorded is not worth playing, and the unfinished results file can be resumed.
    let mut written: io::Result<()> = Ok(());
    let mut pgn_written: io::Result<()> = Ok(());
    if let Some(out) = results.as_mut() {
        written = results::write_header(*out, config, &names);
        if written.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let workers = config.concurrency.clamp(1, to_play.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, to_play) = (&next, &stop, &to_play[..]);
            scope.spawn(move || worker(config, next, to_play, stop, deadline, tx));
        }
        drop(tx);
        let mut write_result = |outcome: &GameOutcome, written: &mut io::Result<()>| {
            if let (Some(out), true) = (results.as_mut(), written.is_ok()) {
                *written = results::write_game(*out, config, &names, outcome);
            }
        };
        // The kept games are written at once, in game order.
        for g in kept_games.values() {
            write_result(g, &mut written);
        }
        for record in rx {
            report.add(&record);
            if let Ending::Misconfigured(why) = &record.ending {
                stop.store(true, Ordering::Relaxed);
                setup_error.get_or_insert_with(|| why.clone());
            }
            if record.counts() {
                let _ = writeln!(
                    progress,
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    record.index + 1,
                    names[record.red],
                    names[1 - record.red],
                    record.result(),
                    record.comment()
                );
                let _ = writeln!(progress, "{}", report.score_line());
                let done = report.wdl.games();
                if done.is_multiple_of(10) {
                    let _ = writeln!(progress, "{}", report.elo_line());
                    if let Some(line) = report.sprt_line() {
                        let _ = writeln!(progress, "{line}");
                    }
                }
                if let (Some(sprt), Some(llr), true) =
                    (config.sprt, report.llr(), config.slice.is_whole())
                {
                    if sprt.decide(llr) != SprtDecision::Continue {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            // Write PGN and results as the game ends, so that a stopped run keeps every
            // finished game (games that do not count are left out of the PGN).
            // After the first write error of either file nothing more is written: every game
            // in the results stays in the PGN, and `--resume` plays the others again.
            if written.is_err() || pgn_written.is_err() {
                continue;
            }
            if let (Some(out), true) = (pgn.as_mut(), record.counts()) {
                let text = record.to_pgn(&names, &config.event, &config.limit).to_pgn();
                pgn_written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
            }
            if pgn_written.is_ok() {
                write_result(&record.outcome(), &mut written);
            }
            if written.is_err() || pgn_written.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    report.elapsed = start.elapsed();
    // Workers quit early only when the match stops (SPRT, errors) or at the deadline.
    if !stop.load(Ordering::Relaxed) {
        report.unplayed = to_play.len() - next.load(Ordering::Relaxed).min(to_play.len());
    }
    // A match stopped by a setup error did not finish: its results file gets no end line.
    if let Some(why) = setup_error {
        return Err(format!("match stopped, an engine is set up wrong: {why}"));
    }
    // Nor does one stopped by a write error.
    pgn_written.map_err(|e| format!("cannot write the PGN: {e}"))?;
    // Nor does one that left games unplayed at its deadline: `--resume` plays them.
    if let (Some(out), true) = (results, written.is_ok() && report.unplayed == 0) {
        written = results::write_end(out, &report);
    }
    written.map_err(|e| format!("cannot write the results: {e}"))?;
    Ok(report)
}

/// One worker thread: takes the next game of `to_play` until none are left, the match
/// stops or the `deadline` (for starting games) has passed.
fn worker(
    config: &MatchConfig,
    next: &AtomicUsize,
    to_play: &[usize],
    stop: &AtomicBool,
    deadline: Option<Instant>,
    tx: mpsc::Sender<GameRecord>,
) {
    let mut players: [Option<Box<dyn Player>>; 2] = [None, None];
    loop {
        if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
            return;
        }
        let Some(&index) = to_play.get(next.fetch_add(1, Ordering::Relaxed)) else {
            return;
        };
        let (opening, red) = config.schedule(index);
        // (Re)start engines that are not running; a failure loses the game.
        let mut failed = None;
        for engine in [red, 1 - red] {
            if players[engine].is_none() {
                match make_player(&config.engines[engine], config.startup_timeout) {
                    Ok(p) => players[engine] = Some(p),
                    Err(e) => {
                        failed = Some((engine, e));
                        break;
                    }
                }
            }
        }
        let record = match (failed, players.split_at_mut(1)) {
            (None, (first, second)) => {
                let (Some(p0), Some(p1)) = (first[0].as_deref_mut(), second[0].as_deref_mut())
                else {
                    return;
                };
                let pair: [&mut dyn Player; 2] = if red == 0 { [p0, p1] } else { [p1, p0] };
                play_game(pair, &opening, config, index, red, stop)
            }
            (Some((engine, why)), _) => {
                let loser_color = if engine == red {
                    Color::Red
                } else {
                    Color::Black
                };
                GameRecord {
                    index,
                    red,
                    start_fen: opening.fen.clone(),
                    moves: Vec::new(),
                    comments: Vec::new(),
                    opening_plies: 0,
                    winner: Some(!loser_color),
                    ending: Ending::Crash(why),
                    lowest_clock_ms: [None; 2],
                }
            }
        };
        // A crashed or hung engine is restarted for the next game.
        if matches!(record.ending, Ending::Crash(_) | Ending::Hang) {
            if let Some(winner) = record.winning_engine() {
                players[1 - winner] = None;
            }
        }
        if tx.send(record).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.inc),
            (None, Duration::from_secs(10), Duration::from_millis(100))
        );
        let tc: TimeControl = "40/1:30".parse().unwrap();
        assert_eq!((tc.moves, tc.base), (Some(40), Duration::from_secs(90)));
        for bad in ["", "x", "10+", "0/10", "-1", "0", "1e99"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_summary_counts_the_games_left_at_the_stop_after_time() {
        let mut report = MatchReport::new(["A".into(), "B".into()], None, true);
        assert!(!report.to_string().contains("Stopped"));
        report.unplayed = 1;
        assert!(report
            .to_string()
            .contains("Stopped at the --stop-after time: 1 game not started (--resume plays it)"));
        report.unplayed = 8;
        assert!(report
            .to_string()
            .contains(": 8 games not started (--resume plays them)"));
    }

    #[test]
    fn dates_are_civil() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
