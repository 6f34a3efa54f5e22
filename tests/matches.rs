//! `chariot match`: the referee on the repetition cases of `tests/data/repetition.tsv`, a short
//! Chariot-vs-Chariot match whose PGN reads back, fake engines that crash / hang / play illegal
//! moves / overrun their clock, engine wire formats, and the Elo/LOS/SPRT arithmetic.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use chariot::game::Game;
use chariot::matches::openings::Opening;
use chariot::matches::pgn::read_games;
use chariot::matches::player::{InternalPlayer, MoveRequest, Player, Thought};
use chariot::matches::results::{merge, read};
use chariot::matches::spec::EngineSpec;
use chariot::matches::stats::{elo_from_score, SprtConfig, SprtDecision, Wdl};
use chariot::matches::{
    play_game, run_match, run_match_to, Ending, MatchConfig, MoveLimit, TimeControl,
};
use chariot::rules::{EndReason, GameResult};
use chariot::threads::EngineOptions;
use chariot::types::{Color, Move};

fn fake(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines")
        .join(name);
    path.to_string_lossy().into_owned()
}

fn internal(name: &str) -> EngineSpec {
    format!("proto=internal name={name} option.Hash=1")
        .parse()
        .unwrap()
}

/// A player that plays a fixed list of moves, each taking `elapsed` by the referee's clock.
struct Scripted {
    moves: Vec<Move>,
    next: usize,
    elapsed: Duration,
}

impl Player for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn new_game(&mut self) -> Result<(), String> {
        Ok(())
    }
    fn think(&mut self, _: &Game, _: &MoveRequest) -> Thought {
        let mv = self
            .moves
            .get(self.next)
            .copied()
            .ok_or_else(|| "(none)".to_string());
        self.next += 1;
        Thought::Move {
            mv,
            elapsed: self.elapsed,
            score: None,
            depth: None,
        }
    }
}

#[test]
fn referee_judges_every_repetition_case() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/repetition.tsv");
    let text = std::fs::read_to_string(path).expect("tests/data/repetition.tsv");
    let config = MatchConfig::new([internal("a"), internal("b")], MoveLimit::Nodes(1), 1);
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let (id, fen, moves, verdict) = (fields[0], fields[1], fields[2], fields[3].trim());
        if verdict.starts_with("disputed") {
            continue;
        }
        let start = Game::new(fen).unwrap_or_else(|e| panic!("{id}: {e}"));
        let moves: Vec<Move> = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        // Both players follow the script; the referee must stop the game at its last move.
        let mut red = Scripted {
            moves: Vec::new(),
            next: 0,
            elapsed: Duration::ZERO,
        };
        let mut black = Scripted {
            moves: Vec::new(),
            next: 0,
            elapsed: Duration::ZERO,
        };
        let first = start.position().side_to_move();
        for (i, &mv) in moves.iter().enumerate() {
            let side = if i % 2 == 0 { first } else { !first };
            match side {
                Color::Red => red.moves.push(mv),
                Color::Black => black.moves.push(mv),
            }
        }
        let opening = Opening {
            fen: fen.to_string(),
            moves: Vec::new(),
        };
        let stop = AtomicBool::new(false);
        let record = play_game([&mut red, &mut black], &opening, &config, 0, 0, &stop);
        assert_eq!(
            record.moves, moves,
            "{id}: the game must end exactly at the last move"
        );
        let (winner, reasons): (Option<Color>, &[EndReason]) = match verdict {
            "red-loses" => (
                Some(Color::Black),
                &[EndReason::PerpetualCheck, EndReason::PerpetualChase],
            ),
            "black-loses" => (
                Some(Color::Red),
                &[EndReason::PerpetualCheck, EndReason::PerpetualChase],
            ),
            "draw" => (None, &[EndReason::Repetition]),
            other => panic!("{id}: unknown verdict {other}"),
        };
        assert_eq!(record.winner, winner, "{id}");
        let Ending::Rules(reason) = record.ending else {
            panic!("{id}: {:?}", record.ending)
        };
        assert!(reasons.contains(&reason), "{id}: {reason}");
        // The PGN result comment names the reason; the referee's own judgement agrees.
        let comment = record.comment();
        assert!(
            comment.contains("perpetually") || comment.contains("repetition"),
            "{id}: {comment}"
        );
        let mut game = Game::new(fen).unwrap();
        for &mv in &moves {
            game.push(mv).unwrap();
        }
        match game.result() {
            GameResult::Decided {
                winner: w,
                reason: r,
                ply,
            } => {
                assert_eq!((w, r, ply), (winner, reason, moves.len()), "{id}")
            }
            GameResult::Ongoing => panic!("{id}: not decided"),
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} cases");
}

