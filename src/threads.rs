//! Lazy SMP and the engine handle the protocols drive.
//!
//! [`Engine`] owns the transposition table and one [`Worker`] per thread (their histories
//! persist across moves of a game). `go` starts a coordinator thread that runs the workers
//! with `std::thread::scope` over one shared TT, stop flag and node counters; the main worker
//! (id 0) owns the clock and the output. When it finishes it stops the helpers and reports the
//! move of the best worker (deepest completed depth, then score). `stop`, `ponderhit` and
//! `quit` never wait behind a search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::position::Position;
use crate::rules::MoveCountRule;
use crate::search::limits::Limits;
use crate::search::report::{Bound, Reporter, Score, SearchResult};
use crate::search::score::to_report;
use crate::search::{timeman, PaddedCounter, SharedSearch, Worker};
use crate::tt::{TranspositionTable, TtBound};
use crate::types::Move;

/// Settings of the engine (the option table of every protocol maps onto these).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (1 … 256).
    pub threads: usize,
    /// Transposition table size in MiB (1 … 65536).
    pub hash_mb: usize,
    /// Principal variations to report (1 … 128).
    pub multipv: usize,
    /// Time kept back per move for GUI and pipe delays.
    pub move_overhead: Duration,
    /// Move-count draw rule used in search.
    pub move_rule: MoveCountRule,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            hash_mb: 16,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            move_rule: MoveCountRule::Cxq,
        }
    }
}

/// The search engine: TT, workers, and at most one running search.
pub struct Engine {
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    workers: Arc<Mutex<Vec<Worker>>>,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
    handle: Option<JoinHandle<SearchResult>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(EngineOptions::default())
    }
}

