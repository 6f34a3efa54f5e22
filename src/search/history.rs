//! Move-ordering memory of one search thread: butterfly history (by side, from, to),
//! continuation history (by the previous moves' piece and destination), capture history,
//! killers and counter-moves. Updates use "gravity": `h += bonus - h * |bonus| / MAX`, which
//! keeps every entry within ±MAX and lets old knowledge fade.

use crate::types::{Color, Move, Piece};

/// Bound of every history entry.
pub const HISTORY_MAX: i32 = 16384;

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (e + b - e * b.abs() / HISTORY_MAX) as i16;
}

/// Where a position's correction entries are (see [`Histories::correction`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct CorrIndices {
    /// Index of the soldiers' placement (both colours).
    pub pawn: usize,
    /// Index of each colour's chariots, horses, cannons, advisors, elephants and general.
    pub pieces: [usize; 2],
    /// Continuation index ([`cont_index`]) of the move that led to the position, when the
    /// previous-move correction is in use (else its entry is neither read nor updated).
    pub cont: Option<usize>,
}

impl CorrIndices {
    /// The indices of `pos`.
    #[inline]
    pub fn of(pos: &crate::position::Position) -> CorrIndices {
        CorrIndices {
            pawn: corr_slot(pos.pawn_key()),
            pieces: [
                corr_slot(pos.piece_key(Color::Red)),
                corr_slot(pos.piece_key(Color::Black)),
            ],
            cont: None,
        }
    }

    /// The indices of `pos`, reached by `last` ((piece, to) of the move before).
    #[inline]
    pub fn after(
        pos: &crate::position::Position,
        last: Option<(Piece, crate::types::Square)>,
    ) -> CorrIndices {
        CorrIndices {
            cont: Some(cont_index(last)),
            ..CorrIndices::of(pos)
        }
    }
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
    continuation: [PieceToHistory; CONT_SLOTS],
    capture: [[[i16; 7]; 90]; 14],
    counter: [[Move; 90]; 14],
    /// Static-evaluation correction by the soldiers' placement, per side to move.
    corr_pawn: [[i16; CORR_SIZE]; 2],
    /// Static-evaluation correction by one colour's other pieces, per side to move and colour.
    corr_pieces: [[[i16; CORR_SIZE]; 2]; 2],
    /// Static-evaluation correction by the move before (its piece and destination), per side
    /// to move.
    corr_cont: [[i16; CONT_SLOTS]; 2],
}

/// Entries of each correction table (a power of two).
pub const CORR_SIZE: usize = 16384;
/// Correction entries are kept within ±this (in 1/`CORR_GRAIN` centipawns).
pub const CORR_MAX: i32 = 8192;
/// Correction entries count in this fraction of a centipawn.
pub const CORR_GRAIN: i32 = 16;

/// The correction-table index of a 64-bit hash.
#[inline]
fn corr_slot(hash: u64) -> usize {
    (hash >> (64 - CORR_SIZE.trailing_zeros())) as usize
}

/// Number of continuation indices: one per (piece, to) pair, and the "none" index last.
const CONT_SLOTS: usize = 14 * 90 + 1;

