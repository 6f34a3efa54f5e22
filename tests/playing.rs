//! Playing people, through the real binary: the strength limit, the opening book and the
//! win/draw/loss output in every dialect, and the `chariot book` and `chariot rate` tools.

#[path = "protocol_engine.rs"]
mod support;

use std::path::PathBuf;
use std::process::Command;

use chariot::book::{Book, Entry};
use chariot::movegen::legal_moves;
use chariot::position::Position;
use chariot::search::see::see_ge;
use chariot::types::{Move, PieceKind};

use support::{bestmove_of, position, starting_with, Engine, START};

fn uci() -> Engine {
    Engine::with("uci", "uciok")
}

/// A file name in the temporary directory, unique to this process and `name`.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("chariot-playing-{}-{name}", std::process::id()))
}

/// A book file with the given (position, move, weight) entries.
fn write_book(name: &str, entries: &[(&Position, &str, u16)]) -> PathBuf {
    let entries: Vec<Entry> = entries
        .iter()
        .map(|(pos, mv, weight)| Entry {
            key: pos.key(),
            mv: mv.parse().unwrap(),
            weight: *weight,
        })
        .collect();
    let path = temp(name);
    std::fs::write(&path, Book::new(&entries, "test book").to_bytes()).unwrap();
    path
}

/// The `info … pv …` lines of a search without their timing fields.
fn untimed(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let mut out = Vec::new();
            let mut i = 0;
            while i < w.len() {
                if matches!(w[i], "nps" | "time" | "hashfull") {
                    i += 2;
                } else {
                    out.push(w[i]);
                    i += 1;
                }
            }
            out.join(" ")
        })
        .collect()
}

#[test]
fn every_dialect_offers_the_new_options_and_checks_their_values() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect_line("uciok");
    for opt in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_ShowWDL type check default false",
        "option name OwnBook type check default false",
        "option name BookFile type string default <built-in>",
        "option name BookDepth type spin default 20 min 0 max 1000",
        "option name Random Seed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(lines.iter().any(|l| l == opt), "missing '{opt}'");
    }
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Elo type spin default")));
    for good in [
        "setoption name Skill Level value 7",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1500",
        "setoption name UCI_ShowWDL value true",
        "setoption name Random Seed value 9",
        "setoption name OwnBook value true",
        "setoption name BookDepth value 12",
        "setoption name BookFile value <built-in>",
    ] {
        e.send(good);
    }
    assert!(starting_with(&e.sync(), "info string error").is_empty());
    for bad in [
        "setoption name Skill Level value 21",
        "setoption name Skill Level value strong",
        "setoption name UCI_Elo value 99999",
        "setoption name OwnBook value perhaps",
        "setoption name BookDepth value -1",
    ] {
        e.send(bad);
        assert_eq!(
            starting_with(&e.sync(), "info string error").len(),
            1,
            "{bad}"
        );
    }

    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.expect_line("ucciok");
    for opt in [
        "option skilllevel type spin min 0 max 20 default 20",
        "option usebook type check default false",
        "option bookfiles type string default <built-in>",
        "option bookdepth type spin min 0 max 1000 default 20",
    ] {
        assert!(lines.iter().any(|l| l == opt), "missing '{opt}'");
    }
    e.send("setoption skilllevel 5");
    e.send("setoption usebook true");
    assert!(starting_with(&e.sync(), "info message error").is_empty());
    e.send("setoption skilllevel 99");
    assert_eq!(starting_with(&e.sync(), "info message error").len(), 1);

    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.expect_line("feature done=1");
    for opt in [
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"OwnBook -check 0\"",
        "feature option=\"BookFile -file <built-in>\"",
        "feature option=\"BookDepth -spin 20 0 1000\"",
    ] {
        assert!(lines.iter().any(|l| l == opt), "missing '{opt}'");
    }
    e.send("option Skill Level=5");
    e.send("option Skill Level=50");
    e.send("ping 1");
    let lines = e.expect_line("pong 1");
    assert_eq!(starting_with(&lines, "Error").len(), 1, "{lines:?}");
}

