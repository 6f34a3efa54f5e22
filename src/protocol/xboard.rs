//! XBoard / CECP protocol version 2, `variant xiangqi` (ranks 0–9, as XBoard writes them on
//! boards with ten ranks).
//!
//! ```text
//! > xboard
//! > protover 2           < feature myname="Chariot x.y.z" variants="xiangqi" … / feature done=1
//! > new
//! > variant xiangqi
//! > level 0 1 1
//! > time 6000            (centiseconds)
//! > usermove h2e2
//!                        < 7 -12 35 81234 h9g7 h0g2 …   (with post: ply score time nodes pv)
//!                        < move h9g7
//! > ping 3               < pong 3
//! ```
//!
//! Errors: an illegal or unreadable move gets `Illegal move: X`; anything else
//! `Error (reason): command`. XBoard reads some words in engine output as commands (`Illegal`
//! in an error line is a claim that its move was illegal, `not found` means the engine failed
//! to start, a line with `Draw` ends the game), so messages are kept clear of them; free text
//! goes out as `#` debug lines (`feature debug=1`).
//!
//! **Claims.** A game being played is refereed by [`Game`](crate::game::Game) under
//! docs/rules.md, and game ends are claimed with `RESULT {reason}` per the `Claims` option:
//! - `safe` (default): claim what a strict referee such as XBoard with `-testClaims` accepts —
//!   checkmate and stalemate (a loss for the side without moves), repetition draws, and our own
//!   losses by perpetual check or chase. A win by the opponent's perpetual check or chase is
//!   not claimed (XBoard adjudicates perpetuals itself after its own repetition count and
//!   forfeits win claims it cannot verify); a draw by the CXQ move-count rules is offered with
//!   `offer draw` before our move (XBoard turns the offer into a claim when its own rules agree,
//!   and passes it on to the opponent otherwise).
//! - `all`: claim every result the referee finds, as soon as it is found.
//!
//! Draw offers and resignation follow [`policy`](super::policy).
//!
//! This module reads lines into commands and formats thinking output, claims and error lines;
//! the controller carries the commands out and keeps the game in
//! [`controller::xboard`](super::controller::xboard).

use std::time::Duration;

use super::command::{
    clip, clock_reading, decimal, number, CommandError, EngineCommand, Level, MAX_PERFT_DEPTH,
};
use super::dialect::Dialect;
use super::options::{self, MAX_HASH_MB, MAX_THREADS};
use super::ranks::{self, MoveText, RankBase};
use crate::rules::{EndReason, GameResult};
use crate::search::report::{Bound, Score, SearchInfo};
use crate::types::Color;

/// Words XBoard would read as something else in engine output, and their harmless stand-ins.
const UNSAFE_WORDS: &[(&str, &str)] = &[
    ("illegal", "invalid"),
    ("not found", "unknown"),
    ("no such file", "no file"),
    ("permission denied", "denied"),
    ("unknown host", "bad host"),
    ("can't alloc", "cannot allocate"),
    ("no remote directory", "no remote dir"),
    ("draw", "tie"),
];

/// `text` with every word XBoard might misread replaced (case-insensitive).
pub(super) fn defuse(text: &str) -> String {
    let mut s = text.to_string();
    for (bad, good) in UNSAFE_WORDS {
        let mut out = String::with_capacity(s.len());
        let mut rest = s.as_str();
        // ASCII lower-casing keeps byte offsets, so matches index `rest` directly.
        while let Some(at) = rest.to_ascii_lowercase().find(bad) {
            out.push_str(&rest[..at]);
            out.push_str(good);
            rest = &rest[at + bad.len()..];
        }
        out.push_str(rest);
        s = out;
    }
    s
}

/// The CECP line for a command that did not parse.
pub fn error_line(e: &CommandError, line: &str) -> String {
    let first = line.split_whitespace().next().unwrap_or("");
    match e {
        CommandError::BadMove(_) if first == "usermove" => {
            format!(
                "Illegal move: {}",
                clip(line.split_whitespace().nth(1).unwrap_or(""))
            )
        }
        CommandError::Unknown(_) => format!("Error (unknown command): {}", defuse(&clip(line))),
        CommandError::TooLong(n) => format!("Error (line too long): {n} bytes"),
        other => format!(
            "Error ({}): {}",
            defuse(&other.to_string()),
            defuse(&clip(line))
        ),
    }
}

/// The CECP line for a command that could not be carried out.
pub fn failure_line(what: &str, line: &str) -> String {
    format!("Error ({}): {}", defuse(what), defuse(&clip(line)))
}

