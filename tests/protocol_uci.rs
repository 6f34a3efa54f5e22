//! UCI (and the Cyclone dialect) spoken by the real binary over pipes.

#[path = "protocol_engine.rs"]
mod support;

use std::time::Duration;

use support::{
    bestmove_of, is_legal, one_to_zero, position, starting_with, Engine, BLACK_MATED, START,
};

fn uci() -> Engine {
    Engine::with("uci", "uciok")
}

fn errors(lines: &[String]) -> Vec<&String> {
    starting_with(lines, "info string error")
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect_line("uciok");
    assert!(lines[0].starts_with("id name Chariot"));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for opt in [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 128",
        "option name UCI_Variant type combo default xiangqi var xiangqi",
        "option name Rank Base type combo default auto var auto var 0 var 1",
        "option name Move Rule type combo default cxq var cxq var sixty var none",
    ] {
        assert!(
            lines.iter().any(|l| l == opt),
            "missing '{opt}' in {lines:?}"
        );
    }
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Move Overhead type spin")));
    assert_eq!(e.sync(), ["readyok"]);
}

#[test]
fn setoption_accepts_every_option_and_refuses_bad_values() {
    let mut e = uci();
    for cmd in [
        "setoption name Hash value 8",
        "setoption name Threads value 2",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name MultiPV value 2",
        "setoption name Move Overhead value 10",
        "setoption name Move Rule value sixty",
        "setoption name Rank Base value 0",
        "setoption name hash value 4",
    ] {
        e.send(cmd);
    }
    assert!(errors(&e.sync()).is_empty());
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name Threads value 1000",
        "setoption name Move Rule value forever",
        "setoption name UCI_Variant value chess",
        "setoption name Rank Base value 2",
        "setoption name Nonexistent value 1",
        "setoption name Ponder value maybe",
        "setoption Hash 8",
    ] {
        e.send(bad);
        assert_eq!(errors(&e.sync()).len(), 1, "{bad} is refused");
    }
}

/// Runs `go …` in `pos_cmd` and returns the bestmove token.
fn search(e: &mut Engine, pos_cmd: &str, go: &str) -> String {
    e.send(pos_cmd);
    e.send(go);
    bestmove_of(&e.expect_prefix("bestmove"))
}

#[test]
fn go_with_each_limit_gives_a_legal_move() {
    let mut e = uci();
    let pos = position(START, &["h2e2", "h9g7"]);
    let cmd = "position startpos moves h2e2 h9g7";
    for go in [
        "go depth 3",
        "go nodes 3000",
        "go movetime 100",
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 3000 btime 3000 movestogo 30",
        "go btime 500 wtime -20",
        "go mate 2 depth 4",
        "go depth 2 searchmoves a3a4 c3c4",
    ] {
        let best = search(&mut e, cmd, go);
        assert!(is_legal(&pos, &best), "{go}: {best} is legal");
        if go.contains("searchmoves") {
            assert!(
                best == "a3a4" || best == "c3c4",
                "{best} is one of the searchmoves"
            );
        }
    }
}

#[test]
fn info_lines_have_the_pikafish_fields() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.lines_until_prefix("bestmove");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let order: Vec<&str> = [
        "depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ]
    .into_iter()
    .filter(|w| words.contains(w))
    .collect();
    assert_eq!(order.len(), 9, "{info}");
    let pos: Vec<usize> = order
        .iter()
        .map(|w| words.iter().position(|x| x == w).unwrap())
        .collect();
    assert!(
        pos.windows(2).all(|p| p[0] < p[1]),
        "fields in order: {info}"
    );
    assert!(
        words[words.iter().position(|w| *w == "score").unwrap() + 1] == "cp"
            || words.contains(&"mate")
    );
}

#[test]
fn stop_ends_an_infinite_search_and_isready_is_answered_meanwhile() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    let before = e.sync();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "infinite waits for stop"
    );
    e.send("stop");
    let best = bestmove_of(&e.expect_prefix("bestmove"));
    assert!(is_legal(&position(START, &[]), &best));
}

#[test]
fn ponder_holds_the_move_until_ponderhit() {
    let mut e = uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h2e2");
    e.send("go ponder wtime 1000 btime 1000");
    let before = e.sync();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "no bestmove while pondering"
    );
    e.send("ponderhit");
    let best = bestmove_of(&e.expect_prefix("bestmove"));
    assert!(is_legal(&position(START, &["h2e2"]), &best));
    // A ponder miss: stop, then search the real position.
    e.send("go ponder wtime 1000 btime 1000");
    e.sync();
    e.send("stop");
    e.expect_prefix("bestmove");
    let best = search(&mut e, "position startpos moves h2e2 b9c7", "go depth 3");
    assert!(is_legal(&position(START, &["h2e2", "b9c7"]), &best));
}

#[test]
fn multipv_reports_several_lines() {
    let mut e = uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.lines_until_prefix("bestmove");
    for k in 1..=3 {
        assert!(
            lines.iter().any(|l| l.contains(&format!(" multipv {k} "))),
            "a line for multipv {k}"
        );
    }
}

