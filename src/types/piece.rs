//! Piece kinds and coloured pieces.

use std::fmt;

use super::Color;

/// The seven kinds of Xiangqi piece. The order is fixed: tables are indexed by it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// Chariot (車), FEN `R`.
    Rook = 0,
    /// Horse (馬), FEN `N` (also `H`).
    Horse = 1,
    /// Elephant (相/象), FEN `B` (also `E`).
    Elephant = 2,
    /// Advisor (仕/士), FEN `A`.
    Advisor = 3,
    /// General (帥/將), FEN `K`.
    King = 4,
    /// Cannon (炮/砲), FEN `C`.
    Cannon = 5,
    /// Soldier (兵/卒), FEN `P`.
    Pawn = 6,
}

impl PieceKind {
    /// Number of kinds.
    pub const COUNT: usize = 7;

    /// All kinds in table order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Elephant,
        PieceKind::Advisor,
        PieceKind::King,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// Index 0–6 in table order.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with table index `i` (0–6).
    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// The upper-case FEN letter we write.
    pub const fn char(self) -> char {
        match self {
            PieceKind::Rook => 'R',
            PieceKind::Horse => 'N',
            PieceKind::Elephant => 'B',
            PieceKind::Advisor => 'A',
            PieceKind::King => 'K',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// The kind for a FEN letter of either case, accepting `H` for horse and `E` for elephant.
    pub const fn from_char(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'R' => Some(PieceKind::Rook),
            'N' | 'H' => Some(PieceKind::Horse),
            'B' | 'E' => Some(PieceKind::Elephant),
            'A' => Some(PieceKind::Advisor),
            'K' => Some(PieceKind::King),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Pawn),
            _ => None,
        }
    }
}

/// A coloured piece, stored as `7 * color + kind` (0–13).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// Number of distinct coloured pieces.
    pub const COUNT: usize = 14;

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 7 + kind as u8)
    }

    /// Its colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 7 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        // A compare and a subtraction instead of `% 7` (a multiply and shifts).
        let k = if self.0 >= 7 { self.0 - 7 } else { self.0 };
        // SAFETY: a `Piece` holds 0–13 (made only by `new` and the checked `from_index`),
        // so `k` is 0–6, a discriminant of the `repr(u8)` enum `PieceKind`. (Indexing
        // `PieceKind::ALL` instead costs a load and a bounds check on the hottest path.)
        unsafe { std::mem::transmute::<u8, PieceKind>(k) }
    }

    /// Index 0–13 for per-piece tables (indexed without a bounds check).
    #[inline(always)]
    pub const fn index(self) -> usize {
        // SAFETY: a `Piece` holds 0–13 (see `kind`).
        unsafe { std::hint::assert_unchecked(self.0 < 14) };
        self.0 as usize
    }

    /// The piece with index `i` (0–13).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Piece {
        assert!(i < 14, "piece index out of range");
        Piece(i as u8)
    }

    /// The FEN letter: upper case for Red.
    pub const fn char(self) -> char {
        let c = self.kind().char();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (`RNBAKCP`, lower case for Black; `H`/`E` accepted).
    pub const fn from_char(c: char) -> Option<Piece> {
        match PieceKind::from_char(c) {
            Some(kind) => {
                let color = if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                Some(Piece::new(color, kind))
            }
            None => None,
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_letters_round_trip() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), kind);
                assert_eq!(Piece::from_char(p.char()), Some(p));
            }
        }
        assert_eq!(
            Piece::from_char('H'),
            Some(Piece::new(Color::Red, PieceKind::Horse))
        );
        assert_eq!(
            Piece::from_char('e'),
            Some(Piece::new(Color::Black, PieceKind::Elephant))
        );
        assert_eq!(Piece::from_char('x'), None);
    }
}
