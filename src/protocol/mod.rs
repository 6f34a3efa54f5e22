//! The text protocols spoken on stdin/stdout: UCI (Pikafish-compatible, with the Cyclone dialect
//! of Chinese UCI GUIs), UCCI 3.0 and XBoard/CECP v2.
//!
//! A reader thread turns input lines into typed [`command::EngineCommand`]s; the first
//! meaningful line selects the [`Dialect`]. A [`controller::Controller`] owns the position, the
//! engine and the options, and answers `stop`, `isready`/`ping` and `quit` while a search runs
//! (searches run on the engine's own thread and report through one reporter per dialect).
//! Everything below this layer speaks ranks 0–9; [`ranks`] converts for GUIs that use 1–10.
//!
//! The modules depend on each other one way: the dialect parsers ([`uci`], [`ucci`],
//! [`xboard`]) know only the command types, options and ranks below them; the controller and
//! its dialect handlers sit above the parsers; this module, on top, ties them together.
//!
//! stdout carries only protocol lines; logs go to stderr through `log`.

pub mod command;
pub mod controller;
pub mod dialect;
pub mod event;
pub mod options;
pub mod output;
pub mod play;
pub mod policy;
pub mod ranks;
pub mod ucci;
pub mod uci;
pub mod xboard;

pub use dialect::Dialect;
pub use event::Event;
pub use output::Output;

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};

use command::{CommandError, EngineCommand, Greeting, MAX_LINE_BYTES};

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

/// Parses one line of `dialect`.
pub fn parse_line(dialect: Dialect, line: &str) -> Result<EngineCommand, CommandError> {
    match dialect {
        Dialect::Uci | Dialect::Cyclone => uci::parse(line, dialect == Dialect::Cyclone),
        Dialect::Ucci => ucci::parse(line),
        Dialect::Xboard => xboard::parse(line),
    }
}

/// Turns input lines into events: the first meaningful line selects the dialect, later lines
/// are parsed in it. Shared by the reader thread and [`Session`].
#[derive(Default)]
struct LineReader {
    dialect: Option<Dialect>,
}

impl LineReader {
    /// The events of one line (none for a blank line, two for a line that selects the dialect).
    fn events(&mut self, line: Line) -> Vec<Event> {
        let event = match (line, self.dialect) {
            (Line::Eof, _) => Event::Eof,
            (Line::TooLong(n), Some(_)) => Event::Command {
                line: String::new(),
                parsed: Err(CommandError::TooLong(n)),
            },
            (Line::TooLong(n), None) => Event::Unrecognized(format!("<{n} bytes>")),
            (Line::Text(text), Some(d)) => {
                if text.is_empty() {
                    return Vec::new();
                }
                let parsed = parse_line(d, &text);
                Event::Command { line: text, parsed }
            }
            (Line::Text(text), None) => match text.parse::<Greeting>() {
                Ok(Greeting::Empty) => return Vec::new(),
                Ok(Greeting::Select { dialect: d, replay }) => {
                    self.dialect = Some(d);
                    let parsed = if replay {
                        parse_line(d, &text)
                    } else {
                        Ok(EngineCommand::Hello)
                    };
                    return vec![Event::Select(d), Event::Command { line: text, parsed }];
                }
                Ok(Greeting::Quit) => Event::Eof,
                Ok(Greeting::Help) => Event::Help,
                Ok(Greeting::Unknown(_)) | Err(_) => Event::Unrecognized(text),
            },
        };
        vec![event]
    }
}

/// Whether `event` ends the session.
fn ends_session(event: &Event) -> bool {
    matches!(
        event,
        Event::Eof
            | Event::Command {
                parsed: Ok(EngineCommand::Quit),
                ..
            }
    )
}

/// The reader thread: lines in, events out. Never blocks on anything but stdin.
fn read_loop(mut input: impl BufRead, tx: Sender<Event>) {
    let mut reader = LineReader::default();
    let mut buf = Vec::new();
    loop {
        let line = read_line(&mut input, &mut buf).unwrap_or_else(|e| {
            log::warn!("cannot read input: {e}");
            Line::Eof
        });
        for event in reader.events(line) {
            let last = ends_session(&event);
            if tx.send(event).is_err() || last {
                return;
            }
        }
    }
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

/// A protocol session driven in-process, one input at a time, with its state open to
/// inspection: the seam for tests and the protocol fuzzer (`tests/protocol_fuzz.rs`). Input
/// goes through the same line reader and parser as with [`run`]; the events of searches and
/// background work are handled when the caller pumps them.
pub struct Session {
    controller: controller::Controller,
    events: Receiver<Event>,
    reader: LineReader,
}

impl Session {
    /// A session writing to `output`, with resources bounded by `caps`.
    pub fn new(output: impl Write + Send + 'static, caps: controller::Caps) -> Session {
        let (tx, events) = mpsc::channel();
        Session {
            controller: controller::Controller::with_caps(Output::new(output), tx, caps),
            events,
            reader: LineReader::default(),
        }
    }

    /// Feeds raw input, as if read from stdin: every line (a last one without a newline
    /// counts too) is handled before this returns. Input after the session ended is ignored.
    pub fn feed(&mut self, input: &[u8]) {
        let mut input = input;
        let mut buf = Vec::new();
        while !self.controller.finished() {
            match read_line(&mut input, &mut buf) {
                Ok(Line::Eof) | Err(_) => break,
                Ok(line) => self.handle_line(line),
            }
        }
    }

    /// Ends the input (end of file).
    pub fn end_input(&mut self) {
        self.handle_line(Line::Eof);
    }

    fn handle_line(&mut self, line: Line) {
        for event in self.reader.events(line) {
            if self.controller.finished() {
                return;
            }
            self.controller.handle(event);
        }
    }

    /// Handles the events of searches and background work that have arrived; returns how many.
    pub fn pump(&mut self) -> usize {
        let mut n = 0;
        while let Ok(event) = self.events.try_recv() {
            self.controller.handle(event);
            n += 1;
        }
        n
    }

    /// Waits up to `timeout` for one event of a search or background work and handles it (and
    /// any others that arrived); whether one came.
    pub fn pump_wait(&mut self, timeout: std::time::Duration) -> bool {
        match self.events.recv_timeout(timeout) {
            Ok(event) => {
                self.controller.handle(event);
                self.pump();
                true
            }
            Err(_) => false,
        }
    }

    /// The controller (position, counters, whether the session is over or idle).
    pub fn controller(&self) -> &controller::Controller {
        &self.controller
    }

    #[cfg(test)]
    pub(crate) fn controller_mut(&mut self) -> &mut controller::Controller {
        &mut self.controller
    }
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