#[test]
fn show_wdl_adds_per_mille_chances_that_sum_to_a_thousand() {
    let mut e = uci();
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 6");
    let plain = e.lines_until_prefix("bestmove");
    assert!(plain.iter().all(|l| !l.contains(" wdl ")));
    e.send("setoption name UCI_ShowWDL value true");
    e.send("go depth 6");
    let lines = e.lines_until_prefix("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    for l in infos {
        let w: Vec<&str> = l.split_whitespace().collect();
        let at = w.iter().position(|x| *x == "wdl").expect("a wdl field");
        let score = w.iter().position(|x| *x == "score").unwrap();
        assert!(at > score && at <= score + 4, "wdl follows the score: {l}");
        let sum: u32 = w[at + 1..at + 4]
            .iter()
            .map(|x| x.parse::<u32>().unwrap())
            .sum();
        assert_eq!(sum, 1000, "{l}");
    }
}

#[test]
fn level_twenty_plays_exactly_like_the_unlimited_engine() {
    let run = |options: &[&str]| {
        let mut e = uci();
        for o in options {
            e.send(o);
        }
        e.send("position startpos moves h2e2 h9g7 h0g2");
        e.send("go depth 7");
        let lines = e.lines_until_prefix("bestmove");
        (untimed(&lines), lines.last().cloned().unwrap())
    };
    let plain = run(&[]);
    let twenty = run(&[
        "setoption name Skill Level value 20",
        "setoption name Random Seed value 3",
    ]);
    assert_eq!(plain, twenty);
    let limited = run(&["setoption name Skill Level value 10"]);
    assert_ne!(plain.0, limited.0, "a limited level searches differently");
}

/// Best moves of `level` with `seed` along a short game (one engine per call).
fn skill_moves(level: u32, seed: u32) -> Vec<String> {
    let mut e = uci();
    e.send(&format!("setoption name Skill Level value {level}"));
    e.send(&format!("setoption name Random Seed value {seed}"));
    let mut moves: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for _ in 0..6 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go depth 20");
        let best = bestmove_of(&e.expect_prefix("bestmove"));
        out.push(best.clone());
        moves.push(best);
    }
    out
}

#[test]
fn a_fixed_seed_makes_the_skill_draws_repeat() {
    let a = skill_moves(3, 77);
    assert_eq!(a, skill_moves(3, 77));
    let pos = position(START, &[]);
    let mut p = pos.clone();
    for m in &a {
        assert!(support::is_legal(&p, m), "{m} in {}", p.fen());
        p.make_move(m.parse().unwrap());
    }
    // Another seed plays another game (these two seeds differ within six moves).
    assert_ne!(a, skill_moves(3, 78));
}

/// Positions from the opening and the middlegame for the strength tests.
const STRENGTH_POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "2Rakabr1/9/5r3/p1p1p1p1p/9/9/P1P1P1P1P/9/3C5/2BcKABNR w - - 1 7",
    "1rbakabr1/9/9/pcp1p1p1p/P8/9/2P1N1P1P/9/9/RNBAKAB1R b - - 0 6",
    "2baka3/9/n7b/1Cp3P1p/p1C1p3P/Pr7/4P4/N3B3B/R3cK3/3A1A1N1 b - - 25 46",
    "r1b2ab2/4k4/3an4/p5p1r/2pcpc2p/2C3P1P/P1P1P4/2N1B1N1R/R3A4/2BA1K1C1 b - - 32 21",
];

/// The best moves `options` play in [`STRENGTH_POSITIONS`] at a fixed node count (one
/// search thread, so the result is a function of the options alone).
fn fixed_node_moves(options: &[&str]) -> Vec<String> {
    let mut e = uci();
    e.send("setoption name Random Seed value 12345");
    for o in options {
        e.send(o);
    }
    STRENGTH_POSITIONS
        .iter()
        .map(|fen| {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            e.send("go nodes 40000");
            bestmove_of(&e.expect_prefix("bestmove"))
        })
        .collect()
}

/// The score of the last `info` line with a score in `lines`, in centipawns (mates as ±30000).
fn last_score(lines: &[String]) -> i32 {
    let l = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .expect("a score");
    let w: Vec<&str> = l.split_whitespace().collect();
    let at = w.iter().position(|x| *x == "score").unwrap();
    let v: i32 = w[at + 2].parse().unwrap();
    match w[at + 1] {
        "mate" => 30000 * v.signum(),
        _ => v,
    }
}

