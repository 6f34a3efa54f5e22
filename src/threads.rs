//! Lazy SMP and the engine handle the protocols drive.
//!
//! [`Engine`] owns the transposition table and one [`Worker`] per thread (their histories
//! persist across moves of a game). `go` starts a coordinator thread that runs the workers
//! with `std::thread::scope` over one shared TT, stop flag and node counters; the main worker
//! (id 0) owns the clock and the output. When it finishes it stops the helpers and reports the
//! move of the best worker (deepest completed depth, then score). `stop`, `ponderhit` and
//! `quit` never wait behind a search.
//!
//! No method waits for a search it has not stopped: a search in infinite or ponder mode only
//! ends on `stop`, so every call that needs an idle engine (`go`, a new table size or thread
//! count, clearing) stops the running search first; its result is still reported.
//!
//! Slow configuration (allocating or clearing a table of gigabytes, creating workers of
//! megabytes each) can run in the background with [`Engine::reconfigure`], so that the
//! protocol thread stays free for `quit`. Threads the system refuses (a process limit, no
//! memory for a stack) are reported through the reporter, and the search runs with those it
//! got.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::position::Position;
use crate::rules::MoveCountRule;
use crate::search::limits::Limits;
use crate::search::params::SearchParams;
use crate::search::report::{Bound, Reporter, Score, SearchResult};
use crate::search::score::to_report;
use crate::search::{timeman, PaddedCounter, SharedSearch, Worker};
use crate::tt::{Sizing, TranspositionTable, TtBound};
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
    /// Search parameters (fixed unless built with `--features tune`).
    pub params: SearchParams,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            hash_mb: 16,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            move_rule: MoveCountRule::Cxq,
            params: SearchParams::default(),
        }
    }
}

/// A change of configuration that may take long (allocating or clearing a big table), which
/// [`Engine::reconfigure`] runs in the background.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Resize the transposition table to about this many MiB (it starts empty).
    Hash(usize),
    /// Search with this many threads.
    Threads(usize),
    /// Empty the transposition table.
    ClearHash,
    /// Forget everything learnt (new game): the table and the move-ordering histories.
    NewGame,
}

/// What background work changes; the engine holds it again once settled.
struct Tables {
    tt: Arc<TranspositionTable>,
    workers: Vec<Worker>,
}