/// Parses `level MPS BASE INC`; BASE is minutes or `min:sec`, trailing text after it ignored.
fn parse_level(args: &[&str]) -> Result<Level, CommandError> {
    if args.len() != 3 {
        return Err(CommandError::Missing {
            command: "level",
            what: "MPS BASE INC",
        });
    }
    let mps: u32 = number("level moves", Some(args[0]), 0, 10_000)?;
    let leading = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect()
    };
    let (min, sec) = match args[1].split_once(':') {
        Some((m, s)) => (m.to_string(), leading(s)),
        None => (leading(args[1]), "0".to_string()),
    };
    let minutes = decimal("level base", Some(&min))?;
    let seconds = decimal("level base", Some(if sec.is_empty() { "0" } else { &sec }))?;
    let increment = decimal("level increment", Some(args[2]))?;
    let secs = (minutes * 60.0 + seconds).min(1e9);
    Ok(Level {
        moves_per_session: mps,
        base: Duration::from_secs_f64(secs),
        increment: Duration::from_secs_f64(increment.min(1e9)),
    })
}

/// Parses one XBoard line.
pub fn parse(line: &str) -> Result<EngineCommand, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, args)) = words.split_first() else {
        return Err(CommandError::Unknown(String::new()));
    };
    let arg = args.first().copied();
    let rest = || line.trim_start()[cmd.len()..].trim().to_string();
    Ok(match cmd {
        "xboard" => EngineCommand::Hello,
        "protover" => EngineCommand::Protover(number("protover", arg, 1, 1000)?),
        "new" => EngineCommand::NewGame,
        "variant" => match arg {
            Some(v) if v.eq_ignore_ascii_case("xiangqi") => EngineCommand::Variant(v.to_string()),
            Some(v) => return Err(CommandError::UnsupportedVariant(v.to_string())),
            None => {
                return Err(CommandError::Missing {
                    command: "variant",
                    what: "a variant name",
                })
            }
        },
        "force" => EngineCommand::Force,
        "go" => EngineCommand::Think,
        "playother" => EngineCommand::PlayOther,
        "usermove" => match arg {
            Some(m) => EngineCommand::UserMove(m.parse()?),
            None => {
                return Err(CommandError::Missing {
                    command: "usermove",
                    what: "a move",
                })
            }
        },
        "?" => EngineCommand::MoveNow,
        "ping" => EngineCommand::Ping(args.join(" ")),
        "setboard" => EngineCommand::SetBoard(rest()),
        "undo" => EngineCommand::Undo,
        "remove" => EngineCommand::Remove,
        "level" => EngineCommand::Level(parse_level(args)?),
        "st" => EngineCommand::SearchTime(Duration::from_secs_f64(decimal("st", arg)?.min(1e9))),
        "sd" => EngineCommand::SearchDepth(number("sd", arg, 1, 255)?),
        "time" => EngineCommand::Clock {
            ours: true,
            centis: clock_reading("time", arg)?,
        },
        "otim" => EngineCommand::Clock {
            ours: false,
            centis: clock_reading("otim", arg)?,
        },
        "post" => EngineCommand::Post(true),
        "nopost" => EngineCommand::Post(false),
        "analyze" => EngineCommand::Analyze,
        "exit" => EngineCommand::ExitAnalyze,
        "." => EngineCommand::AnalyzeStatus,
        "hard" => EngineCommand::PonderMode(true),
        "easy" => EngineCommand::PonderMode(false),
        "memory" => {
            let mb: u64 = number("memory", arg, 0, u64::MAX)?;
            EngineCommand::Memory(mb.clamp(1, MAX_HASH_MB as u64) as usize)
        }
        "cores" => {
            let n: u64 = number("cores", arg, 0, u64::MAX)?;
            EngineCommand::Cores(n.clamp(1, MAX_THREADS as u64) as usize)
        }
        "option" => {
            let text = rest();
            let (name, value) = match text.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (text, None),
            };
            EngineCommand::SetOption(options::parse_setting(
                Dialect::Xboard,
                &name,
                value.as_deref(),
            )?)
        }
        "result" => EngineCommand::GameResult(rest()),
        "draw" => EngineCommand::DrawOffer,
        "hint" => EngineCommand::Hint,
        "bk" => EngineCommand::Book,
        "quit" => EngineCommand::Quit,
        "help" => EngineCommand::Help,
        "d" => EngineCommand::Display,
        "eval" => EngineCommand::Eval,
        "perft" => EngineCommand::Perft(number("perft depth", arg, 1, MAX_PERFT_DEPTH)?),
        "bench" => EngineCommand::Bench(match arg {
            None => None,
            Some(d) => Some(number(
                "bench depth",
                Some(d),
                1,
                crate::bench::MAX_DEPTH.into(),
            )?),
        }),
        "random" | "computer" | "name" | "rating" | "ics" | "accepted" | "rejected" | "white"
        | "black" => EngineCommand::Ignored(line.to_string()),
        other => match other.parse::<MoveText>() {
            Ok(m) if args.is_empty() => EngineCommand::UserMove(m),
            _ => return Err(CommandError::Unknown(other.to_string())),
        },
    })
}

