//! Rank numbering on the wire. The engine core numbers ranks 0–9 (`h2e2`); some managers and
//! engines number them 1–10 (`h3e3`: the xiangqi branch of cutechess, Fairy-Stockfish in UCI
//! mode). A move token is parsed into a [`MoveText`] that keeps the rank as written, and is
//! turned into a [`Move`] only once the [`RankBase`] is known.
//!
//! In `auto` mode (UCI only) the base is guessed from what the GUI sends: a rank `10` in a move
//! token, or a move list that is legal only when read as 1–10, switches to 1–10 (and a list legal
//! only as 0–9 switches back). `setoption name UCI_Variant value xiangqi` is the handshake of
//! variant-aware managers, which all number ranks 1–10, so it switches too.

use std::fmt;
use std::str::FromStr;

use crate::position::Position;
use crate::types::{Move, Square};

/// How ranks are numbered in move tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankBase {
    /// Ranks 0–9 (the engine's own numbering, Pikafish, UCCI, XBoard).
    #[default]
    Zero,
    /// Ranks 1–10 (cutechess xiangqi, Fairy-Stockfish UCI).
    One,
}

impl RankBase {
    /// The other numbering.
    pub fn other(self) -> RankBase {
        match self {
            RankBase::Zero => RankBase::One,
            RankBase::One => RankBase::Zero,
        }
    }

    /// The rank of the lowest row as written (0 or 1).
    pub fn offset(self) -> u8 {
        match self {
            RankBase::Zero => 0,
            RankBase::One => 1,
        }
    }

    /// `0-9` or `1-10`, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            RankBase::Zero => "0-9",
            RankBase::One => "1-10",
        }
    }
}

/// The value of the rank-base option: a fixed numbering or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankMode {
    /// Guess from the GUI's input (start with 0–9).
    #[default]
    Auto,
    /// Always this numbering.
    Fixed(RankBase),
}

/// A rank-base option value that is not `auto`, `0` or `1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRankModeError(pub String);

impl fmt::Display for ParseRankModeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid rank base '{}' (expected auto, 0 or 1)", self.0)
    }
}

impl std::error::Error for ParseRankModeError {}

impl FromStr for RankMode {
    type Err = ParseRankModeError;

    fn from_str(s: &str) -> Result<RankMode, ParseRankModeError> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(RankMode::Auto),
            "0" => Ok(RankMode::Fixed(RankBase::Zero)),
            "1" => Ok(RankMode::Fixed(RankBase::One)),
            _ => Err(ParseRankModeError(s.to_string())),
        }
    }
}

impl fmt::Display for RankMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RankMode::Auto => "auto",
            RankMode::Fixed(RankBase::Zero) => "0",
            RankMode::Fixed(RankBase::One) => "1",
        })
    }
}

/// A move token as written: files 0–8 and ranks 0–10, not yet tied to a numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    from: (u8, u8),
    to: (u8, u8),
}

/// A token that is not a move in coordinate notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveTextError(pub String);

impl fmt::Display for ParseMoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a move (expected e.g. h2e2)", self.0)
    }
}

impl std::error::Error for ParseMoveTextError {}

/// Parses one point `e2` / `e10` at the start of `s`; returns it and the bytes used.
fn parse_point(s: &[u8]) -> Option<((u8, u8), usize)> {
    let file = *s.first()?;
    if !(b'a'..=b'i').contains(&file) {
        return None;
    }
    let d1 = *s.get(1)?;
    if !d1.is_ascii_digit() {
        return None;
    }
    // `10` is the only two-digit rank.
    if d1 == b'1' && s.get(2) == Some(&b'0') {
        return Some(((file - b'a', 10), 3));
    }
    Some(((file - b'a', d1 - b'0'), 2))
}

impl FromStr for MoveText {
    type Err = ParseMoveTextError;

    /// Parses `h2e2`, `h3e3`, `a10a9`, `e1e10`; upper-case files are accepted.
    fn from_str(s: &str) -> Result<MoveText, ParseMoveTextError> {
        let err = || ParseMoveTextError(s.chars().take(40).collect());
        if !s.is_ascii() || s.len() > 6 {
            return Err(err());
        }
        let lower = s.to_ascii_lowercase();
        let b = lower.as_bytes();
        let (from, n) = parse_point(b).ok_or_else(err)?;
        let (to, m) = parse_point(&b[n..]).ok_or_else(err)?;
        if n + m != b.len() || from == to {
            return Err(err());
        }
        Ok(MoveText { from, to })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}{}",
            (b'a' + self.from.0) as char,
            self.from.1,
            (b'a' + self.to.0) as char,
            self.to.1
        )
    }
}

impl MoveText {
    /// Whether a rank is written as `10` (only possible with 1–10 numbering).
    pub fn has_rank_ten(self) -> bool {
        self.from.1 == 10 || self.to.1 == 10
    }

    /// Whether a rank is written as `0` (only possible with 0–9 numbering).
    pub fn has_rank_zero(self) -> bool {
        self.from.1 == 0 || self.to.1 == 0
    }

