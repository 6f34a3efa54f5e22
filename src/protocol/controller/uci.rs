//! The controller's UCI handlers (also for the Cyclone dialect): each parsed command becomes
//! engine calls and answers, a search reports through [`UciReporter`], and its end prints
//! `bestmove`. The lines are read and formatted by [`uci`](crate::protocol::uci).

use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use super::{ActiveSearch, Controller, Purpose};
use crate::protocol::command::{EngineCommand, UciGo};
use crate::protocol::event::Event;
use crate::protocol::options::{self, Setting};
use crate::protocol::output::Output;
use crate::protocol::ranks::{RankBase, RankMode};
use crate::protocol::uci::{format_bestmove, format_info};
use crate::search::limits::{Clock, Limits};
use crate::search::report::{Reporter, SearchInfo, SearchResult};
use crate::types::Color;

const HELP: &[&str] = &[
    "uci                          identify, list options, uciok",
    "isready                      readyok (answered at once, also while searching)",
    "setoption name N [value V]   set an option (see below)",
    "ucinewgame                   forget the game (clears hash and histories)",
    "position startpos|fen F [moves m1 m2 ...]",
    "go [wtime T btime T winc I binc I movestogo N | movetime T | depth D | nodes N | mate N",
    "   | infinite | ponder] [searchmoves m1 m2 ...]",
    "go perft N                   count leaf nodes per root move",
    "stop | ponderhit | quit",
    "d | eval | bench [depth]     board, evaluation terms, speed signature",
    "Cyclone dialect: fen F [moves ...] and startpos [moves ...] without 'position'",
];

/// Prints a UCI search's progress; hands the result to the controller.
pub struct UciReporter {
    out: Output,
    events: Sender<Event>,
    id: u64,
    base: RankBase,
}

impl Reporter for UciReporter {
    fn info(&self, info: &SearchInfo) {
        self.out.line(&format_info(info, self.base));
    }

    fn message(&self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }

    fn best_move(&self, result: &SearchResult) {
        let _ = self.events.send(Event::SearchDone {
            id: self.id,
            result: result.clone(),
        });
    }
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

impl Controller {
    /// Handles one UCI (or Cyclone) command.
    pub(super) fn uci_command(&mut self, cmd: EngineCommand, line: &str) {
        match cmd {
            EngineCommand::Hello => {
                let mut lines = vec![
                    format!("id name Chariot {}", env!("CARGO_PKG_VERSION")),
                    "id author the Chariot developers".to_string(),
                ];
                lines.extend(options::uci_lines());
                lines.push("uciok".to_string());
                self.out.lines(&lines);
            }
            EngineCommand::IsReady => self.out.line("readyok"),
            EngineCommand::Debug(on) => self.settings.debug = on,
            EngineCommand::SetOption(setting) => {
                self.complete_search();
                match setting {
                    Setting::UciVariant => {
                        if self.settings.rank_mode == RankMode::Auto && self.base != RankBase::One {
                            self.base = RankBase::One;
                            self.note("ranks are numbered 1-10 from now on");
                        }
                    }
                    other => self.apply_setting(other),
                }
            }
            EngineCommand::NewGame => {
                self.complete_search();
                self.new_game();
            }
            EngineCommand::Position(spec) => {
                self.set_position(&spec, line);
            }
            EngineCommand::Go(go) => {
                self.complete_search();
                match self.uci_limits(&go) {
                    Ok(limits) => {
                        let pos = self.pos.clone();
                        let (out, events, base) =
                            (self.out.clone(), self.events.clone(), self.base);
                        self.start_search(&pos, limits, Purpose::Uci, move |id| {
                            Arc::new(UciReporter {
                                out,
                                events,
                                id,
                                base,
                            })
                        });
                    }
                    Err(message) => self.report_failure("bad go", &message, line),
                }
            }
            EngineCommand::Perft(depth) => {
                self.complete_search();
                self.perft(depth);
            }
            EngineCommand::Stop => {
                if self.searching() {
                    self.engine.stop();
                }
            }
            EngineCommand::PonderHit { .. } => self.engine.ponderhit(),
            EngineCommand::Quit => self.shutdown(),
            EngineCommand::Display => self.out.line(&self.pos.to_string()),
            EngineCommand::Eval => self.out.line(&crate::eval::describe(&self.pos)),
            EngineCommand::Bench(depth) => {
                self.complete_search();
                self.bench(depth);
            }
            EngineCommand::Help => self.help(HELP),
            EngineCommand::Ignored(_) => {}
            other => self.report_failure(
                "unknown command",
                &format!("'{other:?}' is not a UCI command"),
                line,
            ),
        }
    }

    /// The limits of a UCI `go` in the current position.
    fn uci_limits(&self, go: &UciGo) -> Result<Limits, String> {
        let red = self.pos.side_to_move() == Color::Red;
        let (time, inc, otime, oinc) = if red {
            (go.wtime, go.winc, go.btime, go.binc)
        } else {
            (go.btime, go.binc, go.wtime, go.winc)
        };
        let clock = time.map(|t| Clock {
            time: ms(t),
            increment: ms(inc.unwrap_or(0)),
            moves_to_go: go.movestogo.filter(|&n| n > 0),
            opponent_time: otime.map(ms),
            opponent_increment: oinc.map(ms),
        });
        let search_moves = if go.searchmoves.is_empty() {
            Vec::new()
        } else {
            self.root_moves(&go.searchmoves)?
        };
        Ok(Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(ms),
            mate: go.mate,
            clock,
            infinite: go.infinite,
            ponder: go.ponder,
            search_moves,
            ..Limits::default()
        })
    }

    /// A UCI search ended: `bestmove`.
    pub(super) fn uci_finished(&mut self, search: &ActiveSearch, result: &SearchResult) {
        self.out.line(&format_bestmove(result, search.base));
    }
}
