//! XBoard / CECP protocol version 2, `variant xiangqi` (ranks 0–9, as XBoard writes them on
//! boards with ten ranks).
//!
//! ```text
//! > xboard
//! > protover 2           < feature myname="Chariot x.y.z" variants="xiangqi" … / feature done=1
//! > new
//! > variant xiangqi
//! > level 0 1 1
//! > time 6000            (centiseconds)
//! > usermove h2e2
//!                        < 7 -12 35 81234 h9g7 h0g2 …   (with post: ply score time nodes pv)
//!                        < move h9g7
//! > ping 3               < pong 3
//! ```
//!
//! Errors: an illegal or unreadable move gets `Illegal move: X`; anything else
//! `Error (reason): command`. XBoard reads some words in engine output as commands (`Illegal`
//! in an error line is a claim that its move was illegal, `not found` means the engine failed
//! to start, a line with `Draw` ends the game), so messages are kept clear of them; free text
//! goes out as `#` debug lines (`feature debug=1`).
//!
//! **Claims.** A game being played is refereed by [`Game`] under docs/rules.md, and game ends are
//! claimed with `RESULT {reason}` per the `Claims` option:
//! - `safe` (default): claim what a strict referee such as XBoard with `-testClaims` accepts —
//!   checkmate and stalemate (a loss for the side without moves), repetition draws, and our own
//!   losses by perpetual check or chase. A win by the opponent's perpetual check or chase is
//!   not claimed (XBoard adjudicates perpetuals itself after its own repetition count and
//!   forfeits win claims it cannot verify); a draw by the CXQ move-count rules is offered with
//!   `offer draw` before our move (XBoard turns the offer into a claim when its own rules agree,
//!   and passes it on to the opponent otherwise).
//! - `all`: claim every result the referee finds, as soon as it is found.
//!
//! Draw offers and resignation follow [`policy`](super::policy).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use super::command::{
    clip, clock_reading, decimal, number, CommandError, EngineCommand, Level, MAX_PERFT_DEPTH,
};
use super::controller::{ActiveSearch, Busy, Controller, Purpose};
use super::dialect::Dialect;
use super::event::Event;
use super::options::{self, MAX_HASH_MB, MAX_THREADS};
use super::output::Output;
use super::policy::ScoreHistory;
use super::ranks::{self, MoveText, RankBase};
use crate::game::Game;
use crate::position::{Position, START_FEN};
use crate::rules::{EndReason, GameResult};
use crate::search::limits::{Clock, Limits};
use crate::search::report::{Bound, Reporter, Score, SearchInfo, SearchResult};
use crate::types::{Color, Move};

/// XBoard's default time control when none was sent: 40 moves in 5 minutes.
const DEFAULT_LEVEL: Level = Level {
    moves_per_session: 40,
    base: Duration::from_secs(300),
    increment: Duration::ZERO,
};

/// The XBoard game state kept by the controller.
pub struct State {
    /// The referee; it follows the game while it is undecided.
    pub(super) referee: Game,
    /// Force mode: play neither side.
    pub(super) force: bool,
    /// The side the engine plays.
    pub(super) engine_side: Option<Color>,
    /// Analyze mode.
    pub(super) analyzing: bool,
    /// Thinking output on (`post`).
    pub(super) post: Arc<AtomicBool>,
    /// `level`.
    pub(super) level: Option<Level>,
    /// `st`: fixed time per move.
    pub(super) move_time: Option<Duration>,
    /// `sd`: depth limit.
    pub(super) max_depth: Option<u32>,
    /// `time`.
    pub(super) our_clock: Option<Duration>,
    /// `otim`.
    pub(super) their_clock: Option<Duration>,
    /// Commands that arrived while the engine thought on its move and must wait for the move
    /// (`ping`, and configuration that needs an idle engine); handled once the move is out.
    pub(super) deferred: Vec<(EngineCommand, String)>,
    /// The last `setboard` was refused: moves are refused until `new` or `setboard`.
    pub(super) bad_setup: bool,
    /// The game ended (`result`, our claim or resignation).
    pub(super) game_over: bool,
    /// The move we expect from the opponent.
    pub(super) hint: Option<Move>,
    /// The score of our last move.
    pub(super) last_score: Option<Score>,
}