/// The centipawns `moves` give away in [`STRENGTH_POSITIONS`], summed: for each, the score of
/// a full-strength search minus that of the same search restricted to the move, from 0 to
/// 1000 (so that one missed mate does not outweigh everything else).
fn centipawns_lost(moves: &[String]) -> i32 {
    let mut e = uci();
    STRENGTH_POSITIONS
        .iter()
        .zip(moves)
        .map(|(fen, mv)| {
            let mut score = |restrict: &str| {
                e.send("ucinewgame");
                e.send(&format!("position fen {fen}"));
                e.send(&format!("go nodes 40000{restrict}"));
                last_score(&e.lines_until_prefix("bestmove"))
            };
            let best = score("");
            let lost = (best - score(&format!(" searchmoves {mv}"))).clamp(0, 1000);
            lost
        })
        .sum()
}

#[test]
fn limited_strength_plays_other_moves_than_full_strength_at_fixed_nodes() {
    let full = fixed_node_moves(&[]);
    let differ = |moves: &[String]| moves.iter().zip(&full).filter(|(a, b)| a != b).count();
    // Options that leave the strength alone change nothing.
    let unlimited = fixed_node_moves(&[
        "setoption name Skill Level value 20",
        "setoption name UCI_Elo value 900",
    ]);
    assert_eq!(unlimited, full, "UCI_Elo alone does not limit the strength");
    // The bottom level, by Skill Level and by UCI_LimitStrength at the lowest UCI_Elo (which
    // maps to level 0), plays the same games, and other moves than full strength.
    let bottom = fixed_node_moves(&["setoption name Skill Level value 0"]);
    let by_elo = fixed_node_moves(&[
        "setoption name UCI_LimitStrength value true",
        &format!(
            "setoption name UCI_Elo value {}",
            chariot::search::skill::ELO_MIN
        ),
    ]);
    assert_eq!(by_elo, bottom);
    assert!(
        differ(&bottom) >= STRENGTH_POSITIONS.len() / 2,
        "level 0 {bottom:?} against full strength {full:?}"
    );
    for (fen, mv) in STRENGTH_POSITIONS.iter().zip(&bottom) {
        assert!(support::is_legal(&position(fen, &[]), mv), "{mv} in {fen}");
    }
    // What the moves cost, judged by a full-strength search (normalised centipawns): level 0
    // gives away more than level 12, and at least 100 (a 50 % chance to win) over the seven
    // positions (how much more depends on the evaluation that judges them: 126 with the
    // round-8 weights).
    let middle = fixed_node_moves(&["setoption name Skill Level value 12"]);
    let (lost_bottom, lost_middle) = (centipawns_lost(&bottom), centipawns_lost(&middle));
    assert!(
        lost_bottom > lost_middle && lost_bottom >= 100,
        "lost: level 0 {lost_bottom} cp {bottom:?}, level 12 {lost_middle} cp {middle:?}"
    );
}

/// Whether Black can take a red chariot in `pos` (Black to move) and come out ahead.
fn chariot_hangs(pos: &Position) -> bool {
    legal_moves(pos).into_iter().any(|m: Move| {
        pos.piece_at(m.to())
            .is_some_and(|p| p.kind() == PieceKind::Rook)
            && see_ge(pos, m, 1)
    })
}

#[test]
fn low_levels_never_leave_a_chariot_hanging_in_a_simple_position() {
    // The black horse b6 attacks the red chariot a4; any move that does not save it loses it.
    let fen = "3aka3/9/9/1n2p4/9/R8/4P4/7N1/9/3AKA3 w - - 0 1";
    let start = position(fen, &[]);
    assert!(chariot_hangs(&{
        let mut p = start.clone();
        p.make_move("e3e4".parse().unwrap());
        p
    }));
    let mut e = uci();
    let mut played = std::collections::BTreeSet::new();
    for level in [0, 2, 5] {
        e.send(&format!("setoption name Skill Level value {level}"));
        for seed in 1..=15 {
            e.send(&format!("setoption name Random Seed value {seed}"));
            e.send(&format!("position fen {fen}"));
            e.send("go depth 10");
            let best = bestmove_of(&e.expect_prefix("bestmove"));
            let mut after = start.clone();
            after.make_move(best.parse().unwrap());
            assert!(!chariot_hangs(&after), "level {level} seed {seed}: {best}");
            played.insert(best);
        }
    }
    assert!(played.len() > 2, "low levels vary their play: {played:?}");
}

