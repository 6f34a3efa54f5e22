//! Perft against the reference suite `perft/xiangqi.epd` (counts from an independent engine, see
//! `perft/README.md`) and depth-1 move lists against `perft/xiangqi.moves.tsv`.
//!
//! Every position has two tests, `pNNN::within_budget` (every depth whose expected count is at
//! most [`DEFAULT_BUDGET`], runs by default) and `pNNN::all_depths` (ignored; run them with
//! `cargo test --release -- --include-ignored`), where `NNN` is the position's index in the suite.

use std::collections::BTreeSet;

use chariot::movegen::legal_moves;
use chariot::movegen::perft::{parse_epd, perft, EpdEntry};
use chariot::position::Position;

const SUITE: &str = include_str!("../perft/xiangqi.epd");
const MOVE_LISTS: &str = include_str!("../perft/xiangqi.moves.tsv");

/// Depths whose expected leaf count is at most this run in the default `cargo test`.
const DEFAULT_BUDGET: u64 = 200_000;

fn suite() -> Vec<EpdEntry> {
    parse_epd(SUITE).expect("perft/xiangqi.epd parses")
}

/// The theme tags of a FEN in the move-list file, for failure messages.
fn tags(fen: &str) -> &'static str {
    MOVE_LISTS
        .lines()
        .map(|line| line.split('\t').collect::<Vec<_>>())
        .find(|fields| fields[0] == fen)
        .and_then(|fields| fields.get(3).copied())
        .unwrap_or("")
}

/// Runs position `index` of the suite at every depth whose count is within `budget` (all depths
/// for `None`) and fails with one line per wrong depth.
fn check_position(index: usize, budget: Option<u64>) {
    let entries = suite();
    let entry = &entries[index];
    let mut pos = Position::from_fen(&entry.fen)
        .unwrap_or_else(|e| panic!("position {index} ({}) does not parse: {e}", entry.fen));
    let mut failures = Vec::new();
    let mut ran = 0;
    for &(depth, expected) in &entry.counts {
        if budget.is_some_and(|b| expected > b) {
            continue;
        }
        let got = perft(&mut pos, depth);
        ran += 1;
        if got != expected {
            failures.push(format!("  depth {depth}: expected {expected}, got {got}"));
        }
    }
    assert!(
        ran > 0,
        "position {index} ({}): no depth within the budget",
        entry.fen
    );
    assert!(
        failures.is_empty(),
        "position {index}: {} [{}]\n{}",
        entry.fen,
        tags(&entry.fen),
        failures.join("\n")
    );
    assert_eq!(
        pos,
        Position::from_fen(&entry.fen).unwrap(),
        "perft did not restore the board"
    );
}

/// One module per suite position, holding `within_budget` and `all_depths`.
macro_rules! suite_tests {
    ($($name:ident $index:literal)*) => {
        $(
            mod $name {
                #[test]
                fn within_budget() {
                    super::check_position($index, Some(super::DEFAULT_BUDGET));
                }

                #[test]
                #[ignore = "deep perft: cargo test --release -- --include-ignored"]
                fn all_depths() {
                    super::check_position($index, None);
                }
            }
        )*

        /// Suite indices that have generated tests.
        const COVERED: &[usize] = &[$($index),*];
    };
}

#[rustfmt::skip]
suite_tests! {
    p000 0  p001 1  p002 2  p003 3  p004 4  p005 5  p006 6  p007 7  p008 8  p009 9
    p010 10 p011 11 p012 12 p013 13 p014 14 p015 15 p016 16 p017 17 p018 18 p019 19
    p020 20 p021 21 p022 22 p023 23 p024 24 p025 25 p026 26 p027 27 p028 28 p029 29
    p030 30 p031 31 p032 32 p033 33 p034 34 p035 35 p036 36 p037 37 p038 38 p039 39
    p040 40 p041 41 p042 42 p043 43 p044 44 p045 45 p046 46 p047 47 p048 48 p049 49
    p050 50 p051 51 p052 52 p053 53 p054 54 p055 55 p056 56 p057 57 p058 58 p059 59
    p060 60 p061 61 p062 62 p063 63 p064 64 p065 65 p066 66 p067 67 p068 68 p069 69
    p070 70 p071 71 p072 72 p073 73 p074 74 p075 75 p076 76 p077 77 p078 78 p079 79
    p080 80 p081 81 p082 82 p083 83 p084 84 p085 85 p086 86 p087 87 p088 88 p089 89
    p090 90 p091 91 p092 92 p093 93 p094 94 p095 95 p096 96 p097 97 p098 98 p099 99
}

#[test]
fn every_suite_position_has_a_test() {
    let n = suite().len();
    let expected: Vec<usize> = (0..n).collect();
    assert_eq!(
        COVERED, expected,
        "perft/xiangqi.epd has {n} positions: extend the list in suite_tests! to match"
    );
}

#[test]
fn suite_counts_are_listed_by_increasing_depth() {
    for entry in suite() {
        let depths: Vec<u32> = entry.counts.iter().map(|&(d, _)| d).collect();
        let expected: Vec<u32> = (1..=depths.len() as u32).collect();
        assert_eq!(depths, expected, "{}", entry.fen);
    }
}

#[test]
#[ignore = "deep perft: cargo test --release -- --include-ignored"]
fn startpos_depth_5() {
    assert_eq!(perft(&mut Position::startpos(), 5), 133_312_995);
}

#[test]
#[ignore = "deep perft: cargo test --release -- --include-ignored"]
fn startpos_depth_6() {
    assert_eq!(perft(&mut Position::startpos(), 6), 5_392_831_844);
}

/// One line of `perft/xiangqi.moves.tsv`.
struct MoveListCase<'a> {
    fen: &'a str,
    moves: Vec<&'a str>,
    result: &'a str,
}

fn move_list_cases() -> Vec<MoveListCase<'static>> {
    MOVE_LISTS
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "bad line in xiangqi.moves.tsv: {line}");
            MoveListCase {
                fen: fields[0],
                moves: fields[1].split_whitespace().collect(),
                result: fields[2],
            }
        })
        .collect()
}

#[test]
fn depth_one_move_lists_match_the_reference() {
    let mut failures = Vec::new();
    for case in move_list_cases() {
        let pos = Position::from_fen(case.fen).expect("reference FEN parses");
        let mut ours: Vec<String> = legal_moves(&pos).iter().map(|m| m.to_string()).collect();
        ours.sort();
        let theirs: Vec<String> = case.moves.iter().map(|m| m.to_string()).collect();
        if ours != theirs {
            let (ours_set, theirs_set): (BTreeSet<_>, BTreeSet<_>) =
                (ours.iter().collect(), theirs.iter().collect());
            failures.push(format!(
                "{}\n  missing: {:?}\n  extra:   {:?}",
                case.fen,
                theirs_set.difference(&ours_set).collect::<Vec<_>>(),
                ours_set.difference(&theirs_set).collect::<Vec<_>>()
            ));
        }
        let verdict = match (ours.is_empty(), pos.in_check()) {
            (false, _) => "-",
            (true, true) => "mate",
            (true, false) => "stalemate",
        };
        if verdict != case.result {
            failures.push(format!(
                "{}: result {verdict}, reference {}",
                case.fen, case.result
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn move_lists_cover_the_same_positions_as_the_suite() {
    let from_suite: Vec<String> = suite().into_iter().map(|e| e.fen).collect();
    let from_lists: Vec<String> = move_list_cases()
        .iter()
        .map(|c| c.fen.to_string())
        .collect();
    assert_eq!(from_suite, from_lists);
}
