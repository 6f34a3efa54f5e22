//! How a game ends: the move-count rule in force, the reasons a game can end, and the result.

use std::fmt;
use std::str::FromStr;

use crate::types::Color;

/// Which automatic-draw rule applies (docs/rules.md#move-rule).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum MoveCountRule {
    /// The CXQ rules: moves rule (600 plies), effective rule (120 effective moves each) and
    /// progress rule (60 plies without capture or crossed-soldier move).
    #[default]
    Cxq,
    /// The official 60-move rule: 120 plies without a capture.
    Sixty,
    /// No move-count rule at all.
    None,
}

/// A move-count rule name that is not `cxq`, `sixty` or `none`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRuleError(pub String);

impl fmt::Display for ParseRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown move-count rule '{}' (expected cxq, sixty or none)",
            self.0
        )
    }
}

impl std::error::Error for ParseRuleError {}

impl FromStr for MoveCountRule {
    type Err = ParseRuleError;

    /// `cxq`, `sixty` or `none`, in any case.
    fn from_str(s: &str) -> Result<MoveCountRule, ParseRuleError> {
        match s.to_ascii_lowercase().as_str() {
            "cxq" => Ok(MoveCountRule::Cxq),
            "sixty" => Ok(MoveCountRule::Sixty),
            "none" => Ok(MoveCountRule::None),
            _ => Err(ParseRuleError(s.to_string())),
        }
    }
}

impl fmt::Display for MoveCountRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveCountRule::Cxq => "cxq",
            MoveCountRule::Sixty => "sixty",
            MoveCountRule::None => "none",
        })
    }
}

/// Why a game ended. Displayed as the words `chariot judge` prints (`perpetual-check`, …).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// The side to move has no legal move and is in check.
    Checkmate,
    /// The side to move has no legal move and is not in check (it loses too).
    Stalemate,
    /// The loser checked on every move of the repetition cycle.
    PerpetualCheck,
    /// The loser chased the same piece throughout the repetition cycle.
    PerpetualChase,
    /// Third occurrence of a position with no one to blame: a draw.
    Repetition,
    /// CXQ moves rule: 600 plies played.
    MovesRule,
    /// CXQ effective rule: both sides made 120 effective moves.
    EffectiveRule,
    /// CXQ progress rule: 60 plies without capture or crossed-soldier move.
    ProgressRule,
    /// Official 60-move rule: 120 plies without a capture.
    SixtyMoveRule,
}

impl EndReason {
    /// The word printed for this reason.
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::PerpetualChase => "perpetual-chase",
            EndReason::Repetition => "repetition",
            EndReason::MovesRule => "moves-rule",
            EndReason::EffectiveRule => "effective-rule",
            EndReason::ProgressRule => "progress-rule",
            EndReason::SixtyMoveRule => "60-move-rule",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The state of a game: still going, or decided at some ply.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// Not decided.
    Ongoing,
    /// Decided.
    Decided {
        /// The winner; `None` for a draw.
        winner: Option<Color>,
        /// Why.
        reason: EndReason,
        /// Number of moves played from the start position when it was decided (0 = the start
        /// position itself).
        ply: usize,
    },
}

impl GameResult {
    /// Whether the game is over.
    pub const fn is_decided(self) -> bool {
        matches!(self, GameResult::Decided { .. })
    }

    /// The score in PGN style: `1-0` (Red wins), `0-1`, `1/2-1/2`, or `*` while ongoing.
    pub const fn score(self) -> &'static str {
        match self {
            GameResult::Ongoing => "*",
            GameResult::Decided {
                winner: Some(Color::Red),
                ..
            } => "1-0",
            GameResult::Decided {
                winner: Some(Color::Black),
                ..
            } => "0-1",
            GameResult::Decided { winner: None, .. } => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    /// `1-0 checkmate ply 12`, `1/2-1/2 repetition ply 40`, or `*` while ongoing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Ongoing => f.write_str("*"),
            GameResult::Decided { reason, ply, .. } => {
                write!(f, "{} {reason} ply {ply}", self.score())
            }
        }
    }
}
