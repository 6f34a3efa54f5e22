//! What the search tells the outside world, independent of any protocol.

use std::time::Duration;

use crate::types::Move;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (a soldier before the river is about 100... see eval for the scale).
    Cp(i32),
    /// Mate in N moves (not plies); negative when the side to move gets mated.
    Mate(i32),
}

/// Whether a reported score is exact or only a bound (aspiration window fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Exact score.
    Exact,
    /// The real score is at least this (fail high).
    Lower,
    /// The real score is at most this (fail low).
    Upper,
}

/// One progress report (a UCI `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line when several best lines are searched.
    pub multipv: u32,
    /// The score.
    pub score: Score,
    /// Exact or bound.
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table fill, per mille.
    pub hashfull: u32,
    /// Principal variation, all moves legal in sequence.
    pub pv: Vec<Move>,
    /// Win, draw and loss chances in per mille, when asked for (filled in by the protocol
    /// layer, see `crate::wdl`; the search leaves it `None`).
    pub wdl: Option<[u32; 3]>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes.saturating_mul(1000) / ms
    }
}

/// The final answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move; `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// Expected reply, if known.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched in total.
    pub nodes: u64,
}

/// Receives search output. Called from the search's main thread; implementations print in
/// their protocol's form.
pub trait Reporter: Send + Sync {
    /// A progress line.
    fn info(&self, info: &SearchInfo);
    /// A free-form message (e.g. UCI `info string`).
    fn message(&self, _text: &str) {}
    /// The search finished (after `stop`, a limit, or on its own); called exactly once per `go`.
    fn best_move(&self, result: &SearchResult);
}
