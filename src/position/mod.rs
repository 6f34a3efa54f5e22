//! `Position`: the board (bitboards by colour and kind plus a mailbox), side to move,
//! incremental Zobrist key, the progress and ply counters of docs/rules.md#automatic-draws,
//! and a state stack so that every move can be unmade exactly.

mod check;
mod fen;
pub mod zobrist;

use std::fmt;

pub use check::PinInfo;
pub use fen::{reachable, FenError, START_FEN};

use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};
use crate::weights::{MgEg, PHASE_WEIGHT, PSQ};

/// What `make_move` must remember to undo a move.
#[derive(Clone, Copy, Debug)]
struct State {
    mv: Move,
    captured: Option<Piece>,
    key: u64,
    progress: u16,
    since_capture: u16,
    checkers: Bitboard,
    psq: MgEg,
    phase: i32,
}

/// A Xiangqi position with its undo history.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 90],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    side: Color,
    key: u64,
    /// Zobrist keys of the soldiers (both colours) and of each colour's other pieces (no side
    /// to move): the correction history's indices, kept incrementally.
    pawn_key: u64,
    piece_keys: [u64; 2],
    progress: u16,
    since_capture: u16,
    ply: u32,
    checkers: Bitboard,
    psq: MgEg,
    phase: i32,
    states: Vec<State>,
}

impl Position {
    fn empty() -> Position {
        Position {
            board: [None; 90],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            side: Color::Red,
            key: 0,
            pawn_key: 0,
            piece_keys: [0; 2],
            progress: 0,
            since_capture: 0,
            ply: 0,
            checkers: Bitboard::EMPTY,
            psq: MgEg::ZERO,
            phase: 0,
            states: Vec::with_capacity(256),
        }
    }

