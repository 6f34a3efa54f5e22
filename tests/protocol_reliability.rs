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
