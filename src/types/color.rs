//! The two sides. Red moves first and sits on ranks 0–4.

use std::fmt;
use std::ops::Not;

/// A side: `Red` (upper case in FEN, `w`) or `Black` (lower case, `b`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Red: moves first, upper case in FEN.
    Red = 0,
    /// Black: lower case in FEN.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black: for indexing per-colour tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour from an index 0 (Red) or 1 (Black).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The FEN side letter: `w` for Red, `b` for Black.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}
