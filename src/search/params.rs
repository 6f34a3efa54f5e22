//! Search constants in one place, each named for what it is (candidates for tuning).

/// Initial half-width of the aspiration window.
pub const ASPIRATION_DELTA: i32 = 20;
/// Reverse futility pruning applies up to this depth…
pub const RFP_MAX_DEPTH: i32 = 8;
/// …with this margin per depth.
pub const RFP_MARGIN: i32 = 80;
/// Null-move reduction: base…
pub const NMP_BASE: i32 = 3;
/// …plus depth divided by this…
pub const NMP_DEPTH_DIV: i32 = 4;
/// …plus (eval − beta) divided by this (at most 3).
pub const NMP_EVAL_DIV: i32 = 200;
/// Internal iterative reduction from this depth.
pub const IIR_MIN_DEPTH: i32 = 4;
/// Futility pruning of quiet moves below this reduced depth…
pub const FUTILITY_MAX_DEPTH: i32 = 8;
/// …when static eval + base + margin × depth cannot reach alpha.
pub const FUTILITY_BASE: i32 = 100;
/// See [`FUTILITY_BASE`].
pub const FUTILITY_MARGIN: i32 = 90;
/// Quiet moves with history below −this × depth are pruned at low depth.
pub const HISTORY_PRUNE: i32 = 3000;
/// Quiet moves with history below −this × depth are left unsorted.
pub const QUIET_SORT_LIMIT: i32 = 3000;
/// SEE threshold for quiet moves: −this × depth².
pub const SEE_QUIET_MARGIN: i32 = 25;
/// SEE threshold for captures: −this × depth.
pub const SEE_CAPTURE_MARGIN: i32 = 90;
/// LMR table: `base + ln(depth) ln(count) / divisor`.
pub const LMR_BASE: f64 = 0.3;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.2;
/// History score per step of reduction change.
pub const LMR_HISTORY_DIV: i32 = 6000;
/// Quiescence delta pruning margin.
pub const QS_DELTA_MARGIN: i32 = 150;
/// Singular extensions from this depth…
pub const SE_MIN_DEPTH: i32 = 8;
/// …with the singular window this many centipawns × depth / 8 below the TT score.
pub const SE_MARGIN: i32 = 16;
/// Quiescence prefetches the TT clusters of this many captures after the first at once.
pub const QS_PREFETCH: usize = 3;
