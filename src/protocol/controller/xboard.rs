//! The controller's XBoard handlers: the game [`State`] (force and analyze modes, clocks, the
//! referee), each parsed command turned into engine calls and answers, thinking output through
//! [`XboardReporter`], and the end of a search: `move`, claims, draw offers and resignation.
//! The lines are read and formatted by [`xboard`](crate::protocol::xboard), whose module docs
//! describe the claims.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use super::{ActiveSearch, Busy, Controller, Purpose};
use crate::game::Game;
use crate::position::{Position, START_FEN};
use crate::protocol::command::{EngineCommand, Level};
use crate::protocol::event::Event;
use crate::protocol::options;
use crate::protocol::output::Output;
use crate::protocol::policy::ScoreHistory;
use crate::protocol::ranks::{self, MoveText, RankBase};
use crate::protocol::xboard::{defuse, failure_line, format_claim, format_thinking};
use crate::rules::{EndReason, GameResult};
use crate::search::limits::{Clock, Limits};
use crate::search::report::{Reporter, Score, SearchInfo, SearchResult};
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
                let cmd = EngineCommand::SetOption(setting.clone());
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
            EngineCommand::Book => self.out.lines(&self.book_listing()),
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
            crate::protocol::options::ClaimPolicy::All => true,
            crate::protocol::options::ClaimPolicy::Safe => match reason {
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