/// Index of a continuation table: a (piece, to) pair, or the "none" table at the end.
#[inline]
pub fn cont_index(piece_to: Option<(Piece, crate::types::Square)>) -> usize {
    match piece_to {
        Some((p, sq)) => p.index() * 90 + sq.index(),
        None => CONT_SLOTS - 1,
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
        self.corr_pawn = [[0; CORR_SIZE]; 2];
        self.corr_pieces = [[[0; CORR_SIZE]; 2]; 2];
        self.corr_cont = [[0; CONT_SLOTS]; 2];
    }

    /// The correction of a static evaluation, in centipawns: the soldiers' entry times
    /// `weights[0]` plus each colour's piece entry times `weights[1]` plus the previous
    /// move's entry times `weights[2]`, over 64.
    #[inline]
    pub fn correction(&self, stm: Color, idx: &CorrIndices, weights: [i32; 3]) -> i32 {
        let s = stm.index();
        let pawn = self.corr_pawn[s][idx.pawn] as i32;
        let pieces = self.corr_pieces[s][0][idx.pieces[0]] as i32
            + self.corr_pieces[s][1][idx.pieces[1]] as i32;
        let cont = match idx.cont {
            Some(c) if weights[2] != 0 => self.corr_cont[s][c] as i32 * weights[2],
            _ => 0,
        };
        (pawn * weights[0] + pieces * weights[1] + cont) / (64 * CORR_GRAIN)
    }

    /// Moves the correction entries towards `diff` (search score − static evaluation, in
    /// centipawns) with a weight growing with `depth`.
    pub fn update_correction(&mut self, stm: Color, idx: &CorrIndices, diff: i32, depth: i32) {
        let s = stm.index();
        let target = (diff * CORR_GRAIN).clamp(-CORR_MAX, CORR_MAX);
        let weight = (depth + 1).min(16);
        let blend = |e: &mut i16| {
            let v = (*e as i32 * (256 - weight) + target * weight) / 256;
            *e = v.clamp(-CORR_MAX, CORR_MAX) as i16;
        };
        blend(&mut self.corr_pawn[s][idx.pawn]);
        blend(&mut self.corr_pieces[s][0][idx.pieces[0]]);
        blend(&mut self.corr_pieces[s][1][idx.pieces[1]]);
        if let Some(c) = idx.cont {
            blend(&mut self.corr_cont[s][c]);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn corrections_follow_the_search_and_stay_per_side_and_bounded() {
        let mut h = Histories::new_boxed();
        let pos = Position::startpos();
        let idx = CorrIndices::of(&pos);
        assert_eq!(h.correction(Color::Red, &idx, [32, 16, 0]), 0);
        for _ in 0..200 {
            h.update_correction(Color::Red, &idx, 80, 12);
        }
        let red = h.correction(Color::Red, &idx, [32, 16, 0]);
        assert!((1..=80).contains(&red), "{red}");
        assert_eq!(h.correction(Color::Black, &idx, [32, 16, 0]), 0);
        for _ in 0..400 {
            h.update_correction(Color::Red, &idx, -100_000, 12);
        }
        let low = h.correction(Color::Red, &idx, [32, 16, 0]);
        assert!((-(CORR_MAX / CORR_GRAIN)..0).contains(&low), "{low}");
        h.clear();
        assert_eq!(h.correction(Color::Red, &idx, [32, 16, 0]), 0);
    }

    #[test]
    fn the_previous_moves_correction_counts_only_with_its_weight() {
        let mut h = Histories::new_boxed();
        let mut pos = Position::startpos();
        let mv: Move = "h2e2".parse().unwrap();
        let piece = pos.piece_at(mv.from()).unwrap();
        pos.make_move(mv);
        let after = CorrIndices::after(&pos, Some((piece, mv.to())));
        let plain = CorrIndices::of(&pos);
        assert_eq!((after.pawn, after.pieces), (plain.pawn, plain.pieces));
        assert_ne!(after.cont, plain.cont);
        for _ in 0..200 {
            h.update_correction(Color::Black, &after, 60, 12);
        }
        let both = h.correction(Color::Black, &after, [0, 0, 64]);
        assert!((1..=60).contains(&both), "{both}");
        // The same placement reached by another move (or none) has its own entry.
        assert_eq!(h.correction(Color::Black, &plain, [0, 0, 64]), 0);
        assert_eq!(h.correction(Color::Black, &after, [0, 0, 0]), 0);
    }

    #[test]
    fn a_move_of_a_soldier_changes_only_the_soldiers_index() {
        let pos = Position::startpos();
        let mut after = pos.clone();
        after.make_move("c3c4".parse().unwrap());
        let (a, b) = (CorrIndices::of(&pos), CorrIndices::of(&after));
        assert_ne!(a.pawn, b.pawn);
        assert_eq!(a.pieces, b.pieces);
        let mut horse = pos.clone();
        horse.make_move("b0c2".parse().unwrap());
        let c = CorrIndices::of(&horse);
        assert_eq!(a.pawn, c.pawn);
        assert_ne!(a.pieces[0], c.pieces[0]);
        assert_eq!(a.pieces[1], c.pieces[1]);
    }
}
