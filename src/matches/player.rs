//! The players of a match: the [`Player`] trait the game runner drives, what it asks for one
//! move ([`MoveRequest`]) and what comes back ([`Thought`]), move notation on the wire (ranks
//! 0–9 or 1–10), and [`InternalPlayer`], Chariot's own search in-process.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::search::limits::{Clock, Limits};
use crate::search::report::Score;
use crate::threads::{Engine, EngineOptions, SilentReporter};
use crate::types::{Color, Move, Square};

use super::spec::{EngineSpec, RankBase};

/// The search limit of one move, as the engine is told it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// A game clock: time left and increment for Red (index 0) and Black (index 1).
    Clock {
        /// Time left.
        time: [Duration; 2],
        /// Increment per move.
        inc: [Duration; 2],
        /// Moves of the side to move until the next time control, if any.
        moves_to_go: Option<u32>,
    },
    /// Fixed time per move.
    MoveTime(Duration),
    /// Fixed node count.
    Nodes(u64),
    /// Fixed depth.
    Depth(u32),
}

/// One move asked of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRequest {
    /// What the engine is told.
    pub go: Go,
    /// When to send `stop` if no move has come (the time allowed plus the margin, or the move
    /// timeout without a clock).
    pub stop_after: Duration,
    /// How long to wait after `stop` before declaring the engine hung and killing it.
    pub grace: Duration,
}

/// A player's answer to a [`MoveRequest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Thought {
    /// The player answered with a move (`Err` holds a token that is no move at all).
    Move {
        /// The move in ranks 0–9, or the raw token that could not be read.
        mv: Result<Move, String>,
        /// Time from `go` to the answer.
        elapsed: Duration,
        /// The last score it reported, from its own point of view.
        score: Option<Score>,
        /// The last depth it reported.
        depth: Option<u32>,
    },
    /// The player died (process exited or the pipe broke).
    Crash(String),
    /// No answer even after `stop` and the grace period; the player was killed.
    Hang(Duration),
    /// The answer shows that the player is set up wrong for this match (a move that is legal
    /// only in the other rank numbering): no fault of the engine, the match must stop.
    Misconfigured(String),
}

/// Something that plays moves: an engine process or Chariot in-process.
pub trait Player: Send {
    /// The name shown in PGN and summaries.
    fn name(&self) -> String;
    /// Prepares for a new game; an error means the player is unusable (counted as a crash).
    fn new_game(&mut self) -> Result<(), String>;
    /// Chooses a move for the side to move of `game`.
    fn think(&mut self, game: &Game, request: &MoveRequest) -> Thought;
    /// How the player was set up, for the match log (e.g. the rank numbering chosen).
    fn setup_note(&self) -> Option<String> {
        None
    }
}

/// A move as written on the wire with `base` rank numbering (`h2e2` or `h3e3`).
pub fn format_move(mv: Move, base: RankBase) -> String {
    match base {
        RankBase::Zero => mv.to_string(),
        RankBase::One => {
            let sq = |s: Square| format!("{}{}", s.file().char(), s.rank().index() + 1);
            format!("{}{}", sq(mv.from()), sq(mv.to()))
        }
    }
}

/// Reads a move written with `base` rank numbering; `None` if it is not a move
/// (null moves included).
pub fn parse_move(token: &str, base: RankBase) -> Option<Move> {
    let bytes = token.as_bytes();
    let mut i = 0;
    let mut square = || -> Option<Square> {
        let file = *bytes.get(i)?;
        if !(b'a'..=b'i').contains(&file) {
            return None;
        }
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        let rank: i32 = token.get(start..i)?.parse().ok()?;
        let rank = match base {
            RankBase::Zero => rank,
            RankBase::One => rank - 1,
        };
        Square::try_from_coords(i32::from(file - b'a'), rank)
    };
    let from = square()?;
    let to = square()?;
    (i == bytes.len() && from != to).then(|| Move::new(from, to))
}

/// Chariot's own search, in-process, with the options of an engine spec (`Hash`, `Threads`,
/// `Move Overhead`).
pub struct InternalPlayer {
    name: String,
    engine: Engine,
}

impl InternalPlayer {
    /// A player from `spec` (unknown options are ignored with a warning in the log).
    pub fn new(spec: &EngineSpec) -> InternalPlayer {
        let mut options = EngineOptions::default();
        for (key, value) in &spec.options {
            let number = value.trim().parse::<u64>().ok();
            match (key.to_ascii_lowercase().as_str(), number) {
                ("hash", Some(n)) => options.hash_mb = n as usize,
                ("threads", Some(n)) => options.threads = n as usize,
                ("move overhead" | "move_overhead", Some(n)) => {
                    options.move_overhead = Duration::from_millis(n)
                }
                _ => log::warn!("internal engine: ignoring option {key}={value}"),
            }
        }
        InternalPlayer {
            name: spec.fallback_name(),
            engine: Engine::new(options),
        }
    }

    /// A player with explicit engine options.
    pub fn with_options(name: &str, options: EngineOptions) -> InternalPlayer {
        InternalPlayer {
            name: name.to_string(),
            engine: Engine::new(options),
        }
    }
}

impl Player for InternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.engine.new_game();
        Ok(())
    }

    fn think(&mut self, game: &Game, request: &MoveRequest) -> Thought {
        let side = game.position().side_to_move();
        let limits = limits_for(request.go, side);
        let start = Instant::now();
        let result = self
            .engine
            .search(game.position(), limits, Arc::new(SilentReporter));
        let elapsed = start.elapsed();
        Thought::Move {
            mv: result.best.ok_or_else(|| "(none)".to_string()),
            elapsed,
            score: Some(result.score),
            depth: Some(result.depth),
        }
    }
}

/// Search limits for `go` with `side` to move.
pub fn limits_for(go: Go, side: Color) -> Limits {
    let (us, them) = (side.index(), (!side).index());
    match go {
        Go::Clock {
            time,
            inc,
            moves_to_go,
        } => Limits {
            clock: Some(Clock {
                time: time[us],
                increment: inc[us],
                moves_to_go,
                opponent_time: Some(time[them]),
                opponent_increment: Some(inc[them]),
            }),
            ..Limits::default()
        },
        Go::MoveTime(t) => Limits {
            movetime: Some(t),
            ..Limits::default()
        },
        Go::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        Go::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_convert_between_rank_bases() {
        let mv: Move = "h2e2".parse().unwrap();
        assert_eq!(format_move(mv, RankBase::One), "h3e3");
        assert_eq!(parse_move("h3e3", RankBase::One), Some(mv));
        assert_eq!(parse_move("h2e2", RankBase::Zero), Some(mv));
        let top: Move = "a9a7".parse().unwrap();
        assert_eq!(format_move(top, RankBase::One), "a10a8");
        assert_eq!(parse_move("a10a8", RankBase::One), Some(top));
        assert_eq!(parse_move("a10a8", RankBase::Zero), None);
        assert_eq!(parse_move("h0e2", RankBase::One), None);
        assert_eq!(parse_move("(none)", RankBase::Zero), None);
        assert_eq!(parse_move("h2e2x", RankBase::Zero), None);
        assert_eq!(parse_move("", RankBase::Zero), None);
    }
}
