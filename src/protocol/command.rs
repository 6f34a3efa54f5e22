//! Typed commands: every dialect parses its lines into one [`EngineCommand`] enum, and every
//! parse failure is a [`CommandError`] that the dialect reports in its own form. The first
//! meaningful line of a session is a [`Greeting`] that selects the dialect.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::dialect::Dialect;
use super::options::{OptionError, Setting};
use super::ranks::{MoveText, ParseMoveTextError};

/// Longest accepted input line in bytes (a 50 000-ply move list fits).
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// Deepest `go perft` (the tools' bound, see `movegen::perft::MAX_DEPTH`).
pub const MAX_PERFT_DEPTH: u64 = crate::movegen::perft::MAX_DEPTH as u64;

/// Where a `position` (or `probe`) starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// The standard start position.
    StartPos,
    /// A FEN (not yet validated).
    Fen(String),
}

/// `position {startpos | fen F} [moves …]`: a start and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// The start.
    pub setup: Setup,
    /// The moves, as written.
    pub moves: Vec<MoveText>,
}

/// UCI `go` parameters (times in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UciGo {
    /// Red's clock.
    pub wtime: Option<u64>,
    /// Black's clock.
    pub btime: Option<u64>,
    /// Red's increment.
    pub winc: Option<u64>,
    /// Black's increment.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Exact time for this move.
    pub movetime: Option<u64>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Mate search in N moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves.
    pub searchmoves: Vec<MoveText>,
}

/// UCCI `go` parameters. Times are in the GUI's unit (seconds, or milliseconds after
/// `setoption usemillisec true`) and converted by the controller.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UcciGo {
    /// Ponder until `ponderhit` or `stop`.
    pub ponder: bool,
    /// The opponent offers a draw.
    pub draw: bool,
    /// Depth limit.
    pub depth: Option<u32>,
    /// `depth infinite` or `infinite`.
    pub infinite: bool,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Our clock.
    pub time: Option<f64>,
    /// Moves to the next control.
    pub movestogo: Option<u32>,
    /// Our increment.
    pub increment: Option<f64>,
    /// The opponent's clock.
    pub opptime: Option<f64>,
    /// The opponent's moves to go.
    pub oppmovestogo: Option<u32>,
    /// The opponent's increment.
    pub oppincrement: Option<f64>,
}

/// XBoard `level MPS BASE INC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per session (0: the whole game).
    pub moves_per_session: u32,
    /// Time per session.
    pub base: Duration,
    /// Increment per move.
    pub increment: Duration,
}

/// One command from the GUI, in any dialect.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineCommand {
    /// `uci`, `ucci`, `xboard`, `ucicyclone`: the handshake.
    Hello,
    /// `isready`.
    IsReady,
    /// `debug on|off`.
    Debug(bool),
    /// `setoption …` / XBoard `option …`.
    SetOption(Setting),
    /// `ucinewgame`, XBoard `new`.
    NewGame,
    /// `position …` (and the Cyclone `fen …` / `startpos …`).
    Position(PositionSpec),
    /// UCCI `banmoves …`.
    BanMoves(Vec<MoveText>),
    /// UCI `go …`.
    Go(UciGo),
    /// UCCI `go …`.
    UcciGo(UcciGo),
    /// `go perft N` / `perft N`.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit [draw]`.
    PonderHit {
        /// UCCI: the opponent offers a draw with the move.
        draw: bool,
    },
    /// UCCI `probe …`.
    Probe(PositionSpec),
    /// `quit`.
    Quit,
    /// `d`: show the board.
    Display,
    /// `eval`: evaluation breakdown.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `help`.
    Help,
    /// A command understood and deliberately ignored (`register`, `random`, `computer`, …).
    Ignored(String),
    /// XBoard `protover N`.
    Protover(u32),
    /// XBoard `variant NAME`.
    Variant(String),
    /// XBoard `force`.
    Force,
    /// XBoard `go`.
    Think,
    /// XBoard `playother`.
    PlayOther,
    /// XBoard `usermove M` or a bare move.
    UserMove(MoveText),
    /// XBoard `?`.
    MoveNow,
    /// XBoard `ping N`.
    Ping(String),
    /// XBoard `setboard FEN`.
    SetBoard(String),
    /// XBoard `undo`.
    Undo,
    /// XBoard `remove`.
    Remove,
    /// XBoard `level`.
    Level(Level),
    /// XBoard `st SECONDS`.
    SearchTime(Duration),
    /// XBoard `sd DEPTH`.
    SearchDepth(u32),
    /// XBoard `time` (ours) / `otim` (the opponent's), in centiseconds.
    Clock {
        /// `time` rather than `otim`.
        ours: bool,
        /// The reading (negative readings count as zero).
        centis: u64,
    },
    /// XBoard `post` / `nopost`.
    Post(bool),
    /// XBoard `analyze`.
    Analyze,
    /// XBoard `exit` (leave analyze mode).
    ExitAnalyze,
    /// XBoard `.` (analysis status request).
    AnalyzeStatus,
    /// XBoard `hard` / `easy`.
    PonderMode(bool),
    /// XBoard `memory MB`.
    Memory(usize),
    /// XBoard `cores N`.
    Cores(usize),
    /// XBoard `result RESULT {comment}`.
    GameResult(String),
    /// XBoard `draw`: the opponent offers a draw.
    DrawOffer,
    /// XBoard `hint`.
    Hint,
    /// XBoard `bk`.
    Book,
}

