//! The controller's UCCI handlers: each parsed command becomes engine calls and answers
//! (`banmoves`, `probe`/`pophash`, `stop` when idle), a search reports through
//! [`UcciReporter`], and its end prints `bestmove … [draw|resign]` or `nobestmove`. The lines
//! are read by [`ucci`](crate::protocol::ucci).

use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use super::{ActiveSearch, Controller, Purpose};
use crate::protocol::command::{EngineCommand, UcciGo};
use crate::protocol::event::Event;
use crate::protocol::options;
use crate::protocol::output::Output;
use crate::protocol::policy::ScoreHistory;
use crate::protocol::ranks::{self, RankBase};
use crate::protocol::ucci::ucci_score;
use crate::search::limits::{Clock, Limits};
use crate::search::report::{Bound, Reporter, SearchInfo, SearchResult};

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
                crate::protocol::command::clip(line)
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
        let v = ucci_score(crate::wdl::normalize(score));
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
