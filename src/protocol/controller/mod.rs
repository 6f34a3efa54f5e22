//! The controller: owns the position (with its history), the engine and the option values, and
//! turns commands into engine calls. It runs on the thread that called
//! [`run`](super::run) and reacts to [`Event`]s: commands from the reader thread and results
//! from the search thread. It never waits for a search except to finish one that is already
//! stopped, so `stop`, `isready`/`ping` and `quit` are answered while a search runs.
//!
//! Slow work runs off this thread too, and the controller stays [`Busy`] meanwhile:
//! configuration that allocates or clears big tables (`Hash`, `Threads`, `Clear Hash`, a new
//! game) runs in the engine's background, `perft` and `bench` on a job thread, and a `BookFile`
//! is read on a thread of its own. While busy,
//! commands wait in [`Controller::pending`] and are handled in order afterwards (so `readyok`
//! comes when the engine is really ready), except `quit` and end of input, which end the
//! session at once, and, during `perft`/`bench`, `stop` (which ends the job) and `isready`
//! (answered at once, as during a search).
//!
//! The dialect handlers are the child modules [`uci`], [`ucci`] and [`xboard`] (their
//! `impl Controller` blocks, reporters and help texts, and XBoard's game state), and [`play`]
//! handles the strength, book and score options for all of them; the shared
//! plumbing is here. The dialects' parsers and formatters below this module
//! ([`protocol::uci`](super::uci) and the others) know nothing of the controller.

pub mod play;
pub mod ucci;
pub mod uci;
pub mod xboard;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::command::{clip, CommandError, EngineCommand, PositionSpec, Setup};
use super::dialect::Dialect;
use super::event::Event;
use super::options::{self, ClaimPolicy, Setting};
use super::output::Output;
use super::policy::ScoreHistory;
use super::ranks::{self, MoveText, RankBase, RankMode};
use crate::movegen::legal_moves;
use crate::movegen::perft::{self, Partial};
use crate::position::Position;
use crate::search::limits::Limits;
use crate::search::report::{Reporter, Score, SearchResult};
use crate::threads::{spawn_or_return, Change, Engine, EngineOptions};
use crate::types::Move;

/// Option values that live in the protocol layer (the rest live in the engine).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Pondering allowed (UCI `Ponder`, UCCI `ponder`, XBoard `hard`/`easy`).
    pub ponder: bool,
    /// Rank numbering option (UCI).
    pub rank_mode: RankMode,
    /// UCCI: times in milliseconds.
    pub use_millisec: bool,
    /// UCCI batch mode (no effect).
    pub batch: bool,
    /// Echo commands (UCCI `debug`, UCI `debug on`).
    pub debug: bool,
    /// XBoard claim policy.
    pub claims: ClaimPolicy,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            ponder: false,
            rank_mode: RankMode::Auto,
            use_millisec: false,
            batch: false,
            debug: false,
            claims: ClaimPolicy::Safe,
        }
    }
}

/// What a running search is for; decides what happens with its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// UCI `go` (prints `bestmove`).
    Uci,
    /// UCCI `go`.
    Ucci {
        /// The opponent offered a draw (`go draw` / `ponderhit draw`).
        draw_offered: bool,
        /// Started as `go ponder`.
        ponder: bool,
        /// `ponderhit` arrived.
        hit: bool,
    },
    /// XBoard: thinking on our move (prints `move`).
    XbMove,
    /// XBoard: pondering on the opponent's time, expecting `guess`.
    XbPonder {
        /// The expected opponent move (already made on the searched position).
        guess: Move,
    },
    /// XBoard analyze mode.
    XbAnalyze,
}

/// The search in progress.
#[derive(Clone, Debug)]
pub struct ActiveSearch {
    /// Matches [`Event::SearchDone`].
    pub id: u64,
    /// What it is for.
    pub purpose: Purpose,
    /// Rank numbering of its output.
    pub base: RankBase,
    /// Game ply of the searched position.
    pub game_ply: u32,
    /// Zobrist key of the searched position.
    pub key: u64,
    /// A legal move to fall back on should the search thread die.
    pub fallback: Option<Move>,
}

/// Upper bounds on the resources a session may configure, below the protocols' own maxima
/// (an in-process test session keeps its tables small this way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Largest hash table in MiB.
    pub hash_mb: usize,
    /// Most search threads.
    pub threads: usize,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            hash_mb: options::MAX_HASH_MB as usize,
            threads: options::MAX_THREADS as usize,
        }
    }
}

