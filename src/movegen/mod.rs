//! Legal move generation.
//!
//! Every move written is legal. Moves of pieces that guard nothing (not a [`PinInfo`]
//! blocker) to points that are not cannon hurdles are legal by construction and are written
//! in bulk; a blocker's moves, general moves and every move while in check are verified one
//! by one with [`Position::is_legal_slow`]. Output goes to a [`MoveSink`]: a [`MoveList`], or a
//! counter for bulk counting in perft.
//!
//! [`PinInfo`]: crate::position::PinInfo

pub mod perft;

use arrayvec::ArrayVec;

use crate::attacks::tables;
use crate::position::{PinInfo, Position};
use crate::types::{Bitboard, Move, PieceKind, Square};

/// Upper bound on pseudo-legal moves in any position we accept (at most 2 chariots, 2 cannons,
/// 2 horses, 2 elephants, 2 advisors, 1 general and 5 soldiers per side: 119).
pub const MAX_MOVES: usize = 128;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Where generated moves go.
pub trait MoveSink {
    /// One move.
    fn push(&mut self, mv: Move);
    /// Moves from `from` to every point of `targets`.
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        // SAFETY: no accepted position has more than MAX_MOVES pseudo-legal moves (FEN
        // parsing rejects surplus pieces), so the list never overflows.
        debug_assert!(!self.is_full());
        unsafe { self.push_unchecked(mv) }
    }
}

/// A sink that only counts (bulk counting at the last perft ply).
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_targets(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    /// All legal moves.
    All,
    /// Legal captures only.
    Captures,
    /// Legal non-captures only.
    Quiets,
}

/// All legal moves.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenKind::All, &mut list);
    list
}

/// Legal captures.
pub fn captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenKind::Captures, &mut list);
    list
}

/// Legal non-captures.
pub fn quiets(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenKind::Quiets, &mut list);
    list
}

/// Legal moves of a side in check (all legal moves; the same as [`legal_moves`] there).
pub fn evasions(pos: &Position) -> MoveList {
    debug_assert!(pos.in_check());
    legal_moves(pos)
}

/// Number of legal moves.
#[inline]
pub fn count_legal(pos: &Position) -> u64 {
    let mut counter = MoveCounter(0);
    generate(pos, GenKind::All, &mut counter);
    counter.0
}

/// Writes the legal moves of kind `kind` into `sink`.
#[inline]
pub fn generate<S: MoveSink>(pos: &Position, kind: GenKind, sink: &mut S) {
    generate_with_pins(pos, kind, &pins(pos), sink);
}

/// The [`PinInfo`] generation needs for the side to move (none in check, where every move
/// is verified anyway).
#[inline]
pub fn pins(pos: &Position) -> PinInfo {
    if pos.in_check() {
        PinInfo::default()
    } else {
        pos.pin_info(pos.side_to_move())
    }
}

/// [`generate`] with [`pins`] already known, for callers that generate a node's moves in
/// several parts.
#[inline]
pub fn generate_with_pins<S: MoveSink>(
    pos: &Position,
    kind: GenKind,
    pins: &PinInfo,
    sink: &mut S,
) {
    match kind {
        GenKind::All => generate_kind::<0, S>(pos, pins, sink),
        GenKind::Captures => generate_kind::<1, S>(pos, pins, sink),
        GenKind::Quiets => generate_kind::<2, S>(pos, pins, sink),
    }
}

#[inline(always)]
fn generate_kind<const KIND: u8, S: MoveSink>(pos: &Position, pins: &PinInfo, sink: &mut S) {
    let t = tables();
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let ours = pos.pieces(us);
    let theirs = pos.pieces(!us);
    let target = match KIND {
        0 => !ours,
        1 => theirs,
        _ => !occ,
    };
    let in_check = pos.in_check();
    let (blockers, hurdles) = if in_check {
        (Bitboard::FULL, Bitboard::EMPTY)
    } else {
        (pins.blockers, pins.hurdles)
    };
    // In check, a move of another piece can only be legal if it answers one given checker:
    // capture it, land between (a chariot's or cannon's line, a horse's leg), or, against a
    // cannon, move its screen away. Other moves are not even tried.
    let (evade, screen) = match pos.checkers().lsb() {
        Some(c) => {
            let ksq = pos.king_square(us);
            let line = t.between(ksq, c);
            let cannon = pos.kind(PieceKind::Cannon).has(c);
            (
                Bitboard::from(c) | line,
                if cannon { line & occ } else { Bitboard::EMPTY },
            )
        }
        None => (Bitboard::FULL, Bitboard::EMPTY),
    };

    // A blocker's moves (every move in check) are verified one by one.
    let verified = |from: Square, targets: Bitboard, sink: &mut S| {
        let targets = if screen.has(from) {
            targets
        } else {
            targets & evade
        };
        for to in targets {
            let mv = Move::new(from, to);
            if pos.is_legal_slow(mv) {
                sink.push(mv);
            }
        }
    };
    // The moves of each of our pieces of a kind (in square order) to `$targets`: in bulk,
    // unless the piece is a blocker. Most sets hold no blocker, and then no piece needs the
    // test.
    macro_rules! moves_of {
        ($kind:ident, $from:ident => $targets:expr) => {{
            let pieces = pos.pieces_of(us, PieceKind::$kind);
            if (pieces & blockers).is_empty() {
                for $from in pieces {
                    sink.push_targets($from, $targets - hurdles);
                }
            } else {
                for $from in pieces {
                    if blockers.has($from) {
                        verified($from, $targets, sink);
                    } else {
                        sink.push_targets($from, $targets - hurdles);
                    }
                }
            }
        }};
    }

    moves_of!(Rook, from => t.rook(from, occ) & target);
    moves_of!(Cannon, from => {
        let (rook, cannon) = t.rook_and_cannon(from, occ);
        match KIND {
            0 => (rook - occ) | (cannon & theirs),
            1 => cannon & theirs,
            _ => rook - occ,
        }
    });
    moves_of!(Horse, from => t.horse(from, occ) & target);
    moves_of!(Pawn, from => t.pawn(us, from) & target);
    moves_of!(Elephant, from => t.elephant(from, occ) & target);
    moves_of!(Advisor, from => t.advisor(from) & target);
    let ksq = pos.king_square(us);
    let occ_without_king = occ ^ Bitboard::from(ksq);
    for to in t.king(ksq) & target {
        let occ2 = occ_without_king | Bitboard::from(to);
        if pos.attackers_to_king(to, !us, occ2).is_empty() {
            sink.push(Move::new(ksq, to));
        }
    }
}

#[cfg(test)]
mod tests;