    /// The start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("start FEN is valid")
    }

    fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color().index()].set(sq);
        self.by_kind[piece.kind().index()].set(sq);
        self.key ^= zobrist::piece_square(piece, sq);
        self.toggle_structure_key(piece, sq);
        self.psq += PSQ[piece.index()][sq.index()];
        self.phase += PHASE_WEIGHT[piece.kind().index()];
    }

    /// Material + piece-square score `(midgame, endgame)` from Red's view, kept incrementally.
    #[inline(always)]
    pub fn psq(&self) -> MgEg {
        self.psq
    }

    /// Game phase from the material on the board (see `weights::MAX_PHASE`).
    #[inline(always)]
    pub fn phase(&self) -> i32 {
        self.phase
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All occupied points.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The points of `color`'s pieces.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The points of pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The points of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Where `color`'s general stands.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces_of(color, PieceKind::King).lsb_unchecked()
    }

    /// The Zobrist key (pieces and side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last progress (capture, or a move by an already crossed soldier);
    /// the FEN half-move field.
    #[inline(always)]
    pub fn progress_plies(&self) -> u32 {
        self.progress as u32
    }

    /// Plies since the last capture (what the official 60-move rule counts). A FEN has one
    /// half-move field for this count and [`Self::progress_plies`]; both start from it.
    #[inline(always)]
    pub fn capture_plies(&self) -> u32 {
        self.since_capture as u32
    }

    /// Plies since the start of the game (`2 * (fullmove - 1) + (side == Black)` from a FEN).
    #[inline(always)]
    pub fn game_ply(&self) -> u32 {
        self.ply
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Number of moves made since this position was set up (the undo stack depth).
    #[inline(always)]
    pub fn moves_made(&self) -> usize {
        self.states.len()
    }

    /// The last move made, if any (`Move::NULL` for a null move).
    pub fn last_move(&self) -> Option<Move> {
        self.states.last().map(|s| s.mv)
    }

    /// The key of the position `n` plies ago (`n` ≥ 1) and whether the move played from it
    /// was irreversible (a capture or a null move), or `None` beyond the recorded history.
    #[inline]
    pub fn history(&self, n: usize) -> Option<(u64, bool)> {
        let len = self.states.len();
        if n == 0 || n > len {
            return None;
        }
        let s = &self.states[len - n];
        Some((s.key, s.captured.is_some() || s.mv.is_null()))
    }

    /// The move played `n` plies ago (`n` ≥ 1; 1 = the last move).
    pub fn move_ago(&self, n: usize) -> Option<Move> {
        let len = self.states.len();
        (n >= 1 && n <= len).then(|| self.states[len - n].mv)
    }

    /// The piece the last move captured, if any.
    pub fn last_captured(&self) -> Option<Piece> {
        self.states.last().and_then(|s| s.captured)
    }

    /// Zobrist key of the soldiers of both colours (see [`Position::piece_key`]).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Zobrist key of `color`'s pieces other than soldiers. With [`Position::pawn_key`] it
    /// indexes the search's correction history; neither includes the side to move.
    #[inline(always)]
    pub fn piece_key(&self, color: Color) -> u64 {
        self.piece_keys[color.index()]
    }

    /// Adds or removes `piece` on `sq` in the pawn or piece key.
    #[inline(always)]
    fn toggle_structure_key(&mut self, piece: Piece, sq: Square) {
        let z = zobrist::piece_square(piece, sq);
        if piece.kind() == PieceKind::Pawn {
            self.pawn_key ^= z;
        } else {
            self.piece_keys[piece.color().index()] ^= z;
        }
    }

    /// `(pawn_key, piece_keys)` recomputed from scratch (for consistency checks).
    pub fn compute_structure_keys(&self) -> (u64, [u64; 2]) {
        let (mut pawn, mut pieces) = (0, [0; 2]);
        for sq in self.occupied() {
            let piece = self.board[sq.index()].unwrap();
            let z = zobrist::piece_square(piece, sq);
            if piece.kind() == PieceKind::Pawn {
                pawn ^= z;
            } else {
                pieces[piece.color().index()] ^= z;
            }
        }
        (pawn, pieces)
    }

    /// The key recomputed from scratch (for consistency checks).
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            zobrist::SIDE
        } else {
            0
        };
        for sq in self.occupied() {
            key ^= zobrist::piece_square(self.board[sq.index()].unwrap(), sq);
        }
        key
    }

    /// Whether making `mv` captures a piece.
    #[inline(always)]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board[mv.to().index()].is_some()
    }

    /// The key the position will have after the legal move `mv`: what `make_move` sets, and
    /// known before it, so the search can prefetch the TT entry.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from.index()].expect("key_after: no piece on the origin");
        let mut key = self.key
            ^ zobrist::piece_square(piece, from)
            ^ zobrist::piece_square(piece, to)
            ^ zobrist::SIDE;
        if let Some(cap) = self.board[to.index()] {
            key ^= zobrist::piece_square(cap, to);
        }
        key
    }

    /// [`Position::key_after`] for a move not yet known to be legal here (a TT move): `None`
    /// for the null move or if no piece stands on its origin.
    #[inline]
    pub fn try_key_after(&self, mv: Move) -> Option<u64> {
        if mv.is_null() {
            return None;
        }
        self.board[mv.from().index()].map(|_| self.key_after(mv))
    }

    /// Plays `mv`, which must be legal (see `movegen`). Undo with [`Position::unmake_move`].
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        self.make_move_keyed(mv, self.key_after(mv), None);
    }

    /// [`Position::make_move`] for a caller that already has `key`, the
    /// [`Position::key_after`] of `mv`, and maybe [`Position::gives_check`] of it: a move
    /// known to give no check needs no attack lookup for the new checkers.
    #[inline]
    pub fn make_move_keyed(&mut self, mv: Move, key: u64, gives_check: Option<bool>) {
        debug_assert_eq!(key, self.key_after(mv));
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from.index()].expect("make_move: no piece on the origin");
        debug_assert_eq!(piece.color(), self.side);
        let captured = self.board[to.index()];
        self.states.push(State {
            mv,
            captured,
            key: self.key,
            progress: self.progress,
            since_capture: self.since_capture,
            checkers: self.checkers,
            psq: self.psq,
            phase: self.phase,
        });
        let (us, them) = (self.side, !self.side);
        let psq = &PSQ[piece.index()];
        self.psq += psq[to.index()] - psq[from.index()];
        let from_to = Bitboard::from(from) | Bitboard::from(to);
        if let Some(cap) = captured {
            debug_assert_ne!(cap.kind(), PieceKind::King);
            self.by_color[them.index()].clear(to);
            self.by_kind[cap.kind().index()].clear(to);
            self.progress = 0;
            self.since_capture = 0;
            self.psq -= PSQ[cap.index()][to.index()];
            self.phase -= PHASE_WEIGHT[cap.kind().index()];
            self.toggle_structure_key(cap, to);
        } else {
            self.since_capture = self.since_capture.saturating_add(1);
            if piece.kind() == PieceKind::Pawn && !from.rank().is_own_half(us) {
                self.progress = 0;
            } else {
                self.progress = self.progress.saturating_add(1);
            }
        }
        self.by_color[us.index()] ^= from_to;
        self.by_kind[piece.kind().index()] ^= from_to;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.toggle_structure_key(piece, from);
        self.toggle_structure_key(piece, to);
        self.key = key;
        self.side = them;
        self.ply += 1;
        self.checkers = if gives_check == Some(false) {
            Bitboard::EMPTY
        } else {
            self.attackers_to_king(self.king_square(them), us, self.occupied())
        };
        debug_assert_eq!(
            self.checkers,
            self.attackers_to_king(self.king_square(them), us, self.occupied())
        );
    }

    /// Takes back the last move made with [`Position::make_move`].
    #[inline]
    pub fn unmake_move(&mut self) {
        let state = self
            .states
            .pop()
            .expect("unmake_move: no move to take back");
        let (from, to) = (state.mv.from(), state.mv.to());
        let piece = self.board[to.index()].expect("unmake_move: no piece on the destination");
        let us = !self.side;
        let from_to = Bitboard::from(from) | Bitboard::from(to);
        self.by_color[us.index()] ^= from_to;
        self.by_kind[piece.kind().index()] ^= from_to;
        self.board[from.index()] = Some(piece);
        self.board[to.index()] = state.captured;
        self.toggle_structure_key(piece, from);
        self.toggle_structure_key(piece, to);
        if let Some(cap) = state.captured {
            self.by_color[self.side.index()].set(to);
            self.by_kind[cap.kind().index()].set(to);
            self.toggle_structure_key(cap, to);
        }
        self.side = us;
        self.ply -= 1;
        self.key = state.key;
        self.progress = state.progress;
        self.since_capture = state.since_capture;
        self.checkers = state.checkers;
        self.psq = state.psq;
        self.phase = state.phase;
    }

    /// Passes the turn (for null-move pruning). Not allowed in check.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.states.push(State {
            mv: Move::NULL,
            captured: None,
            key: self.key,
            progress: self.progress,
            since_capture: self.since_capture,
            checkers: self.checkers,
            psq: self.psq,
            phase: self.phase,
        });
        self.key ^= zobrist::SIDE;
        self.side = !self.side;
        self.ply += 1;
        self.progress = self.progress.saturating_add(1);
        self.since_capture = self.since_capture.saturating_add(1);
        self.checkers = Bitboard::EMPTY;
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self) {
        let state = self
            .states
            .pop()
            .expect("unmake_null_move: nothing to take back");
        debug_assert!(state.mv.is_null());
        self.side = !self.side;
        self.ply -= 1;
        self.key = state.key;
        self.progress = state.progress;
        self.since_capture = state.since_capture;
        self.checkers = state.checkers;
    }

    /// Forgets the undo history (the position stays as it is).
    pub fn clear_history(&mut self) {
        self.states.clear();
    }
}