/// The search engine: TT, workers, and at most one running search or background change.
pub struct Engine {
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    workers: Arc<Mutex<Vec<Worker>>>,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
    handle: Option<JoinHandle<Option<SearchResult>>>,
    /// Helper threads a search may start (test seam for a system that refuses threads).
    helper_limit: usize,
    /// The last background change, which owns the tables until it ends.
    background: Option<JoinHandle<Option<Tables>>>,
    /// Set when the engine is dropped: background work gives up.
    cancel: Arc<AtomicBool>,
    /// Test seam: background work waits for this gate to open.
    #[cfg(test)]
    gate: Option<Arc<Gate>>,
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
        let mut workers = Vec::new();
        for note in add_workers(&mut workers, options.threads, &AtomicBool::new(false)) {
            log::warn!("{note}");
        }
        options.threads = workers.len();
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            workers: Arc::new(Mutex::new(workers)),
            options,
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(false)),
            handle: None,
            helper_limit: usize::MAX,
            background: None,
            cancel: Arc::new(AtomicBool::new(false)),
            #[cfg(test)]
            gate: None,
        }
    }

    /// The current settings (those a background change sets count once it is settled).
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Sets the number of search threads (a running search is stopped first).
    pub fn set_threads(&mut self, threads: usize) {
        self.change_now(Change::Threads(threads));
    }

    /// Resizes the transposition table to about `mb` MiB (a running search is stopped first;
    /// the table starts empty) and says what size was allocated and why (see
    /// [`TranspositionTable::with_size`]). The old table is freed before the new one is
    /// allocated, so the same request gives the same size again.
    pub fn set_hash(&mut self, mb: usize) -> Sizing {
        let mut tables = self.take_tables();
        let sizing = resize_table(&mut tables, mb, &AtomicBool::new(false));
        self.install(tables);
        sizing.expect("never cancelled")
    }

    /// Sets the number of principal variations.
    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.clamp(1, 128);
    }

    /// Sets the time kept back per move.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.options.move_overhead = overhead.min(Duration::from_secs(5));
    }

    /// Sets a search parameter (see [`SearchParams::set`]); takes effect at the next search.
    pub fn set_search_param(&mut self, name: &str, value: i32) -> Result<(), String> {
        self.options.params.set(name, value)
    }

    /// Sets the move-count draw rule used in search.
    pub fn set_move_rule(&mut self, rule: MoveCountRule) {
        self.options.move_rule = rule;
    }

    /// Forgets everything learnt (new game): clears the TT and all histories (a running search
    /// is stopped first).
    pub fn new_game(&mut self) {
        self.change_now(Change::NewGame);
    }

    /// Clears the transposition table only (a running search is stopped first).
    pub fn clear_hash(&mut self) {
        self.change_now(Change::ClearHash);
    }

    /// Makes `change` on this thread and returns what a user should be told about it.
    fn change_now(&mut self, change: Change) -> Vec<String> {
        let mut tables = self.take_tables();
        let notes = apply(change, &mut tables, &AtomicBool::new(false));
        self.install(tables);
        notes
    }

    /// Starts `change` in the background and returns at once (a running search is stopped
    /// first; its result is still reported). When the change is made, `done` is called on
    /// the background thread with what a user should be told about it (e.g. the hash size
    /// allocated). Changes started one after another are made in order.
    ///
    /// Until [`Engine::settle`] (which [`Engine::go`] and the other configuration calls do
    /// first), the table reads as empty. The tables are cleared with as many threads as the
    /// engine searches with. Dropping the engine cancels the work without waiting for it.
    pub fn reconfigure(&mut self, change: Change, done: impl FnOnce(Vec<String>) + Send + 'static) {
        self.stop_and_wait();
        let earlier = self.background.take();
        let mut now = None;
        if earlier.is_none() {
            now = Some(self.take_tables());
        }
        let cancel = Arc::clone(&self.cancel);
        #[cfg(test)]
        let gate = self.gate.clone();
        let work = move || {
            #[cfg(test)]
            if let Some(gate) = gate {
                gate.pass();
            }
            let tables = match (now, earlier) {
                (Some(tables), _) => Some(tables),
                (None, Some(earlier)) => earlier.join().ok().flatten(),
                (None, None) => None,
            };
            let (tables, notes) = match tables {
                Some(mut tables) => {
                    let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        apply(change, &mut tables, &cancel)
                    }));
                    let notes = made.unwrap_or_else(|_| vec![format!("could not make {change:?}")]);
                    (Some(tables), notes)
                }
                None => (
                    None,
                    vec![format!("could not make {change:?}: tables lost")],
                ),
            };
            // Exactly one call per change, unless the engine is gone.
            if !cancel.load(Ordering::Relaxed) {
                done(notes);
            }
            tables
        };
        match spawn_or_return("configure", work) {
            Ok(handle) => self.background = Some(handle),
            Err(work) => {
                log::warn!("no thread for background work; doing it now");
                if let Some(tables) = work() {
                    self.install(tables);
                }
            }
        }
    }

    /// Waits for background changes to be made and takes the tables back.
    pub fn settle(&mut self) {
        if let Some(handle) = self.background.take() {
            match handle.join() {
                Ok(Some(tables)) => self.install(tables),
                _ => {
                    log::error!("background work lost the tables; starting afresh");
                    self.install(Tables {
                        tt: Arc::new(TranspositionTable::tiny()),
                        workers: vec![Worker::new(0)],
                    });
                }
            }
        }
    }

    /// Whether no background change is being made (so [`Engine::settle`] returns at once).
    pub fn is_settled(&self) -> bool {
        self.background.as_ref().is_none_or(|h| h.is_finished())
    }

    /// Takes the tables out (settled, no search running), leaving a stand-in table.
    fn take_tables(&mut self) -> Tables {
        self.settle();
        self.stop_and_wait();
        Tables {
            tt: std::mem::replace(&mut self.tt, Arc::new(TranspositionTable::tiny())),
            workers: std::mem::take(&mut *self.lock_workers()),
        }
    }

    /// Puts the tables back.
    fn install(&mut self, tables: Tables) {
        self.options.threads = tables.workers.len().max(1);
        self.options.hash_mb = tables.tt.size_mb().max(1);
        self.tt = tables.tt;
        *self.lock_workers() = tables.workers;
    }

    /// Test seam: searches start at most `n` helper threads, as if the system refused more.
    #[cfg(test)]
    pub(crate) fn refuse_helper_threads_after(&mut self, n: usize) {
        self.helper_limit = n;
    }

    /// Test seam: background work started from now on waits until the returned gate opens.
    #[cfg(test)]
    pub(crate) fn hold_background_work(&mut self) -> Arc<Gate> {
        let gate = Arc::new(Gate::default());
        self.gate = Some(Arc::clone(&gate));
        gate
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
    /// stopped first (its result is still reported); background changes are waited for.
    pub fn go(&mut self, pos: &Position, limits: Limits, reporter: Arc<dyn Reporter>) {
        self.stop_and_wait();
        self.settle();
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(limits.ponder, Ordering::Relaxed);
        let budget = timeman::budget(
            &limits,
            self.options.move_overhead,
            pos.game_ply(),
            &self.options.params,
        );
        let fallback = first_move(pos, &limits);
        let unstarted = fallback.clone();
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
            params: self.options.params.clone(),
            limits,
        };
        let workers = Arc::clone(&self.workers);
        let searched = pos.clone();
        let helper_limit = self.helper_limit;
        let to_report = Arc::clone(&reporter);
        self.tt.new_search();
        let search = move || {
            let mut workers = workers.lock().unwrap_or_else(|e| e.into_inner());
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_search(
                    &mut workers,
                    &searched,
                    shared,
                    to_report.as_ref(),
                    helper_limit,
                )
            }));
            // A search that died still owes its one best move.
            Some(run.unwrap_or_else(|_| {
                log::error!("the search failed; answering with the first legal move");
                to_report.best_move(&fallback);
                fallback
            }))
        };
        match spawn_or_return("search", search) {
            Ok(handle) => self.handle = Some(handle),
            Err(_) => {
                let text = "cannot start the search thread (the system refused it); \
                            answering with the first legal move";
                log::error!("{text}");
                reporter.message(text);
                reporter.best_move(&unstarted);
            }
        }
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

    /// Stops the running search (if any) and waits for it: the engine is idle afterwards.
    fn stop_and_wait(&mut self) {
        if self.handle.is_some() {
            self.stop();
            self.wait();
        }
    }

    /// Waits for the running search (if any) to finish and returns its result. A search in
    /// infinite or ponder mode ends only on [`Engine::stop`].
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.handle.take().and_then(|h| h.join().ok().flatten())
    }

    /// Searches synchronously and returns the result (for bench, self-play and tests).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        reporter: Arc<dyn Reporter>,
    ) -> SearchResult {
        self.go(pos, limits, reporter);
        self.wait().unwrap_or_else(no_result)
    }

    /// Like [`Engine::search`], stopping the search early (its result then is what it found
    /// so far) once `stop` is set: for runs a user may interrupt.
    pub fn search_until(
        &mut self,
        pos: &Position,
        limits: Limits,
        reporter: Arc<dyn Reporter>,
        stop: &AtomicBool,
    ) -> SearchResult {
        let waker = Arc::new(Waker {
            inner: reporter,
            thread: std::thread::current(),
            done: AtomicBool::new(false),
        });
        self.go(pos, limits, Arc::clone(&waker) as Arc<dyn Reporter>);
        while !waker.done.load(Ordering::Acquire) && self.is_searching() {
            if stop.load(Ordering::Relaxed) {
                self.stop();
            }
            std::thread::park_timeout(Duration::from_millis(5));
        }
        self.wait().unwrap_or_else(no_result)
    }
}

