//! Search behaviour: mates found with the right distance, never an illegal move, repetition
//! rules respected, stop honoured, bench deterministic.

use std::sync::Arc;
use std::time::Duration;

use chariot::movegen::legal_moves;
use chariot::position::Position;
use chariot::rules::MoveCountRule;
use chariot::search::limits::Limits;
use chariot::search::report::{Score, SearchResult};
use chariot::threads::{Engine, EngineOptions, SilentReporter};
use chariot::types::Move;

fn search(pos: &Position, limits: Limits) -> SearchResult {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    });
    engine.search(pos, limits, Arc::new(SilentReporter))
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Brute force, independent of the search: can the side to move force the opponent out of
/// legal moves (checkmate or stalemate, both lose) within `n` of its own moves?
fn forced_mate(pos: &mut Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    for mv in legal_moves(pos) {
        pos.make_move(mv);
        let replies = legal_moves(pos);
        let wins = replies.is_empty()
            || (n > 1
                && replies.iter().all(|&r| {
                    pos.make_move(r);
                    let w = forced_mate(pos, n - 1);
                    pos.unmake_move();
                    w
                }));
        pos.unmake_move();
        if wins {
            return true;
        }
    }
    false
}

const MATES: &[(&str, i32)] = &[
    ("3a1a3/4N4/3k5/2N6/9/9/9/9/9/5K3 w - - 0 1", 1),
    ("3aka3/9/9/2p6/4N4/9/9/4R4/9/3K5 w - - 0 1", 1),
    ("5N3/4R4/b2k5/9/9/9/9/9/5K3/9 w - - 0 1", 1),
    ("3a1k3/4a4/9/9/3r5/9/3n5/9/4A4/2BK2B2 b - - 0 1", 2),
    ("3k5/9/9/9/9/7R1/9/4p4/4K4/3A5 w - - 0 1", 2),
    (
        "4k4/9/3Rba3/2p1p1p2/1R7/2P1N1B2/9/9/4K4/1NBA5 w - - 3 30",
        3,
    ),
];

#[test]
fn finds_mates_at_the_right_distance() {
    for &(fen, n) in MATES {
        let mut pos = Position::from_fen(fen).unwrap();
        assert!(forced_mate(&mut pos, n as u32), "{fen} is a mate in {n}");
        assert!(
            !forced_mate(&mut pos, n as u32 - 1),
            "{fen} has no shorter mate"
        );
        let result = search(
            &pos,
            Limits {
                depth: Some(2 * n as u32 + 4),
                mate: Some(n as u32),
                ..Limits::default()
            },
        );
        assert_eq!(result.score, Score::Mate(n), "{fen}");
        let best = result.best.expect("a move");
        pos.make_move(best);
        let replies = legal_moves(&pos);
        let still_mating = replies.is_empty()
            || replies.iter().all(|&r| {
                pos.make_move(r);
                let w = forced_mate(&mut pos, n as u32 - 1);
                pos.unmake_move();
                w
            });
        assert!(still_mating, "{fen}: {best} keeps the mate");
    }
}

#[test]
fn reports_being_mated_and_having_no_move() {
    let mated_in_one = Position::from_fen("3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert_eq!(search(&mated_in_one, depth(6)).score, Score::Mate(-1));
    // Stalemate loses in Xiangqi: no legal move, no best move.
    let no_move = Position::from_fen("1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1").unwrap();
    assert!(legal_moves(&no_move).is_empty());
    let result = search(&no_move, depth(4));
    assert_eq!(result.best, None);
    assert_eq!(result.score, Score::Mate(0));
}

/// A small deterministic generator for the random positions.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

#[test]
fn never_returns_an_illegal_or_null_move() {
    let mut rng = Lcg(2026);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    });
    let mut searched = 0;
    while searched < 200 {
        let mut pos = Position::startpos();
        let plies = 4 + rng.next(100);
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.next(moves.len())]);
        }
        let legal = legal_moves(&pos);
        let result = engine.search(
            &pos,
            depth(1 + rng.next(4) as u32),
            Arc::new(SilentReporter),
        );
        match result.best {
            Some(mv) => {
                assert!(legal.contains(&mv), "{} played illegal {mv}", pos.fen());
                assert!(!mv.is_null());
                if let Some(p) = result.ponder {
                    pos.make_move(mv);
                    assert!(legal_moves(&pos).contains(&p), "ponder move {p} illegal");
                }
            }
            None => assert!(
                legal.is_empty(),
                "{}: no move but {} legal",
                pos.fen(),
                legal.len()
            ),
        }
        searched += 1;
    }
}

