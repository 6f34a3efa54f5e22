//! The command-line tools refuse nonsense: depths beyond their bounds, empty suites, zero or
//! negative counts, unusable files; each such run exits with status 2 and says why on stderr,
//! and writes nothing.

use std::path::PathBuf;
use std::process::{Command, Output};

use chariot::movegen::perft::{parse_epd, MAX_DEPTH};

fn chariot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts exit status 2 and a message on stderr that contains `needle`.
fn refused(args: &[&str], needle: &str) {
    let out = chariot(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Black is checkmated: no legal move, so perft is 0 at every depth, however deep.
const MATED: &str = "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1";

#[test]
fn perft_depths_above_the_bound_are_refused_and_the_bound_itself_runs() {
    refused(&["perft", "100000"], "not in 1..=64");
    refused(&["perft", "65"], "not in 1..=64");
    refused(&["perft", "0"], "not in 1..=64");
    let out = chariot(&["perft", &MAX_DEPTH.to_string(), "--fen", MATED]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "Nodes searched: 0");
}

#[test]
fn epd_depths_outside_the_bound_are_parse_errors() {
    let fen = "3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1";
    for depth in ["0", "65", "4294967295"] {
        let err = parse_epd(&format!("{fen};D1 1;D{depth} 1")).unwrap_err();
        assert!(err.starts_with("line 1: depth"), "{err}");
    }
    assert_eq!(
        parse_epd(&format!("{MATED};D64 0")).unwrap()[0].counts,
        [(64, 0)]
    );
    let dir = scratch("epd");
    let deep = dir.join("deep.epd");
    std::fs::write(&deep, format!("{fen};D4294967295 1\n")).unwrap();
    refused(
        &["perft", "--epd", deep.to_str().unwrap()],
        "line 1: depth 4294967295",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_epd_run_that_checks_nothing_is_an_error() {
    refused(&["perft", "--epd", "/dev/null"], "no positions");
    let dir = scratch("nothing");
    let suite = dir.join("suite.epd");
    std::fs::write(&suite, format!("# a comment\n{MATED};D1 0;D2 0\n")).unwrap();
    let suite = suite.to_str().unwrap();
    refused(
        &["perft", "--epd", suite, "3"],
        "no count to check at depth 3",
    );
    refused(&["perft", "--epd", suite, "--max-nodes", "0"], "not in 1..");
    let out = chariot(&["perft", "--epd", suite, "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "1/1 positions correct");
    refused(&["perft", "--epd", "/nonexistent/suite.epd"], "cannot read");
    // --fen and --divide belong to single-position runs.
    refused(
        &["perft", "--epd", suite, "--fen", MATED],
        "cannot be used with",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_depth_threads_and_hash_are_checked() {
    refused(&["bench", "--depth", "0"], "not in 1..=64");
    refused(&["bench", "--depth", "1000"], "not in 1..=64");
    refused(&["bench", "--threads", "0"], "1..=256");
    refused(&["bench", "--hash", "0"], "1..=65536");
    refused(&["perft", "2", "--threads", "0"], "1..=256");
}

#[test]
fn protocol_perft_and_bench_depths_share_the_bounds() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\ngo perft 65\nbench 65\nbench 0\nperft 100000\nisready\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    assert_eq!(text.matches("is out of range 1..64").count(), 4, "{text}");
    assert!(text.contains("readyok"), "{text}");
}

/// Four quiet positions: an extra chariot wins; a horse and a crossed soldier drew, which the
/// evaluation does not expect (so the fit has something to learn).
const TUNE_DATA: &str = "\
4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1;1-0
4k4/9/9/9/9/9/9/9/8R/3K5 b - - 0 1;1-0
4k4/9/9/9/4P4/9/9/9/4N4/3K5 w - - 0 1;1/2-1/2
4k4/9/9/9/R8/9/9/9/9/3K5 b - - 0 1;1-0
";

#[test]
fn tune_refuses_step_sizes_epochs_and_terms_that_cannot_fit_and_writes_nothing() {
    let dir = scratch("tune-args");
    let data = dir.join("data.txt");
    std::fs::write(&data, TUNE_DATA).unwrap();
    let out = dir.join("weights.rs");
    let (data, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    for lr in ["nan", "inf", "1e308", "-1", "0", "101"] {
        refused(
            &[
                "tune",
                "--data",
                data,
                "--out",
                out_s,
                &format!("--lr={lr}"),
            ],
            "is not a step size above 0 and at most 100",
        );
    }
    refused(
        &[
            "tune",
            "--data",
            data,
            "--out",
            out_s,
            "--from-term",
            "99999",
        ],
        "0..=716",
    );
    refused(
        &["tune", "--data", data, "--out", out_s, "--epochs", "0"],
        "at least 1",
    );
    refused(
        &["tune", "--data", data, "--out", out_s, "--limit", "0"],
        "at least 1",
    );
    refused(
        &["tune", "--data", "/nonexistent/data.txt", "--out", out_s],
        "cannot read",
    );
    assert!(!out.exists(), "nothing may be written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_writes_a_new_file_by_default_and_never_the_source() {
    let dir = scratch("tune-default");
    std::fs::write(dir.join("data.txt"), TUNE_DATA).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .current_dir(&dir)
        .args(["tune", "--data", "data.txt", "--epochs", "20", "--lr", "2"])
        .arg("--free-scale")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read_to_string(dir.join("tuning/data/weights.rs")).unwrap();
    assert!(written.starts_with("// @generated by `chariot tune --data data.txt"));
    assert!(!dir.join("src").exists());
    // The summary line that tuning/run.sh reads: the loss went down.
    let summary = stdout(&out);
    let words: Vec<&str> = summary.split_whitespace().collect();
    assert_eq!(words[..1], ["positions"], "{summary}");
    let (before, after): (f64, f64) = (words[6].parse().unwrap(), words[8].parse().unwrap());
    assert!(after < before, "{summary}");
    // A loss chart that cannot be written fails the run (the weights are still written).
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .current_dir(&dir)
        .args(["tune", "--data", "data.txt", "--epochs", "5", "--lr", "2"])
        .args(["--out", "again.rs", "--svg", "no/such/dir/loss.svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot write no/such/dir/loss.svg"));
    assert!(dir.join("again.rs").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// What `TUNE_DATA` teaches, contradicted: the chariots drew and the horse with the soldier won.
const CONTRARY_DATA: &str = "\
4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1;1/2-1/2
4k4/9/9/9/9/9/9/9/8R/3K5 b - - 0 1;1/2-1/2
4k4/9/9/9/4P4/9/9/9/4N4/3K5 w - - 0 1;1-0
";

#[test]
fn tune_reports_the_held_out_loss_and_refuses_a_fit_that_raises_it() {
    let dir = scratch("tune-validate");
    let data = dir.join("data.txt");
    std::fs::write(&data, TUNE_DATA).unwrap();
    let contrary = dir.join("contrary.txt");
    std::fs::write(&contrary, CONTRARY_DATA).unwrap();
    let out = dir.join("w.rs");
    let (data, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let tune = |validate: &str| {
        chariot(&[
            "tune",
            "--data",
            data,
            "--out",
            out_s,
            "--epochs",
            "20",
            "--lr",
            "2",
            "--free-scale",
            "--validate",
            validate,
        ])
    };
    // Held-out positions that agree with the training data: the fit lowers their loss too.
    let run = tune(data);
    assert!(run.status.success(), "{}", stderr(&run));
    let summary = stdout(&run);
    let words: Vec<&str> = summary.split_whitespace().collect();
    assert_eq!(words[12..14], ["held-out", "4"], "{summary}");
    let (before, after): (f64, f64) = (words[15].parse().unwrap(), words[17].parse().unwrap());
    assert!(after < before, "{summary}");
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains(&format!("--validate {data}")));
    std::fs::remove_file(&out).unwrap();
    // Held-out positions that contradict it: the same fit is refused and nothing is written.
    let run = tune(contrary.to_str().unwrap());
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("predict the held-out positions worse"),
        "{}",
        stderr(&run)
    );
    assert!(!out.exists(), "nothing may be written");
    // Held-out data that cannot be read is a usage error, as for --data.
    refused(
        &[
            "tune",
            "--data",
            data,
            "--out",
            out_s,
            "--validate",
            "/nonexistent/held-out.txt",
        ],
        "cannot read /nonexistent/held-out.txt",
    );
    assert!(!out.exists(), "nothing may be written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_skips_lines_that_are_not_utf8_and_counts_them() {
    let dir = scratch("tune-utf8");
    let mut data = TUNE_DATA.as_bytes().to_vec();
    data.extend_from_slice(b"4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1;1-0 \xff\xfe\n");
    std::fs::write(dir.join("data.txt"), data).unwrap();
    let out = chariot(&[
        "tune",
        "--data",
        dir.join("data.txt").to_str().unwrap(),
        "--out",
        dir.join("w.rs").to_str().unwrap(),
        "--epochs",
        "10",
        "--free-scale",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("skipped 1 line(s) that are not valid UTF-8"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).starts_with("positions 4 "), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_refuses_runs_that_would_do_nothing_or_nonsense_and_creates_no_file() {
    let dir = scratch("selfplay");
    let out = dir.join("data.txt");
    let out_s = out.to_str().unwrap();
    let run = |extra: &[&str], needle: &str| {
        let mut args = vec!["selfplay", "--out", out_s];
        args.extend_from_slice(extra);
        refused(&args, needle);
        assert!(!out.exists(), "{extra:?} created {out_s}");
    };
    run(&["--games", "0", "--nodes", "100"], "at least 1");
    run(&["--games", "2", "--nodes", "0"], "not in 1..");
    run(&["--games", "2", "--depth", "0"], "1..=64");
    run(&["--games", "2", "--depth", "65"], "1..=64");
    run(
        &["--games", "2", "--nodes", "9", "--threads", "0"],
        "1..=256",
    );
    run(
        &["--games", "2", "--nodes", "9", "--hash", "0"],
        "1..=65536",
    );
    run(
        &["--games", "2", "--nodes", "9", "--max-plies", "0"],
        "at least 1",
    );
    run(
        &["--games", "2", "--nodes", "9", "--resign-score=-300"],
        "not in 1..",
    );
    run(
        &[
            "--games",
            "2",
            "--nodes",
            "9",
            "--resign-score",
            "300",
            "--resign-moves",
            "0",
        ],
        "at least 1",
    );
    run(
        &["--games", "2", "--nodes", "9", "--draw-score=-1"],
        "not in 0..",
    );
    run(
        &["--games", "1", "--nodes", "9", "--shard", "0/2"],
        "shard 0/2 of 1 games plays none",
    );
    run(
        &[
            "--games",
            "2",
            "--nodes",
            "9",
            "--openings",
            "/nonexistent/book.epd",
        ],
        "cannot read openings",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_refuses_zero_counts_and_depths_beyond_the_bound() {
    let engines = [
        "--engine",
        "proto=internal name=A",
        "--engine",
        "proto=internal name=B",
    ];
    let run = |extra: &[&str], needle: &str| {
        let mut args = vec!["match"];
        args.extend_from_slice(&engines);
        args.extend_from_slice(extra);
        refused(&args, needle);
    };
    run(&["--nodes", "10", "--games", "0"], "at least 1");
    run(&["--nodes", "0", "--games", "2"], "not in 1..");
    run(&["--movetime", "0", "--games", "2"], "not in 1..");
    run(&["--depth", "0", "--games", "2"], "1..=64");
    run(&["--depth", "65", "--games", "2"], "1..=64");
    run(
        &["--nodes", "10", "--games", "2", "--concurrency", "0"],
        "at least 1",
    );
    run(
        &["--nodes", "10", "--games", "2", "--max-plies", "0"],
        "at least 1",
    );
    run(
        &["--nodes", "10", "--games", "2", "--move-timeout", "0"],
        "not in 1..",
    );
    run(
        &["--nodes", "10", "--games", "2", "--startup-timeout", "0"],
        "not in 1..",
    );
    run(
        &["--nodes", "10", "--games", "2", "--stop-after", "1.5"],
        "not a whole number in 0..=1000000",
    );
    run(&["--tc", "0+0", "--games", "2"], "bad time control");
    run(
        &[
            "--nodes",
            "10",
            "--games",
            "2",
            "--openings",
            "/nonexistent/book.epd",
        ],
        "cannot read openings",
    );
}

#[test]
fn match_refuses_slices_without_games_and_engine_node_limits_without_a_fixed_limit() {
    let dir = scratch("match-slice");
    let results = dir.join("slice.jsonl");
    let pgn = dir.join("slice.pgn");
    let mut args = vec![
        "match",
        "--engine",
        "proto=internal name=A",
        "--engine",
        "proto=internal name=B",
    ];
    args.extend_from_slice(&["--results", results.to_str().unwrap()]);
    args.extend_from_slice(&["--pgn", pgn.to_str().unwrap(), "--nodes", "10"]);
    let run = |extra: &[&str], needle: &str| {
        let mut all = args.clone();
        all.extend_from_slice(extra);
        refused(&all, needle);
        assert!(
            !results.exists() && !pgn.exists(),
            "{extra:?} created a file"
        );
    };
    // 3 games are 2 pairs, split over 3 slices: the first slice's block is empty.
    run(
        &["--games", "3", "--slice", "0/3"],
        "slice 0/3 of 3 games (2 pairs) plays none",
    );
    run(&["--games", "3", "--slice", "3/3"], "bad shard '3/3'");
    run(&["--games", "3", "--slice", "0/0"], "bad shard '0/0'");
    run(&["--games", "3", "--slice", "x"], "bad shard 'x'");
    let _ = std::fs::remove_dir_all(&dir);
    refused(
        &[
            "match",
            "--engine",
            "proto=internal name=A nodes=0",
            "--engine",
            "proto=internal name=B",
            "--nodes",
            "10",
            "--games",
            "2",
        ],
        "nodes must be a positive number",
    );
    refused(
        &[
            "match",
            "--engine",
            "proto=internal name=A nodes=100",
            "--engine",
            "proto=internal name=B",
            "--movetime",
            "10",
            "--games",
            "2",
        ],
        "nodes= needs the match to use --nodes or --depth",
    );
}

#[test]
fn match_merge_refuses_missing_unreadable_and_foreign_files() {
    refused(&["match", "merge"], "required");
    refused(
        &["match", "merge", "/nonexistent/slice.jsonl"],
        "cannot read /nonexistent/slice.jsonl",
    );
    let dir = scratch("merge");
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let empty = empty.to_str().unwrap();
    refused(&["match", "merge", empty], "no header (empty file)");
    let garbage = dir.join("garbage.jsonl");
    std::fs::write(&garbage, "{\"type\":\"header\"}\nnot json\n").unwrap();
    refused(
        &["match", "merge", garbage.to_str().unwrap()],
        "garbage.jsonl: line 1:",
    );
    // A slice's flags belong to playing, not to merging.
    refused(
        &["match", "--games", "2", "merge", empty],
        "cannot be used with",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn judge_and_eval_refuse_bad_positions_and_moves() {
    refused(&["eval", "--fen", "not a fen"], "bad FEN");
    refused(&["judge", "--fen", "not a fen"], "bad FEN");
    refused(&["judge", "--moves", "h2e2 zz"], "move 2");
    refused(&["judge", "--moves", "h2e3"], "illegal move h2e3");
    refused(&["judge", "--rule", "fifty"], "invalid value 'fifty'");
}
