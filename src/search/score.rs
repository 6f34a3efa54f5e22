//! Score constants of the search, in centipawns from the side to move's point of view.

/// Deepest ply the search ever reaches.
pub const MAX_PLY: usize = 128;
/// Score of "side to move mates now" (a mate in `n` plies scores `MATE - n`).
pub const MATE: i32 = 32000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// Larger than any score.
pub const INFINITE: i32 = 32001;
/// "No score" marker (e.g. no static eval stored).
pub const NONE_SCORE: i32 = 32002;
/// A draw.
pub const DRAW: i32 = 0;

/// Mate-in-`ply` score for the side to move.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Mated-in-`ply` score for the side to move.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Whether `score` announces a mate for either side.
#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND && score.abs() <= MATE
}

/// The score in protocol terms: mate in N moves (negative when getting mated) or centipawns.
pub fn to_report(score: i32) -> super::report::Score {
    if is_mate(score) {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        super::report::Score::Mate(if score > 0 { moves } else { -moves })
    } else {
        super::report::Score::Cp(score)
    }
}