impl Default for State {
    fn default() -> State {
        State {
            referee: Game::startpos(),
            force: false,
            engine_side: Some(Color::Black),
            analyzing: false,
            post: Arc::new(AtomicBool::new(false)),
            level: None,
            move_time: None,
            max_depth: None,
            our_clock: None,
            their_clock: None,
            deferred: Vec::new(),
            bad_setup: false,
            game_over: false,
            hint: None,
            last_score: None,
        }
    }
}

const HELP: &[&str] = &[
    "xboard, protover 2           handshake (features)",
    "new | variant xiangqi | force | go | playother | ? (move now)",
    "usermove M (or just M)       e.g. usermove h2e2",
    "setboard FEN | undo | remove",
    "level MPS BASE INC | st SECONDS | sd DEPTH | time CS | otim CS",
    "post | nopost | hard | easy | analyze | exit | hint",
    "ping N | memory MB | cores N | option NAME[=VALUE] | result R {why} | draw | quit",
    "d | eval | perft N | bench [depth]",
];

/// Words XBoard would read as something else in engine output, and their harmless stand-ins.
const UNSAFE_WORDS: &[(&str, &str)] = &[
    ("illegal", "invalid"),
    ("not found", "unknown"),
    ("no such file", "no file"),
    ("permission denied", "denied"),
    ("unknown host", "bad host"),
    ("can't alloc", "cannot allocate"),
    ("no remote directory", "no remote dir"),
    ("draw", "tie"),
];

/// `text` with every word XBoard might misread replaced (case-insensitive).
fn defuse(text: &str) -> String {
    let mut s = text.to_string();
    for (bad, good) in UNSAFE_WORDS {
        let mut out = String::with_capacity(s.len());
        let mut rest = s.as_str();
        // ASCII lower-casing keeps byte offsets, so matches index `rest` directly.
        while let Some(at) = rest.to_ascii_lowercase().find(bad) {
            out.push_str(&rest[..at]);
            out.push_str(good);
            rest = &rest[at + bad.len()..];
        }
        out.push_str(rest);
        s = out;
    }
    s
}

/// The CECP line for a command that did not parse.
pub fn error_line(e: &CommandError, line: &str) -> String {
    let first = line.split_whitespace().next().unwrap_or("");
    match e {
        CommandError::BadMove(_) if first == "usermove" => {
            format!(
                "Illegal move: {}",
                clip(line.split_whitespace().nth(1).unwrap_or(""))
            )
        }
        CommandError::Unknown(_) => format!("Error (unknown command): {}", defuse(&clip(line))),
        CommandError::TooLong(n) => format!("Error (line too long): {n} bytes"),
        other => format!(
            "Error ({}): {}",
            defuse(&other.to_string()),
            defuse(&clip(line))
        ),
    }
}

/// The CECP line for a command that could not be carried out.
pub fn failure_line(what: &str, line: &str) -> String {
    format!("Error ({}): {}", defuse(what), defuse(&clip(line)))
}

/// Parses `level MPS BASE INC`; BASE is minutes or `min:sec`, trailing text after it ignored.
fn parse_level(args: &[&str]) -> Result<Level, CommandError> {
    if args.len() != 3 {
        return Err(CommandError::Missing {
            command: "level",
            what: "MPS BASE INC",
        });
    }
    let mps: u32 = number("level moves", Some(args[0]), 0, 10_000)?;
    let leading = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect()
    };
    let (min, sec) = match args[1].split_once(':') {
        Some((m, s)) => (m.to_string(), leading(s)),
        None => (leading(args[1]), "0".to_string()),
    };
    let minutes = decimal("level base", Some(&min))?;
    let seconds = decimal("level base", Some(if sec.is_empty() { "0" } else { &sec }))?;
    let increment = decimal("level increment", Some(args[2]))?;
    let secs = (minutes * 60.0 + seconds).min(1e9);
    Ok(Level {
        moves_per_session: mps,
        base: Duration::from_secs_f64(secs),
        increment: Duration::from_secs_f64(increment.min(1e9)),
    })
}

