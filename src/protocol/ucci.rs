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

use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use super::command::{
    decimal, number, parse_position, CommandError, EngineCommand, UcciGo, MAX_PERFT_DEPTH,
};
use super::controller::{ActiveSearch, Controller, Purpose};
use super::dialect::Dialect;
use super::event::Event;
use super::options;
use super::output::Output;
use super::policy::ScoreHistory;
use super::ranks::{self, MoveText, RankBase};
use crate::search::limits::{Clock, Limits};
use crate::search::report::{Bound, Reporter, Score, SearchInfo, SearchResult};

/// A mate score in UCCI's scale: mate in `p` plies is `MATE_VALUE - p`.
pub const MATE_VALUE: i32 = 10000;

const HELP: &[&str] = &[
    "ucci                         identify, list options, ucciok",
    "isready                      readyok",
    "setoption <name> [<value>]   e.g. setoption hashsize 64, setoption newgame",
    "position startpos|fen F [moves m1 m2 ...]",
    "banmoves m1 m2 ...           moves not to play here (until the next position)",
    "go [ponder|draw] depth N|infinite | nodes N | time T [movestogo M | increment I]",
    "   [opptime T [oppmovestogo M | oppincrement I]]    (seconds, or ms with usemillisec)",
    "ponderhit [draw] | stop      (stop when idle: nobestmove)",
    "probe startpos|fen F [moves ...]   hash table entry: pophash ...",
    "quit                         bye",
    "d | eval | bench [depth] | perft N",
];

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

/// Prints a UCCI search's progress; hands the result to the controller.
pub struct UcciReporter {
    out: Output,
    events: Sender<Event>,
    id: u64,
}

impl Reporter for UcciReporter {
    fn info(&self, info: &SearchInfo) {
        if info.multipv > 1 {
            return;
        }
        self.out.lines(&[
            format!(
                "info depth {} score {} pv {}",
                info.depth,
                ucci_score(info.score),
                ranks::format_moves(&info.pv, RankBase::Zero)
            ),
            format!("info time {} nodes {}", info.time.as_millis(), info.nodes),
        ]);
    }

    fn message(&self, text: &str) {
        self.out.line(&format!("info message {text}"));
    }

    fn best_move(&self, result: &SearchResult) {
        let _ = self.events.send(Event::SearchDone {
            id: self.id,
            result: result.clone(),
        });
    }
}

impl Controller {
    /// Handles one UCCI command.
    pub(super) fn ucci_command(&mut self, cmd: EngineCommand, line: &str) {
        if self.settings.debug {
            self.out.line(&format!(
                "info message received: {}",
                super::command::clip(line)
            ));
        }
        match cmd {
            EngineCommand::Hello => {
                let mut lines = vec![
                    format!("id name Chariot {}", env!("CARGO_PKG_VERSION")),
                    "id copyright the Chariot developers, MIT license".to_string(),
                    "id author the Chariot developers".to_string(),
                    "id user unknown".to_string(),
                ];
                lines.extend(options::ucci_lines());
                lines.push("ucciok".to_string());
                self.out.lines(&lines);
            }
            EngineCommand::IsReady => self.out.line("readyok"),
            EngineCommand::SetOption(setting) => {
                self.complete_search();
                self.apply_setting(setting);
            }
            EngineCommand::Position(spec) => {
                self.set_position(&spec, line);
            }
            EngineCommand::BanMoves(texts) => match self.root_moves(&texts) {
                Ok(moves) => self.ban_moves = moves,
                Err(message) => self.report_failure("bad banmoves", &message, line),
            },
            EngineCommand::UcciGo(go) => {
                self.complete_search();
                let limits = self.ucci_limits(&go);
                let pos = self.pos.clone();
                let purpose = Purpose::Ucci {
                    draw_offered: go.draw,
                    ponder: go.ponder,
                    hit: false,
                };
                let (out, events) = (self.out.clone(), self.events.clone());
                self.start_search(&pos, limits, purpose, move |id| {
                    Arc::new(UcciReporter { out, events, id })
                });
            }
            EngineCommand::PonderHit { draw } => {
                if let Some(s) = self.search.as_mut() {
                    if let Purpose::Ucci {
                        draw_offered, hit, ..
                    } = &mut s.purpose
                    {
                        *draw_offered |= draw;
                        *hit = true;
                    }
                }
                self.engine.ponderhit();
            }
            EngineCommand::Stop => {
                if self.searching() {
                    self.engine.stop();
                } else {
                    self.out.line("nobestmove");
                }
            }
            EngineCommand::Probe(spec) => match self.build_position(&spec) {
                Ok((pos, _)) => self.out.line(&self.pophash(&pos)),
                Err(message) => self.report_failure("bad position", &message, line),
            },
            EngineCommand::Quit => self.shutdown(),
            EngineCommand::Display => self.out.line(&self.pos.to_string()),
            EngineCommand::Eval => self.out.line(&crate::eval::describe(&self.pos)),
            EngineCommand::Bench(depth) => {
                self.complete_search();
                self.bench(depth);
            }
            EngineCommand::Perft(depth) => {
                self.complete_search();
                self.perft(depth);
            }
            EngineCommand::Help => self.help(HELP),
            _ => self.report_failure("unknown command", "not a UCCI command", line),
        }
    }

