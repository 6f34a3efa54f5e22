//! `chariot bench`: a fixed-depth search of fixed positions. The total node count is the
//! engine's signature (quoted as `Bench: N` in commits that change search or evaluation);
//! single-threaded it is the same on every run of the same binary.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::movegen::legal_moves;
use crate::position::{Position, START_FEN};
use crate::search::limits::Limits;
use crate::threads::{Engine, EngineOptions, SilentReporter};
use crate::types::Move;

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 11;

/// The deepest bench the tools accept (`chariot bench --depth`, `bench N` in the protocol).
///
/// The bench's time grows about 1.7 times a depth (1.15 M nodes at depth 11, 44 M at 18, about
/// 15 s), so depth 40 already takes weeks and 64 thousands of years; the search itself stops
/// deepening at 124 plies, so a larger depth would be cut silently. Depth 0 is no search.
pub const MAX_DEPTH: u32 = 64;

/// Positions as (FEN, moves from it): openings, middlegames, endgames, checks.
pub const POSITIONS: &[(&str, &str)] = &[
    (START_FEN, ""),
    (START_FEN, "h2e2 h9g7"),
    (START_FEN, "h2e2 h7e7"),
    (START_FEN, "c3c4 g6g5 b0c2 h9g7"),
    (START_FEN, "b0c2 b9c7 h2e2 h9g7 h0g2 i9h9"),
    (START_FEN, "g0e2 h9g7 h2i2 b9c7 h0g2 i9h9 i0h0"),
    (START_FEN, "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 c6c5"),
    (START_FEN, "h2e2 b9c7 h0g2 a9b9 i0h0 b7a7 b0c2 h9g7 a0b0"),
    (START_FEN, "c3c4 b9c7 b0c2 h9g7 h2e2 c6c5 c4c5 c7b5"),
    (
        START_FEN,
        "h2e2 h9g7 h0g2 g6g5 i0h0 i9h9 h0h4 b9c7 b2c2 h7i7",
    ),
    (
        "rnbakab2/8r/9/p1p3pcp/7c1/P3p1P2/2PC4P/9/9/4K4 w - - 2 24",
        "",
    ),
    (
        "2Rakabr1/9/5r3/p1p1p1p1p/9/9/P1P1P1P1P/9/3C5/2BcKABNR w - - 1 7",
        "",
    ),
    (
        "1rbakabr1/9/9/pcp1p1p1p/P8/9/2P1N1P1P/9/9/RNBAKAB1R b - - 0 6",
        "",
    ),
    (
        "2baka3/9/n7b/1Cp3P1p/p1C1p3P/Pr7/4P4/N3B3B/R3cK3/3A1A1N1 b - - 25 46",
        "",
    ),
    (
        "r1b2ab2/4k4/3an4/p5p1r/2pcpc2p/2C3P1P/P1P1P4/2N1B1N1R/R3A4/2BA1K1C1 b - - 32 21",
        "",
    ),
    (
        "2b6/2rk5/2ca1R3/2p3p1p/9/C1P6/P3P1P1P/B1c5N/4K3R/1N1A1A3 w - - 1 21",
        "",
    ),
    ("5a3/3k5/4b1nr1/P8/4P4/2B6/2P3P2/1r7/1C7/4K4 b - - 0 50", ""),
    ("4ka2r/9/3ab1n2/9/9/p4pp2/9/4B4/9/4K4 b - - 1 38", ""),
    ("3a2b2/3k5/9/1R4p2/9/4P1P2/9/8p/5K3/3A2B2 w - - 7 44", ""),
    ("3a5/3k5/3a4b/4P4/9/9/9/9/9/4KA3 w - - 28 53", ""),
    ("3aka3/9/9/2p3p2/9/4R4/9/1N7/9/5K3 b - - 0 1", ""),
    ("3a1a3/C1N1k4/9/9/9/9/9/9/9/3K5 b - - 0 1", ""),
    ("3k5/9/9/9/9/7R1/9/4p4/4K4/3A5 w - - 0 1", ""),
    ("3aka3/9/9/2p6/4N4/9/9/4R4/9/3K5 w - - 0 1", ""),
    ("4k4/9/9/4c4/1R7/9/9/9/9/3AKA3 b - - 0 1", ""),
    ("3k1a3/9/4c4/9/9/4P4/9/4N4/9/3AK4 w - - 0 1", ""),
    ("3k5/4a4/9/9/2b3b2/2B3B2/9/9/4A4/5K3 w - - 0 1", ""),
    ("4k4/3P1P3/9/9/9/9/9/9/9/3K5 b - - 0 1", ""),
    ("9/5k3/8N/5R1N1/9/9/9/9/9/4K4 b - - 0 1", ""),
    ("6b2/4a1R1N/5k3/9/9/9/9/9/4K4/9 w - - 0 1", ""),
    ("5a3/3N5/3kba3/2R6/5P3/9/9/9/4K4/9 w - - 0 1", ""),
    ("5a3/N3N4/3k1a3/9/9/9/9/9/5K3/9 w - - 0 1", ""),
];

