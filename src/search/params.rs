//! Search constants in one place, each named for what it is, with its default, the range a
//! tuner may explore and the SPSA step (`c`) for it.
//!
//! Code reads a parameter through [`SearchParams`] (`self.params.rfp_margin()`). In a normal
//! build `SearchParams` is an empty struct and every accessor returns the default as a
//! constant, so the parameters cost nothing. Built with `--features tune`, it holds the values
//! (one `i32` each), every parameter becomes a UCI `spin` option of the same name, and
//! `chariot spsa` tunes them; each search copies the values of its engine, so engines in one
//! process (SPSA plays θ+ against θ− in-process) each search with their own.
//!
//! Fractional constants are stored scaled (the doc says how): SPSA and UCI work on integers.

use std::fmt;

/// The description of one tunable parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// Name (also the UCI option name with `--features tune`).
    pub name: &'static str,
    /// Value compiled into normal builds.
    pub default: i32,
    /// Smallest value a tuner may set.
    pub min: i32,
    /// Largest value a tuner may set.
    pub max: i32,
    /// SPSA perturbation size at the end of a run (fishtest's `c_end`).
    pub step: i32,
}

macro_rules! search_params {
    ($( $(#[doc = $doc:literal])* $name:ident / $fname:ident = $default:literal,
        $min:literal ..= $max:literal, c $step:literal; )*) => {
        // Without `--features tune` only the reduction-table parameters are looked up by id.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
        #[derive(Clone, Copy)]
        #[repr(usize)]
        enum Id { $($name,)* }

        /// Every tunable search parameter, in declaration order.
        pub const SPECS: &[ParamSpec] = &[$(ParamSpec {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
        },)*];

        impl SearchParams {
            $(
                $(#[doc = $doc])*
                #[inline(always)]
                pub fn $fname(&self) -> i32 {
                    #[cfg(feature = "tune")]
                    {
                        self.values[Id::$name as usize]
                    }
                    #[cfg(not(feature = "tune"))]
                    {
                        $default
                    }
                }
            )*
        }
    };
}

search_params! {
    /// Initial half-width of the aspiration window.
    ASPIRATION_DELTA / aspiration_delta = 20, 5..=80, c 3;
    /// Reverse futility pruning applies up to this depth…
    RFP_MAX_DEPTH / rfp_max_depth = 3, 3..=14, c 1;
    /// …with this margin per depth.
    RFP_MARGIN / rfp_margin = 67, 20..=250, c 8;
    /// Null-move reduction: base…
    NMP_BASE / nmp_base = 3, 1..=6, c 1;
    /// …plus depth × this / 16…
    NMP_DEPTH_MUL / nmp_depth_mul = 7, 2..=16, c 1;
    /// …plus (eval − beta) divided by this (at most 3).
    NMP_EVAL_DIV / nmp_eval_div = 142, 60..=500, c 20;
    /// The null move needs static eval ≥ beta − this × depth.
    NMP_STATIC_MARGIN / nmp_static_margin = 24, 0..=80, c 3;
    /// Null-move cutoffs are verified by a reduced search from this depth.
    NMP_VERIFY_DEPTH / nmp_verify_depth = 12, 6..=30, c 1;
    /// Internal iterative reduction from this depth…
    IIR_MIN_DEPTH / iir_min_depth = 4, 2..=10, c 1;
    /// …by this many plies at PV nodes…
    IIR_PV_REDUCTION / iir_pv_reduction = 1, 0..=4, c 1;
    /// …and this many at expected cut nodes.
    IIR_CUT_REDUCTION / iir_cut_reduction = 1, 0..=4, c 1;
    /// Razoring up to this depth (0: off)…
    RAZOR_MAX_DEPTH / razor_max_depth = 0, 0..=8, c 1;
    /// …when eval + base + margin × depth² is below alpha.
    RAZOR_BASE / razor_base = 400, 0..=1500, c 40;
    /// See `RAZOR_BASE`.
    RAZOR_MARGIN / razor_margin = 250, 50..=1000, c 25;
    /// ProbCut from this depth (99: off)…
    PROBCUT_MIN_DEPTH / probcut_min_depth = 99, 3..=99, c 1;
    /// …with a capture beating beta + this.
    PROBCUT_MARGIN / probcut_margin = 200, 50..=600, c 15;
    /// Correction history: weight of the soldiers' entry (out of 64; 0 and the piece weight 0:
    /// off)…
    CORR_PAWN_WEIGHT / corr_pawn_weight = 28, 0..=128, c 4;
    /// …and of each colour's piece entry.
    CORR_PIECE_WEIGHT / corr_piece_weight = 26, 0..=128, c 4;
    /// …and of the entry of the move that led to the position (0: off).
    CORR_CONT_WEIGHT / corr_cont_weight = 0, 0..=128, c 4;
    /// Futility pruning of quiet moves below this reduced depth…
    FUTILITY_MAX_DEPTH / futility_max_depth = 8, 3..=14, c 1;
    /// …when static eval + base + margin × depth cannot reach alpha.
    FUTILITY_BASE / futility_base = 59, 0..=400, c 10;
    /// See `FUTILITY_BASE`.
    FUTILITY_MARGIN / futility_margin = 79, 20..=300, c 8;
    /// Quiet moves with history below −this × depth are pruned at low depth.
    HISTORY_PRUNE / history_prune = 2440, 500..=12000, c 250;
    /// Quiet moves with history below −this × depth are left unsorted.
    QUIET_SORT_LIMIT / quiet_sort_limit = 3000, 500..=12000, c 250;
    /// SEE threshold for quiet moves: −this × depth².
    SEE_QUIET_MARGIN / see_quiet_margin = 23, 5..=100, c 3;
    /// SEE threshold for captures: −this × depth.
    SEE_CAPTURE_MARGIN / see_capture_margin = 118, 20..=300, c 8;
    /// Late-move reductions: `base/100 + ln(depth) ln(count) × 100 / divisor`…
    LMR_BASE / lmr_base = 65, -50..=150, c 8;
    /// …see `LMR_BASE`.
    LMR_DIVISOR / lmr_divisor = 190, 120..=400, c 10;
    /// Extra reduction at expected cut nodes.
    LMR_CUT_NODE / lmr_cut_node = 1, 0..=3, c 1;
    /// History score per step of reduction change.
    LMR_HISTORY_DIV / lmr_history_div = 5998, 1500..=20000, c 500;
    /// Extra reduction of quiet moves when the TT move is a capture (the quiets are then
    /// unlikely to be best).
    LMR_TT_CAPTURE / lmr_tt_capture = 0, 0..=2, c 1;
    /// Extra reduction when more than two of this node's children already failed high (0:
    /// off).
    LMR_CUTOFFS / lmr_cutoffs = 0, 0..=3, c 1;
    /// After a reduced search fails high, the re-search goes a ply deeper when the score beats
    /// the best so far by this + 2 × depth, a ply shallower when it beats it by less than the
    /// depth (0: off, always the full depth).
    LMR_DEEPER_MARGIN / lmr_deeper_margin = 0, 0..=200, c 8;
    /// Late-move pruning: quiet moves after `(base + depth²) / (2 − improving)` are skipped.
    LMP_BASE / lmp_base = 8, 0..=10, c 1;
    /// Quiescence: after this many moves only recaptures and checks are searched (99 = off).
    QS_MOVE_LIMIT / qs_move_limit = 99, 1..=99, c 1;
    /// Quiescence delta pruning margin.
    QS_DELTA_MARGIN / qs_delta_margin = 167, 30..=500, c 12;
    /// Singular extensions from this depth…
    SE_MIN_DEPTH / se_min_depth = 8, 4..=14, c 1;
    /// …with the singular window this many centipawns × depth / 8 below the TT score.
    SE_MARGIN / se_margin = 8, 2..=64, c 2;
    /// Double extension of a TT move that is singular by this much more at non-PV nodes (0:
    /// off).
    SE_DOUBLE_MARGIN / se_double_margin = 0, 0..=100, c 4;
    /// Quiescence: a TT score whose bound allows it replaces the stand-pat score (0: off).
    QS_TT_STAND_PAT / qs_tt_stand_pat = 0, 0..=1, c 1;
    /// Checks are extended from this depth on…
    CHECK_EXT_MIN_DEPTH / check_ext_min_depth = 0, 0..=99, c 1;
    /// …without an SEE test up to this depth (deeper, SEE ≥ 0 is needed).
    CHECK_EXT_SEE_DEPTH / check_ext_see_depth = 6, 0..=20, c 1;
    /// History bonus for a move that caused a cut at `depth`: `mul × depth − sub`…
    HIST_BONUS_MUL / hist_bonus_mul = 178, 40..=500, c 12;
    /// …see `HIST_BONUS_MUL`…
    HIST_BONUS_SUB / hist_bonus_sub = 73, 0..=500, c 15;
    /// …at most this.
    HIST_BONUS_MAX / hist_bonus_max = 2058, 500..=5000, c 120;
    /// Time: share of the increment added to the optimum, in percent.
    TM_INC_PERCENT / tm_inc_percent = 80, 20..=100, c 5;
    /// Time: moves assumed left in sudden death at the start of a game…
    TM_MOVES_LEFT / tm_moves_left = 50, 15..=100, c 3;
    /// …minus one per this many plies played…
    TM_MOVES_PLY_DIV / tm_moves_ply_div = 8, 2..=30, c 1;
    /// …but never fewer than this.
    TM_MOVES_MIN / tm_moves_min = 20, 5..=50, c 2;
    /// Time: the hard limit is at most this many percent of the optimum.
    TM_MAX_PERCENT / tm_max_percent = 400, 150..=800, c 25;
    /// Time: percent of the optimum used when the best move has just changed…
    TM_STABILITY_BASE / tm_stability_base = 160, 80..=300, c 8;
    /// …minus this per iteration it stayed the same (at most 8).
    TM_STABILITY_STEP / tm_stability_step = 10, 0..=25, c 1;
    /// Time: the optimum grows by (score drop, at most 200 cp) / this.
    TM_FALLING_DIV / tm_falling_div = 200, 50..=800, c 20;
    /// Time: when at least this many percent of the nodes went to the best move (from depth
    /// 10; 101: never)…
    TM_EFFORT_SHARE / tm_effort_share = 90, 50..=101, c 2;
    /// …the target time is this many percent of what it would be.
    TM_EFFORT_FACTOR / tm_effort_factor = 70, 30..=100, c 4;
}

/// The parameter values one search uses (see the module documentation).
#[derive(Clone, PartialEq, Eq)]
pub struct SearchParams {
    #[cfg(feature = "tune")]
    values: [i32; SPECS.len()],
    #[cfg(feature = "tune")]
    lmr: Box<[[u8; 64]; 64]>,
}

// Derivable only in normal builds, where the struct is empty.
#[allow(clippy::derivable_impls)]
impl Default for SearchParams {
    fn default() -> Self {
        #[cfg(feature = "tune")]
        {
            let mut values = [0; SPECS.len()];
            for (v, s) in values.iter_mut().zip(SPECS) {
                *v = s.default;
            }
            let lmr = Box::new(lmr_table(
                values[Id::LMR_BASE as usize],
                values[Id::LMR_DIVISOR as usize],
            ));
            SearchParams { values, lmr }
        }
        #[cfg(not(feature = "tune"))]
        SearchParams {}
    }
}

impl fmt::Debug for SearchParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = f.debug_map();
        for s in SPECS {
            m.entry(&s.name, &self.get(s.name).unwrap_or(s.default));
        }
        m.finish()
    }
}