/// Slow work in progress that commands must wait for (see the module docs).
#[derive(Clone, Debug, Default)]
pub enum Busy {
    /// Nothing: commands are handled as they come.
    #[default]
    Idle,
    /// Background configuration changes of the engine, this many not yet made.
    Configuring(usize),
    /// A `BookFile` being read.
    Book {
        /// Matches [`Event::BookLoaded`].
        id: u64,
    },
    /// A `perft` or `bench` job.
    Job {
        /// Matches [`Event::JobDone`].
        id: u64,
        /// Stops the job.
        stop: Arc<AtomicBool>,
    },
}

/// The protocol controller (see the module docs).
pub struct Controller {
    /// The dialect, once selected.
    pub(super) dialect: Option<Dialect>,
    /// Protocol output.
    pub(super) out: Output,
    /// Where reporters send results.
    pub(super) events: Sender<Event>,
    /// The search engine.
    pub(super) engine: Engine,
    /// Protocol-side option values.
    pub(super) settings: Settings,
    /// The current position with its history.
    pub(super) pos: Position,
    /// UCCI `banmoves` for the current position.
    pub(super) ban_moves: Vec<Move>,
    /// Rank numbering in use (UCI).
    pub(super) base: RankBase,
    /// The running search, if any.
    pub(super) search: Option<ActiveSearch>,
    next_id: u64,
    /// Our recent scores (draw and resign policy).
    pub(super) scores: ScoreHistory,
    /// The key of the last searched position and its result (UCCI `probe` of a root: the
    /// search does not keep root positions in the hash table).
    pub(super) last_root: Option<(u64, SearchResult)>,
    /// XBoard game state.
    pub(super) xb: xboard::State,
    /// Strength limit, book and score output settings.
    pub(super) play: super::play::PlaySettings,
    /// Commands put off until the engine can take them, handled in order after the current
    /// event once the controller is not [`Busy`] (e.g. commands that arrived during a `Hash`
    /// change, or XBoard commands that arrived while the engine thought on its move).
    pub(super) pending: VecDeque<Event>,
    /// Slow work in progress.
    pub(super) busy: Busy,
    /// The id of the last job or book load.
    pub(super) next_job: u64,
    /// Test seam: book loads wait for this gate to open.
    #[cfg(test)]
    pub(super) book_gate: Option<Arc<crate::threads::Gate>>,
    /// Resource bounds.
    pub(super) caps: Caps,
    /// Commands refused so far (bad syntax, illegal moves, bad positions, …).
    pub(super) rejected: u64,
    /// Set once the session is over.
    pub(super) quit: bool,
}

impl Controller {
    /// A controller writing to `out`; reporters send results to `events`.
    pub fn new(out: Output, events: Sender<Event>) -> Controller {
        Controller {
            dialect: None,
            out,
            events,
            engine: Engine::new(EngineOptions::default()),
            settings: Settings::default(),
            pos: Position::startpos(),
            ban_moves: Vec::new(),
            base: RankBase::Zero,
            search: None,
            next_id: 0,
            scores: ScoreHistory::default(),
            last_root: None,
            xb: xboard::State::default(),
            play: super::play::PlaySettings::default(),
            pending: VecDeque::new(),
            busy: Busy::Idle,
            next_job: 0,
            #[cfg(test)]
            book_gate: None,
            caps: Caps::default(),
            rejected: 0,
            quit: false,
        }
    }

