//! Endgame scaling: material that Xiangqi endgame theory knows cannot win, or rarely wins,
//! pulls the evaluation of the side that is ahead toward a draw.
//!
//! Material and piece-square values say a lone horse is worth more than two advisors; the
//! basic endings taught in Chinese primers (实用残局) say it cannot break them (马难胜双士).
//! The table below follows those sayings: 单车胜士象全 (a chariot beats advisors and
//! elephants, so that is left alone), 车难胜马士象全 / 炮士象全 (but not a horse or cannon
//! with them), 车对车 (chariot against chariot is a draw), 单炮无架不胜 (a cannon needs a
//! screen), 单兵难胜双士, 老兵 (a soldier on the last rank). A linear evaluation cannot
//! express them, so the score of the side ahead ("strong") is multiplied by a factor out of
//! [`SCALE_NORMAL`] chosen from the material of both sides; "rarely wins" classes keep a
//! little of the score, so that the side ahead still plays on:
//!
//! | strong side's attackers (besides advisors, elephants) | defender has | scale |
//! |---|---|---|
//! | none: no chariot, horse, cannon, and soldiers only on the last rank (老兵) | anything | 0 |
//! | one horse | two or more advisors/elephants, or any attacking piece | 12 |
//! | one cannon | three or more advisors/elephants, or any attacking piece | 12 |
//! | one cannon, no advisor, elephant or soldier of its own to jump over | bare general | 0 |
//! | one chariot | a chariot | 8 |
//! | one chariot | a horse or cannon and three or more advisors/elephants | 16 |
//! | one soldier that can still attack | two advisors, or three or more advisors/elephants | 12 |
//!
//! Advisors and elephants never leave their own half, so they cannot attack; a soldier on
//! the last rank moves only sideways and cannot force mate. The wins the table leaves alone
//! (a horse against one advisor or one elephant, a chariot against advisors and elephants
//! alone, a cannon with a screen against a bare general) are won by technique the search
//! finds. A scaled score is still a score: a mate the search sees is never scaled.

use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind};

/// The factor that leaves a score as it is.
pub const SCALE_NORMAL: i32 = 64;

/// The phase (see `weights::MAX_PHASE`) above which no class of the table can apply: the
/// strong side has at most one chariot (6), the defender at most a chariot and a horse or
/// cannon besides (9), so anything above 15 is normal.
pub const MAX_SCALED_PHASE: i32 = 15;

/// The material of one side, as the table needs it.
#[derive(Clone, Copy, Debug)]
struct Side {
    rooks: u32,
    horses: u32,
    cannons: u32,
    /// Soldiers that can still attack (not on the enemy's last rank).
    soldiers: u32,
    /// Soldiers on the enemy's last rank.
    old_soldiers: u32,
    advisors: u32,
    elephants: u32,
}

impl Side {
    fn of(pos: &Position, color: Color) -> Side {
        let last_rank = Bitboard::rank_mask(if color == Color::Red { 9 } else { 0 });
        let soldiers = pos.pieces_of(color, PieceKind::Pawn);
        Side {
            rooks: pos.pieces_of(color, PieceKind::Rook).count(),
            horses: pos.pieces_of(color, PieceKind::Horse).count(),
            cannons: pos.pieces_of(color, PieceKind::Cannon).count(),
            soldiers: (soldiers - last_rank).count(),
            old_soldiers: (soldiers & last_rank).count(),
            advisors: pos.pieces_of(color, PieceKind::Advisor).count(),
            elephants: pos.pieces_of(color, PieceKind::Elephant).count(),
        }
    }

    /// Chariots, horses and cannons.
    fn pieces(&self) -> u32 {
        self.rooks + self.horses + self.cannons
    }

    fn defenders(&self) -> u32 {
        self.advisors + self.elephants
    }
}

/// The factor (out of [`SCALE_NORMAL`]) for the strong side `s` against the weak side `w`
/// (the table above).
fn class_scale(s: &Side, w: &Side) -> i32 {
    let attackers = s.pieces() + s.soldiers;
    if attackers == 0 {
        return 0;
    }
    if attackers > 1 {
        return SCALE_NORMAL;
    }
    if s.horses == 1 && (w.defenders() >= 2 || w.pieces() > 0) {
        return 12;
    }
    if s.cannons == 1 {
        if w.defenders() >= 3 || w.pieces() > 0 {
            return 12;
        }
        let screens = s.advisors + s.elephants + s.old_soldiers;
        if screens == 0 && w.defenders() + w.soldiers + w.old_soldiers == 0 {
            return 0;
        }
    }
    if s.rooks == 1 {
        if w.rooks > 0 {
            return 8;
        }
        if w.horses + w.cannons > 0 && w.defenders() >= 3 {
            return 16;
        }
    }
    if s.soldiers == 1 && (w.advisors == 2 || w.defenders() >= 3) {
        return 12;
    }
    SCALE_NORMAL
}

