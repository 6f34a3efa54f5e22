//! CHECK / CHASE / IDLE (docs/rules.md#check-chase-and-idle-moves).
//!
//! Everything here works on [`Board`], a bare copy of the piece bitboards (nine `u128`s):
//! hypothetical captures and recaptures are played on stack copies, never on the
//! [`Position`], so classification allocates nothing and leaves the position untouched.

use crate::attacks::tables;
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};

/// The pieces that may chase, in the order they are scanned. Generals and soldiers never chase.
const CHASERS: [PieceKind; 5] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// The victims of one move's chase: the enemy pieces newly attacked in a counting way,
/// `NewChased(m)` of docs/rules.md#the-chase-set, as the squares they stand on *after* the move.
///
/// Squares identify pieces only within one move; across a repetition cycle
/// [`judge_span`](super::judge_span) maps them to piece identities.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct ChaseSet(Bitboard);

impl ChaseSet {
    /// The set of victims standing on `squares`.
    pub const fn new(squares: Bitboard) -> ChaseSet {
        ChaseSet(squares)
    }

    /// The victims' squares in the position after the move.
    pub const fn squares(self) -> Bitboard {
        self.0
    }

    /// Whether no piece is chased.
    pub const fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// Number of chased pieces.
    pub const fn len(self) -> u32 {
        self.0.count()
    }
}

/// What kind of move a move is, for the repetition rules (docs/rules.md#repetition).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveClass {
    /// The move attacks the enemy general.
    Check,
    /// Not a check, and it newly attacks the given enemy pieces in a counting way.
    Chase(ChaseSet),
    /// Anything else (a mate threat is idle).
    Idle,
}

impl MoveClass {
    /// Whether this is a check.
    pub const fn is_check(self) -> bool {
        matches!(self, MoveClass::Check)
    }

    /// Whether this is a chase.
    pub const fn is_chase(self) -> bool {
        matches!(self, MoveClass::Chase(_))
    }
}

/// Labels `mv`, a legal move of the side to move in `pos`, before it is made.
///
/// A check is a check whatever else it does; otherwise the move is a chase if
/// `ChaseSet(P′) \ ChaseSet(P)` is not empty. A null move, or a move whose origin holds no piece
/// of the side to move, is [`MoveClass::Idle`].
pub fn classify_move(pos: &Position, mv: Move) -> MoveClass {
    let us = pos.side_to_move();
    if mv.is_null() || !pos.pieces(us).has(mv.from()) || pos.pieces(us).has(mv.to()) {
        return MoveClass::Idle;
    }
    let before = Board::of(pos);
    classify(&before, &before.play(mv.from(), mv.to()), us)
}

/// The class of `us`'s move that turned `before` into `after`.
pub(super) fn classify(before: &Board, after: &Board, us: Color) -> MoveClass {
    if after.king_attacked(!us) {
        return MoveClass::Check;
    }
    let now = after.chase_set(us);
    if now.is_empty() {
        return MoveClass::Idle;
    }
    // Enemy pieces do not move during our move, so squares identify them on both sides of it.
    let new = now - before.chase_set(us);
    if new.is_empty() {
        MoveClass::Idle
    } else {
        MoveClass::Chase(ChaseSet(new))
    }
}

/// `ChaseSet_side(pos)` of docs/rules.md#the-chase-set: the squares of the enemy pieces that
/// `side` attacks in a counting way in `pos`, judged as if `side` were to move.
pub fn chase_set(pos: &Position, side: Color) -> Bitboard {
    Board::of(pos).chase_set(side)
}

/// The pieces by colour and by kind: the part of a position the chase rules read.
#[derive(Clone, Copy)]
pub(super) struct Board {
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
}

impl Board {
    pub(super) fn of(pos: &Position) -> Board {
        Board {
            by_color: [pos.pieces(Color::Red), pos.pieces(Color::Black)],
            by_kind: PieceKind::ALL.map(|k| pos.kind(k)),
        }
    }

    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    #[inline(always)]
    fn kind_at(&self, sq: Square) -> Option<PieceKind> {
        PieceKind::ALL
            .into_iter()
            .find(|k| self.by_kind[k.index()].has(sq))
    }

    /// The board after the piece on `from` goes to `to`, removing whatever stood there.
    #[inline(always)]
    pub(super) fn play(&self, from: Square, to: Square) -> Board {
        let mut b = *self;
        let clear = !((1u128 << from.index()) | (1u128 << to.index()));
        for bb in b.by_color.iter_mut().chain(b.by_kind.iter_mut()) {
            let moved = (bb.0 >> from.index()) & 1;
            bb.0 = (bb.0 & clear) | (moved << to.index());
        }
        b
    }

