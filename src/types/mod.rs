//! Small, strongly typed values of the board: squares, files, ranks, colours, pieces, moves and
//! the 90-point bitboard. Everything here is `Copy` and cheap; the rest of the engine speaks in
//! these types.

mod bitboard;
mod color;
mod mv;
mod piece;
mod square;

pub use bitboard::{BitIter, Bitboard, Subsets};
pub use color::Color;
pub use mv::Move;
pub use piece::{Piece, PieceKind};
pub use square::{File, Rank, Square};