/// Why a line could not be turned into a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The line is longer than [`MAX_LINE_BYTES`].
    TooLong(usize),
    /// The first word is not a command of this dialect.
    Unknown(String),
    /// A required argument is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// An argument is not a valid number.
    BadNumber {
        /// Which argument.
        what: String,
        /// The text given.
        value: String,
    },
    /// A number outside its range.
    OutOfRange {
        /// Which argument.
        what: String,
        /// The number given.
        value: String,
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// A token that is not a move.
    BadMove(ParseMoveTextError),
    /// A word the command does not take.
    UnexpectedToken {
        /// The command.
        command: &'static str,
        /// The word.
        token: String,
    },
    /// A refused option.
    BadOption(OptionError),
    /// A variant other than xiangqi.
    UnsupportedVariant(String),
}

/// Cuts user text down for echoing in messages.
pub fn clip(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX).collect();
        t.push('…');
        t
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::TooLong(n) => {
                write!(
                    f,
                    "line of {n} bytes ignored (the limit is {MAX_LINE_BYTES})"
                )
            }
            CommandError::Unknown(cmd) => write!(f, "unknown command '{}'", clip(cmd)),
            CommandError::Missing { command, what } => write!(f, "'{command}' needs {what}"),
            CommandError::BadNumber { what, value } => {
                write!(f, "{what}: '{}' is not a valid number", clip(value))
            }
            CommandError::OutOfRange {
                what,
                value,
                min,
                max,
            } => {
                write!(f, "{what}: {} is out of range {min}..{max}", clip(value))
            }
            CommandError::BadMove(e) => write!(f, "{e}"),
            CommandError::UnexpectedToken { command, token } => {
                write!(f, "'{command}' does not take '{}'", clip(token))
            }
            CommandError::BadOption(e) => write!(f, "{e}"),
            CommandError::UnsupportedVariant(v) => {
                write!(f, "variant '{}' is not supported (only xiangqi)", clip(v))
            }
        }
    }
}

impl std::error::Error for CommandError {}

impl From<OptionError> for CommandError {
    fn from(e: OptionError) -> CommandError {
        CommandError::BadOption(e)
    }
}

impl From<ParseMoveTextError> for CommandError {
    fn from(e: ParseMoveTextError) -> CommandError {
        CommandError::BadMove(e)
    }
}

/// Parses a number argument within `min..=max`.
pub fn number<T>(what: &str, text: Option<&str>, min: u64, max: u64) -> Result<T, CommandError>
where
    T: TryFrom<u64>,
{
    let text = text.ok_or_else(|| CommandError::BadNumber {
        what: what.to_string(),
        value: String::new(),
    })?;
    let bad = || CommandError::BadNumber {
        what: what.to_string(),
        value: text.to_string(),
    };
    let n: u64 = text.parse().map_err(|_| bad())?;
    if n < min || n > max {
        return Err(CommandError::OutOfRange {
            what: what.to_string(),
            value: text.to_string(),
            min,
            max,
        });
    }
    T::try_from(n).map_err(|_| bad())
}

/// Parses a clock reading: an integer that may be negative (GUIs send negative clocks after a
/// flag fall); negative readings become 0.
pub fn clock_reading(what: &str, text: Option<&str>) -> Result<u64, CommandError> {
    let text = text.unwrap_or("");
    let n: i64 = text.parse().map_err(|_| CommandError::BadNumber {
        what: what.to_string(),
        value: text.to_string(),
    })?;
    Ok(n.max(0) as u64)
}

/// Parses a non-negative decimal number (UCCI times, XBoard increments).
pub fn decimal(what: &str, text: Option<&str>) -> Result<f64, CommandError> {
    let text = text.unwrap_or("");
    let bad = || CommandError::BadNumber {
        what: what.to_string(),
        value: text.to_string(),
    };
    let x: f64 = text.parse().map_err(|_| bad())?;
    if !x.is_finite() {
        return Err(bad());
    }
    Ok(x.max(0.0))
}