/// The answer of a search that could not run: the first legal move allowed by `limits`.
fn first_move(pos: &Position, limits: &Limits) -> SearchResult {
    let best = crate::movegen::legal_moves(pos).into_iter().find(|m| {
        !limits.ban_moves.contains(m)
            && (limits.search_moves.is_empty() || limits.search_moves.contains(m))
    });
    SearchResult {
        best,
        ..no_result()
    }
}

/// The result of a search that reported none.
fn no_result() -> SearchResult {
    SearchResult {
        best: None,
        ponder: None,
        score: Score::Cp(0),
        depth: 0,
        nodes: 0,
    }
}

/// Passes a search's output on and wakes the thread waiting for its result.
struct Waker {
    inner: Arc<dyn Reporter>,
    thread: std::thread::Thread,
    done: AtomicBool,
}

impl Reporter for Waker {
    fn info(&self, info: &crate::search::report::SearchInfo) {
        self.inner.info(info);
    }

    fn message(&self, text: &str) {
        self.inner.message(text);
    }

    fn best_move(&self, result: &SearchResult) {
        self.inner.best_move(result);
        self.done.store(true, Ordering::Release);
        self.thread.unpark();
    }
}

/// Makes `change` on `tables`; returns what a user should be told.
fn apply(change: Change, tables: &mut Tables, cancel: &AtomicBool) -> Vec<String> {
    let threads = tables.workers.len();
    match change {
        Change::Hash(mb) => resize_table(tables, mb, cancel).map_or(Vec::new(), |s| s.notes()),
        Change::Threads(n) => {
            let n = n.clamp(1, 256);
            tables.workers.truncate(n);
            add_workers(&mut tables.workers, n, cancel)
        }
        Change::ClearHash => {
            tables.tt.clear_in(threads, cancel);
            Vec::new()
        }
        Change::NewGame => {
            tables.tt.clear_in(threads, cancel);
            for w in tables.workers.iter_mut() {
                w.clear();
            }
            Vec::new()
        }
    }
}

