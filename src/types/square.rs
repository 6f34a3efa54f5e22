//! Points of the board. Files `a`–`i` from Red's left, ranks `0`–`9` from Red's back rank;
//! square index `9 * rank + file` (a0 = 0, i9 = 89).

use std::fmt;
use std::str::FromStr;

use super::Color;

/// A file, `a` (0) to `i` (8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct File(u8);

/// A rank, `0` (Red's back rank) to `9` (Black's back rank).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Rank(u8);

/// One of the 90 points, index `9 * rank + file`. Every constructor keeps the index below
/// 90, so tables of 90 entries are indexed without a bounds check (see [`Square::index`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl File {
    /// Number of files.
    pub const COUNT: usize = 9;

    /// The file with index `i`, if `i < 9`.
    pub const fn new(i: u8) -> Option<File> {
        if i < 9 {
            Some(File(i))
        } else {
            None
        }
    }

    /// 0 for `a` … 8 for `i`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file letter.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The file seen from the other side of the board (a ↔ i).
    pub const fn flip(self) -> File {
        File(8 - self.0)
    }
}

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 10;

    /// The rank with index `i`, if `i < 10`.
    pub const fn new(i: u8) -> Option<Rank> {
        if i < 10 {
            Some(Rank(i))
        } else {
            None
        }
    }

    /// 0 … 9.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank seen from the other side (0 ↔ 9).
    pub const fn flip(self) -> Rank {
        Rank(9 - self.0)
    }

    /// Whether this rank lies on `color`'s own half (Red: 0–4, Black: 5–9).
    pub const fn is_own_half(self, color: Color) -> bool {
        match color {
            Color::Red => self.0 <= 4,
            Color::Black => self.0 >= 5,
        }
    }
}

impl Square {
    /// Number of points.
    pub const COUNT: usize = 90;

    /// The square with index `i`, if `i < 90`.
    #[inline(always)]
    pub const fn new(i: u8) -> Option<Square> {
        if i < 90 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The square with index `i`, which must be below 90 (a panic otherwise: a bug, never a
    /// consequence of input, which goes through [`Square::new`] or parsing).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        assert!(i < 90, "square index out of range");
        Square(i as u8)
    }

    /// [`Square::from_index`] without the check.
    ///
    /// # Safety
    /// `i` must be below 90.
    #[inline(always)]
    pub const unsafe fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < 90);
        Square(i as u8)
    }

    /// The square at `file`, `rank`.
    #[inline(always)]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    /// The square at file index `f` (0–8) and rank index `r` (0–9), if both are on the board.
    #[inline(always)]
    pub const fn try_from_coords(f: i32, r: i32) -> Option<Square> {
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Square((r * 9 + f) as u8))
        } else {
            None
        }
    }

    /// 0 … 89.
    #[inline(always)]
    pub const fn index(self) -> usize {
        // SAFETY: no constructor makes a square of index 90 or more (`from_index` checks,
        // the others derive the index from a valid file and rank or square).
        unsafe { std::hint::assert_unchecked(self.0 < 90) };
        self.0 as usize
    }

    /// The file of this square.
    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    /// The rank of this square.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// The square seen from the other side: same file, rank mirrored (Red ↔ Black view).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square((9 - self.0 / 9) * 9 + self.0 % 9)
    }

    /// The square mirrored left ↔ right.
    #[inline(always)]
    pub const fn flip_file(self) -> Square {
        Square((self.0 / 9) * 9 + 8 - self.0 % 9)
    }

    /// The square moved by `df` files and `dr` ranks, if still on the board.
    #[inline(always)]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::try_from_coords((self.0 % 9) as i32 + df, (self.0 / 9) as i32 + dr)
    }

    /// All 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().0)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a square name did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid square '{}' (expected a file a-i and a rank 0-9)",
            self.0
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a0` … `i9`.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !b[1].is_ascii_digit() {
            return Err(ParseSquareError(s.to_string()));
        }
        Ok(Square((b[1] - b'0') * 9 + (b[0] - b'a')))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert_eq!("a0".parse::<Square>().unwrap().index(), 0);
        assert_eq!("i9".parse::<Square>().unwrap().index(), 89);
        assert_eq!("e4".parse::<Square>().unwrap().index(), 40);
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn flips_are_involutions() {
        for sq in Square::all() {
            assert_eq!(sq.flip_rank().flip_rank(), sq);
            assert_eq!(sq.flip_file().flip_file(), sq);
            assert_eq!(sq.flip_rank().file(), sq.file());
        }
    }
}