#[test]
fn chariot_vs_chariot_match_writes_pgn_that_reads_back() {
    let mut config = MatchConfig::new(
        [internal("Alpha"), internal("Beta")],
        MoveLimit::Nodes(64),
        4,
    );
    config.concurrency = 2;
    config.max_plies = Some(120);
    config.openings = vec![
        Opening {
            fen: chariot::position::START_FEN.into(),
            moves: vec!["h2e2".parse().unwrap()],
        },
        Opening {
            fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1".into(),
            moves: Vec::new(),
        },
    ];
    let mut progress = Vec::new();
    let mut pgn = Vec::new();
    let report = run_match(&config, &mut progress, Some(&mut pgn)).unwrap();
    assert_eq!(report.wdl.games(), 4);
    assert_eq!(report.pentanomial.pairs(), 2);
    let summary = report.to_string();
    assert!(summary.contains("Elo difference"), "{summary}");
    assert!(summary.contains("Score of Alpha vs Beta"), "{summary}");
    let text = String::from_utf8(pgn).unwrap();
    let mut games: Vec<_> = read_games(&text).into_iter().map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 4);
    // Games are written as they end; sorted by round, they are rounds 1 to 4.
    games.sort_by_key(|g| g.tag("Round").and_then(|r| r.parse::<usize>().ok()));
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.tag("Round"), Some((i + 1).to_string().as_str()));
        assert_eq!(g.tag("Variant"), Some("xiangqi"));
        assert_eq!(
            g.tag("PlyCount").unwrap().parse::<usize>().unwrap(),
            g.moves.len()
        );
        // Colours swap within a pair; the second pair starts from the FEN opening.
        let white = if i % 2 == 0 { "Alpha" } else { "Beta" };
        assert_eq!(g.tag("White"), Some(white));
        assert_eq!(g.tag("SetUp").is_some(), i >= 2);
        // Replaying the moves gives the result the PGN claims.
        let mut game = Game::new(g.start_fen()).unwrap();
        for &mv in &g.moves {
            game.push(mv).unwrap();
        }
        match g.tag("Termination").unwrap() {
            "max-plies" => assert_eq!(g.result, "1/2-1/2"),
            _ => assert_eq!(game.result().score(), g.result),
        }
    }
    // Pair partners share the opening's first move.
    assert_eq!(games[0].moves[0], games[1].moves[0]);
}

#[test]
fn a_game_record_round_trips_through_pgn() {
    let config = MatchConfig::new([internal("a"), internal("b")], MoveLimit::Nodes(100), 1);
    let options = EngineOptions {
        hash_mb: 1,
        ..EngineOptions::default()
    };
    let mut red = InternalPlayer::with_options("a", options.clone());
    let mut black = InternalPlayer::with_options("b", options);
    let opening = Opening {
        fen: chariot::position::START_FEN.into(),
        moves: Vec::new(),
    };
    let mut config = config;
    config.max_plies = Some(60);
    let record = play_game(
        [&mut red, &mut black],
        &opening,
        &config,
        0,
        0,
        &AtomicBool::new(false),
    );
    let names = ["a".to_string(), "b".to_string()];
    let text = record.to_pgn(&names, "t", &config.limit).to_pgn();
    let back = read_games(&text).pop().unwrap().unwrap();
    assert_eq!(back.moves, record.moves);
    assert_eq!(back.result, record.result());
    assert!(text.contains(&format!("{{{}}}", record.comment())));
}

