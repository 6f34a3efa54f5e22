//! Cost of the repetition rules: classifying every legal move of a position (throughput = per
//! move), one `ChaseSet`, a whole `judge_span` (paid only after a key match), and a referee
//! replay; generating the legal moves once is measured alongside as a yardstick.
//!
//! `cargo bench --bench rules`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use chariot::game::Game;
use chariot::movegen::legal_moves;
use chariot::position::Position;
use chariot::rules::{chase_set, classify_move, judge_span};
use chariot::types::{Color, Move};

/// Middlegame positions with many pieces in contact (from perft/xiangqi.epd) and the start.
const POSITIONS: [(&str, &str); 3] = [
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "middlegame-a",
        "2ca2br1/1R2ak3/r8/4p1p2/p1b4np/2C3P2/P1P1n3P/R3C4/4KN3/2BA1A3 w - - 8 24",
    ),
    (
        "middlegame-b",
        "rc1akabn1/5r3/n3b1C1c/8p/p1p1p4/2B6/P1P1P1P1P/3C4B/R8/1N1AKA1NR b - - 6 10",
    ),
];

fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("bench FEN")
}

fn quiet_moves(pos: &Position) -> Vec<Move> {
    legal_moves(pos)
        .into_iter()
        .filter(|&m| !pos.is_capture(m))
        .collect()
}

fn reverse(m: Move) -> Move {
    Move::new(m.to(), m.from())
}

/// `pos` after two loops of a reversible quiet shuffle by each side (8 plies back to itself).
fn with_repetition(fen: &str) -> Position {
    let mut pos = position(fen);
    let key = pos.key();
    for m1 in quiet_moves(&pos) {
        let mut p = pos.clone();
        p.make_move(m1);
        for m2 in quiet_moves(&p) {
            let mut q = p.clone();
            q.make_move(m2);
            if !q.is_legal(reverse(m1)) {
                continue;
            }
            q.make_move(reverse(m1));
            if q.is_legal(reverse(m2)) {
                q.make_move(reverse(m2));
                if q.key() == key {
                    for _ in 0..2 {
                        for m in [m1, m2, reverse(m1), reverse(m2)] {
                            pos.make_move(m);
                        }
                    }
                    return pos;
                }
            }
        }
    }
    panic!("no reversible shuffle in {fen}");
}

fn replay(fen: &str, moves: &str) -> Position {
    let mut pos = position(fen);
    for m in moves.split_whitespace() {
        pos.make_move(m.parse().expect("bench move"));
    }
    pos
}

fn classify(c: &mut Criterion) {
    let mut group = c.benchmark_group("classify_move");
    for (name, fen) in POSITIONS {
        let pos = position(fen);
        let moves = legal_moves(&pos);
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for &m in &moves {
                    black_box(classify_move(black_box(&pos), m));
                }
            })
        });
    }
    group.finish();

    // Reference on the same machine and load: generating all legal moves once.
    let mut group = c.benchmark_group("reference_legal_moves");
    for (name, fen) in POSITIONS {
        let pos = position(fen);
        group.bench_function(name, |b| b.iter(|| black_box(legal_moves(black_box(&pos)))));
    }
    group.finish();

    let mut group = c.benchmark_group("chase_set");
    for (name, fen) in POSITIONS {
        let pos = position(fen);
        group.bench_function(name, |b| {
            b.iter(|| black_box(chase_set(black_box(&pos), Color::Red)))
        });
    }
    group.finish();
}

fn judge(c: &mut Criterion) {
    let mut group = c.benchmark_group("judge_span");
    let cases = [
        // Perpetual chase on a sparse board (FSF-1181), span 8.
        (
            "sparse-chase-8",
            replay(
                "4k4/9/9/c1c6/9/r8/9/9/C8/3K5 w - - 0 1",
                "a1c1 a4c4 c1a1 c4a4 a1c1 a4c4 c1a1 c4a4",
            ),
            8,
        ),
        // One chaser taking turns on two victims (FSF-1187), span 16.
        (
            "sparse-draw-16",
            replay(
                "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
                "b1a1 a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1 a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1",
            ),
            16,
        ),
        ("start-shuffle-8", with_repetition(POSITIONS[0].1), 8),
        ("middlegame-a-shuffle-8", with_repetition(POSITIONS[1].1), 8),
        ("middlegame-b-shuffle-8", with_repetition(POSITIONS[2].1), 8),
    ];
    for (name, pos, span) in &cases {
        group.bench_function(*name, |b| {
            b.iter(|| black_box(judge_span(black_box(pos), *span)))
        });
    }
    group.finish();

    c.bench_function("referee_replay_17_moves", |b| {
        let moves: Vec<Move> = "b1a1 a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1 a7b7 a1c1 c7d7 c1b1 \
                                b7a7 b1d1 d7c7 d1a1"
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        b.iter(|| {
            let mut game = Game::new("4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1").unwrap();
            for &m in &moves {
                let _ = game.push(m);
            }
            black_box(game.result())
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = classify, judge
}
criterion_main!(benches);