/// A bench position set up with its moves.
pub fn position(i: usize) -> Position {
    let (fen, moves) = POSITIONS[i];
    let mut pos = Position::from_fen(fen).expect("bench FEN is valid");
    for token in moves.split_whitespace() {
        let mv: Move = token.parse().expect("bench move parses");
        assert!(
            legal_moves(&pos).contains(&mv),
            "bench move {token} is legal"
        );
        pos.make_move(mv);
    }
    pos
}

/// Result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes per position searched to the end (all of [`POSITIONS`] unless stopped).
    pub nodes: Vec<u64>,
    /// Total nodes (the signature, when complete).
    pub total: u64,
    /// Every position was searched (the run was not stopped).
    pub complete: bool,
    /// Time spent searching, in milliseconds: the sum over the positions, without the
    /// clearing of the hash and histories between them (16 MB of memory per position,
    /// which would otherwise count against `Nodes/second`).
    pub millis: u64,
}

/// Searches every bench position to `depth` (`1..=MAX_DEPTH`; the search raises 0 to 1) with a
/// fresh engine, calling `progress` after each with its index, position, nodes and search time
/// in milliseconds.
pub fn run(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    progress: impl FnMut(usize, &Position, u64, u64),
) -> BenchResult {
    run_until(depth, threads, hash_mb, &AtomicBool::new(false), progress)
}

/// Like [`run`], giving up once `stop` is set: the result then holds the positions searched
/// to the end (fewer than [`POSITIONS`]), and the one being searched is left out.
pub fn run_until(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    stop: &AtomicBool,
    progress: impl FnMut(usize, &Position, u64, u64),
) -> BenchResult {
    let options = EngineOptions {
        threads,
        hash_mb,
        ..EngineOptions::default()
    };
    run_with(depth, options, stop, progress)
}

/// [`run_until`] with any engine options (e.g. search parameters of a `--features tune` build).
pub fn run_with(
    depth: u32,
    options: EngineOptions,
    stop: &AtomicBool,
    mut progress: impl FnMut(usize, &Position, u64, u64),
) -> BenchResult {
    let mut engine = Engine::new(options);
    let mut searching = Duration::ZERO;
    let mut nodes = Vec::new();
    for i in 0..POSITIONS.len() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let pos = position(i);
        engine.new_game();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let searched = Instant::now();
        let result = engine.search_until(&pos, limits, Arc::new(SilentReporter), stop);
        let took = searched.elapsed();
        if stop.load(Ordering::Relaxed) {
            break;
        }
        searching += took;
        nodes.push(result.nodes);
        progress(i, &pos, result.nodes, took.as_millis() as u64);
    }
    BenchResult {
        complete: nodes.len() == POSITIONS.len(),
        total: nodes.iter().sum(),
        nodes,
        millis: searching.as_millis() as u64,
    }
}
