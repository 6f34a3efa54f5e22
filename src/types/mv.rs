//! A move: origin and destination packed into 16 bits.

use std::fmt;
use std::str::FromStr;

use super::Square;

/// A move `from → to`, packed as `from | to << 7`. [`Move::NULL`] (`0000`) is the null move.
/// A move carries no piece information; the position supplies it. Both indices are always
/// below 90: moves are made from squares or checked by [`Move::from_raw`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The null move (`0000`): pass. Also used as "no move".
    pub const NULL: Move = Move(0);

    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 7)
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        // SAFETY: both packed indices are below 90 (see the type's doc).
        unsafe { Square::from_index_unchecked((self.0 & 0x7f) as usize) }
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        // SAFETY: both packed indices are below 90 (see the type's doc).
        unsafe { Square::from_index_unchecked((self.0 >> 7) as usize) }
    }

    /// Whether this is the null move.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The raw 14-bit encoding (for hash tables).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The move with raw encoding `raw`, if both squares are on the board.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        if raw == 0 {
            return Some(Move::NULL);
        }
        if (raw & 0x7f) < 90 && (raw >> 7) < 90 {
            Some(Move(raw))
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            f.write_str("0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a move string did not parse (it is about notation, not legality).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid move '{}' (expected e.g. h2e2)", self.0)
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses `h2e2` (ranks 0–9) or `0000`. Says nothing about legality.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s == "0000" {
            return Ok(Move::NULL);
        }
        let err = || ParseMoveError(s.to_string());
        if s.len() != 4 || !s.is_ascii() {
            return Err(err());
        }
        let from: Square = s[..2].parse().map_err(|_| err())?;
        let to: Square = s[2..].parse().map_err(|_| err())?;
        if from == to {
            return Err(err());
        }
        Ok(Move::new(from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_through_text() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m.from().to_string(), "h2");
        assert_eq!(m.to().to_string(), "e2");
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(Move::from_raw(m.raw()), Some(m));
        assert!("h2h2".parse::<Move>().is_err());
        assert!("h2e".parse::<Move>().is_err());
        assert_eq!("0000".parse::<Move>().unwrap(), Move::NULL);
    }
}
