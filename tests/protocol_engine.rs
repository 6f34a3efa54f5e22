//! Test support for `protocol_uci.rs`, `protocol_ucci.rs` and `protocol_xboard.rs`: runs the
//! real `chariot` binary over pipes and reads its output with a timeout, so that no test can
//! hang forever. (Compiled as its own, empty, test crate too.)

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use chariot::movegen::legal_moves;
use chariot::position::Position;
use chariot::types::Move;

/// How long any single expectation may wait (generous: the machine may be busy).
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything exchanged so far (`> ` sent, `< ` received), for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts the engine.
    pub fn start() -> Engine {
        Engine::start_command(Command::new(env!("CARGO_BIN_EXE_chariot")))
    }

    /// Starts the engine through a POSIX shell script that ends in `exec "$0"` (`$0` is the
    /// engine), e.g. to set a resource limit first.
    pub fn start_in_shell(script: &str) -> Engine {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_chariot"));
        Engine::start_command(command)
    }

    /// Starts the engine with `command`.
    pub fn start_command(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env("RUST_LOG", "off")
            .spawn()
            .expect("chariot starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// Starts the engine and selects a dialect with `hello`, reading up to `ok`.
    pub fn with(hello: &str, ok: &str) -> Engine {
        let mut e = Engine::start();
        e.send(hello);
        e.expect_line(ok);
        e
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.transcript
            .push(format!("> {}", line.chars().take(200).collect::<String>()));
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("engine reads its input");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's input (end of file).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    fn fail(&self, what: &str) -> ! {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        let tail: Vec<&str> = tail.into_iter().rev().map(|s| s.as_str()).collect();
        panic!(
            "{what}\n--- transcript (last lines) ---\n{}",
            tail.join("\n")
        );
    }

    /// The next line, or `None` at end of output. Panics after [`TIMEOUT`].
    pub fn next_line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => self.fail("timed out waiting for the engine"),
        }
    }

    /// Reads lines until one satisfies `pred`; returns all lines read, the match last.
    pub fn read_until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.next_line() {
                Some(line) => {
                    let done = pred(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => self.fail(&format!("the engine closed its output before {what}")),
            }
        }
    }

    /// Reads up to the exact line `line`.
    pub fn expect_line(&mut self, line: &str) -> Vec<String> {
        self.read_until(line, |l| l == line)
    }

    /// UCI and UCCI: sends `isready` and returns the lines up to `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.expect_line("readyok")
    }

    /// Reads up to the first line starting with `prefix`; returns that line.
    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        self.read_until(prefix, |l| l.starts_with(prefix))
            .pop()
            .unwrap_or_default()
    }

    /// Reads up to the first line starting with `prefix`; returns all lines read.
    pub fn lines_until_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.read_until(prefix, |l| l.starts_with(prefix))
    }

    /// Lines that arrive within `d` (for collecting output, never for timing checks).
    pub fn drain_for(&mut self, d: Duration) -> Vec<String> {
        let end = Instant::now() + d;
        let mut seen = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    seen.push(line);
                }
                Err(_) => break,
            }
        }
        seen
    }

    /// Waits for the process to exit (after `quit` or end of input).
    pub fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            if start.elapsed() > TIMEOUT {
                self.fail("the engine did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Every remaining output line (until the engine closes its output).
    pub fn rest(&mut self) -> Vec<String> {
        let mut seen = Vec::new();
        while let Some(line) = self.next_line() {
            seen.push(line);
        }
        seen
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The position after `moves` (ranks 0–9) from `fen`.
pub fn position(fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).expect("test FEN is valid");
    for m in moves {
        let mv: Move = m.parse().expect("test move parses");
        assert!(pos.is_legal(mv), "test move {m} is legal");
        pos.make_move(mv);
    }
    pos
}

/// Whether `token` (ranks 0–9) is a legal move in `pos`.
pub fn is_legal(pos: &Position, token: &str) -> bool {
    token
        .parse::<Move>()
        .is_ok_and(|m| legal_moves(pos).contains(&m))
}

/// `token` with ranks 1–10 rewritten as 0–9 (`h3e3` → `h2e2`, `a10a9` → `a9a8`).
pub fn one_to_zero(token: &str) -> String {
    let mut out = String::new();
    let mut chars = token.chars().peekable();
    while let Some(f) = chars.next() {
        out.push(f);
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|c| c.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        let n: u32 = digits.parse().expect("a rank");
        out += &(n - 1).to_string();
    }
    out
}

/// The standard start position.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Red to move and hopelessly behind (a bare general against Black's full army).
pub const RED_LOST: &str = "rnbakabnr/9/1c5c1/4p4/9/9/9/9/9/4K4 w - - 0 1";

/// Red to move and far ahead (Black has a bare general).
pub const RED_WON: &str = "4k4/9/9/9/9/9/4P4/1C5C1/9/RNBAKABNR w - - 0 1";

/// Black to move and checkmated by two chariots.
pub const BLACK_MATED: &str = "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1";

/// Red to move mates in one (`b7b9`, two chariots).
pub const RED_MATES_IN_ONE: &str = "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1";

/// The lines that start with `prefix` (e.g. a dialect's error prefix).
pub fn starting_with<'a>(lines: &'a [String], prefix: &str) -> Vec<&'a String> {
    lines.iter().filter(|l| l.starts_with(prefix)).collect()
}

/// The bestmove token of a UCI/UCCI `bestmove` line.
pub fn bestmove_of(line: &str) -> String {
    line.split_whitespace().nth(1).unwrap_or("").to_string()
}