/// Parses one XBoard line.
pub fn parse(line: &str) -> Result<EngineCommand, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, args)) = words.split_first() else {
        return Err(CommandError::Unknown(String::new()));
    };
    let arg = args.first().copied();
    let rest = || line.trim_start()[cmd.len()..].trim().to_string();
    Ok(match cmd {
        "xboard" => EngineCommand::Hello,
        "protover" => EngineCommand::Protover(number("protover", arg, 1, 1000)?),
        "new" => EngineCommand::NewGame,
        "variant" => match arg {
            Some(v) if v.eq_ignore_ascii_case("xiangqi") => EngineCommand::Variant(v.to_string()),
            Some(v) => return Err(CommandError::UnsupportedVariant(v.to_string())),
            None => {
                return Err(CommandError::Missing {
                    command: "variant",
                    what: "a variant name",
                })
            }
        },
        "force" => EngineCommand::Force,
        "go" => EngineCommand::Think,
        "playother" => EngineCommand::PlayOther,
        "usermove" => match arg {
            Some(m) => EngineCommand::UserMove(m.parse()?),
            None => {
                return Err(CommandError::Missing {
                    command: "usermove",
                    what: "a move",
                })
            }
        },
        "?" => EngineCommand::MoveNow,
        "ping" => EngineCommand::Ping(args.join(" ")),
        "setboard" => EngineCommand::SetBoard(rest()),
        "undo" => EngineCommand::Undo,
        "remove" => EngineCommand::Remove,
        "level" => EngineCommand::Level(parse_level(args)?),
        "st" => EngineCommand::SearchTime(Duration::from_secs_f64(decimal("st", arg)?.min(1e9))),
        "sd" => EngineCommand::SearchDepth(number("sd", arg, 1, 255)?),
        "time" => EngineCommand::Clock {
            ours: true,
            centis: clock_reading("time", arg)?,
        },
        "otim" => EngineCommand::Clock {
            ours: false,
            centis: clock_reading("otim", arg)?,
        },
        "post" => EngineCommand::Post(true),
        "nopost" => EngineCommand::Post(false),
        "analyze" => EngineCommand::Analyze,
        "exit" => EngineCommand::ExitAnalyze,
        "." => EngineCommand::AnalyzeStatus,
        "hard" => EngineCommand::PonderMode(true),
        "easy" => EngineCommand::PonderMode(false),
        "memory" => {
            let mb: u64 = number("memory", arg, 0, u64::MAX)?;
            EngineCommand::Memory(mb.clamp(1, MAX_HASH_MB as u64) as usize)
        }
        "cores" => {
            let n: u64 = number("cores", arg, 0, u64::MAX)?;
            EngineCommand::Cores(n.clamp(1, MAX_THREADS as u64) as usize)
        }
        "option" => {
            let text = rest();
            let (name, value) = match text.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (text, None),
            };
            EngineCommand::SetOption(options::parse_setting(
                Dialect::Xboard,
                &name,
                value.as_deref(),
            )?)
        }
        "result" => EngineCommand::GameResult(rest()),
        "draw" => EngineCommand::DrawOffer,
        "hint" => EngineCommand::Hint,
        "bk" => EngineCommand::Book,
        "quit" => EngineCommand::Quit,
        "help" => EngineCommand::Help,
        "d" => EngineCommand::Display,
        "eval" => EngineCommand::Eval,
        "perft" => EngineCommand::Perft(number("perft depth", arg, 1, MAX_PERFT_DEPTH)?),
        "bench" => EngineCommand::Bench(match arg {
            None => None,
            Some(d) => Some(number(
                "bench depth",
                Some(d),
                1,
                crate::bench::MAX_DEPTH.into(),
            )?),
        }),
        "random" | "computer" | "name" | "rating" | "ics" | "accepted" | "rejected" | "white"
        | "black" => EngineCommand::Ignored(line.to_string()),
        other => match other.parse::<MoveText>() {
            Ok(m) if args.is_empty() => EngineCommand::UserMove(m),
            _ => return Err(CommandError::Unknown(other.to_string())),
        },
    })
}

