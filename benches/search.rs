//! Fixed-depth searches of a few bench positions (criterion).

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};

use chariot::search::limits::Limits;
use chariot::threads::{Engine, EngineOptions, SilentReporter};

fn fixed_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, index, depth) in [
        ("startpos_d10", 0, 10),
        ("middlegame_d9", 10, 9),
        ("endgame_d12", 19, 12),
    ] {
        let pos = chariot::bench::position(index);
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 16,
            ..EngineOptions::default()
        });
        group.bench_function(name, |b| {
            b.iter(|| {
                engine.new_game();
                engine.search(
                    &pos,
                    Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    },
                    Arc::new(SilentReporter),
                )
            })
        });
    }
    group.finish();
}

fn evaluation(c: &mut Criterion) {
    let positions: Vec<_> = (0..chariot::bench::POSITIONS.len())
        .map(chariot::bench::position)
        .collect();
    c.bench_function("evaluate_bench_positions", |b| {
        b.iter(|| positions.iter().map(chariot::eval::evaluate).sum::<i32>())
    });
}

criterion_group!(benches, fixed_depth, evaluation);
criterion_main!(benches);
