//! The search: iterative deepening with aspiration windows over a fail-soft principal
//! variation search, quiescence search, and the pruning, reduction and extension rules of the
//! modern Stockfish family, written for Xiangqi (rules in search per docs/rules.md#repetition
//! and docs/rules.md#automatic-draws).
//!
//! One [`Worker`] is one search thread; `threads.rs` runs several of them over one shared
//! transposition table (lazy SMP).

pub mod history;
pub mod limits;
pub mod movepicker;
pub mod params;
pub mod report;
pub mod score;
pub mod see;
pub mod skill;
pub mod timeman;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use arrayvec::ArrayVec;

use history::{cont_index, CorrIndices, Histories};
use limits::Limits;
use movepicker::MovePicker;
use params::{SearchParams, QS_PREFETCH};
use report::{Bound, Reporter, SearchInfo};
use score::*;
use see::see_ge;
use timeman::TimeBudget;

use crate::eval::evaluate;
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::rules::{judge_span, MoveCountRule, Verdict};
use crate::tt::{TranspositionTable, TtBound};
use crate::types::{Move, Piece, PieceKind, Square};

/// Salt XORed into the TT key of a position that repeats one on the current path, so that
/// path-dependent (repetition) scores never mix with ordinary entries.
const REPEATED_SALT: u64 = 0x005e_ed0f_7e9e_a7ed;

/// State shared by all threads of one search.
pub struct SharedSearch {
    /// The transposition table.
    pub tt: Arc<TranspositionTable>,
    /// Set to stop every thread (shared with the engine handle).
    pub stop: Arc<AtomicBool>,
    /// True while pondering: time limits do not apply yet (shared with the engine handle).
    pub pondering: Arc<AtomicBool>,
    /// Nodes per thread (published every few thousand nodes).
    pub nodes: Vec<PaddedCounter>,
    /// When the search started.
    pub start: Instant,
    /// The limits of this search.
    pub limits: Limits,
    /// Time budget, if timed.
    pub budget: Option<TimeBudget>,
    /// Move-count draw rule.
    pub move_rule: MoveCountRule,
    /// Number of principal variations to search.
    pub multipv: usize,
    /// Search parameters (constants unless built with `--features tune`).
    pub params: SearchParams,
}

/// An atomic counter on its own cache line.
#[repr(align(64))]
#[derive(Default)]
pub struct PaddedCounter(pub AtomicU64);

impl SharedSearch {
    /// Nodes searched by all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score of the last completed search of this move (−INFINITE if not searched).
    pub score: i32,
    /// Score of the iteration before.
    pub prev_score: i32,
    /// Deepest ply reached below it.
    pub seldepth: usize,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Whether `score` is only a bound.
    pub bound: Bound,
    /// Nodes searched below this move in this search, over all iterations (time management:
    /// a best move that took nearly all the effort is unlikely to change).
    pub effort: u64,
}

#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    killers: [Move; 2],
    /// (piece, to) of the move made from this ply, for continuation history.
    moved: Option<(Piece, Square)>,
    in_check: bool,
    /// The move left out by a singular-extension search of this node (else `Move::NULL`).
    excluded: Move,
    /// Beta cutoffs of the nodes at this ply below the current parent: many mean the parent's
    /// moves keep being refuted (an all-node), whose later moves may be reduced more.
    cutoffs: u8,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: NONE_SCORE,
            killers: [Move::NULL; 2],
            moved: None,
            in_check: false,
            excluded: Move::NULL,
            cutoffs: 0,
        }
    }
}

/// One search thread: its own board, stacks and histories.
///
/// Aligned to 128 bytes (a cache-line pair, which x86 prefetches together), with the arrays
/// written at every node (search stack, pv lengths, repetition filter) inline and the
/// histories in their own aligned allocation: threads that write to one line stall each other
/// ("false sharing"), which cost 15 % of the two-thread speed. The pv table and root moves
/// stay `Vec`s (written only on PV updates); the board's undo stack grows in the worker's own
/// thread.
#[repr(align(128))]
pub struct Worker {
    /// Thread index (0 = main thread: owns time and output).
    pub id: usize,
    /// The board being searched.
    pub pos: Position,
    /// Move-ordering memory (kept across searches of a game).
    pub hist: Box<Histories>,
    /// Root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// Last fully completed depth.
    pub completed_depth: i32,
    /// Nodes searched in the current search.
    pub nodes: u64,
    stack: [Frame; MAX_PLY + 8],
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    seldepth: usize,
    pv_idx: usize,
    rep_filter: [u8; 4096],
    root_depth: i32,
    stopped: bool,
    params: SearchParams,
}

impl Worker {
    /// A worker with empty histories.
    pub fn new(id: usize) -> Worker {
        Worker::try_new(id).unwrap_or_else(|| {
            std::alloc::handle_alloc_error(std::alloc::Layout::new::<Histories>())
        })
    }

    /// Like [`Worker::new`], or `None` when the memory is not there (megabytes per worker).
    pub fn try_new(id: usize) -> Option<Worker> {
        let hist = Histories::try_new_boxed()?;
        let mut pv = Vec::new();
        pv.try_reserve_exact(MAX_PLY + 1).ok()?;
        pv.resize(MAX_PLY + 1, [Move::NULL; MAX_PLY + 1]);
        Some(Worker {
            id,
            pos: Position::startpos(),
            hist,
            root_moves: Vec::new(),
            completed_depth: 0,
            nodes: 0,
            stack: [Frame::default(); MAX_PLY + 8],
            pv,
            pv_len: [0; MAX_PLY + 1],
            seldepth: 0,
            pv_idx: 0,
            rep_filter: [0; 4096],
            root_depth: 0,
            stopped: false,
            params: SearchParams::default(),
        })
    }