/// The factors (out of [`SCALE_NORMAL`]) for a score in Red's favour and in Black's (what a
/// trace records).
pub fn scales(pos: &Position) -> [i32; 2] {
    if pos.phase() > MAX_SCALED_PHASE {
        return [SCALE_NORMAL; 2];
    }
    let red = Side::of(pos, Color::Red);
    let black = Side::of(pos, Color::Black);
    [class_scale(&red, &black), class_scale(&black, &red)]
}

/// Applies the factor of `scales` that belongs to the side `red_view` favours.
#[inline]
pub fn apply(red_view: i32, scales: [i32; 2]) -> i32 {
    let s = if red_view > 0 { scales[0] } else { scales[1] };
    red_view * s / SCALE_NORMAL
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{eval_tables, evaluate, evaluate_trace, trace};

    /// The scale for Red and the evaluation of a position with Red to move (checked to equal
    /// what its trace gives, as the tuner sees it).
    fn scale_of(fen: &str) -> (i32, i32) {
        let p = Position::from_fen(fen).unwrap();
        let e = evaluate(&p);
        assert_eq!(
            evaluate_trace(&trace(&p), &eval_tables().weights),
            e,
            "{fen}"
        );
        (scales(&p)[0], e)
    }

    /// Each class of the table: a position in it (scaled, its evaluation near zero) and the
    /// same position with one piece changed so that it leaves the class (a normal score).
    #[test]
    fn every_class_of_the_table_scales_and_its_neighbour_does_not() {
        let pairs = [
            // No attacker: advisors and an old soldier against a bare general.
            (
                "3k1P3/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
                "3k5/4P4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
            ),
            // A lone horse against two advisors; against one it wins.
            (
                "3ak4/4a4/9/9/9/9/4N4/9/4A4/3AK4 w - - 0 1",
                "4k4/4a4/9/9/9/9/4N4/9/4A4/3AK4 w - - 0 1",
            ),
            // A lone cannon against advisors and an elephant; against one advisor, normal.
            (
                "3ak4/4a4/4b4/9/9/9/4C4/9/4A4/2B1K1B2 w - - 0 1",
                "4k4/4a4/9/9/9/9/3C5/9/4A4/2B1K1B2 w - - 0 1",
            ),
            // A cannon with nothing to jump over against a bare general; with an advisor it
            // wins.
            (
                "4k4/9/9/9/9/9/4C4/9/9/3K5 w - - 0 1",
                "4k4/9/9/9/9/9/4C4/9/4A4/3K5 w - - 0 1",
            ),
            // Chariot and two advisors against a chariot; against a horse, normal.
            (
                "3k5/9/9/9/9/r8/9/8R/4A4/3AK4 w - - 0 1",
                "3k5/9/9/9/9/n8/9/8R/4A4/3AK4 w - - 0 1",
            ),
            // A chariot against a horse and three defenders; with a soldier besides, normal.
            (
                "3ak4/4a4/4b4/9/9/n8/9/8R/9/2BAKAB2 w - - 0 1",
                "3ak4/4a4/4b4/2P6/9/n8/9/8R/9/2BAKAB2 w - - 0 1",
            ),
            // A lone soldier against two advisors; against one, normal.
            (
                "3ak4/4a4/9/9/4P4/9/9/9/4A4/3AK4 w - - 0 1",
                "4k4/4a4/9/9/4P4/9/9/9/4A4/3AK4 w - - 0 1",
            ),
        ];
        for (scaled, normal) in pairs {
            let (s, e) = scale_of(scaled);
            assert!(s <= SCALE_NORMAL / 4, "{scaled}: scale {s}");
            let (n, f) = scale_of(normal);
            assert_eq!(n, SCALE_NORMAL, "{normal}");
            assert!(f > 0, "{normal}: {f}");
            assert!(e.abs() < f.abs(), "{scaled} {e} vs {normal} {f}");
        }
    }

    #[test]
    fn the_table_looks_at_the_side_ahead_and_mirrors() {
        // Black's lone horse against two advisors: scaled for Black, not for Red.
        let p = Position::from_fen("4k4/9/9/9/4n4/9/9/9/4A4/3AK4 b - - 0 1").unwrap();
        assert_eq!(
            scales(&p),
            [0, 12],
            "Red has no attacker, Black a lone horse"
        );
        assert_eq!(apply(100, [0, 12]), 0);
        assert_eq!(apply(-128, [0, 12]), -24);
        // The opening is never scaled.
        assert_eq!(scales(&Position::startpos()), [SCALE_NORMAL; 2]);
    }
}