    /// The move this token means under `base`, if both points are on the board.
    pub fn to_move(self, base: RankBase) -> Option<Move> {
        let point = |(file, rank): (u8, u8)| {
            let rank = rank.checked_sub(base.offset())?;
            Square::try_from_coords(file as i32, rank as i32)
        };
        Some(Move::new(point(self.from)?, point(self.to)?))
    }

    /// The token for `mv` under `base`.
    pub fn from_move(mv: Move, base: RankBase) -> MoveText {
        let point = |sq: Square| {
            (
                sq.file().index() as u8,
                sq.rank().index() as u8 + base.offset(),
            )
        };
        MoveText {
            from: point(mv.from()),
            to: point(mv.to()),
        }
    }
}

/// `mv` written under `base` (`0000` for the null move).
pub fn format_move(mv: Move, base: RankBase) -> String {
    if mv.is_null() {
        "0000".to_string()
    } else {
        MoveText::from_move(mv, base).to_string()
    }
}

/// Moves written under `base`, separated by spaces.
pub fn format_moves(moves: &[Move], base: RankBase) -> String {
    moves
        .iter()
        .map(|&m| format_move(m, base))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a move list could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based index of the offending move in the list.
    pub index: usize,
    /// The token as written.
    pub token: String,
    /// The position it was tried in.
    pub fen: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} '{}' is not legal in {}",
            self.index, self.token, self.fen
        )
    }
}

impl std::error::Error for ReplayError {}

/// Plays `moves` read under `base` from `start`, keeping the history. The first move that is off
/// the board or not legal stops the replay.
pub fn replay(
    start: &Position,
    moves: &[MoveText],
    base: RankBase,
) -> Result<Position, ReplayError> {
    let mut pos = start.clone();
    for (i, text) in moves.iter().enumerate() {
        match text.to_move(base) {
            Some(mv) if pos.is_legal(mv) => pos.make_move(mv),
            _ => {
                return Err(ReplayError {
                    index: i + 1,
                    token: text.to_string(),
                    fen: pos.fen(),
                })
            }
        }
    }
    Ok(pos)
}

/// Plays `moves` from `start`, choosing the numbering per `mode` (see the module docs); `current`
/// is the numbering in use so far. Returns the position and the numbering that worked; on
/// failure, the error under `current` (or under 1–10 when a rank `10` forced it).
pub fn replay_auto(
    start: &Position,
    moves: &[MoveText],
    mode: RankMode,
    current: RankBase,
) -> Result<(Position, RankBase), ReplayError> {
    match mode {
        RankMode::Fixed(base) => replay(start, moves, base).map(|p| (p, base)),
        RankMode::Auto => {
            if moves.iter().any(|m| m.has_rank_ten()) {
                return replay(start, moves, RankBase::One).map(|p| (p, RankBase::One));
            }
            if moves.iter().any(|m| m.has_rank_zero()) {
                return replay(start, moves, RankBase::Zero).map(|p| (p, RankBase::Zero));
            }
            match replay(start, moves, current) {
                Ok(p) => Ok((p, current)),
                Err(e) => match replay(start, moves, current.other()) {
                    Ok(p) => Ok((p, current.other())),
                    Err(_) => Err(e),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mt(s: &str) -> MoveText {
        s.parse().unwrap()
    }

    #[test]
    fn move_text_keeps_the_written_rank() {
        assert_eq!(mt("h2e2").to_string(), "h2e2");
        assert_eq!(mt("A10A9").to_string(), "a10a9");
        assert!(mt("a10a9").has_rank_ten());
        for bad in [
            "", "h2", "h2h2", "j2e2", "h11e2", "h2e2x", "h2e10e", "é2e2", "h-1e2",
        ] {
            assert!(bad.parse::<MoveText>().is_err(), "{bad}");
        }
    }

    #[test]
    fn one_based_ranks_shift_down_by_one() {
        let m = mt("h3e3");
        assert_eq!(m.to_move(RankBase::One).unwrap().to_string(), "h2e2");
        assert_eq!(m.to_move(RankBase::Zero).unwrap().to_string(), "h3e3");
        assert_eq!(mt("a10a9").to_move(RankBase::Zero), None);
        assert_eq!(mt("a0a1").to_move(RankBase::One), None);
        let mv: Move = "h9g7".parse().unwrap();
        assert_eq!(format_move(mv, RankBase::One), "h10g8");
        assert_eq!(format_move(mv, RankBase::Zero), "h9g7");
    }

    #[test]
    fn auto_picks_the_numbering_that_is_legal() {
        let start = Position::startpos();
        let moves = [mt("h3e3"), mt("h10g8")];
        let (_, base) = replay_auto(&start, &moves, RankMode::Auto, RankBase::Zero).unwrap();
        assert_eq!(base, RankBase::One);
        let moves = [mt("h3e3")];
        let (_, base) = replay_auto(&start, &moves, RankMode::Auto, RankBase::Zero).unwrap();
        assert_eq!(base, RankBase::One, "h3e3 is legal only as 1-10");
        let moves = [mt("h2e2"), mt("h9g7")];
        let (_, base) = replay_auto(&start, &moves, RankMode::Auto, RankBase::One).unwrap();
        assert_eq!(base, RankBase::Zero);
        assert!(replay_auto(
            &start,
            &moves,
            RankMode::Fixed(RankBase::One),
            RankBase::One
        )
        .is_err());
    }
}
