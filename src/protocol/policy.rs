//! When the engine accepts or offers a draw, and when it resigns (UCCI `bestmove … draw|resign`,
//! XBoard `offer draw` / `resign`). The policy looks only at the scores of the engine's own
//! finished searches, from its own point of view:
//!
//! - **Accept** a draw offer when the current score is at most [`DRAW_ACCEPT_MARGIN`]
//!   centipawns (we are not clearly better), or we are being mated.
//! - **Offer** a draw unprompted only in a dead-level game: the last [`DRAW_OFFER_COUNT`] scores
//!   all within ±[`DRAW_OFFER_MARGIN`] and at least [`DRAW_OFFER_MIN_PLY`] plies played.
//! - **Resign** only when hopeless: the last [`RESIGN_COUNT`] scores all at most
//!   [`RESIGN_SCORE`] or mate against us, each from a search of depth ≥ [`RESIGN_MIN_DEPTH`].

use std::collections::VecDeque;

use crate::search::report::Score;

/// Accept offers up to this score (centipawns, our view).
pub const DRAW_ACCEPT_MARGIN: i32 = 25;
/// Offer a draw only when every recent score is within this margin of zero.
pub const DRAW_OFFER_MARGIN: i32 = 10;
/// How many consecutive level scores make a dead-level game.
pub const DRAW_OFFER_COUNT: usize = 10;
/// No unprompted draw offers before this many plies of the game.
pub const DRAW_OFFER_MIN_PLY: u32 = 120;
/// Resign when every recent score is at most this (centipawns, our view).
pub const RESIGN_SCORE: i32 = -1500;
/// How many consecutive hopeless scores make us resign.
pub const RESIGN_COUNT: usize = 3;
/// Scores from shallower searches never count towards resigning.
pub const RESIGN_MIN_DEPTH: u32 = 6;

/// The engine's recent scores in the current game.
#[derive(Clone, Debug, Default)]
pub struct ScoreHistory {
    recent: VecDeque<(Score, u32)>,
}

/// A score as centipawns for comparisons: mates are far beyond any centipawn score.
fn as_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

impl ScoreHistory {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.recent.clear();
    }

    /// Records the score of a finished search of `depth` plies for our move.
    pub fn record(&mut self, score: Score, depth: u32) {
        self.recent.push_back((score, depth));
        while self.recent.len() > DRAW_OFFER_COUNT.max(RESIGN_COUNT) {
            self.recent.pop_front();
        }
    }

    /// Whether to accept a draw offer when our score is `score`.
    pub fn accept_draw(score: Score) -> bool {
        as_cp(score) <= DRAW_ACCEPT_MARGIN
    }

    /// Whether the recent scores make the game hopeless.
    pub fn should_resign(&self) -> bool {
        self.recent.len() >= RESIGN_COUNT
            && self
                .recent
                .iter()
                .rev()
                .take(RESIGN_COUNT)
                .all(|&(s, d)| as_cp(s) <= RESIGN_SCORE && d >= RESIGN_MIN_DEPTH)
    }

    /// Whether to offer a draw unprompted at game ply `game_ply`.
    pub fn should_offer_draw(&self, game_ply: u32) -> bool {
        game_ply >= DRAW_OFFER_MIN_PLY
            && self.recent.len() >= DRAW_OFFER_COUNT
            && self
                .recent
                .iter()
                .all(|&(s, _)| as_cp(s).abs() <= DRAW_OFFER_MARGIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_accepted_only_when_not_better() {
        assert!(ScoreHistory::accept_draw(Score::Cp(0)));
        assert!(ScoreHistory::accept_draw(Score::Cp(-500)));
        assert!(ScoreHistory::accept_draw(Score::Mate(-3)));
        assert!(!ScoreHistory::accept_draw(Score::Cp(200)));
        assert!(!ScoreHistory::accept_draw(Score::Mate(5)));
    }

    #[test]
    fn resigning_needs_several_deep_hopeless_scores() {
        let mut h = ScoreHistory::default();
        h.record(Score::Cp(-2000), 10);
        h.record(Score::Mate(-4), 10);
        assert!(!h.should_resign());
        h.record(Score::Cp(-1600), 3);
        assert!(!h.should_resign(), "shallow searches do not count");
        h.record(Score::Cp(-1600), 12);
        h.record(Score::Cp(-1700), 12);
        assert!(
            !h.should_resign(),
            "the shallow score is still among the last three"
        );
        h.record(Score::Mate(-6), 12);
        assert!(h.should_resign());
        h.record(Score::Cp(-100), 12);
        assert!(!h.should_resign());
    }

    #[test]
    fn draw_offers_need_a_long_level_game() {
        let mut h = ScoreHistory::default();
        for _ in 0..DRAW_OFFER_COUNT {
            h.record(Score::Cp(3), 12);
        }
        assert!(h.should_offer_draw(200));
        assert!(!h.should_offer_draw(20));
        h.record(Score::Cp(80), 12);
        assert!(!h.should_offer_draw(200));
    }
}
