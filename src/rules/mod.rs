//! The rules of docs/rules.md, shared by the search, the referee ([`crate::game::Game`]) and
//! the command line: move classification (CHECK / CHASE / IDLE), repetition verdicts (perpetual
//! check and perpetual chase), the automatic-draw counters, and game results with their reasons.
//!
//! - [`classify_move`] labels one move before it is made; [`chase_set`] is the `ChaseSet` of §4.
//! - [`judge_span`] judges the moves between two occurrences of a position (§5).
//! - [`Counters`] and [`automatic_draw`] implement §6 under a [`MoveCountRule`].
//! - [`GameResult`] and [`EndReason`] are what a finished game reports.

mod chase;
pub mod cli;
mod record;
mod repetition;
mod result;

pub use chase::{chase_set, classify_move, ChaseSet, MoveClass};
pub use record::{automatic_draw, is_effective, Counters, PlyRecord};
pub use repetition::{judge_span, RepetitionKind, Verdict};
pub use result::{EndReason, GameResult, MoveCountRule, ParseRuleError};

#[cfg(test)]
mod tests;
