//! The per-ply record a game keeps (the counters of docs/rules.md#automatic-draws,
//! classification, result), and the automatic-draw test on the counters.

use super::{EndReason, GameResult, MoveClass, MoveCountRule};
use crate::position::Position;
use crate::types::{Color, Piece};

/// The counters of docs/rules.md#automatic-draws at some point of a game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Counters {
    /// Plies since the game start (from a FEN: `2 * (fullmove − 1) + (side == b)`).
    pub total_plies: u32,
    /// Plies since the last capture or move of an already crossed soldier (the position's
    /// progress clock, loaded from the FEN half-move field).
    pub progress_plies: u32,
    /// Plies since the last capture, for the official 60-move rule. A FEN has no such field:
    /// it starts from the half-move field too.
    pub capture_plies: u32,
    /// Effective moves made by Red (index 0) and Black (index 1); 0 from a FEN.
    pub effective: [u32; 2],
}

impl Counters {
    /// The counters of a game starting at `pos`.
    pub fn at_start(pos: &Position) -> Counters {
        Counters {
            total_plies: pos.game_ply(),
            progress_plies: pos.progress_plies(),
            capture_plies: pos.progress_plies(),
            effective: [0; 2],
        }
    }

    /// The counters after a move by `mover` that led to `after`.
    pub fn next(self, after: &Position, mover: Color, capture: bool, effective: bool) -> Counters {
        let mut next = Counters {
            total_plies: self.total_plies.saturating_add(1),
            progress_plies: after.progress_plies(),
            capture_plies: if capture {
                0
            } else {
                self.capture_plies.saturating_add(1)
            },
            effective: self.effective,
        };
        if effective {
            next.effective[mover.index()] += 1;
        }
        next
    }
}

/// Whether a move counts for the effective rule (docs/rules.md#automatic-draws): it is not a
/// check, not a chase, not made while in check, and not an answer to a chase by the opponent's
/// previous move (`previous`: that move's class, `None` at the start of the record).
pub fn is_effective(class: MoveClass, mover_in_check: bool, previous: Option<MoveClass>) -> bool {
    class == MoveClass::Idle && !mover_in_check && !previous.is_some_and(MoveClass::is_chase)
}

/// The automatic draw due under `rule` with these counters, if any (docs/rules.md#move-rule).
/// Applied after the no-legal-move and repetition checks.
pub fn automatic_draw(counters: &Counters, rule: MoveCountRule) -> Option<EndReason> {
    match rule {
        MoveCountRule::Cxq => {
            if counters.total_plies >= 600 {
                Some(EndReason::MovesRule)
            } else if counters.effective.iter().all(|&n| n >= 120) {
                Some(EndReason::EffectiveRule)
            } else if counters.progress_plies >= 60 {
                Some(EndReason::ProgressRule)
            } else {
                None
            }
        }
        MoveCountRule::Sixty => (counters.capture_plies >= 120).then_some(EndReason::SixtyMoveRule),
        MoveCountRule::None => None,
    }
}

/// What a game remembers about one move, beside the move itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlyRecord {
    /// The Zobrist key of the position after the move.
    pub key: u64,
    /// CHECK, CHASE (with the victims) or IDLE.
    pub class: MoveClass,
    /// Whether the mover was in check before the move.
    pub mover_in_check: bool,
    /// The piece captured, if any.
    pub captured: Option<Piece>,
    /// Whether the move counted for the effective rule.
    pub effective: bool,
    /// The counters after the move.
    pub counters: Counters,
    /// The result after the move.
    pub result: GameResult,
}

impl PlyRecord {
    /// Whether the move gave check.
    pub const fn gave_check(&self) -> bool {
        self.class.is_check()
    }

    /// Whether the move captured.
    pub const fn is_capture(&self) -> bool {
        self.captured.is_some()
    }

    /// Whether the move reset the progress clock (a capture or a crossed soldier's move).
    pub const fn is_progress(&self) -> bool {
        self.counters.progress_plies == 0
    }
}