impl Engine {
    /// An engine with `options` (values are clamped to their ranges).
    pub fn new(options: EngineOptions) -> Engine {
        let mut options = options;
        options.threads = options.threads.clamp(1, 256);
        options.hash_mb = options.hash_mb.clamp(1, 65536);
        options.multipv = options.multipv.clamp(1, 128);
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            workers: Arc::new(Mutex::new((0..options.threads).map(Worker::new).collect())),
            options,
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(false)),
            handle: None,
        }
    }

    /// The current settings.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Sets the number of search threads (waits for a running search to end).
    pub fn set_threads(&mut self, threads: usize) {
        self.wait();
        self.options.threads = threads.clamp(1, 256);
        let mut workers = self.lock_workers();
        workers.truncate(self.options.threads);
        let n = workers.len();
        workers.extend((n..self.options.threads).map(Worker::new));
    }

    /// Resizes the transposition table (waits for a running search; clears the table).
    pub fn set_hash(&mut self, mb: usize) {
        self.wait();
        self.options.hash_mb = mb.clamp(1, 65536);
        self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb));
    }

    /// Sets the number of principal variations.
    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.clamp(1, 128);
    }

    /// Sets the time kept back per move.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.options.move_overhead = overhead.min(Duration::from_secs(5));
    }

    /// Sets the move-count draw rule used in search.
    pub fn set_move_rule(&mut self, rule: MoveCountRule) {
        self.options.move_rule = rule;
    }

    /// Forgets everything learnt (new game): clears the TT and all histories.
    pub fn new_game(&mut self) {
        self.wait();
        self.tt.clear();
        for w in self.lock_workers().iter_mut() {
            w.clear();
        }
    }

    /// Clears the transposition table only.
    pub fn clear_hash(&mut self) {
        self.wait();
        self.tt.clear();
    }

    /// TT fill in per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// The TT entry of `pos`, if any: (move, score from the side to move's view, depth).
    pub fn probe(&self, pos: &Position) -> Option<(Move, Score, i32)> {
        self.tt
            .probe(pos.key(), 0)
            .map(|e| (e.mv, to_report(e.score), e.depth))
    }

    /// Like [`Engine::probe`], with the kind of bound the score is; `None` also when the entry
    /// holds no searched score (for UCCI `probe` → `pophash`).
    pub fn probe_bound(&self, pos: &Position) -> Option<(Move, Score, i32, Bound)> {
        let e = self.tt.probe(pos.key(), 0)?;
        let bound = match e.bound {
            TtBound::None => return None,
            TtBound::Lower => Bound::Lower,
            TtBound::Upper => Bound::Upper,
            TtBound::Exact => Bound::Exact,
        };
        Some((e.mv, to_report(e.score), e.depth, bound))
    }

    fn lock_workers(&self) -> std::sync::MutexGuard<'_, Vec<Worker>> {
        // A panic in a worker poisons the lock; the workers are still usable.
        self.workers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Starts searching `pos` (with its game history) in the background and returns at once.
    /// The reporter receives `info` lines and exactly one `best_move`. A running search is
    /// stopped first (its result is still reported).
    pub fn go(&mut self, pos: &Position, limits: Limits, reporter: Arc<dyn Reporter>) {
        self.stop();
        self.wait();
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(limits.ponder, Ordering::Relaxed);
        let budget = timeman::budget(&limits, self.options.move_overhead, pos.game_ply());
        let threads = self.options.threads;
        let shared = SharedSearch {
            tt: Arc::clone(&self.tt),
            stop: Arc::clone(&self.stop),
            pondering: Arc::clone(&self.pondering),
            nodes: (0..threads).map(|_| PaddedCounter::default()).collect(),
            start: Instant::now(),
            budget,
            move_rule: self.options.move_rule,
            multipv: limits.lines.unwrap_or(self.options.multipv).clamp(1, 128),
            limits,
        };
        let workers = Arc::clone(&self.workers);
        let pos = pos.clone();
        self.tt.new_search();
        self.handle = Some(std::thread::spawn(move || {
            let mut workers = workers.lock().unwrap_or_else(|e| e.into_inner());
            run_search(&mut workers, &pos, shared, reporter.as_ref())
        }));
    }

    /// Asks the running search to stop (returns at once; the result is reported as usual).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// The opponent played the pondered move: the clock now applies.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Waits for the running search (if any) to finish and returns its result.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.handle.take().and_then(|h| h.join().ok())
    }

    /// Searches synchronously and returns the result (for bench, self-play and tests).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        reporter: Arc<dyn Reporter>,
    ) -> SearchResult {
        self.go(pos, limits, reporter);
        self.wait().unwrap_or(SearchResult {
            best: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        })
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// A reporter that prints nothing.
pub struct SilentReporter;

impl Reporter for SilentReporter {
    fn info(&self, _: &crate::search::report::SearchInfo) {}
    fn best_move(&self, _: &SearchResult) {}
}

fn run_search(
    workers: &mut [Worker],
    pos: &Position,
    shared: SharedSearch,
    reporter: &dyn Reporter,
) -> SearchResult {
    for w in workers.iter_mut() {
        w.setup(pos, &shared.limits);
    }
    let shared = &shared;
    if workers[0].root_moves.is_empty() {
        // No legal move: in infinite or ponder mode the answer still waits for `stop`.
        while (shared.limits.infinite || shared.pondering.load(Ordering::Relaxed))
            && !shared.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    } else {
        std::thread::scope(|s| {
            let (main, helpers) = workers.split_first_mut().expect("at least one worker");
            for w in helpers.iter_mut() {
                s.spawn(move || w.iterate(shared, None));
            }
            main.iterate(shared, Some(reporter));
            // In infinite or ponder mode the answer waits for `stop` (or `ponderhit`).
            while (shared.limits.infinite || shared.pondering.load(Ordering::Relaxed))
                && !shared.stop.load(Ordering::Relaxed)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            shared.stop.store(true, Ordering::Relaxed);
        });
    }
    let best = workers
        .iter()
        .filter(|w| !w.root_moves.is_empty() && w.completed_depth > 0)
        .max_by_key(|w| {
            (
                w.completed_depth,
                w.root_moves[0].score,
                std::cmp::Reverse(w.id),
            )
        })
        .unwrap_or(&workers[0]);
    let nodes = shared
        .total_nodes()
        .max(workers.iter().map(|w| w.nodes).sum());
    let result = match best.root_moves.first() {
        None => SearchResult {
            best: None,
            ponder: None,
            score: to_report(-crate::search::score::MATE),
            depth: 0,
            nodes,
        },
        Some(rm) => SearchResult {
            best: Some(rm.mv),
            ponder: rm.pv.get(1).copied(),
            score: to_report(if rm.score == -crate::search::score::INFINITE {
                rm.prev_score.max(-crate::search::score::MATE)
            } else {
                rm.score
            }),
            depth: best.completed_depth.max(0) as u32,
            nodes,
        },
    };
    if best.id != 0 && best.completed_depth > workers[0].completed_depth {
        reporter.info(&best.info(shared, 0, best.completed_depth));
    }
    reporter.best_move(&result);
    result
}
