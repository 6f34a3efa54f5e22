//! Move generation benchmarks (criterion): perft over a fixed set of positions, and
//! legal-move-generation micro-benchmarks.
//!
//! Run with `cargo bench --bench movegen`; a subset with e.g. `cargo bench --bench movegen -- perft`.
//! Throughput is reported in leaf nodes (perft) or positions (micro-benchmarks) per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use chariot::movegen::perft::perft;
use chariot::movegen::{captures, count_legal, legal_moves, quiets};
use chariot::position::{Position, START_FEN};

/// `(name, FEN, depth, expected leaf count)`: the start position and a few suite positions
/// (`perft/xiangqi.epd`) of different kinds.
const PERFT_CASES: &[(&str, &str, u32, u64)] = &[
    ("startpos", START_FEN, 4, 3_290_240),
    (
        "early",
        "rnbakabr1/9/9/p1p1p3p/1C4p2/8P/R1P1P1P2/8B/5N3/2B1KR3 b - - 0 8",
        3,
        25_956,
    ),
    (
        "middlegame",
        "1nbakab2/9/1R2c4/4p1p2/1cP4r1/9/4P1P2/1CN1C4/9/2BAKAB2 w - - 0 1",
        4,
        1_463_348,
    ),
    (
        "crowded",
        "2c2abn1/2r1a4/b1nk5/P7r/1R2p1p1p/4PR3/1CP3P1P/4B2cN/4A4/1NB1KA3 b - - 5 34",
        3,
        72_415,
    ),
    (
        "checks",
        "4k4/9/9/4c4/1R7/9/9/9/9/3AKA3 b - - 0 1",
        5,
        345_877,
    ),
    (
        "endgame",
        "3k5/9/9/4p4/9/9/9/9/4K4/9 w - - 0 1",
        11,
        215_211,
    ),
];

/// Positions for the generation micro-benchmarks, the last one in check.
const GEN_CASES: &[(&str, &str)] = &[
    ("startpos", START_FEN),
    (
        "middlegame",
        "1nbakab2/9/1R2c4/4p1p2/1cP4r1/9/4P1P2/1CN1C4/9/2BAKAB2 w - - 0 1",
    ),
    (
        "crowded",
        "2c2abn1/2r1a4/b1nk5/P7r/1R2p1p1p/4PR3/1CP3P1P/4B2cN/4A4/1NB1KA3 b - - 5 34",
    ),
    ("in_check", "3aka3/9/9/2p3p2/9/4R4/9/1N7/9/5K3 b - - 0 1"),
];

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for &(name, fen, depth, expected) in PERFT_CASES {
        let mut pos = position(fen);
        assert_eq!(
            perft(&mut pos, depth),
            expected,
            "{name}: wrong perft; fix the engine first"
        );
        group.throughput(Throughput::Elements(expected));
        group.bench_function(BenchmarkId::new(name, depth), |b| {
            b.iter(|| perft(black_box(&mut pos), depth))
        });
    }
    group.finish();
}

fn bench_generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(1));
    for &(name, fen) in GEN_CASES {
        let pos = position(fen);
        group.bench_function(BenchmarkId::new("legal_moves", name), |b| {
            b.iter(|| legal_moves(black_box(&pos)))
        });
        group.bench_function(BenchmarkId::new("count_legal", name), |b| {
            b.iter(|| count_legal(black_box(&pos)))
        });
        if !pos.in_check() {
            group.bench_function(BenchmarkId::new("captures", name), |b| {
                b.iter(|| captures(black_box(&pos)))
            });
            group.bench_function(BenchmarkId::new("quiets", name), |b| {
                b.iter(|| quiets(black_box(&pos)))
            });
        }
    }
    group.finish();
}

fn bench_make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_unmake");
    for &(name, fen) in GEN_CASES {
        let mut pos = position(fen);
        let moves = legal_moves(&pos);
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_function(BenchmarkId::new("all_legal", name), |b| {
            b.iter(|| {
                for &mv in &moves {
                    pos.make_move(black_box(mv));
                    pos.unmake_move();
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_generation, bench_make_unmake);
criterion_main!(benches);