/// Whether this build can change search parameters at run time (`--features tune`).
pub const TUNABLE: bool = cfg!(feature = "tune");

impl SearchParams {
    /// The spec of the parameter called `name` (ASCII case-insensitive).
    pub fn spec(name: &str) -> Option<&'static ParamSpec> {
        SPECS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// The current value of `name`.
    pub fn get(&self, name: &str) -> Option<i32> {
        let i = SPECS
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))?;
        #[cfg(feature = "tune")]
        {
            Some(self.values[i])
        }
        #[cfg(not(feature = "tune"))]
        {
            Some(SPECS[i].default)
        }
    }

    /// Sets `name` to `value` (must be within its range). Only a `--features tune` build can
    /// change a value; a normal build accepts only the default.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let Some(i) = SPECS.iter().position(|s| s.name.eq_ignore_ascii_case(name)) else {
            return Err(format!("no search parameter called {name}"));
        };
        let s = &SPECS[i];
        if !(s.min..=s.max).contains(&value) {
            return Err(format!(
                "{} must be in {}..={}, not {value}",
                s.name, s.min, s.max
            ));
        }
        #[cfg(feature = "tune")]
        {
            self.values[i] = value;
            if i == Id::LMR_BASE as usize || i == Id::LMR_DIVISOR as usize {
                *self.lmr = lmr_table(self.lmr_base(), self.lmr_divisor());
            }
            Ok(())
        }
        #[cfg(not(feature = "tune"))]
        {
            if value == s.default {
                Ok(())
            } else {
                Err(
                    "search parameters are fixed in this build (rebuild with --features tune)"
                        .to_string(),
                )
            }
        }
    }

    /// Late-move reduction for `depth` and move number `count`, from a table built once.
    #[inline(always)]
    pub fn reduction(&self, depth: i32, count: usize) -> i32 {
        #[cfg(feature = "tune")]
        let table = &*self.lmr;
        #[cfg(not(feature = "tune"))]
        let table = &*DEFAULT_LMR;
        table[depth.clamp(0, 63) as usize][count.min(63)] as i32
    }

    /// Late-move pruning: the move count from which quiet moves are skipped.
    #[inline(always)]
    pub fn lmp_threshold(&self, depth: i32, improving: bool) -> usize {
        ((self.lmp_base() + depth * depth) / (2 - improving as i32)) as usize
    }

    /// The history bonus (or malus) for a move that caused (failed) a cut at `depth`.
    #[inline(always)]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.hist_bonus_mul() * depth - self.hist_bonus_sub()).clamp(0, self.hist_bonus_max())
    }
}