fn fault_config(engine: EngineSpec, limit: MoveLimit) -> MatchConfig {
    let mut config = MatchConfig::new([engine, internal("Chariot")], limit, 1);
    config.move_timeout = Duration::from_millis(300);
    config.hang_grace = Duration::from_millis(300);
    config.time_margin = Duration::from_millis(50);
    config
}

fn play_single(config: &MatchConfig) -> (chariot::matches::MatchReport, String) {
    let mut progress = Vec::new();
    let mut pgn = Vec::new();
    let report = run_match(config, &mut progress, Some(&mut pgn)).unwrap();
    (report, String::from_utf8(pgn).unwrap())
}

fn bash_engine(script: &str, extra: &str) -> EngineSpec {
    format!("cmd=bash arg={} {extra}", fake(script))
        .parse()
        .unwrap()
}

#[test]
fn crashing_engine_loses_by_crash() {
    let config = fault_config(bash_engine("crash.sh", ""), MoveLimit::Nodes(50));
    let (report, pgn) = play_single(&config);
    assert_eq!((report.wdl.wins, report.wdl.losses), (0, 1));
    assert_eq!(report.faults[0].crash, 1);
    assert!(pgn.contains("Red crashed (the engine exited"), "{pgn}");
    assert!(pgn.contains("[Termination \"crash\"]"));
}

#[test]
fn hanging_engine_is_killed_and_loses() {
    let config = fault_config(bash_engine("hang.sh", ""), MoveLimit::Nodes(50));
    let start = std::time::Instant::now();
    let (report, pgn) = play_single(&config);
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(report.faults[0].hang, 1);
    assert_eq!(report.wdl.losses, 1);
    assert!(pgn.contains("Red stopped responding"), "{pgn}");
}

#[test]
fn illegal_move_loses_and_is_recorded() {
    let config = fault_config(bash_engine("illegal.sh", ""), MoveLimit::Nodes(50));
    let (report, pgn) = play_single(&config);
    assert_eq!(report.faults[0].illegal, 1);
    assert_eq!(report.wdl.losses, 1);
    assert!(pgn.contains("Red played an illegal move (e0e5)"), "{pgn}");
    // A bestmove that is no move at all is illegal too.
    let config = fault_config(
        bash_engine("illegal.sh", "arg=(none)"),
        MoveLimit::Nodes(50),
    );
    let (report, pgn) = play_single(&config);
    assert_eq!(report.faults[0].illegal, 1);
    assert!(pgn.contains("illegal move ((none))"), "{pgn}");
}

#[test]
fn overrunning_the_clock_is_a_time_forfeit() {
    let tc: TimeControl = "0.2+0".parse().unwrap();
    let mut config = fault_config(bash_engine("slow.sh", "arg=0.6"), MoveLimit::Clock(tc));
    // The move comes after the clock and margin (0.25 s) but within the grace after `stop`.
    config.hang_grace = Duration::from_secs(2);
    let (report, pgn) = play_single(&config);
    assert_eq!(report.faults[0].time, 1, "{pgn}");
    assert_eq!(report.wdl.losses, 1);
    assert!(pgn.contains("Red lost on time"), "{pgn}");
    // The same engine is in time with a generous clock: h2e2 is played.
    let tc: TimeControl = "5+0".parse().unwrap();
    let mut config = fault_config(bash_engine("slow.sh", "arg=0.05"), MoveLimit::Clock(tc));
    config.max_plies = Some(2);
    let (report, pgn) = play_single(&config);
    assert_eq!(report.faults[0].time, 0, "{pgn}");
    assert!(pgn.contains("1. H2-E2"), "{pgn}");
}

