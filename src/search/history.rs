//! Move-ordering memory of one search thread: butterfly history (by side, from, to),
//! continuation history (by the previous moves' piece and destination), capture history,
//! killers and counter-moves. Updates use "gravity": `h += bonus - h * |bonus| / MAX`, which
//! keeps every entry within ±MAX and lets old knowledge fade.

use crate::types::{Color, Move, Piece};

/// Bound of every history entry.
pub const HISTORY_MAX: i32 = 16384;

/// The bonus for a move that caused (or the malus for one that failed) a cut at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (160 * depth - 100).clamp(0, 2000)
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (e + b - e * b.abs() / HISTORY_MAX) as i16;
}

/// Continuation history indexed by (piece, to) of the current move.
pub type PieceToHistory = [[i16; 90]; 14];

/// All ordering tables of a thread (3.3 MB), in one allocation of whole 128-byte blocks: no
/// other thread's data shares a cache line (or an adjacent-line prefetch pair) with them, which
/// would make the threads of a search slow each other down.
#[repr(C, align(128))]
pub struct Histories {
    butterfly: [[[i16; 90]; 90]; 2],
    /// `continuation[prev_piece][prev_to]` is a table for the current (piece, to).
    continuation: [PieceToHistory; 14 * 90 + 1],
    capture: [[[i16; 7]; 90]; 14],
    counter: [[Move; 90]; 14],
}

/// Index of a continuation table: a (piece, to) pair, or the "none" table at the end.
#[inline]
pub fn cont_index(piece_to: Option<(Piece, crate::types::Square)>) -> usize {
    match piece_to {
        Some((p, sq)) => p.index() * 90 + sq.index(),
        None => 14 * 90,
    }
}

impl Histories {
    /// Empty tables, built in place on the heap (they are too big for a thread's stack).
    pub fn new_boxed() -> Box<Histories> {
        Histories::try_new_boxed()
            .unwrap_or_else(|| std::alloc::handle_alloc_error(std::alloc::Layout::new::<Self>()))
    }

    /// Like [`Histories::new_boxed`], or `None` when the memory is not there.
    pub fn try_new_boxed() -> Option<Box<Histories>> {
        let layout = std::alloc::Layout::new::<Histories>();
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Histories>();
        if raw.is_null() {
            return None;
        }
        // SAFETY: allocated by the global allocator with the layout of `Histories`, as `Box`
        // does; every field is an array of `i16` or of `Move` (a `u16`), for which all-zero
        // bytes are valid values: 0 and `Move::NULL`.
        Some(unsafe { Box::from_raw(raw) })
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.butterfly = [[[0; 90]; 90]; 2];
        self.continuation
            .iter_mut()
            .for_each(|table| *table = [[0; 90]; 14]);
        self.capture = [[[0; 7]; 90]; 14];
        self.counter = [[Move::NULL; 90]; 14];
    }

    /// Butterfly score of a quiet move.
    #[inline]
    pub fn butterfly(&self, side: Color, mv: Move) -> i32 {
        self.butterfly[side.index()][mv.from().index()][mv.to().index()] as i32
    }

    /// Updates the butterfly score.
    #[inline]
    pub fn update_butterfly(&mut self, side: Color, mv: Move, bonus: i32) {
        gravity(
            &mut self.butterfly[side.index()][mv.from().index()][mv.to().index()],
            bonus,
        );
    }

    /// Continuation score of `(piece, to)` after the move indexed `cont` (see [`cont_index`]).
    #[inline]
    pub fn continuation(&self, cont: usize, piece: Piece, mv: Move) -> i32 {
        self.continuation[cont][piece.index()][mv.to().index()] as i32
    }

    /// Updates a continuation score.
    #[inline]
    pub fn update_continuation(&mut self, cont: usize, piece: Piece, mv: Move, bonus: i32) {
        gravity(
            &mut self.continuation[cont][piece.index()][mv.to().index()],
            bonus,
        );
    }

    /// Capture history of `piece` capturing a `victim` kind on `mv.to()`.
    #[inline]
    pub fn capture(&self, piece: Piece, mv: Move, victim: usize) -> i32 {
        self.capture[piece.index()][mv.to().index()][victim] as i32
    }

    /// Updates the capture history.
    #[inline]
    pub fn update_capture(&mut self, piece: Piece, mv: Move, victim: usize, bonus: i32) {
        gravity(
            &mut self.capture[piece.index()][mv.to().index()][victim],
            bonus,
        );
    }

    /// The remembered reply to the previous move `(piece, to)`.
    #[inline]
    pub fn counter_move(&self, prev: Option<(Piece, crate::types::Square)>) -> Move {
        prev.map_or(Move::NULL, |(p, sq)| self.counter[p.index()][sq.index()])
    }

    /// Remembers `mv` as the reply to `prev`.
    #[inline]
    pub fn set_counter_move(&mut self, prev: Option<(Piece, crate::types::Square)>, mv: Move) {
        if let Some((p, sq)) = prev {
            self.counter[p.index()][sq.index()] = mv;
        }
    }
}