#[cfg(not(feature = "tune"))]
static DEFAULT_LMR: once_cell::sync::Lazy<[[u8; 64]; 64]> = once_cell::sync::Lazy::new(|| {
    lmr_table(
        SPECS[Id::LMR_BASE as usize].default,
        SPECS[Id::LMR_DIVISOR as usize].default,
    )
});

/// The reduction table `base/100 + ln(d) ln(m) × 100 / divisor` (rounded down, at least 0).
fn lmr_table(base: i32, divisor: i32) -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v =
                base as f64 / 100.0 + (d as f64).ln() * (m as f64).ln() * 100.0 / divisor as f64;
            *r = v.clamp(0.0, 63.0) as u8;
        }
    }
    t
}

/// Quiescence prefetches the TT clusters of this many captures after the first at once (a
/// speed constant, not a strength one).
pub const QS_PREFETCH: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_within_their_ranges_and_names_are_unique() {
        for (i, s) in SPECS.iter().enumerate() {
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert!(s.step > 0, "{}", s.name);
            assert!(
                SPECS[..i]
                    .iter()
                    .all(|t| !t.name.eq_ignore_ascii_case(s.name)),
                "{} twice",
                s.name
            );
        }
        let p = SearchParams::default();
        let d = SearchParams::spec("RFP_MARGIN").unwrap().default;
        assert_eq!(p.get("rfp_margin"), Some(d));
        assert_eq!(p.rfp_margin(), d);
    }

    #[test]
    fn out_of_range_values_are_refused() {
        let mut p = SearchParams::default();
        assert!(p.set("RFP_MARGIN", 10_000).is_err());
        assert!(p.set("NO_SUCH_PARAMETER", 1).is_err());
        let d = SearchParams::spec("RFP_MARGIN").unwrap().default;
        assert!(p.set("RFP_MARGIN", d).is_ok());
        assert_eq!(p, SearchParams::default());
    }

    #[test]
    fn the_reduction_table_grows_with_depth_and_move_count() {
        let p = SearchParams::default();
        assert_eq!(p.reduction(1, 1), 0);
        for d in 2..40 {
            for m in 2..40 {
                assert!(p.reduction(d, m) <= p.reduction(d + 1, m));
                assert!(p.reduction(d, m) <= p.reduction(d, m + 1));
            }
        }
        assert!(p.reduction(20, 30) >= 3);
    }

    #[cfg(feature = "tune")]
    #[test]
    fn a_tune_build_changes_values_and_rebuilds_the_reduction_table() {
        let mut p = SearchParams::default();
        let before = p.reduction(20, 30);
        p.set("LMR_DIVISOR", 150).unwrap();
        assert_eq!(p.lmr_divisor(), 150);
        assert!(p.reduction(20, 30) > before);
    }
}
