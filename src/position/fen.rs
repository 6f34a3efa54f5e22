//! FEN parsing and printing per docs/rules.md#fen, with a typed error for every rejection.

use std::fmt;

use super::Position;
use crate::types::{Bitboard, Color, Piece, PieceKind, Square};

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// The board field does not have 10 rows separated by `/`.
    WrongRowCount(usize),
    /// A character that is neither a piece letter nor a digit 1–9.
    BadCharacter {
        /// Rank of the row (9 = first row).
        rank: usize,
        /// The offending character.
        ch: char,
    },
    /// A row does not describe exactly 9 points.
    WrongPointCount {
        /// Rank of the row.
        rank: usize,
        /// Points it described.
        points: usize,
    },
    /// A side has no general.
    MissingGeneral(Color),
    /// A side has more than one general.
    TooManyGenerals(Color),
    /// More pieces of one kind than a side ever has (2 of each, 5 soldiers, 1 general).
    TooManyPieces(Piece),
    /// A general, advisor, elephant or soldier on a point it can never reach.
    UnreachablePoint {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// The side field is not `w`, `r` or `b`.
    BadSide(String),
    /// The castling/en-passant placeholders are not `-`.
    BadPlaceholder(String),
    /// The half-move clock is not a non-negative number.
    BadHalfmove(String),
    /// The move number is not a positive number.
    BadFullmove(String),
    /// More than six fields.
    TrailingFields(String),
    /// The side not to move is in check (its general attacked, or the generals face).
    SideNotToMoveInCheck(Color),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::WrongRowCount(n) => write!(f, "board has {n} rows, expected 10"),
            FenError::BadCharacter { rank, ch } => {
                write!(f, "invalid character '{ch}' in the row of rank {rank}")
            }
            FenError::WrongPointCount { rank, points } => {
                write!(f, "row of rank {rank} has {points} points, expected 9")
            }
            FenError::MissingGeneral(c) => write!(f, "{c} has no general"),
            FenError::TooManyGenerals(c) => write!(f, "{c} has more than one general"),
            FenError::TooManyPieces(p) => write!(f, "too many pieces '{p}'"),
            FenError::UnreachablePoint { piece, square } => {
                write!(f, "piece '{piece}' can never stand on {square}")
            }
            FenError::BadSide(s) => write!(f, "invalid side to move '{s}' (expected w, r or b)"),
            FenError::BadPlaceholder(s) => write!(f, "invalid field '{s}' (expected '-')"),
            FenError::BadHalfmove(s) => write!(f, "invalid half-move clock '{s}'"),
            FenError::BadFullmove(s) => write!(f, "invalid move number '{s}'"),
            FenError::TrailingFields(s) => write!(f, "unexpected text after the FEN: '{s}'"),
            FenError::SideNotToMoveInCheck(c) => {
                write!(f, "{c} is not to move but its general can be captured")
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Points where `piece` may ever stand, or `None` if it may stand anywhere.
pub fn reachable(piece: Piece) -> Option<Bitboard> {
    let red = match piece.kind() {
        PieceKind::King => Bitboard::palace(Color::Red),
        PieceKind::Advisor => ["d0", "f0", "e1", "d2", "f2"]
            .iter()
            .map(|s| sq(s))
            .collect(),
        PieceKind::Elephant => ["c0", "g0", "a2", "e2", "i2", "c4", "g4"]
            .iter()
            .map(|s| sq(s))
            .collect(),
        PieceKind::Pawn => {
            let starts: Bitboard = (0..5).map(|i| Square::from_index(27 + 2 * i)).collect();
            let starts = starts | Bitboard(starts.0 << 9);
            starts | Bitboard::half(Color::Black)
        }
        _ => return None,
    };
    Some(match piece.color() {
        Color::Red => red,
        Color::Black => red.iter().map(Square::flip_rank).collect(),
    })
}

fn sq(name: &str) -> Square {
    name.parse().expect("valid square literal")
}

const MAX_COUNT: [u32; 7] = [2, 2, 2, 2, 1, 2, 5];

impl Position {
    /// Parses a FEN (see docs/rules.md#fen). Missing trailing fields default to `- - 0 1`; `r` is
    /// accepted for Red, `H`/`E` for horse/elephant. Never panics.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 10 {
            return Err(FenError::WrongRowCount(rows.len()));
        }
        let mut pos = Position::empty();
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i;
            let mut file = 0usize;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_char(ch) {
                    if file < 9 {
                        pos.put(piece, Square::from_index(rank * 9 + file));
                    }
                    file += 1;
                } else {
                    return Err(FenError::BadCharacter { rank, ch });
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                return Err(FenError::WrongPointCount { rank, points: file });
            }
        }

        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                let bb = pos.pieces_of(color, kind);
                if kind == PieceKind::King && bb.is_empty() {
                    return Err(FenError::MissingGeneral(color));
                }
                if bb.count() > MAX_COUNT[kind.index()] {
                    return Err(if kind == PieceKind::King {
                        FenError::TooManyGenerals(color)
                    } else {
                        FenError::TooManyPieces(piece)
                    });
                }
                if let Some(allowed) = reachable(piece) {
                    if let Some(square) = (bb - allowed).lsb() {
                        return Err(FenError::UnreachablePoint { piece, square });
                    }
                }
            }
        }

        let side = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        for _ in 0..2 {
            match fields.next() {
                None | Some("-") => {}
                Some(s) => return Err(FenError::BadPlaceholder(s.to_string())),
            }
        }
        let halfmove = match fields.next() {
            None => 0,
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| FenError::BadHalfmove(s.to_string()))?,
        };
        let fullmove = match fields.next() {
            None => 1,
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| FenError::BadFullmove(s.to_string()))?,
        };
        if let Some(rest) = fields.next() {
            return Err(FenError::TrailingFields(rest.to_string()));
        }

        pos.side = side;
        pos.progress = halfmove.min(u16::MAX as u32) as u16;
        pos.since_capture = pos.progress;
        pos.ply = (fullmove.max(1) - 1)
            .saturating_mul(2)
            .saturating_add(side.index() as u32)
            .min(1 << 30);
        if side == Color::Black {
            pos.key ^= super::zobrist::SIDE;
        }
        let them = !side;
        if pos
            .attackers_to_king(pos.king_square(them), side, pos.occupied())
            .any()
        {
            return Err(FenError::SideNotToMoveInCheck(them));
        }
        pos.checkers = pos.attackers_to_king(pos.king_square(side), them, pos.occupied());
        Ok(pos)
    }

    /// The FEN of this position: `RNBAKCP` letters, `w`/`b`, `- -`, progress clock, move number.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.piece_at(Square::from_index(rank * 9 + file)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let fullmove = self.ply / 2 + 1;
        format!(
            "{s} {} - - {} {fullmove}",
            self.side.fen_char(),
            self.progress
        )
    }
}