/// Replays a case of the repetition table (tests/data/repetition.tsv).
fn repetition_case(id: &str) -> (Position, Vec<Move>) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/repetition.tsv"
    ))
    .expect("tests/data/repetition.tsv");
    let line = text
        .lines()
        .find(|l| l.starts_with(id))
        .expect("case present");
    let cols: Vec<&str> = line.split('\t').collect();
    let pos = Position::from_fen(cols[1]).unwrap();
    (
        pos,
        cols[2]
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect(),
    )
}

#[test]
fn offender_avoids_the_losing_repetition() {
    // FSF-1160: Red's cannon perpetually chases a chariot (red loses); FSF-1172: Black's
    // soldier/cannon chase (black loses). The last move would complete the third occurrence.
    for id in ["FSF-1160", "FSF-1172", "FSF-1178"] {
        let (mut pos, moves) = repetition_case(id);
        let (last, prefix) = moves.split_last().unwrap();
        for &m in prefix {
            pos.make_move(m);
        }
        let result = search(&pos, depth(6));
        assert_ne!(result.best, Some(*last), "{id}: repeating loses");
        // Forced to repeat, the offender loses at once.
        let forced = search(
            &pos,
            Limits {
                depth: Some(4),
                search_moves: vec![*last],
                ..Limits::default()
            },
        );
        assert_eq!(
            forced.score,
            Score::Mate(-1),
            "{id}: repeating is scored as a loss"
        );
    }
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    let pos = Position::startpos();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        threads: 2,
        ..EngineOptions::default()
    });
    engine.go(
        &pos,
        Limits {
            infinite: true,
            ..Limits::default()
        },
        Arc::new(SilentReporter),
    );
    std::thread::sleep(Duration::from_millis(100));
    assert!(engine.is_searching(), "infinite search waits for stop");
    engine.stop();
    let result = engine.wait().expect("a result");
    assert!(legal_moves(&pos).contains(&result.best.unwrap()));
}

/// Depth 10, so that the singular-extension searches (from depth 8) run too.
#[test]
fn bench_is_deterministic_single_threaded() {
    let a = chariot::bench::run(10, 1, 8, |_, _, _, _| {});
    let b = chariot::bench::run(10, 1, 8, |_, _, _, _| {});
    assert_eq!(a.nodes, b.nodes);
    assert!(a.total > 0);
}

/// Red is a chariot up with 119 plies since the last capture and no capture, mate or stalemate
/// in one: under the official 60-move rule every move draws, including the crossed soldier's,
/// which resets the CXQ progress count but not the count of plies without a capture.
#[test]
fn sixty_move_rule_counts_plies_without_capture_in_search() {
    let pos = Position::from_fen("4k4/9/9/6P2/9/9/9/9/R8/3K5 w - - 119 1").unwrap();
    let score_under = |rule| {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 8,
            ..EngineOptions::default()
        });
        engine.set_move_rule(rule);
        engine
            .search(&pos, depth(4), Arc::new(SilentReporter))
            .score
    };
    assert_eq!(score_under(MoveCountRule::Sixty), Score::Cp(0));
    match score_under(MoveCountRule::None) {
        Score::Cp(cp) => assert!(cp > 300, "{cp}"),
        Score::Mate(n) => assert!(n > 0, "mate {n}"),
    }
}
