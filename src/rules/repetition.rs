//! Repetition verdicts (docs/rules.md#repetition): perpetual check and perpetual chase.

use super::chase::{classify, Board};
use super::MoveClass;
use crate::position::Position;
use crate::types::{Color, Square};

/// The verdict on a repetition cycle.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Verdict {
    /// Nobody is to blame.
    Draw,
    /// This side loses (perpetual check or perpetual chase).
    Loses(Color),
}

/// Which rule decided a repetition: what the referee prints as the reason.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RepetitionKind {
    /// One side checked on every move, the other did not.
    PerpetualCheck,
    /// One side alone kept chasing the same piece.
    PerpetualChase,
    /// Both or neither: a draw.
    Draw,
}

const DRAW: (Verdict, RepetitionKind) = (Verdict::Draw, RepetitionKind::Draw);

/// Judges the last `span` moves of `pos`'s own history, which lead from an earlier occurrence of
/// the current position back to it (docs/rules.md#repetition).
///
/// `span` should be even, at least 4 and at most `pos.moves_made()`. A span that reaches past
/// the history or crosses a capture or a null move cannot hold a repetition: the answer is then
/// a draw. Works backwards on stack copies of the bitboards: no allocation, no panic, `pos`
/// untouched.
pub fn judge_span(pos: &Position, span: usize) -> (Verdict, RepetitionKind) {
    if span == 0 || span > pos.moves_made() {
        return DRAW;
    }
    if (1..=span).any(|n| !matches!(pos.history(n), Some((_, false)))) {
        return DRAW;
    }
    // Walk backwards: take a move back on the board, classify it from the board before it,
    // then move the identities back with it. A piece's identity is its square now; with no
    // capture in the span the pieces are the same all along.
    let mut board = Board::of(pos);
    let mut ids: [u8; Square::COUNT] = std::array::from_fn(|i| i as u8);
    let mut mover = pos.side_to_move();
    let mut all_checks = [true; 2];
    let mut chased = [u128::MAX; 2];
    for n in 1..=span {
        let Some(mv) = pos.move_ago(n) else {
            return DRAW;
        };
        mover = !mover;
        let side = mover.index();
        let (from, to) = (mv.from(), mv.to());
        let before = board.play(to, from);
        match classify(&before, &board, mover) {
            MoveClass::Check => chased[side] = 0,
            MoveClass::Chase(set) => {
                all_checks[side] = false;
                chased[side] &= set
                    .squares()
                    .into_iter()
                    .fold(0, |acc, sq| acc | 1 << ids[sq.index()]);
            }
            MoveClass::Idle => {
                all_checks[side] = false;
                chased[side] = 0;
            }
        }
        ids[from.index()] = ids[to.index()];
        board = before;
    }
    if span < 2 {
        // Only one side moved: no cycle to judge.
        return DRAW;
    }
    let (red, black) = (Color::Red.index(), Color::Black.index());
    match (all_checks[red], all_checks[black]) {
        (true, true) => DRAW,
        (true, false) => (Verdict::Loses(Color::Red), RepetitionKind::PerpetualCheck),
        (false, true) => (Verdict::Loses(Color::Black), RepetitionKind::PerpetualCheck),
        (false, false) => match (chased[red] != 0, chased[black] != 0) {
            (true, false) => (Verdict::Loses(Color::Red), RepetitionKind::PerpetualChase),
            (false, true) => (Verdict::Loses(Color::Black), RepetitionKind::PerpetualChase),
            _ => DRAW,
        },
    }
}
