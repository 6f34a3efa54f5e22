//! UCI as Pikafish speaks it, and the Cyclone dialect of Chinese UCI GUIs (`fen …` and
//! `startpos …` without the `position` keyword, side letter `r`).
//!
//! ```text
//! > uci                                   < id name Chariot x.y.z … option … uciok
//! > position startpos moves h2e2 h9g7
//! > go depth 8                            < info depth 1 seldepth 1 multipv 1 score cp 12 …
//!                                         < bestmove b0c2 ponder b9c7
//! ```
//!
//! Errors are reported as `info string error: …`; the last good position and options stay.
//! Moves are read and written with ranks 0–9 or 1–10 per the `Rank Base` option (see
//! [`ranks`]).
//!
//! This module reads lines into commands and formats the search's lines; the controller
//! carries the commands out in [`controller::uci`](super::controller::uci).

use super::command::{
    clock_reading, number, parse_position, CommandError, EngineCommand, UciGo, MAX_PERFT_DEPTH,
};
use super::dialect::Dialect;
use super::options;
use super::ranks::{self, MoveText, RankBase};
use crate::search::report::{Bound, Score, SearchInfo, SearchResult};

/// Parses one UCI line (`cyclone`: also accept `fen …` / `startpos …` without `position`).
pub fn parse(line: &str, cyclone: bool) -> Result<EngineCommand, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, args)) = words.split_first() else {
        return Err(CommandError::Unknown(String::new()));
    };
    Ok(match cmd {
        "uci" | "ucicyclone" => EngineCommand::Hello,
        "isready" => EngineCommand::IsReady,
        "debug" => match args.first().copied() {
            None | Some("on") => EngineCommand::Debug(true),
            Some("off") => EngineCommand::Debug(false),
            Some(other) => {
                return Err(CommandError::UnexpectedToken {
                    command: "debug",
                    token: other.into(),
                })
            }
        },
        "setoption" => parse_setoption(args)?,
        "ucinewgame" => EngineCommand::NewGame,
        "position" => EngineCommand::Position(parse_position("position", args)?),
        "fen" | "startpos" if cyclone => {
            EngineCommand::Position(parse_position("position", &words)?)
        }
        "go" => parse_go(args)?,
        "perft" => EngineCommand::Perft(number(
            "perft depth",
            args.first().copied(),
            1,
            MAX_PERFT_DEPTH,
        )?),
        "stop" => EngineCommand::Stop,
        "ponderhit" => EngineCommand::PonderHit { draw: false },
        "quit" => EngineCommand::Quit,
        "d" => EngineCommand::Display,
        "eval" => EngineCommand::Eval,
        "bench" => EngineCommand::Bench(match args.first() {
            None => None,
            Some(d) => Some(number(
                "bench depth",
                Some(d),
                1,
                crate::bench::MAX_DEPTH.into(),
            )?),
        }),
        "help" => EngineCommand::Help,
        "register" => EngineCommand::Ignored(line.to_string()),
        other => return Err(CommandError::Unknown(other.to_string())),
    })
}

/// `setoption name <name…> [value <value…>]`.
fn parse_setoption(args: &[&str]) -> Result<EngineCommand, CommandError> {
    if args.first() != Some(&"name") {
        return Err(CommandError::Missing {
            command: "setoption",
            what: "'name <option>'",
        });
    }
    let value_at = args.iter().position(|w| *w == "value");
    let name = args[1..value_at.unwrap_or(args.len())].join(" ");
    if name.is_empty() {
        return Err(CommandError::Missing {
            command: "setoption",
            what: "an option name",
        });
    }
    let value = value_at.map(|i| args[i + 1..].join(" "));
    Ok(EngineCommand::SetOption(options::parse_setting(
        Dialect::Uci,
        &name,
        value.as_deref(),
    )?))
}