#[test]
fn the_lowest_clock_shows_how_close_each_engine_came_to_losing_on_time() {
    // 1 s each and a 100 ms margin. Red takes 350 ms a move: 650, 300, then -50 ms (within
    // the margin), and its fourth move overruns for good. Black takes 10 ms a move.
    let tc: TimeControl = "1+0".parse().unwrap();
    let mut config = MatchConfig::new([internal("a"), internal("b")], MoveLimit::Clock(tc), 1);
    config.time_margin = Duration::from_millis(100);
    let script = |moves: &[&str], ms| Scripted {
        moves: moves.iter().map(|m| m.parse().unwrap()).collect(),
        next: 0,
        elapsed: Duration::from_millis(ms),
    };
    let mut red = script(&["h2e2", "h0g2", "i0h0", "b2c2"], 350);
    let mut black = script(&["h9g7", "i9h9", "b9c7"], 10);
    let opening = Opening {
        fen: chariot::position::START_FEN.into(),
        moves: Vec::new(),
    };
    let stop = AtomicBool::new(false);
    let record = play_game([&mut red, &mut black], &opening, &config, 0, 0, &stop);
    assert!(
        matches!(record.ending, Ending::TimeForfeit),
        "{:?}",
        record.ending
    );
    assert_eq!(record.moves.len(), 6);
    assert_eq!(record.lowest_clock_ms, [Some(-50), Some(970)]);
    let mut report = chariot::matches::MatchReport::new(["a".into(), "b".into()], None, false);
    report.add(&record);
    let summary = report.to_string();
    assert!(
        summary.contains("Lowest clock after a move: a -0.050 s, b 0.970 s"),
        "{summary}"
    );
    // Without a clock there is nothing to report.
    let config = MatchConfig::new([internal("a"), internal("b")], MoveLimit::Nodes(1), 1);
    let mut red = script(&["h2e2"], 350);
    let mut black = script(&["h9g7"], 10);
    let record = play_game([&mut red, &mut black], &opening, &config, 0, 0, &stop);
    assert_eq!(record.lowest_clock_ms, [None, None]);
}

#[test]
fn ranks_one_engines_are_translated() {
    // h3e3 in ranks 1-10 is our h2e2; the second h3e3 is illegal (the cannon has moved).
    let config = fault_config(
        bash_engine("illegal.sh", "arg=h3e3 ranks=1"),
        MoveLimit::Nodes(50),
    );
    let (report, pgn) = play_single(&config);
    assert!(pgn.contains("1. H2-E2"), "{pgn}");
    assert!(pgn.contains("Red played an illegal move (h2e2)"), "{pgn}");
    assert_eq!(report.faults[0].illegal, 1);
}

/// Runs a one-game match of `engine` (Red) against Chariot and returns the outcome with the
/// progress text.
fn run_with_progress(
    engine: EngineSpec,
    max_plies: usize,
) -> (
    Result<chariot::matches::MatchReport, String>,
    String,
    String,
) {
    let mut config = fault_config(engine, MoveLimit::Nodes(50));
    config.max_plies = Some(max_plies);
    let (mut progress, mut pgn) = (Vec::new(), Vec::new());
    let result = run_match(&config, &mut progress, Some(&mut pgn));
    (
        result,
        String::from_utf8(progress).unwrap(),
        String::from_utf8(pgn).unwrap(),
    )
}

#[test]
fn engines_offering_uci_variant_xiangqi_are_spoken_to_in_ranks_one_to_ten() {
    // The fake speaks like Fairy-Stockfish: h3e3 is our h2e2. Its second h3e3 is illegal in
    // both numberings (the cannon has moved), so that one is an ordinary illegal move.
    let (result, progress, pgn) = run_with_progress(bash_engine("variant.sh", ""), 10);
    let report = result.unwrap();
    assert!(
        progress.contains(
            "Engine 1: FakeVariant: ranks 1-10 (it offers UCI_Variant xiangqi, and such \
             engines number ranks 1-10; give ranks=0 or ranks=1 to choose)"
        ),
        "{progress}"
    );
    assert!(pgn.contains("1. H2-E2"), "{pgn}");
    assert!(pgn.contains("Red played an illegal move (h2e2)"), "{pgn}");
    assert_eq!(report.faults[0].illegal, 1);
}