    /// A controller whose resources are bounded by `caps` (the table starts at the default
    /// size or the cap, whichever is smaller).
    pub fn with_caps(out: Output, events: Sender<Event>, caps: Caps) -> Controller {
        let mut c = Controller::new(out, events);
        let defaults = EngineOptions::default();
        if caps.hash_mb < defaults.hash_mb || caps.threads < defaults.threads {
            c.engine = Engine::new(EngineOptions {
                hash_mb: defaults.hash_mb.min(caps.hash_mb),
                threads: defaults.threads.min(caps.threads),
                ..defaults
            });
        }
        c.caps = caps;
        c
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// How many commands were refused so far.
    pub fn rejected(&self) -> u64 {
        self.rejected
    }

    /// Whether the session is over (`quit` or end of input).
    pub fn finished(&self) -> bool {
        self.quit
    }

    /// The slow work in progress, if any.
    pub fn busy(&self) -> &Busy {
        &self.busy
    }

    /// Whether commands are being put off (background work runs, or earlier commands wait):
    /// a command fed now may not be handled before the work ends.
    pub fn commands_wait(&self) -> bool {
        !matches!(self.busy, Busy::Idle) || !self.pending.is_empty()
    }

    /// Whether nothing runs and nothing waits: no search, no background work, no command put
    /// off.
    pub fn is_idle(&self) -> bool {
        self.search.is_none() && matches!(self.busy, Busy::Idle) && self.pending.is_empty()
    }

    /// Handles events until `quit` or end of input.
    pub fn run(&mut self, rx: Receiver<Event>) {
        while !self.quit {
            match rx.recv() {
                Ok(event) => self.handle(event),
                Err(_) => self.shutdown(),
            }
        }
    }

    /// Handles one event, then the commands it let through (see [`Controller::pending`]).
    pub fn handle(&mut self, event: Event) {
        self.handle_one(event);
        while !self.quit && matches!(self.busy, Busy::Idle) {
            let Some(event) = self.pending.pop_front() else {
                break;
            };
            self.handle_one(event);
        }
    }

    fn handle_one(&mut self, event: Event) {
        if !matches!(self.busy, Busy::Idle) && matches!(event, Event::Command { .. }) {
            self.while_busy(event);
            return;
        }
        match event {
            Event::Unrecognized(text) => self.out.line(&format!(
                "Chariot: '{}' is not a protocol; type uci, ucci or xboard (or help)",
                clip(&text)
            )),
            Event::Help => {
                self.out.lines(&[
                    "Chariot speaks three protocols; the first command chooses one:",
                    "  uci          UCI (Pikafish-compatible); ucicyclone for the Cyclone dialect",
                    "  ucci         UCCI 3.0",
                    "  xboard       XBoard / CECP v2 (then protover 2)",
                    "  quit         leave",
                    "After choosing, help lists the commands of the protocol.",
                ]);
            }
            Event::Select(dialect) => {
                log::info!("protocol: {dialect}");
                self.dialect = Some(dialect);
            }
            Event::Command { line, parsed } => {
                let Some(dialect) = self.dialect else { return };
                if self.settings.debug {
                    log::debug!("< {line}");
                }
                match parsed {
                    Ok(cmd) => self.dispatch(dialect, cmd, &line),
                    Err(e) => self.report_error(dialect, &line, &e),
                }
            }
            Event::Eof => self.shutdown(),
            Event::Configured { notes } => {
                for text in notes {
                    self.note(&text);
                }
                match self.busy {
                    Busy::Configuring(n) if n > 1 => self.busy = Busy::Configuring(n - 1),
                    Busy::Configuring(_) => {
                        self.busy = Busy::Idle;
                        self.engine.settle();
                        self.now_idle();
                    }
                    _ => log::error!("a configuration change nobody waited for"),
                }
            }
            Event::JobDone { id, lines } => {
                if matches!(&self.busy, Busy::Job { id: job, .. } if *job == id) {
                    self.out.lines(&lines);
                    self.busy = Busy::Idle;
                    self.now_idle();
                }
            }
            Event::BookLoaded { id, name, result } => {
                if matches!(self.busy, Busy::Book { id: book } if book == id) {
                    self.book_loaded(name, result);
                    self.busy = Busy::Idle;
                    self.now_idle();
                }
            }
            Event::SearchDone { id, result } => {
                if self.search.as_ref().is_some_and(|s| s.id == id) {
                    if let Some(search) = self.take_search() {
                        self.engine.wait();
                        self.search_finished(search, result);
                    }
                }
            }
        }
    }

    /// A command that came while busy: `quit` ends the session now; during a job `stop` (XBoard
    /// `?`) ends the job and `isready` is answered at once, unless earlier commands still
    /// wait; everything else waits its turn.
    fn while_busy(&mut self, event: Event) {
        let Event::Command {
            parsed: Ok(cmd), ..
        } = &event
        else {
            self.pending.push_back(event);
            return;
        };
        let in_job = matches!(self.busy, Busy::Job { .. });
        let nothing_waits = self.pending.is_empty();
        match cmd {
            EngineCommand::Quit => self.shutdown(),
            EngineCommand::Stop | EngineCommand::MoveNow if in_job => {
                if let Busy::Job { stop, .. } = &self.busy {
                    stop.store(true, Ordering::Relaxed);
                }
                // Stop what the waiting commands start as well.
                if !nothing_waits {
                    self.pending.push_back(event);
                }
            }
            EngineCommand::IsReady if in_job && nothing_waits => self.out.line("readyok"),
            _ => self.pending.push_back(event),
        }
    }

    /// Slow work has ended: XBoard analysis resumes.
    fn now_idle(&mut self) {
        if self.dialect == Some(Dialect::Xboard) && self.search.is_none() {
            self.xb_resume_analysis();
        }
    }

    /// Starts `change` in the engine's background; the controller is busy until it is made.
    pub(super) fn reconfigure(&mut self, change: Change) {
        debug_assert!(!matches!(self.busy, Busy::Job { .. }));
        self.busy = match self.busy {
            Busy::Configuring(n) => Busy::Configuring(n + 1),
            _ => Busy::Configuring(1),
        };
        let events = self.events.clone();
        self.engine.reconfigure(change, move |notes| {
            let _ = events.send(Event::Configured { notes });
        });
    }

    /// Runs `work` on a job thread (the controller is busy until it ends); `work` gets a stop
    /// flag and returns the lines to print.
    fn start_job(&mut self, work: impl FnOnce(&AtomicBool) -> Vec<String> + Send + 'static) {
        debug_assert!(matches!(self.busy, Busy::Idle) && self.search.is_none());
        self.next_job += 1;
        let id = self.next_job;
        // A stop that came after this command (and waits behind it) ends the job at once.
        let stop_waits = self.pending.iter().any(|e| {
            matches!(
                e,
                Event::Command {
                    parsed: Ok(EngineCommand::Stop | EngineCommand::MoveNow),
                    ..
                }
            )
        });
        let stop = Arc::new(AtomicBool::new(stop_waits));
        self.busy = Busy::Job {
            id,
            stop: Arc::clone(&stop),
        };
        let events = self.events.clone();
        let job = move || {
            let lines = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&stop)))
                .unwrap_or_else(|_| vec!["the job failed".to_string()]);
            let _ = events.send(Event::JobDone { id, lines });
            Some(())
        };
        if let Err(job) = spawn_or_return("job", job) {
            job();
        }
    }

    fn dispatch(&mut self, dialect: Dialect, cmd: EngineCommand, line: &str) {
        match dialect {
            Dialect::Uci | Dialect::Cyclone => self.uci_command(cmd, line),
            Dialect::Ucci => self.ucci_command(cmd, line),
            Dialect::Xboard => self.xboard_command(cmd, line),
        }
    }

    /// Reports a bad command in the dialect's own form.
    pub(super) fn report_error(&mut self, dialect: Dialect, line: &str, e: &CommandError) {
        self.rejected += 1;
        log::debug!("bad command '{}': {e}", clip(line));
        match dialect {
            Dialect::Uci | Dialect::Cyclone => self.out.line(&format!("info string error: {e}")),
            Dialect::Ucci => self.out.line(&format!("info message error: {e}")),
            Dialect::Xboard => self.out.line(&super::xboard::error_line(e, line)),
        }
    }

    /// Reports a failed action (not a syntax error) in the dialect's own form.
    pub(super) fn report_failure(&mut self, what: &str, message: &str, line: &str) {
        self.rejected += 1;
        match self.dialect {
            Some(Dialect::Ucci) => self.out.line(&format!("info message error: {message}")),
            Some(Dialect::Xboard) => self.out.line(&super::xboard::failure_line(what, line)),
            _ => self.out.line(&format!("info string error: {message}")),
        }
    }

    /// An informational message in the dialect's form (UCI `info string`, UCCI
    /// `info message`, XBoard `#` debug line).
    pub(super) fn note(&self, text: &str) {
        self.out.line(&note_line(self.dialect, text));
    }

    /// Ends the session: finishes a running search (its answer is printed), says goodbye.
    /// Background work is not waited for: a job is stopped, a configuration change is left to
    /// the engine (which cancels it when dropped).
    pub(super) fn shutdown(&mut self) {
        if self.quit {
            return;
        }
        if let Busy::Job { stop, .. } = &self.busy {
            stop.store(true, Ordering::Relaxed);
        }
        self.pending.clear();
        self.complete_search();
        if self.dialect == Some(Dialect::Ucci) {
            self.out.line("bye");
        }
        self.quit = true;
    }

    // ----- searches -------------------------------------------------------------------------

    /// Whether a search is running.
    pub(super) fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// Starts searching `pos` for `purpose`, reporting through the reporter `make` builds for
    /// the new search id.
    pub(super) fn start_search(
        &mut self,
        pos: &Position,
        limits: Limits,
        purpose: Purpose,
        make: impl FnOnce(u64) -> Arc<dyn Reporter>,
    ) {
        debug_assert!(matches!(self.busy, Busy::Idle), "a search while busy");
        self.abandon_search();
        self.next_id += 1;
        let id = self.next_id;
        let reporter = make(id);
        let fallback = legal_moves(pos)
            .into_iter()
            .find(|m| !limits.ban_moves.contains(m))
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m));
        let search = ActiveSearch {
            id,
            purpose,
            base: self.base,
            game_ply: pos.game_ply(),
            key: pos.key(),
            fallback,
        };
        // The book may answer at once; otherwise the search starts with the strength limit
        // and the score output of `play`.
        if let Some((search, result)) = self.play_search(search, pos, limits, reporter) {
            self.search_finished(search, result);
        }
    }

    /// Forgets the running search (the caller stops it or has its result). Commands that
    /// waited for the end of our XBoard move are handled next.
    fn take_search(&mut self) -> Option<ActiveSearch> {
        let search = self.search.take()?;
        if search.purpose == Purpose::XbMove {
            for (cmd, line) in std::mem::take(&mut self.xb.deferred).into_iter().rev() {
                self.pending.push_front(Event::Command {
                    line,
                    parsed: Ok(cmd),
                });
            }
        }
        Some(search)
    }

    /// Stops the running search and waits for it; returns it with its result.
    pub(super) fn finish_search(&mut self) -> Option<(ActiveSearch, SearchResult)> {
        let search = self.take_search()?;
        self.engine.stop();
        let result = self.engine.wait().unwrap_or_else(|| {
            log::error!("the search thread ended without a result");
            SearchResult {
                best: search.fallback,
                ponder: None,
                score: Score::Cp(0),
                depth: 0,
                nodes: 0,
            }
        });
        Some((search, result))
    }

    /// Stops the running search and handles its result as usual (prints the best move).
    pub(super) fn complete_search(&mut self) {
        if let Some((search, result)) = self.finish_search() {
            self.search_finished(search, result);
        }
    }

    /// Stops the running search and drops its result.
    pub(super) fn abandon_search(&mut self) {
        self.finish_search();
    }

    fn search_finished(&mut self, search: ActiveSearch, result: SearchResult) {
        match search.purpose {
            Purpose::Uci => self.uci_finished(&search, &result),
            Purpose::Ucci { .. } => self.ucci_finished(&search, &result),
            Purpose::XbMove | Purpose::XbPonder { .. } | Purpose::XbAnalyze => {
                self.xboard_finished(&search, &result)
            }
        }
    }

    // ----- shared command work --------------------------------------------------------------

    /// Applies an option that the engine or the settings hold. The caller has finished any
    /// search first. Table sizes, threads and clearing run in the background (see the module
    /// docs).
    pub(super) fn apply_setting(&mut self, setting: Setting) {
        debug_assert!(!self.searching());
        match setting {
            Setting::Hash(mb) => self.set_hash(mb),
            Setting::Threads(n) => self.set_threads(n),
            Setting::ClearHash => self.reconfigure(Change::ClearHash),
            Setting::Ponder(on) => self.settings.ponder = on,
            Setting::MultiPv(n) => self.engine.set_multipv(n),
            Setting::MoveOverhead(ms) => self.engine.set_move_overhead(Duration::from_millis(ms)),
            Setting::UciVariant => {}
            Setting::RankBase(mode) => {
                self.settings.rank_mode = mode;
                if let RankMode::Fixed(base) = mode {
                    self.base = base;
                }
            }
            Setting::MoveRule(rule) => self.engine.set_move_rule(rule),
            Setting::UseMillisec(on) => self.settings.use_millisec = on,
            Setting::Batch(on) => self.settings.batch = on,
            Setting::Debug(on) => self.settings.debug = on,
            Setting::NewGame => self.new_game(),
            Setting::Claims(policy) => self.settings.claims = policy,
            Setting::Play(p) => self.apply_play(p),
            Setting::SearchParam(name, value) => {
                // The parser offers parameters only where they can be set, within range.
                let set = self.engine.set_search_param(name, value);
                debug_assert!(set.is_ok(), "{set:?}");
            }
        }
    }

    /// Resizes the hash table in the background; the GUI is told the size allocated (and why,
    /// when it is less than asked).
    pub(super) fn set_hash(&mut self, mb: usize) {
        self.reconfigure(Change::Hash(mb.min(self.caps.hash_mb)));
    }

    /// Sets the number of search threads (in the background: workers are megabytes each).
    pub(super) fn set_threads(&mut self, n: usize) {
        self.reconfigure(Change::Threads(n.min(self.caps.threads)));
    }

    /// Forgets the game: clears the hash table (in the background), histories and the score
    /// history.
    pub(super) fn new_game(&mut self) {
        self.abandon_search();
        self.reconfigure(Change::NewGame);
        self.scores.clear();
        self.last_root = None;
    }

    /// The start position of `setup`.
    pub(super) fn setup_position(setup: &Setup) -> Result<Position, String> {
        match setup {
            Setup::StartPos => Ok(Position::startpos()),
            Setup::Fen(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}")),
        }
    }

    /// Builds the position of `spec` (moves read per the rank option) without changing the
    /// current one. Returns it and the numbering that worked.
    pub(super) fn build_position(
        &self,
        spec: &PositionSpec,
    ) -> Result<(Position, RankBase), String> {
        let start = Self::setup_position(&spec.setup)?;
        let mode = match self.dialect {
            Some(Dialect::Uci) | Some(Dialect::Cyclone) => self.settings.rank_mode,
            _ => RankMode::Fixed(RankBase::Zero),
        };
        ranks::replay_auto(&start, &spec.moves, mode, self.base).map_err(|e| e.to_string())
    }

    /// Sets the current position from `spec`; on error the last good position stays.
    pub(super) fn set_position(&mut self, spec: &PositionSpec, line: &str) -> bool {
        match self.build_position(spec) {
            Ok((pos, base)) => {
                if base != self.base {
                    self.base = base;
                    self.note(&format!(
                        "ranks are numbered {} from now on",
                        base.describe()
                    ));
                }
                self.pos = pos;
                self.ban_moves.clear();
                true
            }
            Err(message) => {
                self.report_failure("bad position", &message, line);
                false
            }
        }
    }

    /// Root moves for `searchmoves`/`banmoves`: every token must be a legal move of the current
    /// position (read under the current numbering, or the other one in auto mode).
    pub(super) fn root_moves(&self, texts: &[MoveText]) -> Result<Vec<Move>, String> {
        let read = |base: RankBase| -> Option<Vec<Move>> {
            texts
                .iter()
                .map(|t| t.to_move(base).filter(|&m| self.pos.is_legal(m)))
                .collect()
        };
        let auto = matches!(self.dialect, Some(Dialect::Uci) | Some(Dialect::Cyclone))
            && self.settings.rank_mode == RankMode::Auto;
        read(self.base)
            .or_else(|| if auto { read(self.base.other()) } else { None })
            .ok_or_else(|| {
                let bad = texts
                    .iter()
                    .find(|t| t.to_move(self.base).is_none_or(|m| !self.pos.is_legal(m)))
                    .map_or(String::new(), |t| t.to_string());
                format!("'{bad}' is not a legal move in {}", self.pos.fen())
            })
    }

    /// `go perft N` on a job thread: divide lines, then the total. A `stop` ends it early with
    /// the lines of the root moves finished and a note of how far it got.
    pub(super) fn perft(&mut self, depth: u32) {
        let (pos, base, dialect) = (self.pos.clone(), self.base, self.dialect);
        let threads = self.engine.options().threads;
        self.start_job(move |stop| {
            let start = Instant::now();
            let counts = perft::divide_until(&pos, depth, threads, stop);
            let mut lines: Vec<String> = counts
                .iter()
                .filter_map(|&(mv, n)| Some(format!("{}: {}", ranks::format_move(mv, base), n?)))
                .collect();
            let done = Partial::of(&counts);
            lines.push(String::new());
            if done.finished == done.moves {
                lines.push(format!("Nodes searched: {}", done.nodes));
                log::info!(
                    "perft {depth}: {} nodes in {:?}",
                    done.nodes,
                    start.elapsed()
                );
            } else {
                let text = format!(
                    "perft {depth} stopped: {} of {} root moves counted, {} nodes",
                    done.finished, done.moves, done.nodes
                );
                lines.push(note_line(dialect, &text));
            }
            lines
        });
    }

    /// `bench [depth]` on a job thread: the node-count signature with the current threads and
    /// hash size. A `stop` ends it early with a note of how far it got.
    pub(super) fn bench(&mut self, depth: Option<u32>) {
        let depth = depth.unwrap_or(crate::bench::DEFAULT_DEPTH);
        let (threads, hash_mb) = (self.engine.options().threads, self.engine.options().hash_mb);
        let dialect = self.dialect;
        self.start_job(move |stop| {
            let result = crate::bench::run_until(depth, threads, hash_mb, stop, |_, _, _, _| {});
            let nps = result.total * 1000 / result.millis.max(1);
            if result.complete {
                vec![
                    format!("Total time (ms) : {}", result.millis),
                    format!("Nodes searched: {}", result.total),
                    format!("Nodes/second: {nps}"),
                ]
            } else {
                let text = format!(
                    "bench stopped: {} of {} positions searched, {} nodes in {} ms",
                    result.nodes.len(),
                    crate::bench::POSITIONS.len(),
                    result.total,
                    result.millis
                );
                vec![note_line(dialect, &text)]
            }
        });
    }

    /// `help`: the commands of the current dialect and the options.
    pub(super) fn help(&self, commands: &[&str]) {
        let Some(dialect) = self.dialect else { return };
        let mut lines: Vec<String> = vec![format!(
            "Chariot {} — {dialect} commands:",
            env!("CARGO_PKG_VERSION")
        )];
        lines.extend(commands.iter().map(|c| format!("  {c}")));
        lines.push("Options:".to_string());
        lines.extend(options::help_lines(dialect));
        match dialect {
            Dialect::Xboard => self
                .out
                .lines(&lines.iter().map(|l| format!("# {l}")).collect::<Vec<_>>()),
            _ => self.out.lines(&lines),
        }
    }
}

