//! Time management: how long to think for this move.
//!
//! With a clock, the optimum time is the remaining time divided by the moves still to play
//! (or an estimate for sudden death) plus most of the increment; the maximum is a few times
//! that, capped to a safe fraction of the clock. Both leave `Move Overhead` for the GUI and
//! the pipes, and when the increment is smaller than that, an overhead for each move still to
//! play (see [`reserve`]). The search stops starting new iterations past the (scaled) optimum
//! and aborts at the maximum. `movetime` is exact.

use std::time::Duration;

use super::limits::Limits;
use super::params::SearchParams;

/// Soft and hard time limits for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start another iteration after `optimum * stability factor`.
    pub optimum: Duration,
    /// Abort the search at this point.
    pub maximum: Duration,
}

/// The budget for `limits`, or `None` if the search is not timed.
pub fn budget(
    limits: &Limits,
    move_overhead: Duration,
    game_ply: u32,
    params: &SearchParams,
) -> Option<TimeBudget> {
    if let Some(mt) = limits.movetime {
        let t = mt
            .saturating_sub(move_overhead)
            .max(Duration::from_millis(1));
        return Some(TimeBudget {
            optimum: t,
            maximum: t,
        });
    }
    let clock = limits.clock?;
    // Sudden death: assume the game lasts about 50 more moves early on, fewer later.
    let moves_left = match clock.moves_to_go {
        Some(m) => m.clamp(1, 80) as f64,
        None => (params.tm_moves_left() as f64
            - game_ply as f64 / params.tm_moves_ply_div() as f64)
            .max(params.tm_moves_min() as f64),
    };
    let left = clock
        .time
        .saturating_sub(reserve(move_overhead, clock.increment, moves_left))
        .max(Duration::from_millis(1));
    let left_ms = left.as_millis() as f64;
    let inc_ms = clock.increment.as_millis() as f64;
    let inc_share = params.tm_inc_percent() as f64 / 100.0;
    let optimum = (left_ms / moves_left + inc_ms * inc_share).min(left_ms * 0.5);
    let maximum = (optimum * params.tm_max_percent() as f64 / 100.0)
        .min(left_ms * if moves_left <= 1.0 { 0.8 } else { 0.3 } + inc_ms * 0.5);
    let maximum = maximum.min(left_ms * 0.9).max(1.0);
    let optimum = optimum.min(maximum).max(1.0);
    Some(TimeBudget {
        optimum: Duration::from_micros((optimum * 1000.0) as u64),
        maximum: Duration::from_micros((maximum * 1000.0) as u64),
    })
}

/// The part of the clock a search must not plan to spend: `Move Overhead` for this move, and
/// again for each of the `moves_left` that follow as far as their increment does not pay for
/// it. Every move costs the pipes and the GUI some time however short its search, so without
/// an increment a long game in sudden death would otherwise wear the clock down to nothing
/// and lose on time; with the reserve, the clock stops falling at about `moves_left` overheads
/// and the moves from there on are played at the shortest search. (Stockfish reserves an
/// overhead per move to go in the same spirit.)
fn reserve(move_overhead: Duration, increment: Duration, moves_left: f64) -> Duration {
    let unpaid = move_overhead.saturating_sub(increment);
    move_overhead + unpaid.mul_f64(moves_left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
                ..Clock::default()
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn budget_never_exceeds_the_clock() {
        for ms in [1, 10, 100, 1000, 10_000, 600_000] {
            for inc in [0, 100, 2000] {
                for mtg in [None, Some(1), Some(40)] {
                    let b = budget(
                        &clock(ms, inc, mtg),
                        Duration::from_millis(10),
                        20,
                        &SearchParams::default(),
                    )
                    .unwrap();
                    assert!(b.optimum <= b.maximum);
                    assert!(
                        b.maximum <= Duration::from_millis(ms.max(1)),
                        "{ms} {inc} {mtg:?} {b:?}"
                    );
                }
            }
        }
    }

    /// Plays one side of a game of `moves` moves, each spending its whole maximum plus
    /// `latency` that the engine does not see; returns the lowest clock left after a move.
    fn lowest_clock(start_ms: u64, inc_ms: u64, latency_ms: u64, moves: u32) -> i64 {
        let overhead = Duration::from_millis(30);
        let mut clock_ms = start_ms as i64;
        let mut lowest = clock_ms;
        for n in 0..moves {
            let limits = clock(clock_ms.max(0) as u64, inc_ms, None);
            let b = budget(&limits, overhead, 2 * n, &SearchParams::default()).unwrap();
            clock_ms -= (b.maximum.as_millis() as u64 + latency_ms) as i64;
            lowest = lowest.min(clock_ms);
            clock_ms += inc_ms as i64;
        }
        lowest
    }

    #[test]
    fn sudden_death_keeps_an_overhead_for_each_move_to_play() {
        // 200 moves a side, longer than nearly every game, each taking its whole maximum
        // and 2 ms of pipes on top: the clock never runs out.
        let lowest = lowest_clock(60_000, 0, 2, 200);
        assert!(lowest > 0, "lowest clock {lowest} ms");
        // Below the reserve, a move gets the shortest search.
        let late = budget(
            &clock(500, 0, None),
            Duration::from_millis(30),
            300,
            &SearchParams::default(),
        )
        .unwrap();
        assert_eq!(late.maximum, Duration::from_millis(1));
    }

    #[test]
    fn an_increment_that_pays_the_overhead_reserves_no_more() {
        assert_eq!(
            reserve(Duration::from_millis(30), Duration::from_millis(100), 40.0),
            Duration::from_millis(30)
        );
        assert_eq!(
            reserve(Duration::from_millis(30), Duration::from_millis(10), 20.0),
            Duration::from_millis(430)
        );
        // 10+0.1 with the default overhead: the increment pays for every move.
        assert!(lowest_clock(10_000, 100, 2, 300) > 0);
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        let b = budget(&l, Duration::from_millis(20), 0, &SearchParams::default()).unwrap();
        assert_eq!(b.maximum, Duration::from_millis(480));
        assert!(budget(
            &Limits::default(),
            Duration::ZERO,
            0,
            &SearchParams::default()
        )
        .is_none());
    }
}
