//! XBoard / CECP v2 spoken by the real binary over pipes.

#[path = "protocol_engine.rs"]
mod support;

use support::{is_legal, position, Engine, BLACK_MATED, RED_LOST, RED_MATES_IN_ONE, START};

/// A session after the handshake and `new` / `variant xiangqi`, with fast moves.
fn xboard() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect_line("feature done=1");
    e.send("new");
    e.send("variant xiangqi");
    e.send("st 0.2");
    e.send("sd 4");
    sync(&mut e, 0);
    e
}

/// Sends `ping n` and returns the lines up to `pong n`.
fn sync(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    e.expect_line(&format!("pong {n}"))
}

fn move_of(line: &str) -> String {
    line.strip_prefix("move ").unwrap_or("").to_string()
}

#[test]
fn protover_2_sends_the_features() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.expect_line("feature done=1");
    let features = lines.join(" ");
    for f in [
        "myname=\"Chariot",
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "memory=1",
        "smp=1",
        "colors=0",
        "sigint=0",
        "sigterm=0",
        "analyze=1",
        "option=\"Move Rule -combo *cxq /// sixty /// none\"",
    ] {
        assert!(features.contains(f), "missing {f} in {features}");
    }
    sync(&mut e, 1);
}

#[test]
fn a_game_flows_through_force_go_usermove_undo_and_remove() {
    let mut e = xboard();
    e.send("force");
    e.send("usermove h2e2");
    e.send("usermove h9g7");
    e.send("go");
    let reply = move_of(&e.expect_prefix("move "));
    let pos = position(START, &["h2e2", "h9g7"]);
    assert!(is_legal(&pos, &reply), "{reply}");
    // The engine now plays Black's opponent: it answers our moves.
    let mut after = pos.clone();
    after.make_move(reply.parse().unwrap());
    let ours = chariot::movegen::legal_moves(&after)[0].to_string();
    e.send(&format!("usermove {ours}"));
    let reply2 = move_of(&e.expect_prefix("move "));
    after.make_move(ours.parse().unwrap());
    assert!(is_legal(&after, &reply2), "{reply2}");
    // Take back the last two moves, then one more, and let the engine move from there.
    e.send("force");
    e.send("remove");
    e.send("undo");
    e.send("go");
    let again = move_of(&e.expect_prefix("move "));
    assert!(is_legal(&pos, &again), "{again} after undo");
    sync(&mut e, 2);
}

#[test]
fn bare_moves_and_playother_work_too() {
    let mut e = xboard();
    e.send("force");
    e.send("h2e2");
    // Black is on move: the engine now plays Red and answers Black's move.
    e.send("playother");
    let lines = sync(&mut e, 3);
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    e.send("h9g7");
    let reply = move_of(&e.expect_prefix("move "));
    assert!(
        is_legal(&position(START, &["h2e2", "h9g7"]), &reply),
        "{reply}"
    );
}

#[test]
fn ping_during_thinking_waits_for_the_move() {
    let mut e = xboard();
    e.send("go");
    e.send("ping 9");
    let lines = e.expect_line("pong 9");
    assert!(
        lines.iter().any(|l| l.starts_with("move ")),
        "the move comes before pong: {lines:?}"
    );
}

#[test]
fn move_now_and_time_controls() {
    let mut e = xboard();
    e.send("level 0 0:30 0.1");
    e.send("time 3000");
    e.send("otim 3000");
    e.send("post");
    e.send("go");
    let reply = move_of(&e.expect_prefix("move "));
    assert!(is_legal(&position(START, &[]), &reply));
    e.send("force");
    e.send("new");
    e.send("level 40 5 0");
    e.send("sd 30");
    e.send("go");
    e.send("?");
    let reply = move_of(&e.expect_prefix("move "));
    assert!(is_legal(&position(START, &[]), &reply));
}

#[test]
fn thinking_output_follows_post() {
    let mut e = xboard();
    e.send("post");
    e.send("go");
    let lines = e.lines_until_prefix("move ");
    let thinking: Vec<&String> = lines
        .iter()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    let fields: Vec<&str> = thinking[0].split_whitespace().collect();
    assert!(
        fields.len() >= 5 && fields[..4].iter().all(|f| f.parse::<i64>().is_ok()),
        "{thinking:?}"
    );
    e.send("force");
    e.send("nopost");
    e.send("go");
    let lines = e.lines_until_prefix("move ");
    assert_eq!(lines.len(), 1, "no thinking after nopost: {lines:?}");
}

