//! The text protocols spoken on stdin/stdout: UCI (Pikafish-compatible, with the Cyclone dialect
//! of Chinese UCI GUIs), UCCI 3.0 and XBoard/CECP v2.
//!
//! A reader thread turns input lines into typed [`command::EngineCommand`]s; the first
//! meaningful line selects the [`Dialect`]. A [`controller::Controller`] owns the position, the
//! engine and the options, and answers `stop`, `isready`/`ping` and `quit` while a search runs
//! (searches run on the engine's own thread and report through one reporter per dialect).
//! Everything below this layer speaks ranks 0–9; [`ranks`] converts for GUIs that use 1–10.
//!
//! stdout carries only protocol lines; logs go to stderr through `log`.

pub mod command;
pub mod controller;
pub mod options;
pub mod play;
pub mod policy;
pub mod ranks;
pub mod ucci;
pub mod uci;
pub mod xboard;

use std::fmt;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};

use command::{CommandError, EngineCommand, Greeting, MAX_LINE_BYTES};

use crate::search::report::SearchResult;

/// The protocol family chosen by the first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// UCI as Pikafish speaks it (`uci`).
    Uci,
    /// UCI as Chinese "Cyclone" GUIs speak it (`ucicyclone`, or a bare `fen …`/`startpos …`).
    Cyclone,
    /// UCCI 3.0 (`ucci`).
    Ucci,
    /// XBoard / CECP v2 (`xboard`).
    Xboard,
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Uci => "UCI",
            Dialect::Cyclone => "UCI (Cyclone)",
            Dialect::Ucci => "UCCI",
            Dialect::Xboard => "XBoard",
        })
    }
}

/// The protocol output: whole lines, flushed one by one, shared by the controller and the
/// search thread. Write errors (a closed pipe) are logged and otherwise ignored.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = writeln!(w, "{text}").and_then(|_| w.flush()) {
            log::debug!("cannot write to the GUI: {e}");
        }
    }

    /// Writes several lines at once (no other line comes between them).
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let result = lines.iter().try_for_each(|l| writeln!(w, "{}", l.as_ref()));
        if let Err(e) = result.and_then(|_| w.flush()) {
            log::debug!("cannot write to the GUI: {e}");
        }
    }
}

/// What the controller reacts to: input from the reader thread and results from the search.
#[derive(Debug)]
pub enum Event {
    /// A line before any dialect was selected that selects none.
    Unrecognized(String),
    /// The first line chose a dialect.
    Select(Dialect),
    /// A parsed line (or why it did not parse), with the line as received.
    Command {
        /// The input line (trimmed).
        line: String,
        /// The command or the error.
        parsed: Result<EngineCommand, CommandError>,
    },
    /// `help` before any dialect.
    Help,
    /// End of input (or `quit` before any dialect).
    Eof,
    /// A search finished.
    SearchDone {
        /// The search it belongs to.
        id: u64,
        /// Its result.
        result: SearchResult,
    },
}

/// One input line as read.
enum Line {
    Text(String),
    TooLong(usize),
    Eof,
}

/// Reads one line of at most [`MAX_LINE_BYTES`]; longer lines are skipped whole.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Line> {
    buf.clear();
    let n = (&mut *input)
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(Line::Eof);
    }
    if n > MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
        let mut skipped = n;
        loop {
            buf.clear();
            let k = (&mut *input).take(64 * 1024).read_until(b'\n', buf)?;
            skipped += k;
            if k == 0 || buf.last() == Some(&b'\n') {
                break;
            }
        }
        buf.clear();
        return Ok(Line::TooLong(skipped));
    }
    let text = String::from_utf8_lossy(buf);
    Ok(Line::Text(text.trim().to_string()))
}

/// The reader thread: lines in, events out. Never blocks on anything but stdin.
fn read_loop(mut input: impl BufRead, tx: Sender<Event>) {
    let mut dialect: Option<Dialect> = None;
    let mut buf = Vec::new();
    loop {
        let line = match read_line(&mut input, &mut buf) {
            Ok(Line::Eof) => break,
            Ok(line) => line,
            Err(e) => {
                log::warn!("cannot read input: {e}");
                break;
            }
        };
        let event = match (line, dialect) {
            (Line::TooLong(n), Some(_)) => Event::Command {
                line: String::new(),
                parsed: Err(CommandError::TooLong(n)),
            },
            (Line::TooLong(n), None) => Event::Unrecognized(format!("<{n} bytes>")),
            (Line::Text(text), Some(d)) => {
                if text.is_empty() {
                    continue;
                }
                let parsed = command::parse_line(d, &text);
                Event::Command { line: text, parsed }
            }
            (Line::Text(text), None) => match text.parse::<Greeting>() {
                Ok(Greeting::Empty) => continue,
                Ok(Greeting::Select { dialect: d, replay }) => {
                    dialect = Some(d);
                    let selected = tx.send(Event::Select(d)).is_ok();
                    if !selected {
                        break;
                    }
                    let parsed = if replay {
                        command::parse_line(d, &text)
                    } else {
                        Ok(EngineCommand::Hello)
                    };
                    Event::Command { line: text, parsed }
                }
                Ok(Greeting::Quit) => Event::Eof,
                Ok(Greeting::Help) => Event::Help,
                Ok(Greeting::Unknown(_)) | Err(_) => Event::Unrecognized(text),
            },
            (Line::Eof, _) => break,
        };
        let quit = matches!(event, Event::Eof)
            || matches!(
                &event,
                Event::Command {
                    parsed: Ok(EngineCommand::Quit),
                    ..
                }
            );
        if tx.send(event).is_err() || quit {
            return;
        }
    }
    let _ = tx.send(Event::Eof);
}

/// Runs a protocol session on `input` and `output` until `quit` or end of input. The reader
/// runs on its own thread; this call returns once all output is written.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_loop(input, reader_tx))?;
    let mut controller = controller::Controller::new(Output::new(output), tx);
    controller.run(rx);
    Ok(())
}

/// The one-line banner shown on stderr when a person runs the engine in a terminal.
pub fn banner() -> String {
    format!(
        "Chariot {} (Xiangqi engine): type uci, ucci or xboard (help lists the commands)",
        env!("CARGO_PKG_VERSION")
    )
}

/// Runs the protocol loop on stdin/stdout (the binary's default mode), with a banner on stderr
/// when stdin is a terminal.
pub fn run_stdio() -> io::Result<()> {
    let stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!("{}", banner());
    }
    run(io::BufReader::new(stdin), io::stdout())
}
