//! `chariot match --slice I/N --results FILE` and `chariot match merge`: the slices of a match
//! play exactly the games of the whole match, and their merged results give the statistics
//! (W/D/L, Elo, pentanomial, LOS, SPRT LLR, endings, faults) the whole match gives; and
//! `--resume` continues a stopped slice into the very results an unbroken run writes.

use std::path::PathBuf;
use std::time::Duration;

use chariot::matches::openings::Opening;
use chariot::matches::results::{merge, read};
use chariot::matches::spec::EngineSpec;
use chariot::matches::stats::SprtConfig;
use chariot::matches::{run_match_resumed, run_match_to, MatchConfig, MatchReport, MoveLimit};
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

/// The game lines of a results file in game order (they are written as games end).
fn game_lines(results: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = results
        .lines()
        .filter(|l| l.starts_with("{\"type\":\"game\""))
        .collect();
    lines.sort_by_key(|l| game_index(l));
    lines
}

/// The game number of a game line.
fn game_index(line: &str) -> usize {
    let rest = &line[line.find("\"game\":").unwrap() + 7..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

/// The header and the game lines in game order of a results file (its end line carries a wall
/// time).
fn header_and_games(results: &str) -> Vec<String> {
    let header = results.lines().take(1).map(str::to_string);
    header
        .chain(game_lines(results).into_iter().map(str::to_string))
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
fn games_are_written_as_they_end() {
    let c = config(8);
    let (mut progress, mut results) = (Vec::new(), Vec::new());
    run_match_to(&c, &mut progress, None, Some(&mut results)).unwrap();
    let progress = String::from_utf8(progress).unwrap();
    let ended: Vec<usize> = progress
        .lines()
        .filter_map(|l| l.strip_prefix("Finished game "))
        .map(|l| l.split(' ').next().unwrap().parse::<usize>().unwrap() - 1)
        .collect();
    let results = String::from_utf8(results).unwrap();
    let written: Vec<usize> = results
        .lines()
        .filter(|l| l.starts_with("{\"type\":\"game\""))
        .map(game_index)
        .collect();
    assert_eq!(ended.len(), 8);
    assert_eq!(written, ended);
}

/// A file on a disk that fills up: the first `writes` writes succeed, every later one fails.
struct FillsUp {
    writes: usize,
}

impl std::io::Write for FillsUp {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.writes == 0 {
            return Err(std::io::Error::other("disk full"));
        }
        self.writes -= 1;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_write_error_stops_the_match_and_fails_it() {
    let c = config(8);
    // The PGN takes the first game that ends and fails at the second: the match stops there,
    // its results file keeps just the game that is in the PGN and gets no closing line, so
    // `--resume` plays the rest.
    let (mut progress, mut results) = (Vec::new(), Vec::new());
    let mut pgn = FillsUp { writes: 1 };
    let err = run_match_to(&c, &mut progress, Some(&mut pgn), Some(&mut results)).unwrap_err();
    assert!(err.contains("cannot write the PGN: disk full"), "{err}");
    let progress = String::from_utf8(progress).unwrap();
    let ended = progress.matches("Finished game ").count();
    assert!((2..8).contains(&ended), "{progress}");
    let results = String::from_utf8(results).unwrap();
    let kept = read(&results).unwrap();
    assert_eq!(
        kept.games.iter().filter(|g| g.counts()).count(),
        1,
        "{results}"
    );
    assert!(kept.elapsed.is_none(), "{results}");
    // A results file that cannot be written stops the match before any game is played.
    let mut progress = Vec::new();
    let mut full = FillsUp { writes: 0 };
    let err = run_match_to(&c, &mut progress, None, Some(&mut full)).unwrap_err();
    assert!(err.contains("cannot write the results: disk full"), "{err}");
    let progress = String::from_utf8(progress).unwrap();
    assert!(!progress.contains("Finished game"), "{progress}");
}

#[test]
fn a_slice_played_again_gives_the_same_results() {
    let mut c = config(8);
    c.slice = Shard { index: 1, count: 2 };
    let first = play(&c).1;
    c.concurrency = 1;
    let again = play(&c).1;
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

#[test]
fn a_resumed_slice_keeps_its_games_and_plays_the_rest() {
    let mut c = config(12);
    c.slice = Shard { index: 1, count: 2 };
    let (whole, full) = play(&c);
    // A run stopped after the slice's first three games: the header and their lines.
    let mut cut = format!("{}\n", full.lines().next().unwrap());
    for line in game_lines(&full).into_iter().take(3) {
        cut.push_str(line);
        cut.push('\n');
    }
    let stopped = read(&cut).unwrap();
    assert!(!stopped.is_complete());
    let mut kept = stopped.games.clone();
    assert_eq!(kept.len(), 3);
    // A game that was abandoned is played again.
    kept[1].kind = "abandoned".into();
    kept[1].winner = None;
    let (mut progress, mut results, mut pgn) = (Vec::new(), Vec::new(), Vec::new());
    let report =
        run_match_resumed(&c, &kept, &mut progress, Some(&mut pgn), Some(&mut results)).unwrap();
    let progress = String::from_utf8(progress).unwrap();
    assert!(
        progress
            .contains("Resuming: 2 of the slice's 6 games kept from the results file, 4 to play"),
        "{progress}"
    );
    let results = String::from_utf8(results).unwrap();
    assert_eq!(header_and_games(&results), header_and_games(&full));
    assert!(read(&results).unwrap().is_complete());
    assert_eq!(summary(&report), summary(&whole));
    // Only the games played now are in the PGN: 7, 9, 10 and 11 (1-based 8, 10, 11, 12).
    let pgn = String::from_utf8(pgn).unwrap();
    let mut rounds: Vec<&str> = pgn.lines().filter(|l| l.starts_with("[Round ")).collect();
    rounds.sort_by_key(|r| r[8..r.len() - 2].parse::<usize>().unwrap());
    assert_eq!(
        rounds,
        [
            "[Round \"8\"]",
            "[Round \"10\"]",
            "[Round \"11\"]",
            "[Round \"12\"]"
        ]
    );
}

#[test]
fn a_run_past_its_stop_after_time_leaves_the_rest_to_a_resume() {
    let mut c = config(12);
    c.slice = Shard { index: 1, count: 2 };
    let (whole, full) = play(&c);
    let stopped = read(&format!(
        "{}\n{}\n",
        full.lines().next().unwrap(),
        game_lines(&full)[0]
    ))
    .unwrap();
    // The time is up at once: the kept game is written again, no other game starts, and the
    // results file gets no end line.
    c.stop_after = Some(Duration::ZERO);
    let mut results = Vec::new();
    let report = run_match_resumed(
        &c,
        &stopped.games,
        &mut Vec::new(),
        None,
        Some(&mut results),
    )
    .unwrap();
    assert_eq!((report.wdl.games(), report.unplayed), (1, 5));
    assert!(
        report.to_string().contains("5 games not started"),
        "{report}"
    );
    let results = String::from_utf8(results).unwrap();
    let late = read(&results).unwrap();
    assert!(!late.is_complete());
    assert_eq!(header_and_games(&results), header_and_games(&full)[..2]);
    // A resume without the limit plays the other five: the whole slice.
    c.stop_after = None;
    let mut resumed = Vec::new();
    let report =
        run_match_resumed(&c, &late.games, &mut Vec::new(), None, Some(&mut resumed)).unwrap();
    let resumed = String::from_utf8(resumed).unwrap();
    assert!(read(&resumed).unwrap().is_complete());
    assert_eq!(header_and_games(&resumed), header_and_games(&full));
    assert_eq!(summary(&report), summary(&whole));
}

#[test]
fn the_binary_resumes_a_stopped_slice() {
    let dir = std::env::temp_dir().join(format!("chariot-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chariot = env!("CARGO_BIN_EXE_chariot");
    let run_with = |nodes: &str, name: &str, extra: &[&str]| {
        std::process::Command::new(chariot)
            .args(["match", "--engine", "proto=internal name=A option.Hash=1"])
            .args(["--engine", "proto=internal name=B option.Hash=1 nodes=1024"])
            .args(["--nodes", nodes, "--games", "8", "--max-plies", "60"])
            .args(["--slice", "1/2", "--results"])
            .arg(dir.join(format!("{name}.jsonl")))
            .arg("--pgn")
            .arg(dir.join(format!("{name}.pgn")))
            .args(extra)
            .output()
            .unwrap()
    };
    let run = |nodes: &str, name: &str, resume: bool| {
        run_with(nodes, name, if resume { &["--resume"] } else { &[] })
    };
    let ok = |out: &std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout.clone()).unwrap()
    };
    let untimed = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("Games: "))
            .map(str::to_string)
            .collect()
    };
    let unbroken = ok(&run("2048", "unbroken", false));
    let full = std::fs::read_to_string(dir.join("unbroken.jsonl")).unwrap();
    // --resume without a results file plays the whole slice.
    let fresh = ok(&run("2048", "fresh", true));
    assert_eq!(untimed(&fresh), untimed(&unbroken));
    // Past its --stop-after time (here at once) a run starts no game and exits with status 3:
    // the results file gets its header but no end line, and --resume then plays the slice.
    let late = run_with("2048", "late", &["--resume", "--stop-after", "0"]);
    assert_eq!(late.status.code(), Some(3));
    let late = String::from_utf8(late.stdout).unwrap();
    assert!(
        late.contains("Stopped at the --stop-after time: 4 games not started"),
        "{late}"
    );
    let header = std::fs::read_to_string(dir.join("late.jsonl")).unwrap();
    assert_eq!(
        header.lines().collect::<Vec<_>>(),
        [full.lines().next().unwrap()]
    );
    let late = ok(&run("2048", "late", true));
    assert_eq!(untimed(&late), untimed(&unbroken));
    // Stopped after one game, while writing the next line: the results file holds that game
    // and an unfinished line, the PGN the game.
    let mut cut: String = full.lines().take(2).map(|l| format!("{l}\n")).collect();
    cut.push_str("{\"type\":\"game\",\"ga");
    std::fs::write(dir.join("stopped.jsonl"), cut).unwrap();
    let pgn = std::fs::read_to_string(dir.join("unbroken.pgn")).unwrap();
    let second = pgn.match_indices("[Event ").nth(1).unwrap().0;
    std::fs::write(dir.join("stopped.pgn"), &pgn[..second]).unwrap();
    let resumed = run("2048", "stopped", true);
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("unfinished last line"));
    let resumed = ok(&resumed);
    assert_eq!(untimed(&resumed), untimed(&unbroken));
    let results = std::fs::read_to_string(dir.join("stopped.jsonl")).unwrap();
    assert_eq!(header_and_games(&results), header_and_games(&full));
    let pgn_after = std::fs::read_to_string(dir.join("stopped.pgn")).unwrap();
    assert_eq!(pgn_after.matches("[Event ").count(), 4);
    // A finished slice is not played again; its summary is printed.
    let again = run("2048", "stopped", true);
    assert!(String::from_utf8_lossy(&again.stderr).contains("nothing to play"));
    assert_eq!(untimed(&ok(&again)), untimed(&unbroken));
    assert_eq!(
        std::fs::read_to_string(dir.join("stopped.jsonl")).unwrap(),
        results
    );
    // The file of another run is refused and left alone.
    let foreign = run("4096", "stopped", true);
    assert_eq!(foreign.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&foreign.stderr).contains("another run"));
    assert_eq!(
        std::fs::read_to_string(dir.join("stopped.jsonl")).unwrap(),
        results
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resume_whose_engine_cannot_start_keeps_the_results_file() {
    let dir = std::env::temp_dir().join(format!("chariot-resume-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chariot = env!("CARGO_BIN_EXE_chariot");
    let script = dir.join("engine.sh");
    let results = dir.join("slice.jsonl");
    let run = |resume: bool| {
        let mut cmd = std::process::Command::new(chariot);
        cmd.arg("match")
            .arg("--engine")
            .arg(format!("cmd=bash arg={} name=Script", script.display()))
            .args(["--engine", "proto=internal name=B option.Hash=1"])
            .args(["--nodes", "256", "--games", "4", "--max-plies", "20"])
            .args(["--slice", "0/2", "--startup-timeout", "5", "--results"])
            .arg(&results);
        if resume {
            cmd.arg("--resume");
        }
        cmd.output().unwrap()
    };
    std::fs::write(&script, format!("exec {chariot}\n")).unwrap();
    let played = run(false);
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    // Stopped after one game; then the engine can no longer start.
    let full = std::fs::read_to_string(&results).unwrap();
    let cut: String = full.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&results, &cut).unwrap();
    std::fs::write(&script, "exit 1\n").unwrap();
    let failed = run(true);
    assert_eq!(failed.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&results).unwrap(), cut);
    let _ = std::fs::remove_dir_all(&dir);
}
