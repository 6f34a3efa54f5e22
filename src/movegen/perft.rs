//! Perft: count the leaf nodes of the legal move tree, with bulk counting at the last ply,
//! a per-move breakdown ("divide") and a root split across threads. The `_until` forms take a
//! stop flag (a protocol `stop`, Ctrl-C) and report how far they got.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::{count_legal, legal_moves};
use crate::position::Position;
use crate::types::Move;

/// The deepest perft the tools accept (`chariot perft`, `--epd` suites, `go perft`).
///
/// Perft recurses once per ply, so an unbounded depth overflows the stack (at 14–20 thousand
/// plies on the main thread, a few thousand on a worker's). No depth near that can finish:
/// any position with at least two moves a ply has more than 2^64 leaves at depth 64, and the
/// barest position with a choice, two generals alone, grows about 2.06 times a ply (1.7 M
/// leaves at depth 20, under a second) and would need about a year at depth 44 and millions of
/// years at 64. Positions with fewer moves a ply (forced lines, hemmed-in generals) still fit
/// under the bound, and 64 plies of recursion are far below any thread's stack.
pub const MAX_DEPTH: u32 = 64;

/// Leaf nodes of the legal move tree of depth `depth` below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos),
        _ => {
            let mut nodes = 0;
            for mv in legal_moves(pos) {
                pos.make_move(mv);
                nodes += perft(pos, depth - 1);
                pos.unmake_move();
            }
            nodes
        }
    }
}

/// Like [`perft`], giving up once `stop` is set (`None`: not finished). The flag is read at
/// every node three or more plies above the leaves, so a stop takes effect within
/// microseconds.
pub fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut nodes = 0;
    for mv in legal_moves(pos) {
        pos.make_move(mv);
        let below = perft_until(pos, depth - 1, stop);
        pos.unmake_move();
        nodes += below?;
    }
    Some(nodes)
}

/// Leaf counts below each legal root move, in generation order.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let never = AtomicBool::new(false);
    divide_until(pos, depth, threads, &never)
        .into_iter()
        .map(|(mv, n)| (mv, n.expect("never stopped")))
        .collect()
}

/// Like [`divide`], giving up once `stop` is set: a root move whose count was not finished
/// has `None`.
pub fn divide_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Vec<(Move, Option<u64>)> {
    let moves: Vec<Move> = legal_moves(pos).into_iter().collect();
    let count = |mv: &Move| {
        let mut p = pos.clone();
        p.make_move(*mv);
        (*mv, perft_until(&mut p, depth.saturating_sub(1), stop))
    };
    if threads > 1 && depth >= 3 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => return pool.install(|| moves.par_iter().map(count).collect()),
            Err(e) => log::warn!("could not start {threads} threads ({e}); using one"),
        }
    }
    moves.iter().map(count).collect()
}

/// Perft with the root split across `threads` threads.
pub fn perft_threads(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth <= 1 {
        return perft(&mut pos.clone(), depth);
    }
    divide(pos, depth, threads).iter().map(|(_, n)| n).sum()
}

/// Like [`perft_threads`], giving up once `stop` is set: `Err` holds how far it got (root
/// moves finished, root moves in all, leaves counted below the finished ones).
pub fn perft_threads_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Result<u64, Partial> {
    if depth <= 1 {
        return Ok(perft(&mut pos.clone(), depth));
    }
    let counts = divide_until(pos, depth, threads, stop);
    let partial = Partial::of(&counts);
    if partial.finished == partial.moves {
        Ok(partial.nodes)
    } else {
        Err(partial)
    }
}

/// How far a stopped perft got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partial {
    /// Root moves whose count is finished.
    pub finished: usize,
    /// Root moves in all.
    pub moves: usize,
    /// Leaves counted below the finished root moves.
    pub nodes: u64,
}

impl Partial {
    /// The progress of a [`divide_until`] result.
    pub fn of(counts: &[(Move, Option<u64>)]) -> Partial {
        Partial {
            finished: counts.iter().filter(|(_, n)| n.is_some()).count(),
            moves: counts.len(),
            nodes: counts.iter().filter_map(|(_, n)| *n).sum(),
        }
    }
}

/// One position of a perft suite: a FEN and the expected counts by depth.
#[derive(Clone, Debug)]
pub struct EpdEntry {
    /// The position.
    pub fen: String,
    /// `(depth, expected leaf count)` pairs.
    pub counts: Vec<(u32, u64)>,
}

/// Parses a suite in `FEN;D1 n;D2 n;...` form; `#` lines and blank lines are skipped.
/// A malformed line, or a depth outside `1..=MAX_DEPTH`, is an error naming its line number.
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry>, String> {
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut counts = Vec::new();
        for part in parts {
            let part = part.trim();
            let bad = || format!("line {}: bad depth field '{part}'", n + 1);
            let rest = part.strip_prefix('D').ok_or_else(bad)?;
            let mut it = rest.split_whitespace();
            let depth: u32 = it.next().and_then(|d| d.parse().ok()).ok_or_else(bad)?;
            if !(1..=MAX_DEPTH).contains(&depth) {
                return Err(format!(
                    "line {}: depth {depth} is outside 1..={MAX_DEPTH} in '{part}'",
                    n + 1
                ));
            }
            let nodes = it.next().and_then(|d| d.parse().ok()).ok_or_else(bad)?;
            counts.push((depth, nodes));
        }
        entries.push(EpdEntry { fen, counts });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_perft_says_how_far_it_got() {
        let pos = Position::startpos();
        let (go, stop) = (AtomicBool::new(false), AtomicBool::new(true));
        assert_eq!(perft_until(&mut pos.clone(), 3, &go), Some(79_666));
        assert_eq!(perft_until(&mut pos.clone(), 3, &stop), None);
        // Near the leaves the flag is not read: those counts take microseconds.
        assert_eq!(perft_until(&mut pos.clone(), 2, &stop), Some(1920));
        assert_eq!(perft_threads_until(&pos, 3, 2, &go), Ok(79_666));
        let stopped = divide_until(&pos, 4, 1, &stop);
        assert_eq!(stopped.len(), 44);
        assert_eq!(
            perft_threads_until(&pos, 4, 2, &stop),
            Err(Partial {
                finished: 0,
                moves: 44,
                nodes: 0
            })
        );
        let whole = divide_until(&pos, 3, 1, &go);
        assert_eq!(Partial::of(&whole).nodes, 79_666);
        assert_eq!(Partial::of(&whole).finished, 44);
    }
}