    /// The limits of a UCCI `go` in the current position.
    fn ucci_limits(&self, go: &UcciGo) -> Limits {
        let unit = if self.settings.use_millisec {
            0.001
        } else {
            1.0
        };
        let dur = |x: f64| Duration::from_secs_f64((x * unit).min(1e9));
        let clock = go.time.map(|t| Clock {
            time: dur(t),
            increment: dur(go.increment.unwrap_or(0.0)),
            moves_to_go: go.movestogo.filter(|&n| n > 0),
            opponent_time: go.opptime.map(dur),
            opponent_increment: go.oppincrement.map(dur),
        });
        Limits {
            depth: go.depth,
            nodes: go.nodes,
            clock,
            infinite: go.infinite,
            ponder: go.ponder,
            ban_moves: self.ban_moves.clone(),
            ..Limits::default()
        }
    }

    /// The `pophash` answer for `pos`.
    fn pophash(&self, pos: &crate::position::Position) -> String {
        let from_root = || {
            let (key, r) = self.last_root.as_ref().filter(|(k, _)| *k == pos.key())?;
            debug_assert_eq!(*key, pos.key());
            Some((r.best?, r.score, r.depth as i32, Bound::Exact))
        };
        let Some((mv, score, depth, bound)) = self.engine.probe_bound(pos).or_else(from_root)
        else {
            return "pophash".to_string();
        };
        let mut s = "pophash".to_string();
        if !mv.is_null() && pos.is_legal(mv) {
            s += &format!(" bestmove {}", ranks::format_move(mv, RankBase::Zero));
        }
        let v = ucci_score(score);
        let depth = depth.max(0);
        if matches!(bound, Bound::Lower | Bound::Exact) {
            s += &format!(" lowerbound {v} depth {depth}");
        }
        if matches!(bound, Bound::Upper | Bound::Exact) {
            s += &format!(" upperbound {v} depth {depth}");
        }
        s
    }

    /// A UCCI search ended: `bestmove X [ponder Y] [draw|resign]` or `nobestmove`.
    pub(super) fn ucci_finished(&mut self, search: &ActiveSearch, result: &SearchResult) {
        let Purpose::Ucci {
            draw_offered,
            ponder,
            hit,
        } = search.purpose
        else {
            return;
        };
        let Some(best) = result.best else {
            self.out.line("nobestmove");
            return;
        };
        // A ponder search stopped without a hit was on a move the opponent did not play.
        let counts = !ponder || hit;
        if counts && result.depth > 0 {
            self.last_root = Some((search.key, result.clone()));
        }
        if counts && result.depth > 0 {
            self.scores.record(result.score, result.depth);
        }
        let mut line = format!("bestmove {}", ranks::format_move(best, RankBase::Zero));
        if let Some(p) = result.ponder {
            line += &format!(" ponder {}", ranks::format_move(p, RankBase::Zero));
        }
        if draw_offered && ScoreHistory::accept_draw(result.score) {
            line += " draw";
        } else if counts && self.scores.should_resign() {
            line += " resign";
        } else if counts && !draw_offered && self.scores.should_offer_draw(search.game_ply) {
            line += " draw";
        }
        self.out.line(&line);
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
