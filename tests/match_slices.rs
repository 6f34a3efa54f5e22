//! `chariot match --slice I/N --results FILE` and `chariot match merge`: the slices of a match
//! play exactly the games of the whole match, and their merged results give the statistics
//! (W/D/L, Elo, pentanomial, LOS, SPRT LLR, endings, faults) the whole match gives.

use std::path::PathBuf;
use std::time::Duration;

use chariot::matches::openings::Opening;
use chariot::matches::results::{merge, read};
use chariot::matches::spec::EngineSpec;
use chariot::matches::stats::SprtConfig;
use chariot::matches::{run_match_to, MatchConfig, MatchReport, MoveLimit};
use chariot::shard::Shard;

fn spec(text: &str) -> EngineSpec {
    text.parse().unwrap()
}

/// Chariot at 2048 nodes against Chariot at 1024 (node limits act in steps of 1024), from
/// three book openings, short games: the results are mixed but fixed.
fn config(games: usize) -> MatchConfig {
    let mut c = MatchConfig::new(
        [
            spec("proto=internal name=Strong option.Hash=1"),
            spec("proto=internal name=Weak option.Hash=1 nodes=1024"),
        ],
        MoveLimit::Nodes(2048),
        games,
    );
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    c.openings = ["h2e2 h9g7", "b2e2 b9c7", "c3c4 g6g5"]
        .iter()
        .map(|moves| Opening {
            fen: start.to_string(),
            moves: moves.split(' ').map(|m| m.parse().unwrap()).collect(),
        })
        .collect();
    c.max_plies = Some(100);
    c.sprt = Some(SprtConfig::default());
    c.concurrency = 2;
    c
}

/// Plays `config` and returns the report and the results file.
fn play(config: &MatchConfig) -> (MatchReport, String) {
    let mut results = Vec::new();
    let report = run_match_to(config, &mut Vec::new(), None, Some(&mut results)).unwrap();
    (report, String::from_utf8(results).unwrap())
}

/// The summary block with the wall time left out.
fn summary(report: &MatchReport) -> String {
    let mut r = report.clone();
    r.elapsed = Duration::ZERO;
    r.to_string()
}

fn game_lines(results: &str) -> Vec<&str> {
    results
        .lines()
        .filter(|l| l.starts_with("{\"type\":\"game\""))
        .collect()
}

#[test]
fn slices_of_a_match_merge_into_the_whole_match() {
    // 9 games: 5 pairs, the last a single game; 3 slices of 2, 2 and 1 pairs.
    let whole_config = config(9);
    let (whole, whole_results) = play(&whole_config);
    assert_eq!(whole.wdl.games(), 9);
    assert!(whole.pentanomial.pairs() == 4, "{whole}");
    let mut files = Vec::new();
    let mut slice_games = Vec::new();
    for index in 0..3 {
        let mut c = config(9);
        c.slice = Shard { index, count: 3 };
        c.concurrency = 1;
        let (report, results) = play(&c);
        assert_eq!(report.scheduled, c.game_range().len());
        slice_games.extend(game_lines(&results).iter().map(|l| l.to_string()));
        files.push((format!("slice-{index}.jsonl"), results));
    }
    // The slices played the very games of the whole match, in order.
    assert_eq!(slice_games, game_lines(&whole_results));
    // Merged in any order, they give the whole match's summary, SPRT line included.
    files.reverse();
    let merged = merge(&files, false).unwrap();
    assert!(merged.missing.is_empty() && merged.incomplete.is_empty());
    assert_eq!(summary(&merged.report), summary(&whole));
    assert_eq!(merged.report.pentanomial, whole.pentanomial);
    assert_eq!(merged.report.llr(), whole.llr());
    assert!(summary(&whole).contains("SPRT (pentanomial"));
    // The whole match's own results file merges into its summary too.
    let single = merge(&[("whole.jsonl".into(), whole_results)], false).unwrap();
    assert_eq!(summary(&single.report), summary(&whole));
}

#[test]
fn a_slice_played_again_gives_the_same_results() {
    let mut c = config(8);
    c.slice = Shard { index: 1, count: 2 };
    let first = play(&c).1;
    c.concurrency = 1;
    let again = play(&c).1;
    let header_and_games = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("{\"type\":\"end\""))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(header_and_games(&first), header_and_games(&again));
    let read_back = read(&first).unwrap();
    assert!(read_back.is_complete());
    assert_eq!(read_back.header.slice, Shard { index: 1, count: 2 });
    assert_eq!(
        read_back.games.iter().map(|g| g.index).collect::<Vec<_>>(),
        vec![4, 5, 6, 7]
    );
}