impl PartialEq for Position {
    /// Same placement, side, counters and key; the undo history is not compared, nor the
    /// plies since a capture, which a FEN does not hold apart from the progress count.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.by_color == other.by_color
            && self.by_kind == other.by_kind
            && self.side == other.side
            && self.key == other.key
            && self.pawn_key == other.pawn_key
            && self.piece_keys == other.piece_keys
            && self.progress == other.progress
            && self.ply == other.ply
            && self.checkers == other.checkers
            && self.psq == other.psq
            && self.phase == other.phase
    }
}

impl fmt::Display for Position {
    /// A text board (rank 9 on top, Red upper case), then FEN, key and checkers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            write!(f, " {rank} ")?;
            for file in 0..9 {
                let c = self
                    .piece_at(Square::from_index(rank * 9 + file))
                    .map_or('.', |p| p.char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
            if rank == 5 {
                writeln!(f, "    ~~~~~~~~~~~~~~~~~")?;
            }
        }
        writeln!(f, "    a b c d e f g h i")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.fen())?;
        writeln!(f, "Key: {:016X}", self.key)?;
        let checkers: Vec<String> = self.checkers.iter().map(|s| s.to_string()).collect();
        write!(f, "Checkers: {}", checkers.join(" "))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_plies_count_only_captures_and_unmake_restores_them() {
        let mut p = Position::from_fen("4k4/9/9/6P2/p8/9/9/9/R8/3K5 w - - 10 1").unwrap();
        assert_eq!((p.progress_plies(), p.capture_plies()), (10, 10));
        // A crossed soldier's move is progress but no capture.
        p.make_move("g6g7".parse().unwrap());
        assert_eq!((p.progress_plies(), p.capture_plies()), (0, 11));
        p.make_move("e9e8".parse().unwrap());
        assert_eq!((p.progress_plies(), p.capture_plies()), (1, 12));
        p.make_null_move();
        assert_eq!((p.progress_plies(), p.capture_plies()), (2, 13));
        p.unmake_null_move();
        p.make_move("a1a5".parse().unwrap());
        assert_eq!((p.progress_plies(), p.capture_plies()), (0, 0));
        p.unmake_move();
        p.unmake_move();
        p.unmake_move();
        assert_eq!((p.progress_plies(), p.capture_plies()), (10, 10));
    }
}
