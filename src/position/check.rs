//! Attacks on the generals: checkers, the pieces whose move could expose the own general
//! ("blockers": chariot/general pins, one of two cannon screens, a horse's leg), the empty
//! points where a piece would become a cannon screen ("hurdles"), and move legality.

use super::Position;
use crate::attacks::tables;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};

/// What a side's legal move generation needs to know about its own general's safety.
#[derive(Clone, Copy, Debug, Default)]
pub struct PinInfo {
    /// Pieces whose move away may expose the general: the single piece between it and an
    /// enemy chariot or the enemy general, either of two screens before an enemy cannon, and
    /// the leg of an enemy horse aimed at it. Moves of these must be checked one by one.
    pub blockers: Bitboard,
    /// Empty points between the general and an enemy cannon with nothing in between: a piece
    /// stepping there would become the screen and give check, so no piece may move there.
    pub hurdles: Bitboard,
}

impl Position {
    /// Pieces of `by` that attack the general standing on `ksq`, with occupancy `occ`.
    /// Only chariots, cannons, horses, soldiers and the facing general can reach a palace.
    #[inline(always)]
    pub fn attackers_to_king(&self, ksq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let t = tables();
        let (rook, cannon) = t.rook_and_cannon(ksq, occ);
        let them = self.pieces(by);
        (rook & them & (self.kind(PieceKind::Rook) | self.kind(PieceKind::King)))
            | (cannon & them & self.kind(PieceKind::Cannon))
            | (t.horse_attackers(ksq, occ) & them & self.kind(PieceKind::Horse))
            | (t.pawn_attackers(by, ksq) & them & self.kind(PieceKind::Pawn))
    }

    /// Pieces of `by` that attack `sq` (any point, any piece kind), with occupancy `occ`.
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let t = tables();
        let (rook, cannon) = t.rook_and_cannon(sq, occ);
        let them = self.pieces(by);
        them & ((rook & self.kind(PieceKind::Rook))
            | (cannon & self.kind(PieceKind::Cannon))
            | (t.horse_attackers(sq, occ) & self.kind(PieceKind::Horse))
            | (t.pawn_attackers(by, sq) & self.kind(PieceKind::Pawn))
            | (t.king(sq) & self.kind(PieceKind::King))
            | (t.advisor(sq) & self.kind(PieceKind::Advisor))
            | (t.elephant(sq, occ) & self.kind(PieceKind::Elephant)))
    }

    /// Blockers and hurdles around `color`'s general (see [`PinInfo`]).
    pub fn pin_info(&self, color: Color) -> PinInfo {
        let t = tables();
        let ksq = self.king_square(color);
        let them = self.pieces(!color);
        let occ = self.occupied();
        let cross = t.cross(ksq);
        let mut info = PinInfo::default();
        for s in cross & them & (self.kind(PieceKind::Rook) | self.kind(PieceKind::King)) {
            let between = t.between(ksq, s) & occ;
            if !between.more_than_one() {
                info.blockers |= between;
            }
        }
        for s in cross & them & self.kind(PieceKind::Cannon) {
            let line = t.between(ksq, s);
            let between = line & occ;
            if between.is_empty() {
                info.hurdles |= line;
            } else if between.more_than_one() {
                // Exactly two screens: removing the lowest leaves one.
                let rest = Bitboard(between.0 & (between.0 - 1));
                if !rest.more_than_one() {
                    info.blockers |= between;
                }
            }
        }
        for h in t.horse_reach(ksq) & them & self.kind(PieceKind::Horse) {
            info.blockers |= t.between(ksq, h) & occ;
        }
        info
    }

    /// Whether `mv`, a pseudo-legal move of the side to move, leaves its own general safe.
    #[inline]
    pub fn is_legal_slow(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let us = self.side;
        let ksq = if self.kind(PieceKind::King).has(from) {
            to
        } else {
            self.king_square(us)
        };
        let occ = (self.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
        (self.attackers_to_king(ksq, !us, occ) - Bitboard::from(to)).is_empty()
    }

    /// Whether `mv` is a move the piece on its origin could make here, ignoring the safety of
    /// the own general. Safe on any input (e.g. a move from the transposition table).
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        if mv.is_null() {
            return false;
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color() != self.side || self.pieces(self.side).has(to) {
            return false;
        }
        let t = tables();
        let occ = self.occupied();
        let targets = match piece.kind() {
            PieceKind::Rook => t.rook(from, occ),
            PieceKind::Cannon => {
                if occ.has(to) {
                    t.cannon(from, occ)
                } else {
                    t.rook(from, occ)
                }
            }
            PieceKind::Horse => t.horse(from, occ),
            PieceKind::Elephant => t.elephant(from, occ),
            PieceKind::Advisor => t.advisor(from),
            PieceKind::King => t.king(from),
            PieceKind::Pawn => t.pawn(self.side, from),
        };
        targets.has(to)
    }

    /// Whether `mv` is legal here. Safe on any input.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_pseudo_legal(mv) && self.is_legal_slow(mv)
    }

    /// Whether the legal move `mv` gives check (attacks the enemy general afterwards),
    /// computed without making it.
    #[inline(always)]
    pub fn gives_check(&self, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let t = tables();
        let eksq = self.king_square(!self.side);
        // Quick answer for most moves, inlined at the call. A check after the move comes
        // either from the moved piece, or from a chariot, cannon, horse or general whose
        // attack the move changes: that takes the origin on the enemy general's rank or file
        // (a line opens, a cannon loses a screen) or diagonally next to it (a horse's leg
        // opens), or the destination on that rank or file (a new cannon screen). The moved
        // piece itself needs its destination on that rank or file (chariot, cannon, general)
        // or on a point from which a horse or soldier could attack the general.
        if !t.uncovering(eksq).has(from) && !t.cross(eksq).has(to) {
            let reach = match self.piece_at(from).map(|p| p.kind()) {
                Some(PieceKind::Horse) => t.horse_reach(eksq),
                Some(PieceKind::Pawn) => t.pawn_attackers(self.side, eksq),
                _ => Bitboard::EMPTY,
            };
            if !reach.has(to) {
                return false;
            }
        }
        self.gives_check_slow(mv, eksq)
    }

    /// [`Position::gives_check`] with the attacks on `eksq` computed.
    #[inline(never)]
    fn gives_check_slow(&self, mv: Move, eksq: Square) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let us = self.side;
        let t = tables();
        let moved = self
            .piece_at(from)
            .expect("gives_check: no piece on the origin")
            .kind();
        let from_to = Bitboard::from(from) | Bitboard::from(to);
        let occ = (self.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
        let ours = self.pieces(us) ^ from_to;
        let of = |kind: PieceKind| {
            let bb = self.kind(kind) & self.pieces(us);
            ours & if kind == moved { bb ^ from_to } else { bb }
        };
        let (rook, cannon) = t.rook_and_cannon(eksq, occ);
        (rook & (of(PieceKind::Rook) | of(PieceKind::King))).any()
            || (cannon & of(PieceKind::Cannon)).any()
            || (t.horse_attackers(eksq, occ) & of(PieceKind::Horse)).any()
            || (t.pawn_attackers(us, eksq) & of(PieceKind::Pawn)).any()
    }
}