#[test]
fn faults_are_merged_per_engine() {
    let crash = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/crash.sh");
    let make = |slice: Shard| {
        let mut c = MatchConfig::new(
            [
                spec(&format!("cmd=bash arg={} name=Crashy", crash.display())),
                spec("proto=internal name=Chariot option.Hash=1"),
            ],
            MoveLimit::Nodes(64),
            4,
        );
        c.slice = slice;
        c
    };
    let (whole, _) = play(&make(Shard::default()));
    assert_eq!(whole.faults[0].crash, 4);
    let files: Vec<(String, String)> = (0..2)
        .map(|index| {
            let results = play(&make(Shard { index, count: 2 })).1;
            assert!(results.contains("\"fault\":{\"engine\":0,\"kind\":\"crash\""));
            (format!("{index}"), results)
        })
        .collect();
    let merged = merge(&files, false).unwrap();
    assert_eq!(summary(&merged.report), summary(&whole));
}

#[test]
fn merge_refuses_missing_foreign_duplicate_and_truncated_slices() {
    let slice = |games: usize, index: usize| {
        let mut c = config(games);
        c.slice = Shard { index, count: 2 };
        c.max_plies = Some(6);
        (format!("{games}-{index}"), play(&c).1)
    };
    let (a0, a1) = (slice(4, 0), slice(4, 1));
    let missing = merge(std::slice::from_ref(&a0), false).unwrap_err();
    assert!(missing.contains("missing slices: 1"), "{missing}");
    let partial = merge(std::slice::from_ref(&a0), true).unwrap();
    assert_eq!(partial.missing, vec![1]);
    assert_eq!(partial.report.wdl.games(), 2);
    let foreign = merge(&[a0.clone(), slice(6, 1)], false).unwrap_err();
    assert!(foreign.contains("another run"), "{foreign}");
    let twice = merge(&[a0.clone(), a0.clone()], false).unwrap_err();
    assert!(twice.contains("is in both"), "{twice}");
    // A task killed before its end line left an incomplete file.
    let cut: String = a1.1.lines().take(2).map(|l| format!("{l}\n")).collect();
    let truncated = merge(&[a0.clone(), ("cut".into(), cut)], false).unwrap_err();
    assert!(truncated.contains("incomplete: 1"), "{truncated}");
    assert!(merge(&[a0, a1], false).is_ok());
}

#[test]
fn the_binary_plays_slices_and_merges_them() {
    let dir = std::env::temp_dir().join(format!("chariot-slices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chariot = env!("CARGO_BIN_EXE_chariot");
    let play = |slice: &str, results: &PathBuf| {
        let out = std::process::Command::new(chariot)
            .args(["match", "--engine", "proto=internal name=A option.Hash=1"])
            .args(["--engine", "proto=internal name=B option.Hash=1 nodes=1024"])
            .args(["--nodes", "2048", "--games", "4", "--max-plies", "60"])
            .args(["--sprt", "elo0=0 elo1=10", "--slice", slice, "--results"])
            .arg(results)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let whole = play("0/1", &dir.join("whole.jsonl"));
    let parts: Vec<PathBuf> = (0..2)
        .map(|i| dir.join(format!("part-{i}.jsonl")))
        .collect();
    for (i, part) in parts.iter().enumerate() {
        play(&format!("{i}/2"), part);
    }
    let merged = std::process::Command::new(chariot)
        .args(["match", "merge"])
        .args(&parts)
        .output()
        .unwrap();
    assert!(merged.status.success());
    let untimed = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("Games: "))
            .map(str::to_string)
            .collect()
    };
    let merged = String::from_utf8(merged.stdout).unwrap();
    assert!(merged.contains("Games: 4 of 4 played in"), "{merged}");
    assert_eq!(untimed(&merged), untimed(&whole));
    // Without one of the parts, the merge fails and names the missing slice.
    let failed = std::process::Command::new(chariot)
        .args(["match", "merge"])
        .arg(&parts[0])
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&failed.stderr).contains("missing slices: 1"));
    let _ = std::fs::remove_dir_all(&dir);
}