#[test]
fn book_moves_are_played_at_once_in_every_dialect() {
    let start = position(START, &[]);
    let after = position(START, &["h2e2"]);
    let book = write_book(
        "dialects.cbk",
        &[(&start, "h2e2", 100), (&after, "h9g7", 5)],
    );
    let path = book.display().to_string();

    let mut e = uci();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {path}"));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string book ") && l.ends_with("2 positions, 2 moves")),
        "{lines:?}"
    );
    e.send("position startpos");
    e.send("go wtime 60000 btime 60000");
    let lines = e.lines_until_prefix("bestmove");
    assert!(lines.contains(&"info string book h2e2 weight 100 of 100".to_string()));
    assert_eq!(lines.last().unwrap(), "bestmove h2e2 ponder h9g7");
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth")),
        "no search"
    );
    // Out of book: a search.
    e.send("position startpos moves b0c2");
    e.send("go depth 3");
    let lines = e.lines_until_prefix("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    // Beyond BookDepth: a search, even in book.
    e.send("setoption name BookDepth value 0");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.lines_until_prefix("bestmove");
    assert!(lines.iter().all(|l| !l.starts_with("info string book")));
    // go infinite analyses instead of playing from the book.
    e.send("setoption name BookDepth value 20");
    e.send("go infinite");
    e.send("stop");
    let lines = e.lines_until_prefix("bestmove");
    assert!(lines.iter().all(|l| !l.starts_with("info string book")));

    let mut e = Engine::with("ucci", "ucciok");
    e.send("setoption usebook true");
    e.send(&format!("setoption bookfiles {path}"));
    e.send("position startpos");
    e.send("go time 60000");
    let lines = e.lines_until_prefix("bestmove");
    assert!(lines.contains(&"info message book h2e2 weight 100 of 100".to_string()));
    assert_eq!(bestmove_of(lines.last().unwrap()), "h2e2");

    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect_line("feature done=1");
    e.send("option OwnBook=1");
    e.send(&format!("option BookFile={path}"));
    e.send("new");
    e.send("variant xiangqi");
    e.send("bk");
    let lines = e.read_until("an empty line", |l| l.is_empty());
    assert!(lines.contains(&" h2e2 100%".to_string()), "{lines:?}");
    e.send("go");
    let lines = e.lines_until_prefix("move ");
    assert!(lines.iter().any(|l| l == "# book h2e2 weight 100 of 100"));
    assert_eq!(lines.last().unwrap(), "move h2e2");
    let _ = std::fs::remove_file(book);
}

#[test]
fn a_book_move_into_a_perpetual_check_is_not_played() {
    // Red checks with the chariot while the general steps d9-d8-d9; i8i9 would repeat the
    // position after i0i9. The book knows only that move: the engine searches instead.
    let fen = "3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1";
    let moves = ["i0i9", "d9d8", "i9i8", "d8d9"];
    let pos = position(fen, &moves);
    let book = write_book("perpetual.cbk", &[(&pos, "i8i9", 1000)]);
    let mut e = uci();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {}", book.display()));
    e.sync();
    e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
    e.send("go depth 6");
    let lines = e.lines_until_prefix("bestmove");
    assert!(
        lines.iter().all(|l| !l.starts_with("info string book")),
        "{lines:?}"
    );
    assert_ne!(bestmove_of(lines.last().unwrap()), "i8i9");
    // Without the history the move starts nothing: the book plays it.
    e.send(&format!("position fen {}", pos.fen()));
    e.send("go depth 6");
    assert_eq!(bestmove_of(&e.expect_prefix("bestmove")), "i8i9");
    let _ = std::fs::remove_file(book);
}

#[test]
fn bad_book_files_are_reported_and_the_engine_searches() {
    let garbage = temp("garbage.cbk");
    std::fs::write(&garbage, b"CHRTBOOK but not really a book at all").unwrap();
    let missing = temp("missing.cbk");
    // A device would be read for ever if the engine did not look before reading.
    let device = PathBuf::from("/dev/zero");
    for file in [&garbage, &missing, &device] {
        let mut e = uci();
        e.send("setoption name OwnBook value true");
        e.send(&format!("setoption name BookFile value {}", file.display()));
        let lines = e.sync();
        let errors = starting_with(&lines, "info string error: book");
        assert_eq!(errors.len(), 1, "{lines:?}");
        assert!(errors[0].contains("searching without a book"));
        e.send("position startpos");
        e.send("go depth 4");
        let lines = e.lines_until_prefix("bestmove");
        assert!(lines.iter().any(|l| l.starts_with("info depth")));
        assert!(support::is_legal(
            &position(START, &[]),
            &bestmove_of(lines.last().unwrap())
        ));
    }
    let mut e = Engine::with("ucci", "ucciok");
    e.send(&format!("setoption bookfiles {}", garbage.display()));
    assert_eq!(
        starting_with(&e.sync(), "info message error: book").len(),
        1
    );
    let _ = std::fs::remove_file(garbage);
}

