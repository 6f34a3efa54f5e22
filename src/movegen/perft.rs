//! Perft: count the leaf nodes of the legal move tree, with bulk counting at the last ply,
//! a per-move breakdown ("divide") and a root split across threads.

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

/// Leaf counts below each legal root move, in generation order.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = legal_moves(pos).into_iter().collect();
    let count = |mv: &Move| {
        let mut p = pos.clone();
        p.make_move(*mv);
        (*mv, perft(&mut p, depth.saturating_sub(1)))
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