#[test]
fn a_move_legal_only_in_the_other_numbering_stops_the_match_with_a_setup_error() {
    // No UCI_Variant on offer: ranks 0-9, and h3e3 is only legal read as 1-10.
    let (result, progress, pgn) = run_with_progress(bash_engine("illegal.sh", "arg=h3e3"), 10);
    let err = result.unwrap_err();
    assert!(
        err.contains(
            "FakeIllegal answered h3e3, illegal in ranks 0-9 but legal in ranks 1-10 (our \
             h2e2): its rank numbering is 1-10; give ranks=1 in its --engine spec"
        ),
        "{err}"
    );
    assert!(
        progress.contains("Engine 1: FakeIllegal: ranks 0-9 (the default"),
        "{progress}"
    );
    assert!(pgn.is_empty(), "no game is recorded: {pgn}");
    // As Black it reads our h2e2 as h1e1, which it cannot play, so it answers from the start
    // position: h3e3 is still only legal read as 1-10 there, and the match stops the same way.
    let mut config = fault_config(bash_engine("illegal.sh", "arg=h3e3"), MoveLimit::Nodes(50));
    config.engines.swap(0, 1);
    config.max_plies = Some(10);
    let err = run_match(&config, &mut Vec::new(), None).unwrap_err();
    assert!(err.contains("give ranks=1"), "{err}");
    // An explicit ranks= wins over the detection, and the same check catches a wrong one.
    let (result, progress, _) = run_with_progress(bash_engine("variant.sh", "ranks=0"), 10);
    assert!(
        progress.contains("ranks 0-9 (given by ranks="),
        "{progress}"
    );
    assert!(result.unwrap_err().contains("give ranks=1"));
    // A move legal in ranks 0-9 only, from an engine detected as 1-10: e.g. h2e2 is h1e1 read
    // as 1-10, which is no legal move.
    let (result, _, _) = run_with_progress(bash_engine("variant.sh", "arg=h2e2"), 10);
    assert!(result.unwrap_err().contains(
        "illegal in ranks 1-10 but legal in ranks 0-9 (our h2e2): its rank numbering is \
             0-9; give ranks=0"
    ));
}

#[test]
fn a_match_stopped_by_a_setup_error_leaves_its_results_file_unfinished() {
    let mut config = fault_config(bash_engine("illegal.sh", "arg=h3e3"), MoveLimit::Nodes(50));
    config.max_plies = Some(10);
    let mut results = Vec::new();
    let err = run_match_to(&config, &mut Vec::new(), None, Some(&mut results)).unwrap_err();
    assert!(err.contains("give ranks=1"), "{err}");
    let text = String::from_utf8(results).unwrap();
    assert!(!text.contains("\"type\":\"end\""), "{text}");
    // The stopped game is on record, as one that does not count.
    assert!(
        text.contains("\"result\":\"*\",\"reason\":\"misconfigured\""),
        "{text}"
    );
    let slice = read(&text).unwrap();
    assert!(!slice.is_complete());
    assert!(!slice.games[0].counts());
    let refused = merge(&[("stopped.jsonl".into(), text.clone())], false).unwrap_err();
    assert!(refused.contains("incomplete: 0"), "{refused}");
    let partial = merge(&[("stopped.jsonl".into(), text)], true).unwrap();
    assert_eq!(
        (partial.report.wdl.games(), partial.report.abandoned),
        (0, 1)
    );
}

#[test]
fn the_binary_as_an_external_engine_keeps_ranks_zero_through_its_rank_base_option() {
    let spec: EngineSpec = format!("cmd={} option.Hash=1", env!("CARGO_BIN_EXE_chariot"))
        .parse()
        .unwrap();
    let mut config = MatchConfig::new([spec, internal("lib")], MoveLimit::Nodes(200), 2);
    config.max_plies = Some(24);
    let mut progress = Vec::new();
    let report = run_match(&config, &mut progress, None).unwrap();
    let progress = String::from_utf8(progress).unwrap();
    let note = format!(
        "Engine 1: Chariot {}: ranks 0-9 (set through its Rank Base option",
        env!("CARGO_PKG_VERSION")
    );
    assert!(progress.contains(&note), "{progress}");
    assert_eq!(report.wdl.games(), 2, "{progress}");
    assert_eq!(report.faults, [Default::default(); 2], "{progress}");
}

