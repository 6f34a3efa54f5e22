//! `Bitboard`: a set of points in a `u128`, bit `9 * rank + file`. Bits 90–127 are always 0.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::{Color, Square};

/// A set of board points. Set algebra by operators: `a | b`, `a & b`, `a ^ b`, `a - b`
/// (difference) and `!a` (complement within the 90 points).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// Draws a bitboard as a 10 × 9 grid, rank 9 on the first row: `X` marks a member, `.` not.
///
/// ```
/// use chariot::{bitboard, types::Square};
/// let palace = bitboard! {
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . X X X . . .
///     . . . X X X . . .
///     . . . X X X . . .
/// };
/// assert_eq!(palace.count(), 9);
/// assert!(palace.has("e1".parse::<Square>().unwrap()));
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($cell:tt)*) => {
        $crate::types::Bitboard::from_grid(stringify!($($cell)*))
    };
}

const ALL_BITS: u128 = (1u128 << 90) - 1;

/// `SQUARE_SETS[i]` holds only point `i`.
static SQUARE_SETS: [Bitboard; 90] = {
    let mut sets = [Bitboard(0); 90];
    let mut i = 0;
    while i < 90 {
        sets[i] = Bitboard(1u128 << i);
        i += 1;
    }
    sets
};

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 points.
    pub const FULL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding only `sq` (read from a table: a variable 128-bit shift takes several
    /// instructions).
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        SQUARE_SETS[sq.index()]
    }

    /// Parses a grid of 90 `X`/`.` cells (white space ignored), rank 9 first, file a first.
    /// Panics (at compile time when used in a `const`) on a malformed grid; meant for literals.
    pub const fn from_grid(grid: &str) -> Bitboard {
        let bytes = grid.as_bytes();
        let mut bits = 0u128;
        let mut cell = 0usize;
        let mut i = 0usize;
        while i < bytes.len() {
            let c = bytes[i];
            if c == b'X' || c == b'x' || c == b'.' {
                assert!(cell < 90, "bitboard grid has more than 90 cells");
                let rank = 9 - cell / 9;
                let file = cell % 9;
                if c != b'.' {
                    bits |= 1u128 << (rank * 9 + file);
                }
                cell += 1;
            } else {
                assert!(
                    c.is_ascii_whitespace(),
                    "bitboard grid cells must be X or ."
                );
            }
            i += 1;
        }
        assert!(cell == 90, "bitboard grid must have exactly 90 cells");
        Bitboard(bits)
    }

    /// Whether `sq` is a member.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        // One 64-bit word and one shift, not a 128-bit shift.
        let i = sq.index();
        let word = if i < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        word >> (i & 63) & 1 != 0
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of members.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has more than one member.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest member, if any.
    #[inline(always)]
    pub const fn lsb(self) -> Option<Square> {
        let bits = self.0 & ALL_BITS;
        if bits == 0 {
            None
        } else {
            // SAFETY: the lowest bit of a non-empty subset of the 90 points is below 90.
            Some(unsafe { Square::from_index_unchecked(bits.trailing_zeros() as usize) })
        }
    }

    /// The lowest member; the set must not be empty (checked in debug builds; an empty set
    /// gives some square).
    #[inline(always)]
    pub fn lsb_unchecked(self) -> Square {
        debug_assert!(self.any());
        let i = (self.0 & ALL_BITS).trailing_zeros().min(89);
        // SAFETY: clamped to 89 just above.
        unsafe { Square::from_index_unchecked(i as usize) }
    }

    /// Adds `sq`.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= Bitboard::from_square(sq).0;
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !Bitboard::from_square(sq).0;
    }

    /// Toggles `sq`.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= Bitboard::from_square(sq).0;
    }

    /// The members in ascending order.
    #[inline(always)]
    pub const fn iter(self) -> BitIter {
        BitIter {
            word: self.0 as u64,
            next: ((self.0 & ALL_BITS) >> 64) as u64,
            base: 0,
        }
    }

    /// Every subset of this set, the empty set first (carry-rippler enumeration).
    pub const fn subsets(self) -> Subsets {
        Subsets {
            set: self.0,
            next: 0,
            done: false,
        }
    }

    /// The low 64 bits (points a0 … a7).
    #[inline(always)]
    pub const fn lo(self) -> u64 {
        self.0 as u64
    }

    /// The high bits (points b7 … i9).
    #[inline(always)]
    pub const fn hi(self) -> u64 {
        (self.0 >> 64) as u64
    }

    /// All points on `file` (0–8).
    pub const fn file_mask(file: usize) -> Bitboard {
        let mut bits = 0u128;
        let mut r = 0;
        while r < 10 {
            bits |= 1u128 << (r * 9 + file);
            r += 1;
        }
        Bitboard(bits)
    }

    /// All points on `rank` (0–9).
    pub const fn rank_mask(rank: usize) -> Bitboard {
        Bitboard(0x1ffu128 << (rank * 9))
    }

    /// `color`'s half of the board (Red: ranks 0–4, Black: ranks 5–9).
    #[inline(always)]
    pub const fn half(color: Color) -> Bitboard {
        match color {
            Color::Red => Bitboard((1u128 << 45) - 1),
            Color::Black => Bitboard(ALL_BITS & !((1u128 << 45) - 1)),
        }
    }

    /// `color`'s palace (files d–f, ranks 0–2 for Red and 7–9 for Black).
    #[inline(always)]
    pub const fn palace(color: Color) -> Bitboard {
        let row = 0b111u128 << 3;
        match color {
            Color::Red => Bitboard(row | row << 9 | row << 18),
            Color::Black => Bitboard(row << 63 | row << 72 | row << 81),
        }
    }
}