/// Adds workers up to `n` (megabytes each); when the memory runs out, keeps those it got (at
/// least one) and says so.
fn add_workers(workers: &mut Vec<Worker>, n: usize, cancel: &AtomicBool) -> Vec<String> {
    let wanted = n.max(1);
    let mut notes = Vec::new();
    if workers
        .try_reserve(wanted.saturating_sub(workers.len()))
        .is_err()
    {
        notes.push(format!("no memory for {wanted} search threads"));
    }
    while workers.len() < wanted && !cancel.load(Ordering::Relaxed) {
        if workers.len() == workers.capacity() && workers.try_reserve(1).is_err() {
            break;
        }
        match Worker::try_new(workers.len()) {
            Some(w) => workers.push(w),
            None => break,
        }
    }
    if workers.is_empty() {
        workers.push(Worker::new(0));
    }
    if workers.len() < wanted && !cancel.load(Ordering::Relaxed) {
        notes.push(format!(
            "Threads {wanted}: memory for {} search threads only; using {}",
            workers.len(),
            workers.len()
        ));
    }
    notes
}

/// Replaces the table by one of about `mb` MiB, freeing the old one first; `None` if
/// cancelled (a stand-in table is left).
fn resize_table(tables: &mut Tables, mb: usize, cancel: &AtomicBool) -> Option<Sizing> {
    // No search runs, so this is the last reference: the memory goes now.
    tables.tt = Arc::new(TranspositionTable::tiny());
    let threads = tables.workers.len();
    let (tt, sizing) = TranspositionTable::with_size_in(mb.clamp(1, 65536), threads, cancel)?;
    tables.tt = Arc::new(tt);
    Some(sizing)
}

/// Runs `f` on a new thread named `name`, or gives `f` back if the system refuses the thread
/// (so that the caller can run it itself: nothing `f` owns is lost).
pub fn spawn_or_return<T, F>(name: &str, f: F) -> Result<JoinHandle<Option<T>>, F>
where
    T: Send + 'static,
    F: FnOnce() -> Option<T> + Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::channel::<F>();
    match std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || rx.recv().ok().and_then(|f| f()))
    {
        Ok(handle) => match tx.send(f) {
            Ok(()) => Ok(handle),
            Err(std::sync::mpsc::SendError(f)) => Err(f),
        },
        Err(e) => {
            log::warn!("cannot start a thread for {name}: {e}");
            Err(f)
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_and_wait();
        // Background work is not waited for: it sees the flag, gives up, frees its tables.
        self.cancel.store(true, Ordering::Relaxed);
        #[cfg(test)]
        if let Some(gate) = &self.gate {
            gate.open();
        }
    }
}

/// Test seam: a gate background work waits at until it opens.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Gate {
    open: Mutex<bool>,
    opened: std::sync::Condvar,
}

#[cfg(test)]
impl Gate {
    /// Lets waiting and future work through.
    pub(crate) fn open(&self) {
        *self.open.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.opened.notify_all();
    }

