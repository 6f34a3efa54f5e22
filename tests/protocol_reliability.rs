//! Reliability of the protocol layer, spoken by the real binary over pipes: no command sequence
//! may leave the engine unable to answer `ping`/`isready` or to exit on `quit`. Every wait
//! here has the support module's timeout, so a hang fails the test instead of stalling it.

#[path = "protocol_engine.rs"]
mod support;

use support::{is_legal, position, Engine, START};

/// An XBoard session after the handshake and `new`.
fn xboard() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect_line("feature done=1");
    e.send("new");
    e.send("variant xiangqi");
    e
}

/// Sends `ping n` and returns the lines up to `pong n`.
fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    e.expect_line(&format!("pong {n}"))
}

#[test]
fn xboard_configuration_while_thinking_with_pondering_waits_for_the_move() {
    for (n, command) in ["memory 64", "cores 2", "option Clear Hash"]
        .into_iter()
        .enumerate()
    {
        let mut e = xboard();
        e.send("hard");
        e.send("st 1");
        e.send("usermove h2e2");
        e.send(command);
        let lines = ping(&mut e, n as u32);
        let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
        assert_eq!(moves.len(), 1, "{command}: one move before pong: {lines:?}");
        let reply = moves[0].trim_start_matches("move ");
        assert!(is_legal(&position(START, &["h2e2"]), reply), "{reply}");
        // The engine still plays (and ponders) normally afterwards.
        e.send("?");
        ping(&mut e, 100 + n as u32);
        e.send("quit");
        assert!(e.wait_exit().success(), "{command}: quit exits");
    }
}

#[test]
fn xboard_configuration_while_pondering_or_analysing_is_obeyed_at_once() {
    let mut e = xboard();
    e.send("hard");
    e.send("st 0.3");
    e.send("usermove h2e2");
    e.expect_prefix("move ");
    // Now pondering on the opponent's time: the command stops the ponder search.
    e.send("memory 32");
    e.send("cores 2");
    ping(&mut e, 1);
    e.send("force");
    e.send("analyze");
    e.send("memory 16");
    e.send("option Clear Hash");
    ping(&mut e, 2);
    // Analysis resumed: thinking lines keep coming until `exit`.
    e.read_until("thinking output", |l| {
        l.chars().next().is_some_and(|c| c.is_ascii_digit())
    });
    e.send("exit");
    ping(&mut e, 3);
    e.close();
    assert!(e.wait_exit().success(), "end of input exits");
}

#[test]
fn xboard_quit_while_thinking_with_a_deferred_command_exits() {
    let mut e = xboard();
    e.send("hard");
    e.send("st 30");
    e.send("usermove h2e2");
    e.send("memory 64");
    e.send("quit");
    assert!(e.wait_exit().success());
}

/// The sizes of the `info string hash table: N MiB` lines among `lines`.
fn hash_sizes(lines: &[String]) -> Vec<usize> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string hash table: "))
        .map(|s| s.trim_end_matches(" MiB").parse().expect("a size in MiB"))
        .collect()
}

#[test]
fn uci_hash_says_the_size_allocated() {
    let mut e = Engine::with("uci", "uciok");
    e.send("setoption name Hash value 3");
    assert_eq!(hash_sizes(&e.sync()), [3]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_hash_beyond_the_memory_allowed_falls_back_and_is_the_same_twice() {
    // Under a 1 GiB address-space limit the system refuses most of what is asked. The old
    // table is freed before the new one is allocated, so asking twice gives the same size.
    let mut e = Engine::start_in_shell("ulimit -v 1048576 && exec \"$0\"");
    e.send("uci");
    e.expect_line("uciok");
    let mut sizes = Vec::new();
    for _ in 0..2 {
        e.send("setoption name Hash value 65536");
        let lines = e.sync();
        assert!(
            lines.iter().any(|l| l.contains("the system refused")),
            "the refusal is reported: {lines:?}"
        );
        sizes.extend(hash_sizes(&lines));
    }
    assert_eq!(sizes.len(), 2, "{sizes:?}");
    assert_eq!(sizes[0], sizes[1], "the same request gives the same size");
    assert!((1..1024).contains(&sizes[0]), "{sizes:?}");
    // The engine goes on working with the table it got.
    e.send("position startpos");
    e.send("go depth 4");
    let best = e.expect_prefix("bestmove");
    let mv = best.split_whitespace().nth(1).unwrap_or("");
    assert!(is_legal(&position(START, &[]), mv), "{best}");
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[test]
fn stop_ends_a_long_perft_and_isready_is_answered_meanwhile() {
    let mut e = Engine::with("uci", "uciok");
    e.send("go perft 12");
    assert_eq!(e.sync(), ["readyok"], "answered while perft runs");
    e.send("stop");
    let note = e.expect_prefix("info string perft 12 stopped");
    assert!(note.contains("root moves counted"), "{note}");
    assert_eq!(e.sync(), ["readyok"]);
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let best = e.expect_prefix("bestmove");
    let mv = best.split_whitespace().nth(1).unwrap_or("");
    assert!(is_legal(&position(START, &["h2e2"]), mv), "{best}");
}

#[test]
fn quit_and_end_of_input_end_a_long_perft_or_bench() {
    for (hello, ok, job, end) in [
        ("uci", "uciok", "go perft 12", "quit"),
        ("uci", "uciok", "bench 60", "eof"),
        ("ucci", "ucciok", "perft 12", "eof"),
        ("ucci", "ucciok", "bench 60", "quit"),
        ("xboard", "", "perft 12", "quit"),
        ("xboard", "", "bench 60", "eof"),
    ] {
        let mut e = Engine::start();
        e.send(hello);
        if !ok.is_empty() {
            e.expect_line(ok);
        }
        e.send(job);
        if end == "quit" {
            e.send("quit");
        } else {
            e.close();
        }
        assert!(e.wait_exit().success(), "{hello} {job} {end}");
    }
}

#[test]
fn a_hash_change_is_reported_before_readyok_and_commands_keep_their_order() {
    let mut e = Engine::with("uci", "uciok");
    e.send("setoption name Hash value 64");
    e.send("position startpos moves h2e2");
    e.send("setoption name Threads value 2");
    e.send("ucinewgame");
    e.send("position startpos moves b2e2");
    e.send("go depth 3");
    let lines = e.lines_until_prefix("bestmove");
    assert!(
        lines.contains(&"info string hash table: 64 MiB".to_string()),
        "{lines:?}"
    );
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap_or("");
    assert!(is_legal(&position(START, &["b2e2"]), best), "{lines:?}");
    e.send("setoption name Hash value 32");
    e.send("quit");
    assert!(e.wait_exit().success());
}

#[cfg(target_os = "linux")]
#[test]
fn threads_beyond_the_memory_allowed_are_reported_and_the_engine_searches_with_fewer() {
    // 256 workers need about 800 MiB: under a 700 MB address-space limit only some fit (and
    // the system may refuse threads for them too); the engine says so and keeps working.
    let mut e = Engine::start_in_shell("ulimit -v 700000 && exec \"$0\"");
    e.send("uci");
    e.expect_line("uciok");
    e.send("setoption name Threads value 256");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Threads 256: memory for")),
        "{lines:?}"
    );
    e.send("go depth 3");
    let best = e.expect_prefix("bestmove");
    let mv = best.split_whitespace().nth(1).unwrap_or("");
    assert!(is_legal(&position(START, &[]), mv), "{best}");
    e.send("quit");
    assert!(e.wait_exit().success());
}