/// Splits `startpos|fen <FEN> [moves …]` into a [`PositionSpec`]; `command` names the command
/// in errors. The FEN is everything between `fen` and `moves`.
pub fn parse_position(command: &'static str, words: &[&str]) -> Result<PositionSpec, CommandError> {
    let (setup, rest) = match words.first() {
        Some(&"startpos") => (Setup::StartPos, &words[1..]),
        Some(&"fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            if end <= 1 {
                return Err(CommandError::Missing {
                    command,
                    what: "a FEN after 'fen'",
                });
            }
            (Setup::Fen(words[1..end].join(" ")), &words[end..])
        }
        Some(other) => {
            return Err(CommandError::UnexpectedToken {
                command,
                token: other.to_string(),
            })
        }
        None => {
            return Err(CommandError::Missing {
                command,
                what: "'startpos' or 'fen <FEN>'",
            })
        }
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", list)) => list
            .iter()
            .map(|t| t.parse::<MoveText>())
            .collect::<Result<Vec<_>, _>>()?,
        Some((other, _)) => {
            return Err(CommandError::UnexpectedToken {
                command,
                token: other.to_string(),
            })
        }
    };
    Ok(PositionSpec { setup, moves })
}

/// The first meaningful line of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Greeting {
    /// Blank line.
    Empty,
    /// A dialect's handshake; `replay` is set when the line itself is also a command of that
    /// dialect (a Cyclone `fen …` / `startpos …` line).
    Select {
        /// The dialect.
        dialect: Dialect,
        /// Whether to parse the same line again as a command.
        replay: bool,
    },
    /// `quit` before any handshake.
    Quit,
    /// `help` before any handshake.
    Help,
    /// Anything else.
    Unknown(String),
}

impl FromStr for Greeting {
    type Err = std::convert::Infallible;

    fn from_str(line: &str) -> Result<Greeting, Self::Err> {
        let first = line.split_whitespace().next().unwrap_or("");
        Ok(match first {
            "" => Greeting::Empty,
            "uci" => Greeting::Select {
                dialect: Dialect::Uci,
                replay: false,
            },
            "ucci" => Greeting::Select {
                dialect: Dialect::Ucci,
                replay: false,
            },
            "xboard" => Greeting::Select {
                dialect: Dialect::Xboard,
                replay: false,
            },
            "ucicyclone" => Greeting::Select {
                dialect: Dialect::Cyclone,
                replay: false,
            },
            "fen" | "startpos" => Greeting::Select {
                dialect: Dialect::Cyclone,
                replay: true,
            },
            "quit" => Greeting::Quit,
            "help" => Greeting::Help,
            other => Greeting::Unknown(other.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greetings_select_dialects() {
        let g = |s: &str| s.parse::<Greeting>().unwrap();
        assert_eq!(
            g("uci"),
            Greeting::Select {
                dialect: Dialect::Uci,
                replay: false
            }
        );
        assert_eq!(
            g("  ucci "),
            Greeting::Select {
                dialect: Dialect::Ucci,
                replay: false
            }
        );
        assert_eq!(
            g("xboard"),
            Greeting::Select {
                dialect: Dialect::Xboard,
                replay: false
            }
        );
        assert_eq!(
            g("fen 9/9 r"),
            Greeting::Select {
                dialect: Dialect::Cyclone,
                replay: true
            }
        );
        assert_eq!(g(""), Greeting::Empty);
        assert_eq!(g("hello"), Greeting::Unknown("hello".into()));
    }

    #[test]
    fn positions_split_fen_and_moves() {
        let words: Vec<&str> = "fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e0d0"
            .split(' ')
            .collect();
        let p = parse_position("position", &words).unwrap();
        assert_eq!(
            p.setup,
            Setup::Fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into())
        );
        assert_eq!(p.moves.len(), 1);
        assert!(parse_position("position", &["fen"]).is_err());
        assert!(parse_position("position", &["startpos", "foo"]).is_err());
        assert!(parse_position("position", &["startpos", "moves", "zz"]).is_err());
        assert!(parse_position("position", &["startpos", "moves"])
            .unwrap()
            .moves
            .is_empty());
    }

    #[test]
    fn numbers_are_checked() {
        assert_eq!(number::<u32>("depth", Some("5"), 1, 10), Ok(5));
        assert!(number::<u32>("depth", Some("x"), 1, 10).is_err());
        assert!(number::<u32>("depth", Some("0"), 1, 10).is_err());
        assert!(number::<u32>("depth", Some("99999999999999999999"), 1, 10).is_err());
        assert_eq!(clock_reading("wtime", Some("-50")), Ok(0));
        assert!(decimal("time", Some("nan")).is_err());
    }
}