    /// Forgets all move-ordering memory (new game).
    pub fn clear(&mut self) {
        self.hist.clear();
    }

    /// Prepares a search of `pos` (which carries its game history for repetitions).
    pub fn setup(&mut self, pos: &Position, limits: &Limits, params: &SearchParams) {
        self.pos = pos.clone();
        if self.params != *params {
            self.params = params.clone();
        }
        self.nodes = 0;
        self.completed_depth = 0;
        self.stopped = false;
        self.stack.iter_mut().for_each(|f| *f = Frame::default());
        self.rep_filter.fill(0);
        self.rep_filter[(self.pos.key() & 4095) as usize] += 1;
        let mut n = 1;
        while let Some((key, irreversible)) = self.pos.history(n) {
            if irreversible {
                break;
            }
            let slot = &mut self.rep_filter[(key & 4095) as usize];
            *slot = slot.saturating_add(1);
            n += 1;
        }
        self.root_moves = legal_moves(&self.pos)
            .into_iter()
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .filter(|m| !limits.ban_moves.contains(m))
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                seldepth: 0,
                pv: vec![mv],
                bound: Bound::Exact,
                effort: 0,
            })
            .collect();
    }

    /// Makes `mv`, whose [`Position::key_after`] is `key`, on the board and in the repetition
    /// filter; `gives_check` if known (see [`Position::make_move_keyed`]). Callers prefetch
    /// the child's TT cluster at `key` as soon as they know the move, to hide the latency.
    #[inline]
    fn make(&mut self, mv: Move, key: u64, gives_check: Option<bool>) {
        self.pos.make_move_keyed(mv, key, gives_check);
        let slot = &mut self.rep_filter[(self.pos.key() & 4095) as usize];
        *slot = slot.saturating_add(1);
    }

    #[inline]
    fn unmake(&mut self) {
        let slot = &mut self.rep_filter[(self.pos.key() & 4095) as usize];
        *slot = slot.saturating_sub(1);
        self.pos.unmake_move();
    }

    /// Counts a node; every 1024 nodes publishes the count and (main thread) checks limits.
    #[inline]
    fn tick(&mut self, shared: &SharedSearch) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            shared.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                self.check_limits(shared);
            }
        }
    }

    fn check_limits(&self, shared: &SharedSearch) {
        if let Some(limit) = shared.limits.nodes {
            if shared.total_nodes() >= limit {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if shared.pondering.load(Ordering::Relaxed) {
            return;
        }
        if let Some(b) = shared.budget {
            if shared.start.elapsed() >= b.maximum {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    fn should_stop(&mut self, shared: &SharedSearch) -> bool {
        if !self.stopped && shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Iterative deepening. The main thread reports through `reporter`.
    pub fn iterate(&mut self, shared: &SharedSearch, reporter: Option<&dyn Reporter>) {
        if self.root_moves.is_empty() {
            return;
        }
        let max_depth = shared.limits.depth.map_or(MAX_PLY as i32 - 4, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 4)
        });
        let multipv = shared.multipv.clamp(1, self.root_moves.len());
        let mut last_best = Move::NULL;
        let mut stability = 0;
        let mut prev_best_score = -INFINITE;
        for depth in 1..=max_depth {
            // Helper threads skip some depths so that the threads spread over the tree; none
            // skips the last depth of a depth-limited search.
            if depth > 1 && depth < max_depth && helper_skips(self.id, depth) {
                continue;
            }
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = self.params.aspiration_delta();
                let (mut alpha, mut beta) = if depth >= 4 && prev > -INFINITE {
                    ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let score = self.search_root(shared, alpha, beta, depth);
                    // Stable sort keeps the order of equal scores (older best first).
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                    } else if score >= beta {
                        beta = (score + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 5;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
                if let Some(r) = reporter {
                    if pv_idx + 1 == multipv || shared.start.elapsed().as_millis() > 3000 {
                        for i in 0..=pv_idx {
                            r.info(&self.info(shared, i, depth));
                        }
                    }
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            // A depth-limited search is answered by the first thread to complete the depth
            // (helpers that skip iterations often get there before the main thread).
            if depth == max_depth
                && shared.limits.depth.is_some()
                && !shared.limits.infinite
                && !shared.pondering.load(Ordering::Relaxed)
            {
                shared.stop.store(true, Ordering::Relaxed);
            }
            let best = &self.root_moves[0];
            // Mate-in-N: stop once a mate that short is proven.
            if let Some(n) = shared.limits.mate {
                if best.score >= MATE_BOUND && MATE - best.score <= 2 * n as i32 {
                    break;
                }
            }
            // A mate (for either side) searched well beyond its distance will not change:
            // deeper iterations only repeat it.
            if is_mate(best.score) && depth >= 2 * (MATE - best.score.abs()) + 8 && multipv == 1 {
                break;
            }
            if self.id != 0 {
                continue;
            }
            // Time management between iterations.
            if best.mv == last_best {
                stability = (stability + 1).min(8);
            } else {
                stability = 0;
            }
            last_best = best.mv;
            let falling = if prev_best_score > -INFINITE {
                (prev_best_score - best.score).clamp(0, 200)
            } else {
                0
            };
            prev_best_score = best.score;
            // `movetime` means exactly that long: only the clock gets the early stop.
            if let (Some(b), None) = (shared.budget, shared.limits.movetime) {
                if !shared.pondering.load(Ordering::Relaxed) {
                    let p = &self.params;
                    let stability_factor =
                        (p.tm_stability_base() - p.tm_stability_step() * stability) as f64 / 100.0;
                    let falling_factor = 1.0 + falling as f64 / p.tm_falling_div() as f64;
                    let single_reply = if self.root_moves.len() == 1 { 0.2 } else { 1.0 };
                    // The share of this search's nodes spent below the best move.
                    let effort_share = best.effort as f64 * 100.0 / self.nodes.max(1) as f64;
                    let effort_factor = if depth >= 10 && effort_share >= p.tm_effort_share() as f64
                    {
                        p.tm_effort_factor() as f64 / 100.0
                    } else {
                        1.0
                    };
                    let target = b.optimum.as_secs_f64()
                        * stability_factor
                        * falling_factor
                        * single_reply
                        * effort_factor;
                    if shared.start.elapsed().as_secs_f64() >= target.min(b.maximum.as_secs_f64()) {
                        break;
                    }
                }
            }
        }
        shared.nodes[self.id].0.store(self.nodes, Ordering::Relaxed);
    }

    /// The report for root move `i` after an iteration of `depth`.
    pub fn info(&self, shared: &SharedSearch, i: usize, depth: i32) -> SearchInfo {
        let rm = &self.root_moves[i];
        let (score, depth) = if rm.score == -INFINITE {
            (rm.prev_score, depth - 1)
        } else {
            (rm.score, depth)
        };
        SearchInfo {
            depth: depth.max(1) as u32,
            seldepth: rm.seldepth.max(depth.max(1) as usize) as u32,
            multipv: i as u32 + 1,
            score: to_report(if score == -INFINITE { 0 } else { score }),
            bound: rm.bound,
            nodes: shared.total_nodes().max(self.nodes),
            time: shared.start.elapsed(),
            hashfull: shared.tt.hashfull(),
            pv: rm.pv.clone(),
            wdl: None,
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        self.pv[ply][0] = mv;
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    fn search_root(&mut self, shared: &SharedSearch, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITE;
        self.pv_len[0] = 0;
        self.stack[0].in_check = self.pos.in_check();
        self.stack[0].static_eval = if self.pos.in_check() {
            NONE_SCORE
        } else {
            evaluate(&self.pos)
        };
        for i in self.pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let count = i - self.pv_idx + 1;
            self.stack[0].moved = self.pos.piece_at(mv.from()).map(|p| (p, mv.to()));
            let gives_check = self.pos.gives_check(mv);
            let child_key = self.pos.key_after(mv);
            shared.tt.prefetch(child_key);
            let nodes_before = self.nodes;
            self.make(mv, child_key, Some(gives_check));
            self.tick(shared);
            let new_depth = depth - 1 + gives_check as i32;
            let mut score;
            if count == 1 {
                score = -self.search::<true>(shared, -beta, -alpha, new_depth, false, 1);
            } else {
                let r = if depth >= 3
                    && count > 3
                    && !gives_check
                    && self.pos.last_captured().is_none()
                {
                    (self.params.reduction(depth, count) - 1).max(0)
                } else {
                    0
                };
                score = -self.search::<false>(shared, -alpha - 1, -alpha, new_depth - r, true, 1);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(shared, -alpha - 1, -alpha, new_depth, false, 1);
                }
                if score > alpha && score < beta {
                    score = -self.search::<true>(shared, -beta, -alpha, new_depth, false, 1);
                }
            }
            self.unmake();
            self.root_moves[i].effort += self.nodes - nodes_before;
            if self.should_stop(shared) {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if count == 1 || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(mv);
                let len = self.pv_len[1];
                rm.pv.extend_from_slice(&self.pv[1][..len]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Repetition handling at a non-root node (docs/rules.md#repetition). Returns a score to
    /// return at once, or narrows the window; `repeated` tells whether the position repeats one
    /// on the path (its TT key is then salted).
    fn repetition(
        &mut self,
        ply: usize,
        alpha: &mut i32,
        beta: &mut i32,
        repeated: &mut bool,
    ) -> Option<i32> {
        if self.rep_filter[(self.pos.key() & 4095) as usize] < 2 {
            return None;
        }
        let key = self.pos.key();
        let mut first = 0;
        let mut occurrences = 0;
        let mut n = 1;
        while let Some((k, irreversible)) = self.pos.history(n) {
            if irreversible {
                break;
            }
            if n >= 4 && n % 2 == 0 && k == key {
                if first == 0 {
                    first = n;
                }
                occurrences += 1;
                if occurrences >= 2 {
                    break;
                }
            }
            n += 1;
        }
        if first == 0 {
            return None;
        }
        *repeated = true;
        let in_tree = first <= ply;
        let third = occurrences >= 2;
        if !in_tree && !third {
            return None;
        }
        let draw = DRAW - 1 + (self.nodes & 2) as i32;
        let stm = self.pos.side_to_move();
        match judge_span(&self.pos, first).0 {
            Verdict::Draw => Some(draw),
            Verdict::Loses(side) => {
                let we_win = side != stm;
                if third {
                    Some(if we_win { mate_in(ply) } else { mated_in(ply) })
                } else {
                    // The offender could still deviate: only bound the score.
                    if we_win {
                        *alpha = (*alpha).max(DRAW - 1);
                    } else {
                        *beta = (*beta).min(DRAW + 1);
                    }
                    (*alpha >= *beta).then_some(*alpha)
                }
            }
        }
    }

    /// Whether a move-count rule draws the game at this node: its count is reached and the
    /// side to move has a legal move (having none loses first, stalemate too:
    /// docs/rules.md#end-of-the-game).
    #[inline]
    fn rule_draw(&self, rule: MoveCountRule) -> bool {
        self.move_rule_draw(rule) && !legal_moves(&self.pos).is_empty()
    }

    /// Whether a move-count rule's count is reached at this node.
    #[inline]
    fn move_rule_draw(&self, rule: MoveCountRule) -> bool {
        match rule {
            MoveCountRule::Cxq => self.pos.game_ply() >= 600 || self.pos.progress_plies() >= 60,
            MoveCountRule::Sixty => self.pos.capture_plies() >= 120,
            MoveCountRule::None => false,
        }
    }

    fn cont_indices(&self, ply: usize) -> [usize; 2] {
        [
            if ply >= 1 {
                cont_index(self.stack[ply - 1].moved)
            } else {
                cont_index(None)
            },
            if ply >= 2 {
                cont_index(self.stack[ply - 2].moved)
            } else {
                cont_index(None)
            },
        ]
    }

    #[allow(clippy::too_many_lines)]
    fn search<const PV: bool>(
        &mut self,
        shared: &SharedSearch,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        cut_node: bool,
        ply: usize,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch::<PV>(shared, alpha, beta, ply);
        }
        if PV {
            self.pv_len[ply] = 0;
            self.seldepth = self.seldepth.max(ply);
        }
        if self.should_stop(shared) {
            return 0;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { evaluate(&self.pos) };
        }

        // Rules: repetitions, move-count draws, mate distance.
        let mut repeated = false;
        if let Some(s) = self.repetition(ply, &mut alpha, &mut beta, &mut repeated) {
            return s;
        }
        if self.rule_draw(shared.move_rule) {
            return DRAW;
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Transposition table.
        let tt_key = if repeated {
            self.pos.key() ^ REPEATED_SALT
        } else {
            self.pos.key()
        };
        let tt_entry = shared.tt.probe(tt_key, ply);
        let tt_move = tt_entry.map_or(Move::NULL, |e| e.mv);
        let tt_pv = PV || tt_entry.is_some_and(|e| e.pv);
        let excluded = self.stack[ply].excluded;
        if !PV && excluded.is_null() {
            if let Some(e) = tt_entry {
                if e.depth >= depth && tt_bound_cuts(&e, alpha, beta) {
                    return e.score;
                }
            }
        }

        // The TT move is searched first: fetch its child's cluster now, while this node
        // evaluates and tries its pruning, instead of only when the picker hands it out.
        if let Some(key) = self.pos.try_key_after(tt_move) {
            shared.tt.prefetch(key);
        }
        // Likewise the null move's child, for nodes that may try one (see below).
        if !PV && !in_check && depth >= 3 && excluded.is_null() {
            shared
                .tt
                .prefetch(self.pos.key() ^ crate::position::zobrist::SIDE);
        }

        // Static evaluation: the evaluation (or the one stored), corrected by what searches
        // of similar positions found (correction history; the TT keeps the raw evaluation).
        let us = self.pos.side_to_move();
        let corr = self.corr_indices(in_check, ply);
        let raw_eval = if in_check {
            NONE_SCORE
        } else {
            tt_entry
                .map(|e| e.eval)
                .filter(|&e| e != NONE_SCORE)
                .unwrap_or_else(|| evaluate(&self.pos))
        };
        let static_eval = self.corrected(raw_eval, us, &corr);
        let mut eval = static_eval;
        if let Some(e) = tt_entry {
            if !in_check
                && e.score != NONE_SCORE
                && !is_mate(e.score)
                && (e.bound == TtBound::Exact
                    || (e.bound == TtBound::Lower && e.score > eval)
                    || (e.bound == TtBound::Upper && e.score < eval))
            {
                eval = e.score;
            }
        }
        self.stack[ply].static_eval = static_eval;
        self.stack[ply].in_check = in_check;
        self.stack[ply + 1].killers = [Move::NULL; 2];
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NONE_SCORE
            && static_eval > self.stack[ply - 2].static_eval;

        if !PV && !in_check && excluded.is_null() {
            // Reverse futility pruning.
            if depth <= self.params.rfp_max_depth()
                && eval - self.params.rfp_margin() * (depth - improving as i32) >= beta
                && !is_mate(beta)
            {
                return eval;
            }
            // Razoring: far below alpha at low depth, only captures can help.
            if depth <= self.params.razor_max_depth()
                && eval + self.params.razor_base() + self.params.razor_margin() * depth * depth
                    < alpha
            {
                let v = self.qsearch::<false>(shared, alpha - 1, alpha, ply);
                if v < alpha && !is_mate(v) {
                    return v;
                }
            }
            // Null move: give the opponent a free move; if we still beat beta, cut. Not when
            // we have too few attacking pieces (zugzwang-like endings are common without them).
            let attackers = self.pos.pieces(us)
                & (self.pos.kind(PieceKind::Rook)
                    | self.pos.kind(PieceKind::Horse)
                    | self.pos.kind(PieceKind::Cannon));
            if depth >= 3
                && eval >= beta
                && static_eval >= beta - self.params.nmp_static_margin() * depth
                && attackers.count() >= 2
                && self.pos.last_move().is_some_and(|m| !m.is_null())
                && !is_mate(beta)
            {
                let r = self.params.nmp_base()
                    + depth * self.params.nmp_depth_mul() / 16
                    + ((eval - beta) / self.params.nmp_eval_div()).min(3);
                self.stack[ply].moved = None;
                self.pos.make_null_move();
                let score =
                    -self.search::<false>(shared, -beta, -beta + 1, depth - r, !cut_node, ply + 1);
                self.pos.unmake_null_move();
                if self.should_stop(shared) {
                    return 0;
                }
                if score >= beta {
                    let score = if is_mate(score) { beta } else { score };
                    // Verify at high depth, or with only two attackers left.
                    if depth < self.params.nmp_verify_depth() && attackers.count() > 2 {
                        return score;
                    }
                    let v = self.search::<false>(shared, beta - 1, beta, depth - r, false, ply);
                    if v >= beta {
                        return score;
                    }
                }
            }
        }

        // ProbCut: a capture whose shallow search beats beta by a margin will very likely
        // beat beta at full depth too.
        let probcut_beta = beta + self.params.probcut_margin();
        if !PV
            && !in_check
            && excluded.is_null()
            && depth >= self.params.probcut_min_depth()
            && !is_mate(beta)
            && !tt_entry.is_some_and(|e| e.depth >= depth - 3 && e.score < probcut_beta)
        {
            if let Some(score) =
                self.probcut(shared, probcut_beta, depth, cut_node, ply, tt_key, raw_eval)
            {
                return score;
            }
        }

        // Internal iterative reduction: no TT move, so this node is probably not important.
        let mut depth = depth;
        if tt_move.is_null() && depth >= self.params.iir_min_depth() && excluded.is_null() {
            if PV {
                depth -= self.params.iir_pv_reduction();
            } else if cut_node {
                depth -= self.params.iir_cut_reduction();
            }
            if depth <= 0 {
                return self.qsearch::<PV>(shared, alpha, beta, ply);
            }
        }

        let cont = self.cont_indices(ply);
        let prev = if ply >= 1 {
            self.stack[ply - 1].moved
        } else {
            None
        };
        let counter = self.hist.counter_move(prev);
        let mut picker =
            MovePicker::new(&self.pos, tt_move, self.stack[ply].killers, counter, cont);
        picker.sort_limit = -self.params.quiet_sort_limit() * depth;
        let mut best_score = -INFINITE;
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        let tt_capture = !tt_move.is_null() && self.pos.is_capture(tt_move);
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();
        // Extensions stop at twice the iteration's depth, so that no line grows without end.
        let may_extend = ply < 2 * self.root_depth as usize;
        // Counted only for `LMR_CUTOFFS` (a constant 0 in a normal build: no work then).
        let count_cutoffs = self.params.lmr_cutoffs() != 0;
        if count_cutoffs {
            self.stack[ply + 1].cutoffs = 0;
        }

        while let Some(mv) = picker.next(&self.pos, &self.hist) {
            if mv == excluded {
                continue;
            }
            move_count += 1;
            let capture = self.pos.is_capture(mv);
            let piece = self.pos.piece_at(mv.from()).expect("own piece");
            let gives_check = self.pos.gives_check(mv);
            let killer = mv == self.stack[ply].killers[0]
                || mv == self.stack[ply].killers[1]
                || mv == counter;
            let r_base = self.params.reduction(depth, move_count);

            // Shallow-depth pruning. Late-move and futility pruning come before the history
            // lookups and the child's key, which a pruned move does not need.
            let prunable = best_score > -MATE_BOUND && !in_check;
            let lmr_depth = (depth - 1 - r_base).max(0);
            if prunable && !capture && !gives_check {
                if move_count >= self.params.lmp_threshold(depth, improving) {
                    picker.skip_quiets = true;
                    continue;
                }
                if lmr_depth < self.params.futility_max_depth()
                    && static_eval
                        + self.params.futility_base()
                        + self.params.futility_margin() * lmr_depth
                        <= alpha
                    && !killer
                {
                    continue;
                }
            }
            let hist_score = if capture {
                0
            } else {
                self.hist.butterfly(us, mv)
                    + self.hist.continuation(cont[0], piece, mv)
                    + self.hist.continuation(cont[1], piece, mv)
            };
            if prunable {
                if !capture && !gives_check {
                    if lmr_depth < 8 && hist_score < -self.params.history_prune() * depth {
                        continue;
                    }
                    let margin = self.params.see_quiet_margin() * lmr_depth * lmr_depth;
                    if !see_ge(&self.pos, mv, -margin) {
                        continue;
                    }
                } else if capture
                    && depth <= 8
                    && !see_ge(&self.pos, mv, -self.params.see_capture_margin() * depth)
                {
                    continue;
                }
            }

            let child_key = self.pos.key_after(mv);
            shared.tt.prefetch(child_key);
            // And the cluster of the move the picker likely hands out next (see `peek`), which
            // then has this move's whole subtree to arrive instead of only the make before the
            // child's probe.
            if let Some(key) = self.pos.try_key_after(picker.peek()) {
                shared.tt.prefetch(key);
            }

            // Extensions. Singular: the TT move is much better than every other move (a
            // reduced search without it fails low below the TT score), so search it deeper;
            // if even the others beat beta, cut (multi-cut); if only the TT score beats beta,
            // search the TT move shallower (Stockfish's singular extension, simplified).
            let mut extension = 0;
            if mv == tt_move
                && excluded.is_null()
                && depth >= self.params.se_min_depth()
                && may_extend
            {
                if let Some(e) = tt_entry.filter(|e| {
                    e.depth >= depth - 3
                        && matches!(e.bound, TtBound::Lower | TtBound::Exact)
                        && !is_mate(e.score)
                }) {
                    let singular_beta = e.score - self.params.se_margin() * depth / 8;
                    let singular_depth = (depth - 1) / 2;
                    self.stack[ply].excluded = mv;
                    let v = self.search::<false>(
                        shared,
                        singular_beta - 1,
                        singular_beta,
                        singular_depth,
                        cut_node,
                        ply,
                    );
                    self.stack[ply].excluded = Move::NULL;
                    if self.should_stop(shared) {
                        return 0;
                    }
                    if v < singular_beta {
                        let double = self.params.se_double_margin();
                        extension = if !PV && double > 0 && v < singular_beta - double {
                            2
                        } else {
                            1
                        };
                    } else if singular_beta >= beta {
                        return singular_beta;
                    } else if e.score >= beta {
                        extension = -1;
                    }
                }
            }
            // A check that does not lose material.
            if extension == 0
                && gives_check
                && may_extend
                && depth >= self.params.check_ext_min_depth()
                && (depth <= self.params.check_ext_see_depth() || see_ge(&self.pos, mv, 0))
            {
                extension = 1;
            }
            let new_depth = depth - 1 + extension;

            self.stack[ply].moved = Some((piece, mv.to()));
            self.make(mv, child_key, Some(gives_check));
            self.tick(shared);

            let mut score;
            if depth >= 2 && move_count > 1 + PV as usize && (!capture || !tt_pv) {
                let mut r = r_base;
                r -= tt_pv as i32;
                r -= gives_check as i32;
                r -= killer as i32;
                r += self.params.lmr_cut_node() * cut_node as i32;
                r += !improving as i32;
                r += self.params.lmr_tt_capture() * (tt_capture && !capture) as i32;
                r -= (hist_score / self.params.lmr_history_div()).clamp(-2, 2);
                if count_cutoffs {
                    r += self.params.lmr_cutoffs() * (self.stack[ply + 1].cutoffs > 2) as i32;
                }
                let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                score = -self.search::<false>(shared, -alpha - 1, -alpha, d, true, ply + 1);
                if score > alpha && d < new_depth {
                    // The reduced search failed high: a score far above the best so far is
                    // searched a ply deeper, one barely above it a ply shallower.
                    let mut full = new_depth;
                    let deeper = self.params.lmr_deeper_margin();
                    if deeper > 0 {
                        full += (score > best_score + deeper + 2 * new_depth) as i32;
                        full -= (score < best_score + new_depth) as i32;
                    }
                    if full > d {
                        score = -self.search::<false>(
                            shared,
                            -alpha - 1,
                            -alpha,
                            full,
                            !cut_node,
                            ply + 1,
                        );
                    }
                }
            } else if !PV || move_count > 1 {
                score = -self.search::<false>(
                    shared,
                    -alpha - 1,
                    -alpha,
                    new_depth,
                    !cut_node,
                    ply + 1,
                );
            } else {
                score = alpha + 1; // force the full-window search below
            }
            if PV && (move_count == 1 || score > alpha) {
                score = -self.search::<true>(shared, -beta, -alpha, new_depth, false, ply + 1);
            }
            self.unmake();
            if self.should_stop(shared) {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if count_cutoffs {
                            self.stack[ply].cutoffs = self.stack[ply].cutoffs.saturating_add(1);
                        }
                        self.update_histories(
                            ply,
                            mv,
                            depth,
                            &quiets_tried,
                            &captures_tried,
                            cont,
                            prev,
                        );
                        break;
                    }
                    alpha = score;
                }
            }
            if capture {
                let _ = captures_tried.try_push(mv);
            } else {
                let _ = quiets_tried.try_push(mv);
            }
        }

        if move_count == 0 {
            // No legal move but the excluded one: the exclusion search fails low.
            if !excluded.is_null() {
                return alpha;
            }
            // No legal move (or every move pruned, impossible before one is searched): in
            // Xiangqi both checkmate and stalemate lose.
            return mated_in(ply);
        }
        if !excluded.is_null() {
            // A search without the best move says nothing storable about this position.
            return best_score;
        }

        let bound = if best_score >= beta {
            TtBound::Lower
        } else if PV && !best_move.is_null() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        shared.tt.store(
            tt_key, ply, best_move, best_score, raw_eval, depth, bound, tt_pv,
        );
        // Teach the correction history what the search found, where the score says more
        // than the static evaluation (not after a capture, which the evaluation cannot see).
        let after_capture = !best_move.is_null() && self.pos.is_capture(best_move);
        let says_more = match bound {
            TtBound::Lower => best_score > static_eval,
            TtBound::Upper => best_score < static_eval,
            _ => true,
        };
        if self.corrects() && !in_check && !is_mate(best_score) && !after_capture && says_more {
            self.hist
                .update_correction(us, &corr, best_score - raw_eval, depth);
        }
        best_score
    }

    /// Whether the correction history is in use.
    #[inline(always)]
    fn corrects(&self) -> bool {
        self.params.corr_pawn_weight() != 0
            || self.params.corr_piece_weight() != 0
            || self.params.corr_cont_weight() != 0
    }

    /// The correction-table indices of the position (not needed in check or without
    /// correction).
    #[inline]
    fn corr_indices(&self, in_check: bool, ply: usize) -> CorrIndices {
        if in_check || !self.corrects() {
            CorrIndices::default()
        } else if self.params.corr_cont_weight() != 0 && ply >= 1 {
            CorrIndices::after(&self.pos, self.stack[ply - 1].moved)
        } else {
            CorrIndices::of(&self.pos)
        }
    }

    /// `raw_eval` corrected by the correction history, kept off the mate range.
    #[inline]
    fn corrected(&self, raw_eval: i32, us: crate::types::Color, corr: &CorrIndices) -> i32 {
        if raw_eval == NONE_SCORE || !self.corrects() {
            return raw_eval;
        }
        let c = self.hist.correction(
            us,
            corr,
            [
                self.params.corr_pawn_weight(),
                self.params.corr_piece_weight(),
                self.params.corr_cont_weight(),
            ],
        );
        (raw_eval + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    #[allow(clippy::too_many_arguments)]
    /// ProbCut (see `search`): tries the captures that may beat `probcut_beta`, each with a
    /// quiescence search and then a search 4 plies shallower. Returns a score to cut with.
    fn probcut(
        &mut self,
        shared: &SharedSearch,
        probcut_beta: i32,
        depth: i32,
        cut_node: bool,
        ply: usize,
        tt_key: u64,
        raw_eval: i32,
    ) -> Option<i32> {
        let static_eval = self.stack[ply].static_eval;
        let cont = self.cont_indices(ply);
        let mut picker = MovePicker::new_qsearch(&self.pos, Move::NULL, cont);
        while let Some(mv) = picker.next(&self.pos, &self.hist) {
            if !see_ge(&self.pos, mv, probcut_beta - static_eval) {
                continue;
            }
            let child_key = self.pos.key_after(mv);
            shared.tt.prefetch(child_key);
            let piece = self.pos.piece_at(mv.from()).expect("own piece");
            self.stack[ply].moved = Some((piece, mv.to()));
            self.make(mv, child_key, None);
            self.tick(shared);
            let mut score =
                -self.qsearch::<false>(shared, -probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta {
                score = -self.search::<false>(
                    shared,
                    -probcut_beta,
                    -probcut_beta + 1,
                    depth - 4,
                    !cut_node,
                    ply + 1,
                );
            }
            self.unmake();
            if self.should_stop(shared) {
                return None;
            }
            if score >= probcut_beta {
                shared.tt.store(
                    tt_key,
                    ply,
                    mv,
                    score,
                    raw_eval,
                    depth - 3,
                    TtBound::Lower,
                    false,
                );
                return Some(score);
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn update_histories(
        &mut self,
        ply: usize,
        best: Move,
        depth: i32,
        quiets: &[Move],
        captures: &[Move],
        cont: [usize; 2],
        prev: Option<(Piece, Square)>,
    ) {
        let bonus = self.params.history_bonus(depth);
        let us = self.pos.side_to_move();
        let piece_of = |pos: &Position, m: Move| pos.piece_at(m.from()).expect("own piece");
        if let Some(victim) = self.pos.piece_at(best.to()) {
            let p = piece_of(&self.pos, best);
            self.hist
                .update_capture(p, best, victim.kind().index(), bonus);
        } else {
            let p = piece_of(&self.pos, best);
            self.hist.update_butterfly(us, best, bonus);
            self.hist.update_continuation(cont[0], p, best, bonus);
            self.hist.update_continuation(cont[1], p, best, bonus);
            let k = &mut self.stack[ply].killers;
            if k[0] != best {
                k[1] = k[0];
                k[0] = best;
            }
            self.hist.set_counter_move(prev, best);
            for &m in quiets {
                let p = piece_of(&self.pos, m);
                self.hist.update_butterfly(us, m, -bonus);
                self.hist.update_continuation(cont[0], p, m, -bonus);
                self.hist.update_continuation(cont[1], p, m, -bonus);
            }
        }
        for &m in captures {
            let p = piece_of(&self.pos, m);
            if let Some(victim) = self.pos.piece_at(m.to()) {
                self.hist
                    .update_capture(p, m, victim.kind().index(), -bonus);
            }
        }
    }

    fn qsearch<const PV: bool>(
        &mut self,
        shared: &SharedSearch,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = 0;
            self.seldepth = self.seldepth.max(ply);
        }
        if self.should_stop(shared) {
            return 0;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { evaluate(&self.pos) };
        }
        let (mut a, mut b) = (alpha, beta);
        let mut repeated = false;
        if let Some(s) = self.repetition(ply, &mut a, &mut b, &mut repeated) {
            return s;
        }
        let tt_key = if repeated {
            self.pos.key() ^ REPEATED_SALT
        } else {
            self.pos.key()
        };
        let tt_entry = shared.tt.probe(tt_key, ply);
        if !PV {
            if let Some(e) = tt_entry {
                if tt_bound_cuts(&e, alpha, beta) {
                    return e.score;
                }
            }
        }
        // As in `search`: the TT move's child cluster, fetched while this node evaluates.
        let tt_move = tt_entry.map_or(Move::NULL, |e| e.mv);
        if let Some(key) = self.pos.try_key_after(tt_move) {
            shared.tt.prefetch(key);
        }
        let raw_eval;
        let static_eval;
        let mut best_score;
        if in_check {
            raw_eval = NONE_SCORE;
            static_eval = NONE_SCORE;
            best_score = -INFINITE;
        } else {
            raw_eval = tt_entry
                .map(|e| e.eval)
                .filter(|&e| e != NONE_SCORE)
                .unwrap_or_else(|| evaluate(&self.pos));
            let us = self.pos.side_to_move();
            static_eval = self.corrected(raw_eval, us, &self.corr_indices(false, ply));
            best_score = static_eval;
            if self.params.qs_tt_stand_pat() != 0 {
                if let Some(e) = tt_entry {
                    if e.score != NONE_SCORE
                        && !is_mate(e.score)
                        && (e.bound == TtBound::Exact
                            || (e.bound == TtBound::Lower && e.score > best_score)
                            || (e.bound == TtBound::Upper && e.score < best_score))
                    {
                        best_score = e.score;
                    }
                }
            }
            if best_score >= beta {
                if tt_entry.is_none() {
                    shared.tt.store(
                        tt_key,
                        ply,
                        Move::NULL,
                        best_score,
                        raw_eval,
                        -1,
                        TtBound::Lower,
                        false,
                    );
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let cont = self.cont_indices(ply);
        let mut picker = MovePicker::new_qsearch(&self.pos, tt_move, cont);
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        while let Some(mv) = picker.next(&self.pos, &self.hist) {
            move_count += 1;
            if move_count == 1 && !in_check {
                for m in picker.remaining().take(QS_PREFETCH) {
                    shared.tt.prefetch(self.pos.key_after(m));
                }
            } else if let Some(m) = picker.remaining().nth(QS_PREFETCH - 1) {
                shared.tt.prefetch(self.pos.key_after(m));
            }
            let mut gives_check = None;
            if !in_check {
                // Late captures that are neither recaptures nor checks rarely matter.
                if move_count > self.params.qs_move_limit() as usize
                    && Some(mv.to()) != self.pos.last_move().map(|m| m.to())
                {
                    let check = self.pos.gives_check(mv);
                    gives_check = Some(check);
                    if !check {
                        continue;
                    }
                }
                let victim = self
                    .pos
                    .piece_at(mv.to())
                    .map_or(0, |p| see::SEE_VALUE[p.kind().index()]);
                if static_eval + victim + self.params.qs_delta_margin() <= alpha {
                    let check = gives_check.unwrap_or_else(|| self.pos.gives_check(mv));
                    gives_check = Some(check);
                    if !check {
                        best_score = best_score.max(static_eval + victim);
                        continue;
                    }
                }
                if !see_ge(&self.pos, mv, 0) {
                    continue;
                }
            } else if best_score > -MATE_BOUND && !self.pos.is_capture(mv) && move_count > 3 {
                // Enough evasions tried: the rest are quiet and late.
                continue;
            }
            // Keyed only now: a pruned move needs no key (its cluster is fetched ahead).
            let child_key = self.pos.key_after(mv);
            shared.tt.prefetch(child_key);
            let piece = self.pos.piece_at(mv.from()).expect("own piece");
            self.stack[ply].moved = Some((piece, mv.to()));
            self.make(mv, child_key, gives_check);
            self.tick(shared);
            let score = -self.qsearch::<PV>(shared, -beta, -alpha, ply + 1);
            self.unmake();
            if self.should_stop(shared) {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && best_score == -INFINITE {
            return mated_in(ply);
        }
        let bound = if best_score >= beta {
            TtBound::Lower
        } else {
            TtBound::Upper
        };
        shared.tt.store(
            tt_key, ply, best_move, best_score, raw_eval, 0, bound, false,
        );
        best_score
    }
}

/// Whether a stored score decides the node for the window `alpha..beta` by its bound alone.
#[inline]
fn tt_bound_cuts(e: &crate::tt::TtEntry, alpha: i32, beta: i32) -> bool {
    e.score != NONE_SCORE
        && match e.bound {
            TtBound::Exact => true,
            TtBound::Lower => e.score >= beta,
            TtBound::Upper => e.score <= alpha,
            TtBound::None => false,
        }
}

/// Whether helper thread `id` skips iteration `depth`: odd helpers search only even depths,
/// even ones only odd depths, so that half the helpers are an iteration ahead of the main
/// thread and fill the shared TT there (the skipping scheme of the first lazy-SMP
/// Stockfish, reduced to its simplest form). Measured with 2 threads against skipping one
/// depth in four: 6.8 s against 7.3 s for `chariot bench --depth 18 --threads 2` (means of
/// 6 interleaved runs; 1 thread: 10.0 s). Two more rounds of 5 interleaved runs each of the
/// same command (mean time / mean nodes; one thread: 30.3 M nodes): this scheme 6.0 s /
/// 35.9 M, no skipping 7.8 s / 45.2 M, the helper on odd depths 7.0 s / 39.8 M, skipping
/// only below depth 8 7.8 s / 45.3 M, one depth in four 7.6 s / 41.3 M; then this scheme
/// 6.6 s / 39.0 M, two depths in three 7.2 s / 42.5 M, and this scheme plus "skip a depth
/// another thread has completed" 6.4 s / 38.4 M (within the noise, not kept).
fn helper_skips(id: usize, depth: i32) -> bool {
    id > 0 && (depth as usize + id).is_multiple_of(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stalemate_loses_before_a_move_count_rule_draws() {
        // Black's general e9 has no move (the chariot a8 holds rank 8, the horse c7 d9, the
        // general f0 the f-file) and is not in check; 60 plies without progress.
        let mut w = Worker::new(0);
        w.pos = Position::from_fen("4k4/R8/2N6/9/9/9/9/9/9/5K3 b - - 60 1").unwrap();
        assert!(!w.pos.in_check());
        assert!(legal_moves(&w.pos).is_empty());
        assert!(w.move_rule_draw(MoveCountRule::Cxq));
        assert!(!w.rule_draw(MoveCountRule::Cxq));
        // Without the horse the general has d9: a draw.
        w.pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/5K3 b - - 60 1").unwrap();
        assert!(w.rule_draw(MoveCountRule::Cxq));
        assert!(!w.rule_draw(MoveCountRule::None));
    }

    #[test]
    fn root_move_efforts_add_up_to_the_nodes_searched() {
        let pos = Position::startpos();
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let shared = SharedSearch {
            tt: Arc::new(TranspositionTable::new(1)),
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(false)),
            nodes: vec![PaddedCounter::default()],
            start: Instant::now(),
            budget: None,
            move_rule: MoveCountRule::Cxq,
            multipv: 1,
            params: SearchParams::default(),
            limits: limits.clone(),
        };
        let mut w = Worker::new(0);
        w.setup(&pos, &limits, &shared.params);
        w.iterate(&shared, None);
        assert_eq!(w.completed_depth, 7);
        let total: u64 = w.root_moves.iter().map(|rm| rm.effort).sum();
        assert_eq!(total, w.nodes);
        // Every move was searched at least once (depth 1 searches them all).
        assert!(w.root_moves.iter().all(|rm| rm.effort > 0));
    }
}
