//! `chariot selfplay`: output format, determinism across thread counts, shards that merge
//! into the whole run, position filters, adjudication and PGN.

use chariot::matches::openings::Opening;
use chariot::matches::pgn::read_games;
use chariot::position::Position;
use chariot::selfplay::{run, Adjudication, SearchLimit, SelfplayConfig, Shard};

fn config(games: usize) -> SelfplayConfig {
    let mut c = SelfplayConfig::new(games, SearchLimit::Nodes(150));
    c.hash_mb = 1;
    c.max_plies = 160;
    c.seed = 7;
    c
}

fn play(config: &SelfplayConfig) -> (String, String, chariot::selfplay::SelfplayReport) {
    let (mut out, mut pgn, mut progress) = (Vec::new(), Vec::new(), Vec::new());
    let report = run(config, &mut out, Some(&mut pgn), &mut progress, false).unwrap();
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(pgn).unwrap(),
        report,
    )
}

#[test]
fn output_lines_are_fen_result_score_ply() {
    let (out, pgn, report) = play(&config(2));
    assert_eq!(report.games, 2);
    assert_eq!(out.lines().count(), report.positions);
    assert!(report.positions > 20);
    let games: Vec<_> = read_games(&pgn).into_iter().map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 2);
    for line in out.lines() {
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(fields.len(), 4, "{line}");
        Position::from_fen(fields[0]).unwrap();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&fields[1]), "{line}");
        fields[2].parse::<i32>().unwrap();
        // 8 random plies come first, so sampled positions start at ply 8.
        assert!(fields[3].parse::<usize>().unwrap() >= 8, "{line}");
    }
    // Results in the data agree with the PGN results, game by game.
    let results: Vec<&str> = games.iter().map(|g| g.result.as_str()).collect();
    let first = out.lines().next().unwrap().split(';').nth(1).unwrap();
    assert_eq!(first, results[0]);
}

#[test]
fn same_seed_same_data_for_any_thread_count_and_shards_merge() {
    let one = play(&config(4)).0;
    let mut two_threads = config(4);
    two_threads.threads = 2;
    assert_eq!(
        play(&two_threads).0,
        one,
        "threads must not change the data"
    );
    // Shards concatenated in shard order are the whole run byte for byte, PGN included,
    // also when the shards are of unequal size (4 games over 3 shards).
    let (whole, whole_pgn, _) = play(&config(4));
    let (mut shards, mut shards_pgn) = (String::new(), String::new());
    for index in 0..3 {
        let mut c = config(4);
        c.shard = Shard { index, count: 3 };
        let (out, pgn, report) = play(&c);
        assert_eq!(report.games, c.shard.range(4).len());
        shards.push_str(&out);
        shards_pgn.push_str(&pgn);
    }
    assert_eq!(shards, whole, "cat of the shards = the whole run");
    let undated = |pgn: &str| -> Vec<String> {
        pgn.lines()
            .filter(|l| !l.starts_with("[Date "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(undated(&shards_pgn), undated(&whole_pgn));
    assert_eq!(whole, one);
    let mut other_seed = config(4);
    other_seed.seed = 8;
    assert_ne!(play(&other_seed).0, one);
}

#[test]
fn filters_drop_checks_and_noisy_positions() {
    let all = play(&config(3)).0;
    let mut c = config(3);
    c.skip_check = true;
    c.skip_noisy = true;
    let quiet = play(&c).0;
    assert!(quiet.lines().count() < all.lines().count());
    for line in quiet.lines() {
        let pos = Position::from_fen(line.split(';').next().unwrap()).unwrap();
        assert!(!pos.in_check(), "{line}");
    }
}

#[test]
fn adjudication_and_openings_shape_the_games() {
    let mut c = config(2);
    c.adjudication = Adjudication {
        resign: Some((100, 1)),
        draw: Some((5, 3, 0)),
    };
    c.random_plies = 0;
    c.openings = vec![Opening {
        fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".into(),
        moves: vec!["h2e2".parse().unwrap(), "h9g7".parse().unwrap()],
    }];
    let (out, pgn, report) = play(&c);
    let adjudicated: usize = report
        .endings
        .iter()
        .filter(|(k, _)| k.starts_with("adjudication"))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(adjudicated, 2, "{:?}", report.endings);
    for g in read_games(&pgn) {
        let g = g.unwrap();
        assert_eq!(g.moves[..2], c.openings[0].moves[..]);
    }
    // The first sample is the position after the book moves, at ply 2.
    assert!(out.lines().next().unwrap().ends_with(";2"));
}

#[test]
fn the_binary_writes_data_and_a_summary() {
    let dir = std::env::temp_dir().join(format!("chariot-selfplay-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("data.txt");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args([
            "selfplay",
            "--games",
            "2",
            "--nodes",
            "100",
            "--threads",
            "2",
            "--seed",
            "3",
        ])
        .args([
            "--shard",
            "0/1",
            "--skip-check",
            "--max-plies",
            "120",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("=== Self-play summary ==="), "{stderr}");
    assert!(stderr.contains("games 2/2"), "{stderr}");
    let data = std::fs::read_to_string(&out).unwrap();
    assert!(data.lines().count() > 10);
    let _ = std::fs::remove_dir_all(&dir);
}