/// A score in XBoard's scale: centipawns, mates as ±(100000 + moves).
fn xboard_score(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => cp as i64,
        Score::Mate(n) if n > 0 => 100_000 + n as i64,
        Score::Mate(n) => -100_000 + n as i64,
    }
}

/// One thinking line: `ply score time nodes pv` (time in centiseconds; `?`/`!` mark bounds).
pub fn format_thinking(info: &SearchInfo) -> String {
    let mark = match info.bound {
        Bound::Exact => "",
        Bound::Lower => "!",
        Bound::Upper => "?",
    };
    format!(
        "{} {} {} {} {}{mark}",
        info.depth,
        xboard_score(info.score),
        info.time.as_millis() / 10,
        info.nodes,
        ranks::format_moves(&info.pv, RankBase::Zero)
    )
}

/// `1-0 {Red mates}`, `1/2-1/2 {repetition}`, …
pub fn format_claim(result: GameResult) -> Option<String> {
    let GameResult::Decided { winner, reason, .. } = result else {
        return None;
    };
    let name = |c: Color| if c == Color::Red { "Red" } else { "Black" };
    let text = match (reason, winner) {
        (EndReason::Checkmate, Some(w)) => format!("{} mates", name(w)),
        (EndReason::Stalemate, Some(w)) => format!("{} is stalemated", name(!w)),
        (EndReason::PerpetualCheck, Some(w)) => format!("{} loses by perpetual check", name(!w)),
        (EndReason::PerpetualChase, Some(w)) => format!("{} loses by perpetual chase", name(!w)),
        (EndReason::Repetition, _) => "repetition".to_string(),
        (EndReason::MovesRule, _) => "moves rule".to_string(),
        (EndReason::EffectiveRule, _) => "effective moves rule".to_string(),
        (EndReason::ProgressRule, _) => "progress rule".to_string(),
        (EndReason::SixtyMoveRule, _) => "60-move rule".to_string(),
        (reason, _) => reason.to_string(),
    };
    Some(format!("{} {{{text}}}", result.score()))
}

/// Prints thinking output (with `post`, always in analyze mode); hands results to the
/// controller.
pub struct XboardReporter {
    out: Output,
    events: Sender<Event>,
    id: u64,
    post: Arc<AtomicBool>,
    analyzing: bool,
}

impl Reporter for XboardReporter {
    fn info(&self, info: &SearchInfo) {
        if info.multipv == 1 && (self.analyzing || self.post.load(Ordering::Relaxed)) {
            self.out.line(&format_thinking(info));
        }
    }

    fn message(&self, text: &str) {
        self.out.line(&format!("# {}", defuse(text)));
    }

    fn best_move(&self, result: &SearchResult) {
        let _ = self.events.send(Event::SearchDone {
            id: self.id,
            result: result.clone(),
        });
    }
}

