//! The controller: owns the position (with its history), the engine and the option values, and
//! turns commands into engine calls. It runs on the thread that called
//! [`run`](super::run) and reacts to [`Event`]s: commands from the reader thread and results
//! from the search thread. It never waits for a search except to finish one that is already
//! stopped, so `stop`, `isready`/`ping` and `quit` are answered while a search runs.
//!
//! The dialect handlers live next to their parsers (`impl Controller` blocks in `uci.rs`,
//! `ucci.rs` and `xboard.rs`); the shared plumbing is here.

use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::command::{clip, CommandError, EngineCommand, PositionSpec, Setup};
use super::options::{self, Setting};
use super::policy::ScoreHistory;
use super::ranks::{self, MoveText, RankBase, RankMode};
use super::xboard::{self, ClaimPolicy};
use super::{Dialect, Event, Output};
use crate::movegen::{legal_moves, perft};
use crate::position::Position;
use crate::search::limits::Limits;
use crate::search::report::{Reporter, Score, SearchResult};
use crate::threads::{Engine, EngineOptions};
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
            quit: false,
        }
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

    /// Handles one event.
    pub fn handle(&mut self, event: Event) {
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
            Event::SearchDone { id, result } => {
                if self.search.as_ref().is_some_and(|s| s.id == id) {
                    if let Some(search) = self.search.take() {
                        self.engine.wait();
                        self.search_finished(search, result);
                    }
                }
            }
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
    pub(super) fn report_error(&self, dialect: Dialect, line: &str, e: &CommandError) {
        log::debug!("bad command '{}': {e}", clip(line));
        match dialect {
            Dialect::Uci | Dialect::Cyclone => self.out.line(&format!("info string error: {e}")),
            Dialect::Ucci => self.out.line(&format!("info message error: {e}")),
            Dialect::Xboard => self.out.line(&xboard::error_line(e, line)),
        }
    }

    /// Reports a failed action (not a syntax error) in the dialect's own form.
    pub(super) fn report_failure(&self, what: &str, message: &str, line: &str) {
        match self.dialect {
            Some(Dialect::Ucci) => self.out.line(&format!("info message error: {message}")),
            Some(Dialect::Xboard) => self.out.line(&xboard::failure_line(what, line)),
            _ => self.out.line(&format!("info string error: {message}")),
        }
    }

    /// An informational message in the dialect's form (UCI `info string`, UCCI
    /// `info message`, XBoard `#` debug line).
    pub(super) fn note(&self, text: &str) {
        match self.dialect {
            Some(Dialect::Ucci) => self.out.line(&format!("info message {text}")),
            Some(Dialect::Xboard) => self.out.line(&format!("# {text}")),
            _ => self.out.line(&format!("info string {text}")),
        }
    }

    /// Ends the session: finishes a running search (its answer is printed), says goodbye.
    pub(super) fn shutdown(&mut self) {
        if self.quit {
            return;
        }
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

    /// Stops the running search and waits for it; returns it with its result.
    pub(super) fn finish_search(&mut self) -> Option<(ActiveSearch, SearchResult)> {
        let search = self.search.take()?;
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
    /// search first.
    pub(super) fn apply_setting(&mut self, setting: Setting) {
        debug_assert!(!self.searching());
        match setting {
            Setting::Hash(mb) => self.engine.set_hash(mb),
            Setting::Threads(n) => self.engine.set_threads(n),
            Setting::ClearHash => self.engine.clear_hash(),
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
        }
    }

    /// Forgets the game: clears the hash table, histories and the score history.
    pub(super) fn new_game(&mut self) {
        self.abandon_search();
        self.engine.new_game();
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

    /// `go perft N`: divide lines, then the total.
    pub(super) fn perft(&self, depth: u32) {
        let start = Instant::now();
        let threads = self.engine.options().threads;
        let mut lines = Vec::new();
        let mut total = 0;
        for (mv, n) in perft::divide(&self.pos, depth, threads) {
            lines.push(format!("{}: {n}", ranks::format_move(mv, self.base)));
            total += n;
        }
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        self.out.lines(&lines);
        log::info!("perft {depth}: {total} nodes in {:?}", start.elapsed());
    }

    /// `bench [depth]`: the node-count signature with the current threads and hash size.
    pub(super) fn bench(&self, depth: Option<u32>) {
        let depth = depth.unwrap_or(crate::bench::DEFAULT_DEPTH);
        let o = self.engine.options();
        let result = crate::bench::run(depth, o.threads, o.hash_mb, |_, _, _, _| {});
        let nps = result.total * 1000 / result.millis.max(1);
        self.out.lines(&[
            format!("Total time (ms) : {}", result.millis),
            format!("Nodes searched: {}", result.total),
            format!("Nodes/second: {nps}"),
        ]);
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