/// Runs when /usr/games/fairy-stockfish is installed (Debian package `fairy-stockfish`), and
/// passes with a note on stderr otherwise.
#[test]
fn fairy_stockfish_is_detected_as_ranks_one_to_ten_without_ranks_given() {
    let fsf = "/usr/games/fairy-stockfish";
    if !std::path::Path::new(fsf).exists() {
        eprintln!("skipped: {fsf} is not installed");
        return;
    }
    let spec: EngineSpec = format!("cmd={fsf} name=FSF option.Hash=4").parse().unwrap();
    let mut config = MatchConfig::new([spec, internal("Chariot")], MoveLimit::Nodes(2000), 2);
    config.max_plies = Some(30);
    let mut progress = Vec::new();
    let report = run_match(&config, &mut progress, None).unwrap();
    let progress = String::from_utf8(progress).unwrap();
    assert!(
        progress.contains("Engine 1: FSF: ranks 1-10 (it offers UCI_Variant"),
        "{progress}"
    );
    assert_eq!(report.wdl.games(), 2, "{progress}");
    assert_eq!(report.faults, [Default::default(); 2], "{progress}");
}

/// Plays one game with the recording fake engine as Red and returns what it was sent.
fn recorded(extra: &str, limit: MoveLimit) -> (chariot::matches::MatchReport, String, String) {
    let log = std::env::temp_dir().join(format!(
        "chariot-record-{}-{}.log",
        std::process::id(),
        extra.len()
    ));
    let _ = std::fs::remove_file(&log);
    let spec = bash_engine("record.sh", &format!("arg={} {extra}", log.display()));
    let (report, pgn) = play_single(&fault_config(spec, limit));
    let sent = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    (report, pgn, sent)
}

#[test]
fn ucci_engines_get_ucci_commands() {
    let tc: TimeControl = "3+0.5".parse().unwrap();
    let (report, pgn, sent) = recorded("proto=ucci option.Hash=8", MoveLimit::Clock(tc));
    assert!(pgn.contains("1. H2-E2"), "{pgn}");
    assert_eq!(report.faults[0].illegal, 1, "nobestmove loses");
    assert!(sent.starts_with("ucci\n"), "{sent}");
    assert!(sent.contains("setoption usemillisec true\n"), "{sent}");
    assert!(sent.contains("setoption Hash 8\n"), "{sent}");
    assert!(sent.contains("position startpos moves h2e2 "), "{sent}");
    assert!(
        sent.contains("go time 3000 increment 500 opptime "),
        "{sent}"
    );
    // Seconds when asked for.
    let (_, _, sent) = recorded("proto=ucci timeunit=s", MoveLimit::Clock(tc));
    assert!(!sent.contains("usemillisec"), "{sent}");
    assert!(
        sent.contains("go time 3 increment 0 opptime 3 oppincrement 0\n"),
        "{sent}"
    );
}

#[test]
fn uci_and_cyclone_engines_get_their_dialects() {
    let (_, _, sent) = recorded(
        "option.Hash=8",
        MoveLimit::MoveTime(Duration::from_millis(1000)),
    );
    assert!(sent.starts_with("uci\n"), "{sent}");
    assert!(
        sent.contains("setoption name UCI_Variant value xiangqi\n"),
        "{sent}"
    );
    assert!(
        sent.contains("setoption name Rank Base value 0\n"),
        "{sent}"
    );
    assert!(sent.contains("setoption name Hash value 8\n"), "{sent}");
    assert!(sent.contains("ucinewgame\nisready\n"), "{sent}");
    assert!(
        sent.contains("position startpos\ngo movetime 1000\n"),
        "{sent}"
    );
    assert!(sent.contains("position startpos moves h2e2 "), "{sent}");
    let tc: TimeControl = "40/2+0.25".parse().unwrap();
    let (_, _, sent) = recorded("proto=cyclone", MoveLimit::Clock(tc));
    assert!(
        sent.contains(
            "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1\n"
        ),
        "{sent}"
    );
    assert!(
        sent.contains("go wtime 2000 btime 2000 winc 250 binc 250 movestogo 40\n"),
        "{sent}"
    );
    assert!(sent.contains("r - - 0 1 moves h2e2 "), "{sent}");
}