impl Controller {
    /// Handles one XBoard command.
    pub(super) fn xboard_command(&mut self, cmd: EngineCommand, line: &str) {
        match cmd {
            EngineCommand::Hello => self.xb_reset(Position::startpos(), START_FEN),
            EngineCommand::Protover(_) => {
                let mut lines = vec![format!(
                    "feature myname=\"Chariot {}\" variants=\"xiangqi\" setboard=1 usermove=1 \
                     ping=1 memory=1 smp=1 colors=0 sigint=0 sigterm=0 analyze=1 playother=1 \
                     draw=1 time=1 reuse=1 san=0 nps=0 debug=1",
                    env!("CARGO_PKG_VERSION")
                )];
                lines.extend(options::xboard_lines());
                lines.push("feature done=1".to_string());
                self.out.lines(&lines);
            }
            EngineCommand::NewGame => {
                self.new_game();
                self.xb_reset(Position::startpos(), START_FEN);
                self.xb.force = false;
                self.xb.engine_side = Some(Color::Black);
                self.xb.max_depth = None;
                self.xb_resume_analysis();
            }
            EngineCommand::Variant(_)
            | EngineCommand::Ignored(_)
            | EngineCommand::AnalyzeStatus => {}
            EngineCommand::Force => {
                self.xb_stop_playing();
                self.xb.force = true;
            }
            EngineCommand::Think => {
                self.xb_stop_playing();
                self.xb.force = false;
                self.xb.engine_side = Some(self.pos.side_to_move());
                self.xb_think();
            }
            EngineCommand::PlayOther => {
                self.xb_stop_playing();
                self.xb.force = false;
                self.xb.engine_side = Some(!self.pos.side_to_move());
            }
            EngineCommand::UserMove(text) => self.xb_usermove(text),
            EngineCommand::MoveNow => {
                if self.xb_thinking() {
                    self.engine.stop();
                }
            }
            EngineCommand::Ping(n) => {
                if self.xb_thinking() {
                    // `pong` comes after our move (CECP: after every earlier command is done).
                    self.xb
                        .deferred
                        .push((EngineCommand::Ping(n), line.to_string()));
                } else {
                    self.out.line(&format!("pong {n}"));
                }
            }
            EngineCommand::SetBoard(fen) => self.xb_setboard(&fen),
            EngineCommand::Undo => self.xb_undo(1, line),
            EngineCommand::Remove => self.xb_undo(2, line),
            EngineCommand::Level(level) => {
                self.xb.level = Some(level);
                self.xb.move_time = None;
            }
            EngineCommand::SearchTime(t) => self.xb.move_time = Some(t),
            EngineCommand::SearchDepth(d) => self.xb.max_depth = Some(d),
            EngineCommand::Clock { ours, centis } => {
                let t = Some(Duration::from_millis(centis.saturating_mul(10)));
                if ours {
                    self.xb.our_clock = t;
                } else {
                    self.xb.their_clock = t;
                }
            }
            EngineCommand::Post(on) => self.xb.post.store(on, Ordering::Relaxed),
            EngineCommand::Analyze => {
                self.abandon_search();
                self.xb.analyzing = true;
                self.xb_resume_analysis();
            }
            EngineCommand::ExitAnalyze => {
                if self.xb.analyzing {
                    self.abandon_search();
                    self.xb.analyzing = false;
                }
            }
            EngineCommand::PonderMode(on) => {
                self.settings.ponder = on;
                if !on
                    && matches!(
                        self.search.as_ref().map(|s| s.purpose),
                        Some(Purpose::XbPonder { .. })
                    )
                {
                    self.abandon_search();
                }
            }
            EngineCommand::Memory(mb) => {
                self.xb_configure(EngineCommand::Memory(mb), line, |c| c.set_hash(mb))
            }
            EngineCommand::Cores(n) => {
                self.xb_configure(EngineCommand::Cores(n), line, |c| c.set_threads(n))
            }
            EngineCommand::SetOption(setting) => {
                let cmd = EngineCommand::SetOption(setting);
                self.xb_configure(cmd, line, |c| c.apply_setting(setting))
            }
            EngineCommand::GameResult(_) => {
                if !self.xb.analyzing {
                    self.abandon_search();
                }
                self.xb.game_over = true;
            }
            EngineCommand::DrawOffer => {
                if self.xb.last_score.is_some_and(ScoreHistory::accept_draw) && !self.xb.game_over {
                    self.out.line("offer draw");
                }
            }
            EngineCommand::Hint => {
                if let Some(m) = self.xb.hint.filter(|&m| self.pos.is_legal(m)) {
                    self.out.line(&format!("Hint: {m}"));
                }
            }
            EngineCommand::Book => self.out.lines(&[" no book", ""]),
            EngineCommand::Quit => self.shutdown(),
            EngineCommand::Display => self.xb_comment(&self.pos.to_string()),
            EngineCommand::Eval => self.xb_comment(&crate::eval::describe(&self.pos)),
            EngineCommand::Perft(depth) => {
                self.xb_configure(EngineCommand::Perft(depth), line, |c| c.perft(depth))
            }
            EngineCommand::Bench(depth) => {
                self.xb_configure(EngineCommand::Bench(depth), line, |c| c.bench(depth))
            }
            EngineCommand::Help => self.help(HELP),
            _ => {
                self.rejected += 1;
                self.out.line(&failure_line("unknown command", line));
            }
        }
    }