/// Iterator over the members of a bitboard, lowest first. It walks one 64-bit word at a
/// time (the low word, then the high one): a 64-bit lowest-bit scan and clear is a third of
/// the work of a 128-bit one.
#[derive(Clone, Copy)]
pub struct BitIter {
    /// Bits of the current word not yet returned.
    word: u64,
    /// The word after it (0 once the high word is current): bits 64 … 89 only, so that
    /// every index the iterator yields is a point.
    next: u64,
    /// Index of the current word's bit 0.
    base: u8,
}

impl Iterator for BitIter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.word == 0 {
            if self.next == 0 {
                return None;
            }
            self.word = self.next;
            self.next = 0;
            self.base = 64;
        }
        // SAFETY: a bit of the low word is below 64; the high word (base 64) holds bits
        // 64 … 89 only (masked in `iter`).
        let sq = unsafe {
            Square::from_index_unchecked(self.base as usize + self.word.trailing_zeros() as usize)
        };
        self.word &= self.word - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.word.count_ones() + self.next.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    #[inline(always)]
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

/// Iterator over all subsets of a set (carry-rippler), `2^n` items for `n` members.
pub struct Subsets {
    set: u128,
    next: u128,
    done: bool,
}

impl Iterator for Subsets {
    type Item = Bitboard;

    fn next(&mut self) -> Option<Bitboard> {
        if self.done {
            return None;
        }
        let current = self.next;
        self.next = self.next.wrapping_sub(self.set) & self.set;
        if self.next == 0 {
            self.done = true;
        }
        Some(Bitboard(current))
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference: members of `self` not in `rhs`.
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 90 points.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.set(sq);
        }
        bb
    }
}

impl fmt::Debug for Bitboard {
    /// The same grid that [`bitboard!`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            for file in 0..9 {
                let sq = Square::from_index(rank * 9 + file);
                let c = if self.has(sq) { 'X' } else { '.' };
                if file == 8 {
                    writeln!(f, "{c}")?;
                } else {
                    write!(f, "{c} ")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_literal_puts_rank_nine_on_top() {
        let bb = crate::bitboard! {
            X . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . X
        };
        assert_eq!(
            bb.iter().collect::<Vec<_>>(),
            vec![Square::from_index(8), Square::from_index(81)]
        );
        assert_eq!(format!("{bb:?}").matches('X').count(), 2);
    }

    #[test]
    fn subsets_enumerate_every_combination() {
        let set = Bitboard::palace(Color::Red);
        let subsets: Vec<_> = set.subsets().collect();
        assert_eq!(subsets.len(), 512);
        assert!(subsets.iter().all(|s| *s - set == Bitboard::EMPTY));
        let mut unique = subsets.clone();
        unique.sort_by_key(|b| b.0);
        unique.dedup();
        assert_eq!(unique.len(), 512);
    }

    #[test]
    fn complement_stays_on_board() {
        assert_eq!((!Bitboard::EMPTY).count(), 90);
        assert_eq!(!Bitboard::FULL, Bitboard::EMPTY);
        assert_eq!(
            Bitboard::half(Color::Red) | Bitboard::half(Color::Black),
            Bitboard::FULL
        );
        assert_eq!(
            (Bitboard::file_mask(4) & Bitboard::rank_mask(0))
                .lsb()
                .unwrap()
                .index(),
            4
        );
        assert_eq!(Bitboard::palace(Color::Black).count(), 9);
    }

    #[test]
    fn bits_beyond_the_board_yield_no_square() {
        // Only 90 of the 128 bits are points: iteration and `lsb` never return the others.
        let all = Bitboard(u128::MAX);
        let squares: Vec<Square> = all.iter().collect();
        assert_eq!(squares, Square::all().collect::<Vec<_>>());
        assert_eq!(Bitboard(1 << 100).lsb(), None);
        assert_eq!(
            Bitboard(1 << 100 | 1 << 70).lsb().map(Square::index),
            Some(70)
        );
        assert_eq!(Bitboard(1 << 100 | 1 << 89).lsb_unchecked().index(), 89);
        assert_eq!(Bitboard(1 << 127).iter().count(), 0);
    }
}