/// A score in XBoard's scale: centipawns, mates as ±(100000 + moves).
fn xboard_score(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => cp as i64,
        Score::Mate(n) if n > 0 => 100_000 + n as i64,
        Score::Mate(n) => -100_000 + n as i64,
    }
}

/// One thinking line: `ply score time nodes pv` (time in centiseconds; `?`/`!` mark bounds).
pub fn format_thinking(info: &SearchInfo) -> String {
    let mark = match info.bound {
        Bound::Exact => "",
        Bound::Lower => "!",
        Bound::Upper => "?",
    };
    format!(
        "{} {} {} {} {}{mark}",
        info.depth,
        xboard_score(info.score),
        info.time.as_millis() / 10,
        info.nodes,
        ranks::format_moves(&info.pv, RankBase::Zero)
    )
}

/// `1-0 {Red mates}`, `1/2-1/2 {repetition}`, …
pub fn format_claim(result: GameResult) -> Option<String> {
    let GameResult::Decided { winner, reason, .. } = result else {
        return None;
    };
    let name = |c: Color| if c == Color::Red { "Red" } else { "Black" };
    let text = match (reason, winner) {
        (EndReason::Checkmate, Some(w)) => format!("{} mates", name(w)),
        (EndReason::Stalemate, Some(w)) => format!("{} is stalemated", name(!w)),
        (EndReason::PerpetualCheck, Some(w)) => format!("{} loses by perpetual check", name(!w)),
        (EndReason::PerpetualChase, Some(w)) => format!("{} loses by perpetual chase", name(!w)),
        (EndReason::Repetition, _) => "repetition".to_string(),
        (EndReason::MovesRule, _) => "moves rule".to_string(),
        (EndReason::EffectiveRule, _) => "effective moves rule".to_string(),
        (EndReason::ProgressRule, _) => "progress rule".to_string(),
        (EndReason::SixtyMoveRule, _) => "60-move rule".to_string(),
        (reason, _) => reason.to_string(),
    };
    Some(format!("{} {{{text}}}", result.score()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_reads_minutes_and_seconds() {
        let EngineCommand::Level(l) = parse("level 40 5 0").unwrap() else {
            panic!()
        };
        assert_eq!(l.base, Duration::from_secs(300));
        let EngineCommand::Level(l) = parse("level 0 0:30 0.5").unwrap() else {
            panic!()
        };
        assert_eq!((l.moves_per_session, l.base), (0, Duration::from_secs(30)));
        assert_eq!(l.increment, Duration::from_millis(500));
        let EngineCommand::Level(l) = parse("level 40 25+5 0").unwrap() else {
            panic!()
        };
        assert_eq!(l.base, Duration::from_secs(25 * 60));
        assert!(parse("level 40 x 0").is_err());
        assert!(parse("level 1 2").is_err());
    }

    #[test]
    fn bare_moves_are_user_moves() {
        assert!(matches!(parse("h2e2"), Ok(EngineCommand::UserMove(_))));
        assert!(matches!(
            parse("usermove h2e2"),
            Ok(EngineCommand::UserMove(_))
        ));
        assert!(parse("variant shogi").is_err());
        assert_eq!(
            parse("option Move Rule=sixty"),
            Ok(EngineCommand::SetOption(options::Setting::MoveRule(
                crate::rules::MoveCountRule::Sixty
            )))
        );
    }

    #[test]
    fn error_lines_never_say_what_xboard_misreads() {
        let e = CommandError::Unknown("foo".into());
        assert_eq!(
            error_line(&e, "foo illegal Draw"),
            "Error (unknown command): foo invalid tie"
        );
        let e = CommandError::BadMove("zz".parse::<MoveText>().unwrap_err());
        assert_eq!(error_line(&e, "usermove zz"), "Illegal move: zz");
        assert_eq!(defuse("File Not Found"), "File unknown");
    }

    #[test]
    fn claims_name_the_winner() {
        let r = GameResult::Decided {
            winner: Some(Color::Black),
            reason: EndReason::Checkmate,
            ply: 3,
        };
        assert_eq!(format_claim(r).unwrap(), "0-1 {Black mates}");
        let r = GameResult::Decided {
            winner: None,
            reason: EndReason::Repetition,
            ply: 9,
        };
        assert_eq!(format_claim(r).unwrap(), "1/2-1/2 {repetition}");
    }
}