#[test]
fn sprt_stops_the_match_once_decided() {
    let mut config = fault_config(bash_engine("crash.sh", ""), MoveLimit::Nodes(20));
    config.games = 40;
    config.sprt = Some("elo0=0 elo1=200 alpha=0.1 beta=0.1".parse().unwrap());
    let mut progress = Vec::new();
    let report = run_match(&config, &mut progress, None).unwrap();
    assert!(report.wdl.games() < 40, "{}", report.wdl.games());
    assert_eq!(report.wdl.wins, 0);
    assert!(report.to_string().contains("H0 was accepted"), "{report}");
}

#[test]
fn broken_engines_and_specs_are_errors_not_panics() {
    for bad in [
        "",
        "cmd",
        "name=x",
        "cmd=x proto=winboard",
        "cmd=x ranks=2",
        "cmd=\"x",
    ] {
        assert!(bad.parse::<EngineSpec>().is_err(), "{bad:?}");
    }
    let missing: EngineSpec = "cmd=/nonexistent/engine".parse().unwrap();
    let config = MatchConfig::new([missing, internal("c")], MoveLimit::Nodes(10), 2);
    let err = run_match(&config, &mut Vec::new(), None).unwrap_err();
    assert!(err.contains("cannot start"), "{err}");
    // An engine that never finishes the handshake in time.
    let silent: EngineSpec = "cmd=bash arg=-c \"arg=exec sleep 30\"".parse().unwrap();
    let start = std::time::Instant::now();
    let mut config = MatchConfig::new([silent, internal("c")], MoveLimit::Nodes(10), 2);
    config.startup_timeout = Duration::from_millis(300);
    let err = run_match(&config, &mut Vec::new(), None).unwrap_err();
    assert!(
        err.contains("no answer in time (waiting for uciok)"),
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn elo_los_and_sprt_match_known_values() {
    // 60% → +70.4 Elo.
    assert!((elo_from_score(0.6) - 70.437).abs() < 1e-3);
    let wdl = Wdl {
        wins: 50,
        draws: 20,
        losses: 30,
    };
    let e = wdl.elo().unwrap();
    assert!((e.elo - 70.437).abs() < 1e-3);
    // cutechess' margin for +50 =20 -30: σ² = (0.5·0.16 + 0.2·0.01 + 0.3·0.36)/100.
    let sd = ((0.5 * 0.16f64 + 0.2 * 0.01 + 0.3 * 0.36) / 100.0).sqrt();
    let want = (elo_from_score(0.6 + 1.959964 * sd) - elo_from_score(0.6 - 1.959964 * sd)) / 2.0;
    assert!((e.margin - want).abs() < 1e-3, "{} vs {want}", e.margin);
    // LOS: W−L = 20 over 80 decisive games → Φ(20/√80) = Φ(2.236) = 0.98733.
    assert!((wdl.los() - 0.987_326).abs() < 1e-5, "{}", wdl.los());
    assert!(
        (Wdl {
            wins: 60,
            draws: 0,
            losses: 40
        }
        .los()
            - 0.977_250)
            .abs()
            < 1e-5
    );
    assert_eq!(
        Wdl {
            wins: 3,
            draws: 5,
            losses: 3
        }
        .los(),
        0.5
    );
    // SPRT bounds for α = β = 0.05: ±ln 19.
    let sprt: SprtConfig = "elo0=0 elo1=5 alpha=0.05 beta=0.05".parse().unwrap();
    assert!((sprt.upper_bound() - 2.944_439).abs() < 1e-6);
    assert!((sprt.lower_bound() + 2.944_439).abs() < 1e-6);
    // LLR values computed with fishtest's LLR_logistic (scipy brentq) for the same counts.
    let cases: [(f64, f64, &[u64], f64); 4] = [
        (0.0, 5.0, &[10, 40, 90, 50, 10], 0.240_530_745_2),
        (0.0, 5.0, &[200, 6787, 15368, 6905, 216], -15.141_719_513_0),
        (-3.0, 1.0, &[30, 60, 10], -0.568_554_542_9),
        (0.0, 10.0, &[0, 5, 20, 10, 0], 0.541_871_822_1),
    ];
    for (elo0, elo1, counts, want) in cases {
        let config = SprtConfig {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        };
        let got = config.llr(counts);
        assert!((got - want).abs() < 1e-6, "{counts:?}: {got} vs {want}");
    }
    assert_eq!(sprt.decide(3.0), SprtDecision::AcceptH1);
    assert_eq!(sprt.decide(-3.0), SprtDecision::AcceptH0);
    assert_eq!(sprt.decide(0.0), SprtDecision::Continue);
    assert_eq!(sprt.llr(&[0, 0, 0, 0, 0]), 0.0);
    for bad in [
        "elo0=5 elo1=0",
        "alpha=0",
        "alpha=0.6 beta=0.5",
        "x=1",
        "elo0",
        "elo1=nan",
    ] {
        assert!(bad.parse::<SprtConfig>().is_err(), "{bad}");
    }
}

#[test]
fn the_binary_runs_a_match_and_prints_the_summary() {
    let dir = std::env::temp_dir().join(format!("chariot-match-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["match", "--engine", "proto=internal name=A option.Hash=1"])
        .args(["--engine", "proto=internal name=B option.Hash=1"])
        .args([
            "--nodes",
            "50",
            "--games",
            "2",
            "--max-plies",
            "40",
            "--concurrency",
            "2",
        ])
        .args(["--sprt", "elo0=0", "elo1=5", "--pgn"])
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = String::from_utf8(output.stdout).unwrap();
    for part in [
        "Score of A vs B",
        "Elo difference",
        "LOS",
        "SPRT (pentanomial elo0=0 elo1=5",
    ] {
        assert!(summary.contains(part), "{part}: {summary}");
    }
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("Finished game 2 (B vs A)"), "{stderr}");
    let games = read_games(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
    // Bad input is an error message and exit status 2, not a panic.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args([
            "match",
            "--engine",
            "cmd",
            "--engine",
            "proto=internal",
            "--nodes",
            "1",
        ])
        .args(["--games", "1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("bad engine spec"));
}

/// Needs /usr/games/fairy-stockfish (Debian package `fairy-stockfish`).
#[test]
#[ignore]
fn chariot_plays_fairy_stockfish_over_uci_and_ucci() {
    let fsf = "/usr/games/fairy-stockfish";
    assert!(std::path::Path::new(fsf).exists(), "{fsf} is not installed");
    for extra in ["ranks=1", "proto=ucci timeunit=ms"] {
        let spec: EngineSpec = format!("cmd={fsf} name=FSF option.Hash=8 {extra}")
            .parse()
            .unwrap();
        let mut config = MatchConfig::new([internal("Chariot"), spec], MoveLimit::Nodes(3000), 2);
        config.max_plies = Some(80);
        let (report, pgn) = play_single(&config);
        assert_eq!(report.wdl.games(), 2, "{extra}: {pgn}");
        assert_eq!(report.faults, [Default::default(); 2], "{extra}: {pgn}");
        assert_eq!(read_games(&pgn).len(), 2);
    }
}

/// Needs the full UCI front (`go nodes …`) in the binary.
#[test]
#[ignore]
fn the_binary_plays_as_an_external_uci_engine() {
    let spec: EngineSpec = format!(
        "cmd={} name=bin option.Hash=4",
        env!("CARGO_BIN_EXE_chariot")
    )
    .parse()
    .unwrap();
    let mut config = MatchConfig::new([spec, internal("lib")], MoveLimit::Nodes(300), 2);
    config.max_plies = Some(60);
    let (report, pgn) = play_single(&config);
    assert_eq!(report.wdl.games(), 2, "{pgn}");
    assert_eq!(report.faults, [Default::default(); 2], "{pgn}");
}