#[test]
fn the_built_in_book_plays_from_the_start_position() {
    let book = chariot::book::builtin().expect("the built-in book decodes");
    let start = position(START, &[]);
    let moves: Vec<String> = book
        .probe(start.key())
        .iter()
        .map(|e| e.mv.to_string())
        .collect();
    assert!(
        !moves.is_empty(),
        "the built-in book knows the start position"
    );
    let mut e = uci();
    // Off by default: the engine searches.
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.lines_until_prefix("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    assert!(lines.iter().all(|l| !l.starts_with("info string book")));
    // On: a book move at once, announced, without a search.
    e.send("setoption name OwnBook value true");
    e.send("position startpos");
    e.send("go depth 10");
    let lines = e.lines_until_prefix("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info string book ")));
    assert!(lines.iter().all(|l| !l.starts_with("info depth")));
    let best = bestmove_of(lines.last().unwrap());
    assert!(moves.contains(&best), "{best} not in {moves:?}");
}

fn chariot_tool(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .env("RUST_LOG", "off")
        .output()
        .expect("chariot runs")
}

#[test]
fn book_build_makes_a_book_from_pgn_and_refuses_bad_input() {
    let pgn = temp("games.pgn");
    let mut text = String::new();
    for (i, (moves, result)) in [
        ("h2e2 h9g7 h0g2", "1-0"),
        ("h2e2 h9g7 b0c2", "1/2-1/2"),
        ("h2e2 b9c7", "0-1"),
        ("b2e2 h9g7", "1-0"),
    ]
    .iter()
    .enumerate()
    {
        text += &format!(
            "[Event \"t\"]\n[Round \"{i}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
        );
    }
    std::fs::write(&pgn, text).unwrap();
    let out = temp("built.cbk");
    let pgn_arg = pgn.display().to_string();
    let out_arg = out.display().to_string();
    let run = chariot_tool(&[
        "book",
        "build",
        "--pgn",
        &pgn_arg,
        "--out",
        &out_arg,
        "--min-games",
        "2",
        "--min-score",
        "0",
        "--check-nodes",
        "0",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let book = Book::load(&out).unwrap();
    // h2e2 (3 games) and h9g7 after it (2 games) pass; the rest were played once.
    assert_eq!((book.positions(), book.len()), (2, 2));
    assert!(book.comment().starts_with("chariot book build --pgn"));
    let show = chariot_tool(&["book", "show", "--book", &out_arg, "--moves", "h2e2"]);
    assert!(String::from_utf8_lossy(&show.stdout).contains("h9g7"));
    std::fs::remove_file(&out).unwrap();
    // Nothing passes: an error, and no file.
    let run = chariot_tool(&[
        "book",
        "build",
        "--pgn",
        &pgn_arg,
        "--out",
        &out_arg,
        "--min-games",
        "50",
        "--check-nodes",
        "0",
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(!out.exists());
    let run = chariot_tool(&["book", "build", "--out", &out_arg]);
    assert_eq!(run.status.code(), Some(2));
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn rate_fits_ratings_from_pgn_with_an_anchor() {
    let pgn = temp("rate.pgn");
    let mut text = String::new();
    for i in 0..40 {
        let (w, b, r) = if i % 2 == 0 {
            ("A", "B", "1-0")
        } else {
            ("B", "A", "1/2-1/2")
        };
        text += &format!("[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\nh2e2 {r}\n\n");
    }
    std::fs::write(&pgn, text).unwrap();
    let p = pgn.display().to_string();
    let run = chariot_tool(&["rate", &p, "--anchor", "B=1000"]);
    assert!(run.status.success());
    let out = String::from_utf8_lossy(&run.stdout);
    // A scores 75 %: about +190 over B.
    let a_row = out.lines().find(|l| l.starts_with("| A |")).unwrap();
    let elo: f64 = a_row.split('|').nth(2).unwrap().trim().parse().unwrap();
    assert!((1170.0..1200.0).contains(&elo), "{a_row}");
    assert_eq!(
        chariot_tool(&["rate", &p, "--anchor", "C=0"]).status.code(),
        Some(2)
    );
    let _ = std::fs::remove_file(pgn);
}
