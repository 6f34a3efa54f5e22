//! UCCI 3.0 spoken by the real binary over pipes.

#[path = "protocol_engine.rs"]
mod support;

use chariot::movegen::legal_moves;

use support::{
    bestmove_of, is_legal, position, starting_with, Engine, BLACK_MATED, RED_LOST, RED_WON, START,
};

fn ucci() -> Engine {
    Engine::with("ucci", "ucciok")
}

fn errors(lines: &[String]) -> Vec<&String> {
    starting_with(lines, "info message error")
}

#[test]
fn handshake_lists_ucci_options() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.expect_line("ucciok");
    assert!(lines[0].starts_with("id name Chariot"));
    for opt in [
        "option usemillisec type check default false",
        "option hashsize type spin min 1 max 65536 default 16",
        "option threads type spin min 1 max 256 default 1",
        "option ponder type check default false",
        "option batch type check default false",
        "option debug type check default false",
        "option newgame type button",
    ] {
        assert!(
            lines.iter().any(|l| l == opt),
            "missing '{opt}' in {lines:?}"
        );
    }
    assert_eq!(e.sync(), ["readyok"]);
}

#[test]
fn setoption_has_no_keywords() {
    let mut e = ucci();
    for cmd in [
        "setoption hashsize 8",
        "setoption threads 2",
        "setoption ponder true",
        "setoption batch false",
        "setoption moverule none",
        "setoption newgame",
        "setoption usemillisec true",
    ] {
        e.send(cmd);
    }
    assert!(errors(&e.sync()).is_empty());
    for bad in [
        "setoption hashsize 0",
        "setoption usemillisec perhaps",
        "setoption colour red",
        "setoption",
    ] {
        e.send(bad);
        assert_eq!(errors(&e.sync()).len(), 1, "{bad}");
    }
}

#[test]
fn go_with_each_limit_gives_a_legal_move_and_scores_without_cp() {
    let mut e = ucci();
    let pos = position(START, &["h2e2"]);
    e.send("position startpos moves h2e2");
    for go in [
        "go depth 3",
        "go nodes 3000",
        "go time 2 increment 0 opptime 2",
        "go time 30 movestogo 20",
    ] {
        e.send(go);
        let lines = e.lines_until_prefix("bestmove");
        let best = bestmove_of(lines.last().unwrap());
        assert!(is_legal(&pos, &best), "{go}: {best}");
        let info = lines
            .iter()
            .find(|l| l.starts_with("info depth"))
            .expect("info line");
        assert!(info.contains(" score ") && !info.contains(" cp "), "{info}");
    }
    e.send("setoption usemillisec true");
    e.send("go time 2000 increment 10 opptime 2000 oppincrement 10");
    assert!(is_legal(&pos, &bestmove_of(&e.expect_prefix("bestmove"))));
    e.send("go depth infinite");
    e.sync();
    e.send("stop");
    assert!(is_legal(&pos, &bestmove_of(&e.expect_prefix("bestmove"))));
}

#[test]
fn stop_when_idle_answers_nobestmove() {
    let mut e = ucci();
    e.send("stop");
    assert_eq!(e.next_line().unwrap(), "nobestmove");
}

#[test]
fn no_legal_move_answers_nobestmove() {
    let mut e = ucci();
    e.send(&format!("position fen {BLACK_MATED}"));
    e.send("go depth 2");
    assert_eq!(e.expect_prefix("nobestmove"), "nobestmove");
}

#[test]
fn banmoves_exclude_root_moves_until_the_next_position() {
    let mut e = ucci();
    let pos = position(START, &[]);
    let moves: Vec<String> = legal_moves(&pos)
        .into_iter()
        .map(|m| m.to_string())
        .collect();
    let keep = "i3i4";
    let banned: Vec<&str> = moves
        .iter()
        .map(|s| s.as_str())
        .filter(|m| *m != keep)
        .collect();
    e.send("position startpos");
    e.send(&format!("banmoves {}", banned.join(" ")));
    e.send("go depth 3");
    assert_eq!(bestmove_of(&e.expect_prefix("bestmove")), keep);
    e.send("position startpos");
    e.send("banmoves h2e2");
    e.send("go depth 3");
    let best = bestmove_of(&e.expect_prefix("bestmove"));
    assert!(best != "h2e2" && is_legal(&pos, &best));
    e.send("banmoves a0a5");
    assert_eq!(errors(&e.sync()).len(), 1);
}

#[test]
fn draw_offers_are_accepted_only_when_not_better() {
    let mut e = ucci();
    e.send(&format!("position fen {RED_LOST}"));
    e.send("go draw depth 4");
    let line = e.expect_prefix("bestmove");
    assert!(line.ends_with(" draw"), "{line}");
    e.send(&format!("position fen {RED_WON}"));
    e.send("go draw depth 4");
    let line = e.expect_prefix("bestmove");
    assert!(!line.contains("draw") && !line.contains("resign"), "{line}");
}

#[test]
fn ponderhit_draw_passes_the_offer_with_the_move() {
    let mut e = ucci();
    e.send(&format!("position fen {RED_LOST}"));
    e.send("go ponder depth 4");
    let before = e.sync();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "no move while pondering"
    );
    e.send("ponderhit draw");
    let line = e.expect_prefix("bestmove");
    assert!(line.ends_with(" draw"), "{line}");
}

#[test]
fn hopeless_games_are_resigned() {
    let mut e = ucci();
    e.send("setoption newgame");
    e.send(&format!("position fen {RED_LOST}"));
    let mut last = String::new();
    for _ in 0..3 {
        e.send("go depth 6");
        last = e.expect_prefix("bestmove");
    }
    assert!(last.ends_with(" resign"), "{last}");
}

#[test]
fn probe_pops_the_hash_entry() {
    let mut e = ucci();
    e.send("position startpos moves h2e2");
    e.send("go depth 5");
    e.expect_prefix("bestmove");
    e.send("probe startpos moves h2e2");
    let line = e.expect_prefix("pophash");
    assert!(line.starts_with("pophash bestmove "), "{line}");
    assert!(line.contains("bound"), "{line}");
    e.send("probe fen 4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert_eq!(e.expect_prefix("pophash"), "pophash");
    e.send("probe fen nonsense");
    assert_eq!(errors(&e.sync()).len(), 1);
}

#[test]
fn quit_says_bye() {
    let mut e = ucci();
    e.send("position startpos");
    e.send("go depth infinite");
    e.send("quit");
    let rest = e.rest();
    assert_eq!(rest.last().map(String::as_str), Some("bye"), "{rest:?}");
    assert!(e.wait_exit().success());
}

#[test]
fn bad_input_is_reported_and_isready_still_answered() {
    let mut e = ucci();
    e.send("position startpos moves h2e2");
    let good = position(START, &["h2e2"]).fen();
    for bad in [
        "foo",
        "position fen 9/9/9 w",
        "position startpos moves h2e2 h2e2",
        "position startpos moves a10a9",
        "go depth",
        "go time -",
        "go nodes many",
        "go sometime",
        "banmoves zz",
        "ponderhit maybe",
        "probe",
        "perft 0",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(errors(&lines).len(), 1, "{bad}: {lines:?}");
    }
    e.send("d");
    assert_eq!(e.expect_prefix("Fen:"), format!("Fen: {good}"));
}
