//! UCCI 3.0 (the Chinese Chess Universal Engine Protocol of ElephantEye and XQWizard).
//!
//! ```text
//! > ucci                        < id name Chariot x.y.z … option usemillisec type check … ucciok
//! > setoption usemillisec true
//! > position startpos moves h2e2
//! > banmoves h9g7
//! > go draw time 60000 increment 1000 opptime 60000
//!                               < info depth 7 score 18 pv b9c7 …
//!                               < info time 312 nodes 120345
//!                               < bestmove b9c7 ponder b0c2
//! > probe startpos              < pophash bestmove h2e2 lowerbound 12 depth 9 upperbound 12 depth 9
//! > quit                        < bye
//! ```
//!
//! Scores carry no `cp` keyword; a mate in `p` plies is `10000 - p` (negative when we get
//! mated), as ElephantEye writes them. Times in `go` are seconds unless `usemillisec` is on.
//! `stop` when idle answers `nobestmove`; so does a search in a position without legal moves.
//!
//! Errors are reported as `info message error: …`: `info message` is UCCI's own line for text
//! meant for the user, and GUIs built for ElephantEye show it or ignore it; the last good
//! position and options stay. Draws and resignation follow [`policy`](super::policy).
//!
//! This module reads lines into commands and writes scores in UCCI's scale; the controller
//! carries the commands out in [`controller::ucci`](super::controller::ucci).

use super::command::{
    decimal, number, parse_position, CommandError, EngineCommand, UcciGo, MAX_PERFT_DEPTH,
};
use super::dialect::Dialect;
use super::options;
use super::ranks::MoveText;
use crate::search::report::Score;

/// A mate score in UCCI's scale: mate in `p` plies is `MATE_VALUE - p`.
pub const MATE_VALUE: i32 = 10000;

/// Parses one UCCI line.
pub fn parse(line: &str) -> Result<EngineCommand, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, args)) = words.split_first() else {
        return Err(CommandError::Unknown(String::new()));
    };
    Ok(match cmd {
        "ucci" => EngineCommand::Hello,
        "isready" => EngineCommand::IsReady,
        "setoption" => parse_setoption(args)?,
        "position" => EngineCommand::Position(parse_position("position", args)?),
        "banmoves" => EngineCommand::BanMoves(
            args.iter()
                .map(|t| t.parse::<MoveText>())
                .collect::<Result<Vec<_>, _>>()?,
        ),
        "go" => EngineCommand::UcciGo(parse_go(args)?),
        "ponderhit" => match args.first().copied() {
            None => EngineCommand::PonderHit { draw: false },
            Some("draw") => EngineCommand::PonderHit { draw: true },
            Some(other) => {
                return Err(CommandError::UnexpectedToken {
                    command: "ponderhit",
                    token: other.into(),
                })
            }
        },
        "stop" => EngineCommand::Stop,
        "probe" => EngineCommand::Probe(parse_position("probe", args)?),
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
        "perft" => EngineCommand::Perft(number(
            "perft depth",
            args.first().copied(),
            1,
            MAX_PERFT_DEPTH,
        )?),
        "help" => EngineCommand::Help,
        other => return Err(CommandError::Unknown(other.to_string())),
    })
}

/// `setoption <name> [<value>]` (also the UCI form with `name` and `value`).
fn parse_setoption(args: &[&str]) -> Result<EngineCommand, CommandError> {
    let (name, value) = match args {
        [] => {
            return Err(CommandError::Missing {
                command: "setoption",
                what: "an option name",
            })
        }
        ["name", rest @ ..] => {
            let at = rest.iter().position(|w| *w == "value");
            let name = rest[..at.unwrap_or(rest.len())].join(" ");
            (name, at.map(|i| rest[i + 1..].join(" ")))
        }
        [name, rest @ ..] => (
            name.to_string(),
            if rest.is_empty() {
                None
            } else {
                Some(rest.join(" "))
            },
        ),
    };
    Ok(EngineCommand::SetOption(options::parse_setting(
        Dialect::Ucci,
        &name,
        value.as_deref(),
    )?))
}

/// `go …` (UCCI).
fn parse_go(args: &[&str]) -> Result<UcciGo, CommandError> {
    let mut go = UcciGo::default();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).copied();
        let mut used = 2;
        match args[i] {
            "ponder" => {
                go.ponder = true;
                used = 1;
            }
            "draw" => {
                go.draw = true;
                used = 1;
            }
            "infinite" => {
                go.infinite = true;
                used = 1;
            }
            "depth" if value == Some("infinite") => go.infinite = true,
            "depth" => go.depth = Some(number("depth", value, 1, 255)?),
            "nodes" => go.nodes = Some(number("nodes", value, 1, u64::MAX)?),
            "time" => go.time = Some(decimal("time", value)?),
            "movestogo" => go.movestogo = Some(number("movestogo", value, 0, 10_000)?),
            "increment" => go.increment = Some(decimal("increment", value)?),
            "opptime" => go.opptime = Some(decimal("opptime", value)?),
            "oppmovestogo" => go.oppmovestogo = Some(number("oppmovestogo", value, 0, 10_000)?),
            "oppincrement" => go.oppincrement = Some(decimal("oppincrement", value)?),
            other => {
                return Err(CommandError::UnexpectedToken {
                    command: "go",
                    token: other.into(),
                })
            }
        }
        i += used;
    }
    Ok(go)
}

/// A score in UCCI's scale.
pub fn ucci_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_VALUE - (2 * n - 1),
        Score::Mate(n) => -(MATE_VALUE - 2 * n.abs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_ucci_time_controls() {
        let EngineCommand::UcciGo(go) =
            parse("go ponder draw time 60 increment 1.5 opptime 50 oppincrement 1").unwrap()
        else {
            panic!()
        };
        assert!(go.ponder && go.draw);
        assert_eq!(go.time, Some(60.0));
        assert_eq!(go.increment, Some(1.5));
        assert_eq!(go.opptime, Some(50.0));
        let EngineCommand::UcciGo(go) = parse("go depth infinite").unwrap() else {
            panic!()
        };
        assert!(go.infinite);
        assert!(parse("go depth -3").is_err());
        assert!(parse("go time soon").is_err());
    }

    #[test]
    fn setoption_has_no_keywords() {
        assert_eq!(
            parse("setoption usemillisec true"),
            Ok(EngineCommand::SetOption(options::Setting::UseMillisec(
                true
            )))
        );
        assert_eq!(
            parse("setoption newgame"),
            Ok(EngineCommand::SetOption(options::Setting::NewGame))
        );
        assert!(parse("setoption").is_err());
        assert!(parse("setoption hashsize lots").is_err());
    }

    #[test]
    fn mate_scores_use_the_elephanteye_scale() {
        assert_eq!(ucci_score(Score::Mate(1)), 9999);
        assert_eq!(ucci_score(Score::Mate(-1)), -9998);
        assert_eq!(ucci_score(Score::Cp(-35)), -35);
    }
}