    /// Waits until the gate is open.
    pub(crate) fn pass(&self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        while !*open {
            open = self.opened.wait(open).unwrap_or_else(|e| e.into_inner());
        }
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
    helper_limit: usize,
) -> SearchResult {
    for w in workers.iter_mut() {
        w.setup(pos, &shared.limits, &shared.params);
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
            let wanted = helpers.len() + 1;
            for (i, w) in helpers.iter_mut().enumerate() {
                let spawned = if i < helper_limit {
                    std::thread::Builder::new()
                        .name(format!("search-{}", i + 1))
                        .spawn_scoped(s, move || w.iterate(shared, None))
                } else {
                    Err(std::io::Error::other("refused by the helper limit"))
                };
                // A helper the system refuses (e.g. a process limit) is left out: it has no
                // completed depth, so it is never the best worker.
                if let Err(e) = spawned {
                    let text = format!(
                        "could not start search thread {} of {wanted} ({e}); searching with {}",
                        i + 2,
                        i + 1
                    );
                    log::warn!("{text}");
                    reporter.message(&text);
                    break;
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::report::SearchInfo;

    /// Keeps the messages and the best move a search reports.
    #[derive(Default)]
    struct Collect {
        messages: Mutex<Vec<String>>,
        best: Mutex<Vec<SearchResult>>,
    }

    impl Reporter for Collect {
        fn info(&self, _: &SearchInfo) {}
        fn message(&self, text: &str) {
            self.messages.lock().unwrap().push(text.to_string());
        }
        fn best_move(&self, result: &SearchResult) {
            self.best.lock().unwrap().push(result.clone());
        }
    }

    #[test]
    fn a_search_runs_with_the_threads_the_system_gives_and_says_so() {
        let mut engine = Engine::new(EngineOptions {
            threads: 4,
            ..EngineOptions::default()
        });
        engine.refuse_helper_threads_after(1);
        let pos = Position::startpos();
        let collect = Arc::new(Collect::default());
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let result = engine.search(&pos, limits, Arc::clone(&collect) as Arc<dyn Reporter>);
        assert!(result.best.is_some_and(|m| pos.is_legal(m)));
        assert_eq!(result.depth, 5);
        assert_eq!(collect.best.lock().unwrap().len(), 1, "one best move");
        let messages = collect.messages.lock().unwrap();
        assert!(
            messages
                .iter()
                .any(|m| m.contains("thread 3 of 4") && m.ends_with("searching with 2")),
            "{messages:?}"
        );
    }

    #[test]
    fn configuration_in_the_background_is_made_in_order_and_settled() {
        let mut engine = Engine::default();
        let (tx, rx) = std::sync::mpsc::channel();
        for change in [
            Change::Hash(4),
            Change::Threads(3),
            Change::NewGame,
            Change::Hash(2),
        ] {
            let tx = tx.clone();
            engine.reconfigure(change, move |notes| tx.send((change, notes)).unwrap());
        }
        let made: Vec<(Change, Vec<String>)> = rx.iter().take(4).collect();
        let order: Vec<Change> = made.iter().map(|(c, _)| *c).collect();
        assert_eq!(
            order,
            [
                Change::Hash(4),
                Change::Threads(3),
                Change::NewGame,
                Change::Hash(2)
            ]
        );
        assert_eq!(made[0].1.last().unwrap(), "hash table: 4 MiB");
        engine.settle();
        assert_eq!((engine.options().hash_mb, engine.options().threads), (2, 3));
        let result = engine.search(
            &Position::startpos(),
            Limits {
                depth: Some(3),
                ..Limits::default()
            },
            Arc::new(SilentReporter),
        );
        assert_eq!(result.depth, 3);
    }

    #[test]
    fn dropping_the_engine_does_not_wait_for_background_work() {
        let mut engine = Engine::default();
        let gate = engine.hold_background_work();
        let (tx, rx) = std::sync::mpsc::channel::<Vec<String>>();
        engine.reconfigure(Change::Hash(8), move |notes| tx.send(notes).unwrap());
        // The work waits at the gate; dropping returns all the same, and cancels it.
        drop(engine);
        assert!(rx.recv().is_err(), "cancelled work reports nothing");
        drop(gate);
    }
}
