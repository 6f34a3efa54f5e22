//! What the GUI asked for: depth, nodes, time, mate, infinite, ponder, root move restrictions.

use std::time::Duration;

use crate::types::Move;

/// The clock of a timed game, from the side to move's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the side to move.
    pub time: Duration,
    /// Increment per move for the side to move.
    pub increment: Duration,
    /// Moves until the next time control (`None`: sudden death).
    pub moves_to_go: Option<u32>,
    /// Time left for the opponent, if known.
    pub opponent_time: Option<Duration>,
    /// Increment of the opponent, if known.
    pub opponent_increment: Option<Duration>,
}

/// Search limits for one `go`. Every `None` means "no limit of that kind"; with no limit at all
/// the search runs until `stop` (like `go infinite`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum iteration depth.
    pub depth: Option<u32>,
    /// Maximum nodes (summed over threads).
    pub nodes: Option<u64>,
    /// Exact time to spend.
    pub movetime: Option<Duration>,
    /// Look for a mate in this many moves (stop once found).
    pub mate: Option<u32>,
    /// Game clock (time management decides how long to think).
    pub clock: Option<Clock>,
    /// Search until `stop` even when a limit is reached.
    pub infinite: bool,
    /// Pondering: like infinite until `ponderhit`, then the clock applies.
    pub ponder: bool,
    /// Only these root moves (UCI `searchmoves`); empty = all.
    pub search_moves: Vec<Move>,
    /// Never these root moves (UCCI `banmoves`).
    pub ban_moves: Vec<Move>,
    /// Search this many principal variations instead of the engine's `MultiPV` setting (the
    /// strength limit chooses among several lines, see [`skill`](super::skill)).
    pub lines: Option<usize>,
}