    /// Whether the engine is thinking on its own move.
    fn xb_thinking(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| s.purpose == Purpose::XbMove)
    }

    /// Prints text as `#` debug lines (ignored by XBoard).
    fn xb_comment(&self, text: &str) {
        let lines: Vec<String> = text.lines().map(|l| format!("# {l}")).collect();
        self.out.lines(&lines);
    }

    /// Starts over from `pos` (given as `fen`).
    fn xb_reset(&mut self, pos: Position, fen: &str) {
        self.abandon_search();
        let rule = self.engine.options().move_rule;
        self.xb.referee = Game::with_rule(fen, rule).unwrap_or_else(|_| Game::startpos());
        self.pos = pos;
        self.xb.bad_setup = false;
        self.xb.game_over = false;
        self.xb.hint = None;
        self.xb.last_score = None;
    }

    /// Stops thinking or pondering (the result is dropped); analysis goes on.
    fn xb_stop_playing(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.purpose != Purpose::XbAnalyze)
        {
            self.abandon_search();
        }
    }

    /// Runs `f` (the work of `cmd`) with the engine idle. While the engine thinks on its move,
    /// `cmd` waits until the move is out (CECP lets an engine finish that search first, and
    /// the move it owes is neither lost nor cut short); pondering stops at once (the command
    /// takes priority, CECP says); analysis stops and resumes afterwards.
    fn xb_configure(&mut self, cmd: EngineCommand, line: &str, f: impl FnOnce(&mut Controller)) {
        match self.search.as_ref().map(|s| s.purpose) {
            Some(Purpose::XbMove) => {
                self.xb.deferred.push((cmd, line.to_string()));
                return;
            }
            Some(_) => self.abandon_search(),
            None => {}
        }
        f(self);
        self.xb_resume_analysis();
    }

    /// (Re)starts the analysis search if in analyze mode (once background work has ended,
    /// if there is any).
    pub(super) fn xb_resume_analysis(&mut self) {
        if !self.xb.analyzing || !matches!(self.busy, Busy::Idle) {
            return;
        }
        let pos = self.pos.clone();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let (out, events, post) = (self.out.clone(), self.events.clone(), self.xb.post.clone());
        self.start_search(&pos, limits, Purpose::XbAnalyze, move |id| {
            Arc::new(XboardReporter {
                out,
                events,
                id,
                post,
                analyzing: true,
            })
        });
    }

    /// Whether the referee has followed every move of the game.
    fn xb_referee_in_sync(&self) -> bool {
        self.xb.referee.moves().len() == self.pos.moves_made()
    }

    /// Plays `mv` (legal) on the board and, while it follows, on the referee.
    fn xb_play(&mut self, mv: Move) {
        if self.xb_referee_in_sync() && !self.xb.referee.result().is_decided() {
            if let Err(e) = self.xb.referee.push(mv) {
                log::warn!("referee refused {mv}: {e}");
            }
        }
        self.pos.make_move(mv);
    }

    /// The referee's verdict on the current position, if it follows the game.
    fn xb_verdict(&self) -> GameResult {
        if self.xb_referee_in_sync() {
            self.xb.referee.result()
        } else {
            GameResult::Ongoing
        }
    }

    /// Whether a decided `result` is claimed under the claim policy.
    fn xb_claimable(&self, result: GameResult) -> bool {
        let GameResult::Decided { winner, reason, .. } = result else {
            return false;
        };
        match self.settings.claims {
            super::options::ClaimPolicy::All => true,
            super::options::ClaimPolicy::Safe => match reason {
                EndReason::Checkmate | EndReason::Stalemate | EndReason::Repetition => true,
                EndReason::PerpetualCheck | EndReason::PerpetualChase => {
                    winner.is_some() && winner != self.xb.engine_side
                }
                _ => false,
            },
        }
    }

    /// Claims the current verdict if the policy allows; returns whether the game is over.
    fn xb_claim(&mut self) -> bool {
        if self.xb.force || self.xb.analyzing || self.xb.game_over {
            return self.xb.game_over;
        }
        let verdict = self.xb_verdict();
        if self.xb_claimable(verdict) {
            if let Some(line) = format_claim(verdict) {
                self.out.line(&line);
                self.xb.game_over = true;
            }
        }
        self.xb.game_over
    }

    fn xb_usermove(&mut self, text: MoveText) {
        let mv = text
            .to_move(RankBase::Zero)
            .filter(|&m| self.pos.is_legal(m));
        let Some(mv) = mv.filter(|_| !self.xb.bad_setup) else {
            self.rejected += 1;
            self.out.line(&format!("Illegal move: {text}"));
            return;
        };
        let hit = match self.search.as_ref().map(|s| s.purpose) {
            Some(Purpose::XbPonder { guess }) if guess == mv => true,
            Some(_) => {
                self.abandon_search();
                false
            }
            None => false,
        };
        self.xb_play(mv);
        if hit {
            if self.xb_claim() {
                self.abandon_search();
            } else if let Some(s) = self.search.as_mut() {
                s.purpose = Purpose::XbMove;
                self.engine.ponderhit();
            }
            return;
        }
        if self.xb.analyzing {
            self.xb_resume_analysis();
            return;
        }
        if !self.xb.force && self.xb.engine_side == Some(self.pos.side_to_move()) {
            self.xb_think();
        }
    }

    /// Starts thinking on our move (or claims the end of the game).
    fn xb_think(&mut self) {
        if self.xb.game_over || self.xb.bad_setup {
            return;
        }
        if self.xb_claim() {
            return;
        }
        let pos = self.pos.clone();
        let limits = self.xb_limits(&pos, false);
        let (out, events, post) = (self.out.clone(), self.events.clone(), self.xb.post.clone());
        self.start_search(&pos, limits, Purpose::XbMove, move |id| {
            Arc::new(XboardReporter {
                out,
                events,
                id,
                post,
                analyzing: false,
            })
        });
    }

    /// Search limits for our move in `pos` from the time control.
    fn xb_limits(&self, pos: &Position, ponder: bool) -> Limits {
        let mut limits = Limits {
            depth: self.xb.max_depth,
            ponder,
            ..Limits::default()
        };
        if let Some(t) = self.xb.move_time {
            limits.movetime = Some(t);
            return limits;
        }
        let level = self.xb.level.unwrap_or(DEFAULT_LEVEL);
        let moves_to_go = (level.moves_per_session > 0).then(|| {
            let ours_played = pos.game_ply() / 2;
            level.moves_per_session - ours_played % level.moves_per_session
        });
        limits.clock = Some(Clock {
            time: self.xb.our_clock.unwrap_or(level.base),
            increment: level.increment,
            moves_to_go,
            opponent_time: self.xb.their_clock,
            opponent_increment: Some(level.increment),
        });
        limits
    }

    fn xb_setboard(&mut self, fen: &str) {
        match Position::from_fen(fen) {
            Ok(pos) => {
                self.xb_reset(pos, fen);
                self.xb_resume_analysis();
            }
            Err(e) => {
                self.rejected += 1;
                self.xb_stop_playing();
                self.xb.bad_setup = true;
                self.out.line(&format!(
                    "tellusererror Bad FEN: {}",
                    defuse(&e.to_string())
                ));
            }
        }
    }

    fn xb_undo(&mut self, n: usize, line: &str) {
        self.xb_stop_playing();
        if self.pos.moves_made() < n {
            self.rejected += 1;
            self.out.line(&failure_line("command not legal now", line));
            return;
        }
        for _ in 0..n {
            if self.xb_referee_in_sync() {
                self.xb.referee.pop();
            }
            self.pos.unmake_move();
        }
        self.xb.game_over = false;
        if self.xb.analyzing {
            self.xb_resume_analysis();
        }
    }

    /// A search ended: our move goes out (with claims, offers, pondering), analysis and
    /// pondering results are dropped.
    pub(super) fn xboard_finished(&mut self, search: &ActiveSearch, result: &SearchResult) {
        if search.purpose != Purpose::XbMove {
            return;
        }
        if result.depth > 0 {
            self.scores.record(result.score, result.depth);
            self.xb.last_score = Some(result.score);
        }
        let Some(mv) = result.best.filter(|&m| self.pos.is_legal(m)) else {
            self.xb_claim();
            return;
        };
        if self.scores.should_resign() {
            self.out.line("resign");
            self.xb.game_over = true;
            return;
        }
        let mut lines = Vec::new();
        let after = if self.xb_referee_in_sync() && !self.xb.referee.result().is_decided() {
            let mut preview = self.xb.referee.clone();
            preview.push(mv).unwrap_or(GameResult::Ongoing)
        } else {
            GameResult::Ongoing
        };
        let drawn = |r: GameResult| matches!(r, GameResult::Decided { winner: None, .. });
        if drawn(after)
            || drawn(self.xb_verdict())
            || self.scores.should_offer_draw(search.game_ply)
        {
            lines.push("offer draw".to_string());
        }
        lines.push(format!("move {}", ranks::format_move(mv, RankBase::Zero)));
        self.out.lines(&lines);
        self.xb_play(mv);
        self.xb.hint = result.ponder;
        let over = self.xb_claim();
        if over || !self.settings.ponder || self.xb.force {
            return;
        }
        if let Some(guess) = result.ponder.filter(|&g| self.pos.is_legal(g)) {
            let mut ponder_pos = self.pos.clone();
            ponder_pos.make_move(guess);
            let limits = self.xb_limits(&ponder_pos, true);
            let (out, events, post) = (self.out.clone(), self.events.clone(), self.xb.post.clone());
            self.start_search(
                &ponder_pos,
                limits,
                Purpose::XbPonder { guess },
                move |id| {
                    Arc::new(XboardReporter {
                        out,
                        events,
                        id,
                        post,
                        analyzing: false,
                    })
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_reads_minutes_and_seconds() {
        let EngineCommand::Level(l) = parse("level 40 5 0").unwrap() else {
            panic!()
        };
        assert_eq!(l.base, Duration::from_secs(300));
        let EngineCommand::Level(l) = parse("level 0 0:30 0.5").unwrap() else {
            panic!()
        };
        assert_eq!((l.moves_per_session, l.base), (0, Duration::from_secs(30)));
        assert_eq!(l.increment, Duration::from_millis(500));
        let EngineCommand::Level(l) = parse("level 40 25+5 0").unwrap() else {
            panic!()
        };
        assert_eq!(l.base, Duration::from_secs(25 * 60));
        assert!(parse("level 40 x 0").is_err());
        assert!(parse("level 1 2").is_err());
    }

    #[test]
    fn bare_moves_are_user_moves() {
        assert!(matches!(parse("h2e2"), Ok(EngineCommand::UserMove(_))));
        assert!(matches!(
            parse("usermove h2e2"),
            Ok(EngineCommand::UserMove(_))
        ));
        assert!(parse("variant shogi").is_err());
        assert_eq!(
            parse("option Move Rule=sixty"),
            Ok(EngineCommand::SetOption(options::Setting::MoveRule(
                crate::rules::MoveCountRule::Sixty
            )))
        );
    }

    #[test]
    fn error_lines_never_say_what_xboard_misreads() {
        let e = CommandError::Unknown("foo".into());
        assert_eq!(
            error_line(&e, "foo illegal Draw"),
            "Error (unknown command): foo invalid tie"
        );
        let e = CommandError::BadMove("zz".parse::<MoveText>().unwrap_err());
        assert_eq!(error_line(&e, "usermove zz"), "Illegal move: zz");
        assert_eq!(defuse("File Not Found"), "File unknown");
    }

    #[test]
    fn claims_name_the_winner() {
        let r = GameResult::Decided {
            winner: Some(Color::Black),
            reason: EndReason::Checkmate,
            ply: 3,
        };
        assert_eq!(format_claim(r).unwrap(), "0-1 {Black mates}");
        let r = GameResult::Decided {
            winner: None,
            reason: EndReason::Repetition,
            ply: 9,
        };
        assert_eq!(format_claim(r).unwrap(), "1/2-1/2 {repetition}");
    }
}