/// An informational line in `dialect`'s form (UCI `info string`, UCCI `info message`, XBoard
/// `#` debug line).
pub(super) fn note_line(dialect: Option<Dialect>, text: &str) -> String {
    match dialect {
        Some(Dialect::Ucci) => format!("info message {text}"),
        Some(Dialect::Xboard) => format!("# {text}"),
        _ => format!("info string {text}"),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::Mutex;

    use super::*;
    use crate::protocol::Session;

    /// Output shared with the test.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Sink {
        fn lines(&self) -> Vec<String> {
            String::from_utf8_lossy(&self.0.lock().unwrap())
                .lines()
                .map(str::to_string)
                .collect()
        }
    }

    fn session(hello: &str) -> (Session, Sink) {
        let sink = Sink::default();
        let caps = Caps {
            hash_mb: 64,
            threads: 2,
        };
        let mut s = Session::new(sink.clone(), caps);
        s.feed(format!("{hello}\n").as_bytes());
        (s, sink)
    }

    /// Pumps events until a line satisfies `done` (a hang fails after a minute).
    fn pump_until(s: &mut Session, sink: &Sink, done: impl Fn(&str) -> bool) -> Vec<String> {
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            let lines = sink.lines();
            if lines.iter().any(|l| done(l)) {
                return lines;
            }
            assert!(Instant::now() < end, "no such line: {lines:?}");
            s.pump_wait(Duration::from_millis(20));
        }
    }

    #[test]
    fn readyok_waits_for_a_hash_change_and_quit_does_not() {
        let (mut s, sink) = session("uci");
        let gate = s.controller_mut().engine.hold_background_work();
        s.feed(b"setoption name Hash value 8\nisready\nposition startpos moves h2e2\n");
        s.pump();
        assert!(
            !sink.lines().contains(&"readyok".to_string()),
            "the table is not ready"
        );
        assert_eq!(
            s.controller().position().moves_made(),
            0,
            "later commands wait"
        );
        gate.open();
        let lines = pump_until(&mut s, &sink, |l| l == "readyok");
        let note = lines
            .iter()
            .position(|l| l == "info string hash table: 8 MiB");
        let ready = lines.iter().position(|l| l == "readyok");
        assert!(note.is_some() && note < ready, "{lines:?}");
        s.pump_wait(Duration::from_millis(1));
        assert_eq!(s.controller().position().moves_made(), 1);
        // Held again: quit ends the session without waiting for the table.
        let _gate = s.controller_mut().engine.hold_background_work();
        s.feed(b"setoption name Hash value 16\nucinewgame\nisready\nquit\n");
        assert!(s.controller().finished());
    }

    #[test]
    fn readyok_waits_for_a_book_file_and_quit_does_not() {
        let file = std::env::temp_dir().join(format!(
            "chariot-controller-book-{}.cbk",
            std::process::id()
        ));
        let bytes = crate::book::builtin()
            .expect("the built-in book")
            .to_bytes();
        std::fs::write(&file, bytes).unwrap();
        let set_book = format!("setoption name BookFile value {}\n", file.display());
        let (mut s, sink) = session("uci");
        let gate = Arc::new(crate::threads::Gate::default());
        s.controller_mut().book_gate = Some(Arc::clone(&gate));
        s.feed(format!("{set_book}isready\nposition startpos moves h2e2\n").as_bytes());
        s.pump();
        assert!(
            !sink.lines().contains(&"readyok".to_string()),
            "the book is not read yet"
        );
        assert!(matches!(s.controller().busy(), Busy::Book { .. }));
        assert_eq!(
            s.controller().position().moves_made(),
            0,
            "later commands wait"
        );
        gate.open();
        let lines = pump_until(&mut s, &sink, |l| l == "readyok");
        let note = lines
            .iter()
            .position(|l| l.starts_with("info string book ") && l.ends_with(" moves"));
        let ready = lines.iter().position(|l| l == "readyok");
        assert!(note.is_some() && note < ready, "{lines:?}");
        assert!(matches!(
            s.controller().play.book,
            crate::protocol::play::BookSource::File(..)
        ));
        s.pump_wait(Duration::from_millis(1));
        assert_eq!(s.controller().position().moves_made(), 1);
        // Held again: quit ends the session without waiting for the read.
        s.controller_mut().book_gate = Some(Arc::new(crate::threads::Gate::default()));
        s.feed(format!("{set_book}isready\nquit\n").as_bytes());
        assert!(s.controller().finished());
        let _ = std::fs::remove_file(file);
    }

    #[test]
    fn end_of_input_during_a_new_game_ends_the_session_at_once() {
        for (hello, new_game) in [
            ("uci", "ucinewgame"),
            ("ucci", "setoption newgame"),
            ("xboard", "new"),
        ] {
            let (mut s, _sink) = session(hello);
            let _gate = s.controller_mut().engine.hold_background_work();
            s.feed(format!("{new_game}\n").as_bytes());
            assert!(
                !s.controller().is_idle(),
                "{hello}: clearing in the background"
            );
            s.end_input();
            assert!(s.controller().finished(), "{hello}");
        }
    }

    #[test]
    fn xboard_ping_after_memory_waits_for_the_table() {
        let (mut s, sink) = session("xboard");
        let gate = s.controller_mut().engine.hold_background_work();
        s.feed(b"protover 2\nmemory 4\nping 7\n");
        assert!(!sink.lines().contains(&"pong 7".to_string()));
        gate.open();
        let lines = pump_until(&mut s, &sink, |l| l == "pong 7");
        assert!(
            lines.contains(&"# hash table: 4 MiB".to_string()),
            "{lines:?}"
        );
    }

    #[test]
    fn stop_ends_perft_and_bench_and_isready_is_answered_meanwhile() {
        for (hello, perft, bench, stop) in [
            ("uci", "go perft 12", "bench 60", "stop"),
            ("ucci", "perft 12", "bench 60", "stop"),
            ("xboard", "perft 12", "bench 60", "?"),
        ] {
            let (mut s, sink) = session(hello);
            s.feed(format!("{perft}\n").as_bytes());
            if hello != "xboard" {
                s.feed(b"isready\n");
                assert_eq!(sink.lines().last().map(String::as_str), Some("readyok"));
            }
            s.feed(format!("{stop}\n").as_bytes());
            pump_until(&mut s, &sink, |l| l.contains("perft 12 stopped"));
            s.feed(format!("{bench}\n{stop}\n").as_bytes());
            pump_until(&mut s, &sink, |l| l.contains("bench stopped"));
            assert!(s.controller().is_idle(), "{hello}");
            s.feed(format!("{perft}\nquit\n").as_bytes());
            assert!(s.controller().finished(), "{hello}: quit during perft");
        }
    }

    #[test]
    fn a_stop_ends_the_jobs_that_came_before_it() {
        let (mut s, sink) = session("uci");
        s.feed(
            b"go perft 12
bench 60
go perft 11
stop
isready
",
        );
        let lines = pump_until(&mut s, &sink, |l| l == "readyok");
        let stopped = lines.iter().filter(|l| l.contains(" stopped")).count();
        assert_eq!(stopped, 3, "{lines:?}");
    }

    #[test]
    fn xboard_cores_are_bounded_and_set_in_the_background() {
        let (mut s, sink) = session("xboard");
        s.feed(b"protover 2\ncores 200\nping 1\n");
        pump_until(&mut s, &sink, |l| l == "pong 1");
        assert_eq!(s.controller().engine.options().threads, 2);
    }

    #[test]
    fn stop_during_perft_also_stops_the_search_that_waited_for_it() {
        let (mut s, sink) = session("uci");
        s.feed(b"go perft 12\ngo infinite\nstop\n");
        let lines = pump_until(&mut s, &sink, |l| l.starts_with("bestmove"));
        assert!(lines.iter().any(|l| l.contains("perft 12 stopped")));
    }
}