    /// Whether `color`'s general is attacked (the flying general included). A board without
    /// that general counts as attacked, so nothing built on a broken board is legal.
    #[inline(always)]
    fn king_attacked(&self, color: Color) -> bool {
        let Some(ksq) = self.pieces_of(color, PieceKind::King).lsb() else {
            return true;
        };
        let t = tables();
        let occ = self.occupied();
        let them = !color;
        let (rook, cannon) = t.rook_and_cannon(ksq, occ);
        (rook & (self.pieces_of(them, PieceKind::Rook) | self.pieces_of(them, PieceKind::King)))
            .any()
            || (cannon & self.pieces_of(them, PieceKind::Cannon)).any()
            || (t.horse_attackers(ksq, occ) & self.pieces_of(them, PieceKind::Horse)).any()
            || (t.pawn_attackers(them, ksq) & self.pieces_of(them, PieceKind::Pawn)).any()
    }

    /// The points a `kind` of `color` on `sq` could capture on (given enemy pieces there).
    #[inline(always)]
    fn captures_from(&self, kind: PieceKind, color: Color, sq: Square) -> Bitboard {
        let t = tables();
        let occ = self.occupied();
        match kind {
            PieceKind::Rook => t.rook(sq, occ),
            PieceKind::Cannon => t.cannon(sq, occ),
            PieceKind::Horse => t.horse(sq, occ),
            PieceKind::Elephant => t.elephant(sq, occ),
            PieceKind::Advisor => t.advisor(sq),
            PieceKind::King => t.king(sq),
            PieceKind::Pawn => t.pawn(color, sq),
        }
    }

    /// `by`'s pieces that could capture on `sq`, legal or not.
    fn attackers_to(&self, sq: Square, by: Color) -> Bitboard {
        let t = tables();
        let occ = self.occupied();
        let (rook, cannon) = t.rook_and_cannon(sq, occ);
        let of = |kind: PieceKind| self.by_kind[kind.index()];
        self.by_color[by.index()]
            & ((rook & of(PieceKind::Rook))
                | (cannon & of(PieceKind::Cannon))
                | (t.horse_attackers(sq, occ) & of(PieceKind::Horse))
                | (t.pawn_attackers(by, sq) & of(PieceKind::Pawn))
                | (t.king(sq) & of(PieceKind::King))
                | (t.advisor(sq) & of(PieceKind::Advisor))
                | (t.elephant(sq, occ) & of(PieceKind::Elephant)))
    }

    /// Whether `color` may legally move its piece from `from` to `to` (own general safe after).
    #[inline(always)]
    fn legal(&self, color: Color, from: Square, to: Square) -> bool {
        !self.play(from, to).king_attacked(color)
    }

    /// Whether `color` has a legal capture on `sq`.
    fn can_recapture(&self, sq: Square, color: Color) -> bool {
        self.attackers_to(sq, color)
            .into_iter()
            .any(|s| self.legal(color, s, sq))
    }

    /// `ChaseSet_us` of docs/rules.md#the-chase-set in this board, as the victims' squares.
    fn chase_set(&self, us: Color) -> Bitboard {
        let them = !us;
        let victims = self.by_color[them.index()]
            - self.by_kind[PieceKind::King.index()]
            - (self.pieces_of(them, PieceKind::Pawn) & Bitboard::half(them));
        let mut set = Bitboard::EMPTY;
        if victims.is_empty() {
            return set;
        }
        for akind in CHASERS {
            for a in self.pieces_of(us, akind) {
                for v in self.captures_from(akind, us, a) & (victims - set) {
                    if self.counts(us, akind, a, v) {
                        set.set(v);
                    }
                }
            }
        }
        set
    }

    /// Whether the capture `a × v` by `us` is legal and counts as a chase
    /// (docs/rules.md#the-chase-set).
    fn counts(&self, us: Color, akind: PieceKind, a: Square, v: Square) -> bool {
        use PieceKind::*;
        let after = self.play(a, v);
        if after.king_attacked(us) {
            return false;
        }
        let Some(vkind) = self.kind_at(v) else {
            return false;
        };
        match (akind, vkind) {
            // A chariot is never protected against a horse or a cannon ...
            (Horse | Cannon, Rook) => true,
            // ... nor a chariot, horse or cannon against an advisor or an elephant.
            (Advisor | Elephant, Rook | Horse | Cannon) => true,
            // Otherwise only an unprotected victim counts, and not if it is the same kind of
            // piece and could take straight back (an exchange offer).
            _ => {
                let them = !us;
                if after.can_recapture(v, them) {
                    return false;
                }
                let trade = akind == vkind
                    && self.captures_from(vkind, them, v).has(a)
                    && self.legal(them, v, a);
                !trade
            }
        }
    }
}