#[test]
fn setboard_accepts_h_and_e_letters_and_refuses_bad_fens() {
    let mut e = xboard();
    e.send("force");
    e.send("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
    e.send("go");
    let reply = move_of(&e.expect_prefix("move "));
    assert!(is_legal(&position(START, &[]), &reply));
    e.send("force");
    e.send("setboard 9/9/9 w");
    let line = e.expect_prefix("tellusererror");
    assert!(line.contains("Bad FEN"), "{line}");
    e.send("usermove h2e2");
    assert_eq!(e.expect_prefix("Illegal move"), "Illegal move: h2e2");
    e.send("new");
    e.send("force");
    e.send("usermove h2e2");
    let lines = sync(&mut e, 4);
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
}

#[test]
fn illegal_moves_and_unknown_commands_are_answered() {
    let mut e = xboard();
    e.send("force");
    e.send("usermove a0a5");
    assert_eq!(e.expect_prefix("Illegal move"), "Illegal move: a0a5");
    e.send("usermove zz");
    assert_eq!(e.expect_prefix("Illegal move"), "Illegal move: zz");
    e.send("frobnicate");
    assert_eq!(
        e.expect_prefix("Error"),
        "Error (unknown command): frobnicate"
    );
    e.send("undo");
    assert_eq!(
        e.expect_prefix("Error"),
        "Error (command not legal now): undo"
    );
    e.send("variant shogi");
    assert!(e.expect_prefix("Error").contains("shogi"));
}

#[test]
fn analyze_mode_thinks_until_exit() {
    let mut e = xboard();
    e.send("force");
    e.send("analyze");
    let line = e.read_until("thinking", |l| {
        l.chars().next().is_some_and(|c| c.is_ascii_digit())
    });
    assert!(!line.is_empty());
    e.send("usermove h2e2");
    e.send(".");
    sync(&mut e, 5);
    e.send("exit");
    let lines = sync(&mut e, 6);
    assert!(
        !lines.iter().any(|l| l.starts_with("move ")),
        "analysis never moves: {lines:?}"
    );
}

#[test]
fn pondering_continues_on_a_hit() {
    let mut e = xboard();
    e.send("hard");
    e.send("go");
    let reply = move_of(&e.expect_prefix("move "));
    let mut pos = position(START, &[]);
    pos.make_move(reply.parse().unwrap());
    e.send("hint");
    let hint_lines = sync(&mut e, 7);
    let guess = hint_lines
        .iter()
        .find_map(|l| l.strip_prefix("Hint: ").map(str::to_string))
        .unwrap_or_else(|| chariot::movegen::legal_moves(&pos)[0].to_string());
    e.send(&format!("usermove {guess}"));
    pos.make_move(guess.parse().unwrap());
    let reply2 = move_of(&e.expect_prefix("move "));
    assert!(is_legal(&pos, &reply2), "{reply2}");
    e.send("easy");
    sync(&mut e, 8);
}

#[test]
fn checkmate_is_claimed() {
    let mut e = xboard();
    e.send("force");
    e.send(&format!("setboard {RED_MATES_IN_ONE}"));
    e.send("go");
    let lines = e.lines_until_prefix("1-0");
    assert!(lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "1-0 {Red mates}");
    e.send("force");
    e.send(&format!("setboard {BLACK_MATED}"));
    e.send("go");
    assert_eq!(e.expect_prefix("1-0"), "1-0 {Red mates}");
}

#[test]
fn draw_offers_are_accepted_when_worse() {
    let mut e = xboard();
    e.send("force");
    e.send(&format!("setboard {RED_LOST}"));
    e.send("go");
    e.expect_prefix("move ");
    e.send("draw");
    let lines = sync(&mut e, 10);
    assert!(lines.iter().any(|l| l == "offer draw"), "{lines:?}");
}

#[test]
fn settings_commands_are_accepted() {
    let mut e = xboard();
    for cmd in [
        "memory 32",
        "cores 2",
        "option Move Overhead=20",
        "option Move Rule=sixty",
        "option Claims=all",
        "option MultiPV=1",
        "option Clear Hash",
        "easy",
        "random",
        "computer",
        "name Someone",
        "accepted setboard",
        "result 1/2-1/2 {agreed}",
    ] {
        e.send(cmd);
    }
    let lines = sync(&mut e, 11);
    assert!(!lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
}

#[test]
fn bad_input_is_answered_and_ping_still_works() {
    let mut e = xboard();
    e.send("force");
    e.send("usermove h2e2");
    let long = "x".repeat(300_000);
    for (i, bad) in [
        "level",
        "level 40 five 0",
        "st soon",
        "sd -3",
        "time lots",
        "memory many",
        "option Nonsense=1",
        "option Move Rule=forever",
        "protover",
        "usermove",
        long.as_str(),
        "wibble wobble",
    ]
    .iter()
    .enumerate()
    {
        e.send(bad);
        let lines = sync(&mut e, 100 + i as u32);
        let errs = lines
            .iter()
            .filter(|l| l.starts_with("Error") || l.starts_with("Illegal"))
            .count();
        assert_eq!(errs, 1, "'{}': {lines:?}", &bad[..bad.len().min(40)]);
        assert!(!lines
            .iter()
            .any(|l| l.to_ascii_lowercase().contains("draw")));
    }
    e.send("go");
    let reply = move_of(&e.expect_prefix("move "));
    assert!(
        is_legal(&position(START, &["h2e2"]), &reply),
        "the game is intact: {reply}"
    );
}

#[test]
fn quit_and_end_of_input_exit_cleanly() {
    let mut e = xboard();
    e.send("go");
    e.send("quit");
    e.rest();
    assert!(e.wait_exit().success());
    let mut e = xboard();
    e.send("analyze");
    e.close();
    e.rest();
    assert!(e.wait_exit().success());
}