#[test]
fn rank_base_auto_follows_the_gui() {
    // Pikafish style: ranks 0–9 in, 0–9 out.
    let mut e = uci();
    let best = search(&mut e, "position startpos moves h2e2 h9g7", "go depth 3");
    assert!(is_legal(&position(START, &["h2e2", "h9g7"]), &best));

    // cutechess style: UCI_Variant, then ranks 1–10 in and out.
    let mut e = uci();
    e.send("setoption name UCI_Variant value xiangqi");
    let best = search(&mut e, "position startpos", "go depth 3");
    assert!(
        is_legal(&position(START, &[]), &one_to_zero(&best)),
        "{best} is 1-10"
    );
    let best = search(&mut e, "position startpos moves h3e3 h10g8", "go depth 3");
    assert!(
        is_legal(&position(START, &["h2e2", "h9g7"]), &one_to_zero(&best)),
        "{best}"
    );

    // A move list legal only under 1–10 switches, without UCI_Variant.
    let mut e = uci();
    e.send("position startpos moves h3e3");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let best = search(&mut e, "position startpos moves h3e3", "go depth 2");
    assert!(
        is_legal(&position(START, &["h2e2"]), &one_to_zero(&best)),
        "{best}"
    );
    // …and a list legal only under 0–9 switches back.
    let best = search(&mut e, "position startpos moves h2e2 h9g7", "go depth 2");
    assert!(
        is_legal(&position(START, &["h2e2", "h9g7"]), &best),
        "{best}"
    );

    // A fixed base refuses the other numbering.
    let mut e = uci();
    e.send("setoption name Rank Base value 0");
    e.send("position startpos moves h3e3");
    assert_eq!(errors(&e.sync()).len(), 1);
}

#[test]
fn cyclone_dialect_needs_no_position_keyword() {
    let mut e = Engine::start();
    e.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves b2e2");
    e.send("go depth 3");
    let best = bestmove_of(&e.expect_prefix("bestmove"));
    assert!(is_legal(&position(START, &["b2e2"]), &best));
    e.send("startpos moves h2e2 h9g7");
    e.send("go depth 2");
    let best = bestmove_of(&e.expect_prefix("bestmove"));
    assert!(is_legal(&position(START, &["h2e2", "h9g7"]), &best));

    let mut e = Engine::with("ucicyclone", "uciok");
    e.send("startpos");
    e.send("go depth 2");
    e.expect_prefix("bestmove");
}

#[test]
fn extras_perft_d_eval_bench() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.lines_until_prefix("Nodes searched");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1920");
    assert_eq!(
        lines.iter().filter(|l| l.contains(": ")).count(),
        45,
        "44 moves and the total"
    );
    assert!(lines.iter().any(|l| l.starts_with("h2e2: ")));
    e.send("d");
    assert!(e.expect_prefix("Fen:").contains(START));
    e.send("eval");
    e.expect_prefix("Final evaluation");
    e.send("bench 2");
    e.expect_prefix("Nodes searched:");
    e.send("help");
    e.sync();
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = uci();
    e.send(&format!("position fen {BLACK_MATED}"));
    e.send("go depth 3");
    assert_eq!(e.expect_prefix("bestmove"), "bestmove (none)");
}

#[test]
fn bad_input_is_reported_and_the_last_good_position_stays() {
    let mut e = uci();
    e.send("position startpos moves h2e2");
    let good = position(START, &["h2e2"]).fen();
    let long = format!("position startpos moves {}", "h2e2 ".repeat(60_000));
    let cases: Vec<(&str, bool)> = vec![
        ("foo", true),
        ("position", true),
        ("position fen", true),
        ("position fen garbage", true),
        (
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            true,
        ),
        ("position fen 9/9/9/9/9/9/9/9/9/9 w", true),
        ("position startpos moves a0a5", true),
        ("position startpos moves zz", true),
        ("position startpos moves h2e2 h2e2", true),
        ("position startpos junk", true),
        ("go depth", true),
        ("go depth -1", true),
        ("go depth x", true),
        ("go nodes 0", true),
        ("go movetime soon", true),
        ("go searchmoves a0a5", true),
        ("go sideways", true),
        ("go perft 99", true),
        ("setoption name Threads value -1", true),
        ("debug maybe", true),
        (long.as_str(), true),
        ("stop", false),
        ("ponderhit", false),
        ("   ", false),
        ("\t", false),
    ];
    for (input, is_error) in cases {
        e.send(input);
        let lines = e.sync();
        let n = errors(&lines).len();
        assert_eq!(
            n,
            is_error as usize,
            "'{}': {lines:?}",
            &input[..input.len().min(60)]
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "no stray bestmove"
        );
    }
    e.send_bytes(b"go \xff\xfe depth 3\n");
    assert_eq!(errors(&e.sync()).len(), 1);
    e.send("d");
    assert_eq!(e.expect_prefix("Fen:"), format!("Fen: {good}"));
}

#[test]
fn end_of_input_stops_the_search_and_prints_its_move() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    e.sync();
    e.close();
    let rest = e.rest();
    assert!(rest.iter().any(|l| l.starts_with("bestmove")), "{rest:?}");
    assert!(e.wait_exit().success());
}

#[test]
fn quit_while_searching_exits() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    e.send("quit");
    e.rest();
    assert!(e.wait_exit().success());
}

#[test]
fn an_unknown_first_line_gets_a_hint() {
    let mut e = Engine::start();
    e.send("hello");
    let hint = e.next_line().unwrap();
    assert!(hint.contains("uci") && hint.contains("xboard"), "{hint}");
    e.send("");
    e.send("uci");
    e.expect_line("uciok");
    assert!(e.drain_for(Duration::from_millis(50)).is_empty());
}