const GO_WORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// `go …` (UCI).
fn parse_go(args: &[&str]) -> Result<EngineCommand, CommandError> {
    let mut go = UciGo::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        let value = args.get(i + 1).copied();
        let mut used = 2;
        match word {
            "wtime" => go.wtime = Some(clock_reading("wtime", value)?),
            "btime" => go.btime = Some(clock_reading("btime", value)?),
            "winc" => go.winc = Some(clock_reading("winc", value)?),
            "binc" => go.binc = Some(clock_reading("binc", value)?),
            "movestogo" => go.movestogo = Some(number("movestogo", value, 0, 10_000)?),
            "movetime" => go.movetime = Some(number("movetime", value, 0, u64::MAX / 2)?),
            "depth" => go.depth = Some(number("depth", value, 1, 255)?),
            "nodes" => go.nodes = Some(number("nodes", value, 1, u64::MAX)?),
            "mate" => go.mate = Some(number("mate", value, 1, 255)?),
            "infinite" => {
                go.infinite = true;
                used = 1;
            }
            "ponder" => {
                go.ponder = true;
                used = 1;
            }
            "searchmoves" => {
                used = 1;
                while let Some(t) = args.get(i + used).filter(|t| !GO_WORDS.contains(t)) {
                    go.searchmoves.push(t.parse::<MoveText>()?);
                    used += 1;
                }
                if go.searchmoves.is_empty() {
                    return Err(CommandError::Missing {
                        command: "go searchmoves",
                        what: "moves",
                    });
                }
            }
            "perft" if i == 0 && args.len() == 2 => {
                return Ok(EngineCommand::Perft(number(
                    "perft depth",
                    value,
                    1,
                    MAX_PERFT_DEPTH,
                )?));
            }
            "perft" => {
                return Err(CommandError::Missing {
                    command: "go perft",
                    what: "one depth",
                })
            }
            other => {
                return Err(CommandError::UnexpectedToken {
                    command: "go",
                    token: other.into(),
                })
            }
        }
        i += used;
    }
    Ok(EngineCommand::Go(go))
}

/// One UCI `info` line.
pub fn format_info(info: &SearchInfo, base: RankBase) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let wdl = info
        .wdl
        .map_or(String::new(), |[w, d, l]| format!(" wdl {w} {d} {l}"));
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {} \
         hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis(),
        ranks::format_moves(&info.pv, base)
    )
}

/// The UCI `bestmove` line of `result`.
pub fn format_bestmove(result: &SearchResult, base: RankBase) -> String {
    match (result.best, result.ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(best), None) => format!("bestmove {}", ranks::format_move(best, base)),
        (Some(best), Some(ponder)) => format!(
            "bestmove {} ponder {}",
            ranks::format_move(best, base),
            ranks::format_move(ponder, base)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::options::Setting;

    #[test]
    fn go_parses_every_limit() {
        let EngineCommand::Go(go) = parse(
            "go wtime 1000 btime -5 winc 10 binc 10 movestogo 20 depth 3 nodes 500 mate 2 \
             infinite ponder searchmoves h2e2 b0c2",
            false,
        )
        .unwrap() else {
            panic!("not a go")
        };
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, Some(0));
        assert_eq!(go.movestogo, Some(20));
        assert_eq!(go.depth, Some(3));
        assert!(go.infinite && go.ponder);
        assert_eq!(go.searchmoves.len(), 2);
        assert_eq!(parse("go perft 3", false), Ok(EngineCommand::Perft(3)));
        assert!(parse("go depth", false).is_err());
        assert!(parse("go depth x", false).is_err());
        assert!(parse("go sideways", false).is_err());
        assert!(parse("go searchmoves", false).is_err());
    }

    #[test]
    fn cyclone_lines_need_the_cyclone_dialect() {
        assert!(parse("startpos moves h2e2", false).is_err());
        assert!(matches!(
            parse("startpos moves h2e2", true),
            Ok(EngineCommand::Position(_))
        ));
        let fen = "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves b2e2";
        assert!(matches!(parse(fen, true), Ok(EngineCommand::Position(_))));
    }

    #[test]
    fn setoption_takes_names_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 50", false),
            Ok(EngineCommand::SetOption(Setting::MoveOverhead(50)))
        );
        assert_eq!(
            parse("setoption name Clear Hash", false),
            Ok(EngineCommand::SetOption(Setting::ClearHash))
        );
        assert!(parse("setoption Hash 5", false).is_err());
        assert!(parse("setoption name Nonsense value 1", false).is_err());
    }
}
