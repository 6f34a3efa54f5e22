//! An engine in another process, spoken to over pipes in UCI, UCCI or the Cyclone dialect.
//!
//! A reader thread turns the engine's stdout into time-stamped lines on a channel, so every
//! wait has a deadline: the handshake, `isready`, and each move (`stop` when the allowed time
//! is up, then a grace period, then the process is killed and reported as hung). End of
//! output while waiting is a crash. Nothing the engine prints can make us panic.
//!
//! Rank numbering: `ranks=` in the spec decides. Without it, as GUIs and cutechess do, the
//! handshake decides: an engine that offers `Rank Base` (Chariot) is told 0–9; a UCI engine
//! that offers `UCI_Variant` with `xiangqi` among its values numbers ranks 1–10 once that
//! variant is set (Fairy-Stockfish does: `h1g3` is its horse h0g2); anything else 0–9, as
//! UCCI always is. The choice is reported by [`Player::setup_note`]. Should a move be illegal
//! in the chosen numbering but legal in the other, the engine is set up wrong, not playing
//! badly: [`Thought::Misconfigured`] stops the match.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::movegen::legal_moves;
use crate::position::{Position, START_FEN};
use crate::search::report::Score;

use super::player::{format_move, parse_move, Go, MoveRequest, Player, Thought};
use super::spec::{EngineSpec, Protocol, RankBase, TimeUnit};

/// One line from the engine, or the end of its output.
enum Event {
    Line(Instant, String),
    Eof,
}

/// An engine process and its pipes.
pub struct ExternalEngine {
    spec: EngineSpec,
    name: String,
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Event>,
    options_offered: Vec<String>,
    millis: bool,
    dead: bool,
    ready_timeout: Duration,
    /// The rank numbering spoken with this engine (given or detected).
    ranks: RankBase,
    /// Why that numbering, for the log.
    ranks_note: String,
}

/// How long the handshake and `isready` may take by default.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

impl ExternalEngine {
    /// Starts the engine of `spec` and completes the handshake (hello, options, `isready`)
    /// within `timeout`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<ExternalEngine, String> {
        let cmd = spec.cmd.as_deref().ok_or("no cmd given")?;
        let mut command = Command::new(cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start '{cmd}': {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot open the pipes of '{cmd}'"));
        };
        let (tx, events) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // A line longer than 1 MiB is cut into pieces rather than kept growing.
                match (&mut reader).take(1 << 20).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(Event::Line(Instant::now(), line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Event::Eof);
        });
        let mut engine = ExternalEngine {
            spec: spec.clone(),
            name: spec.fallback_name(),
            child,
            stdin,
            events,
            options_offered: Vec::new(),
            millis: true,
            dead: false,
            ready_timeout: timeout,
            ranks: RankBase::Zero,
            ranks_note: String::new(),
        };
        engine.handshake(timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        let ucci = self.spec.proto == Protocol::Ucci;
        let (hello, ok) = if ucci {
            ("ucci", "ucciok")
        } else {
            ("uci", "uciok")
        };
        self.send(hello)?;
        let mut id_name = None;
        let mut variant_default = None;
        let mut variant_offered = false;
        loop {
            let line = self
                .next_line(deadline)
                .map_err(|e| format!("{e} (waiting for {ok})"))?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some(w) if w == ok => break,
                Some("id") if words.next() == Some("name") => {
                    let name = words.collect::<Vec<_>>().join(" ");
                    if !name.is_empty() {
                        id_name = Some(name);
                    }
                }
                Some("option") => {
                    if let Some(name) = option_name(&line, ucci) {
                        if name.eq_ignore_ascii_case("UCI_Variant") {
                            let mut words = line.split_whitespace();
                            variant_default = words
                                .find(|&w| w == "default")
                                .and(words.next())
                                .map(String::from);
                            let values: Vec<&str> = line.split_whitespace().collect();
                            variant_offered = values.windows(2).any(|w| {
                                matches!(w[0], "var" | "default")
                                    && w[1].eq_ignore_ascii_case(&self.spec.variant)
                            });
                        }
                        self.options_offered.push(name);
                    }
                }
                _ => {}
            }
        }
        if let (None, Some(id)) = (&self.spec.name, id_name) {
            self.name = id;
        }
        let offers =
            |name: &str, offered: &[String]| offered.iter().any(|o| o.eq_ignore_ascii_case(name));
        // UCI_Variant only when the engine's default is another variant (Fairy-Stockfish
        // starts in chess; setting it needlessly makes some engines switch to ranks 1-10).
        if !ucci
            && offers("UCI_Variant", &self.options_offered)
            && self.spec.option("UCI_Variant").is_none()
            && variant_default.as_deref() != Some(self.spec.variant.as_str())
        {
            let variant = self.spec.variant.clone();
            self.set_option("UCI_Variant", &variant)?;
        }
        // Engines with a rank-numbering option (Chariot's "Rank Base") get ours.
        let rank_option = !ucci
            && offers("Rank Base", &self.options_offered)
            && self.spec.option("Rank Base").is_none();
        let (ranks, why) = match self.spec.ranks {
            Some(base) => (base, "given by ranks="),
            None if self.spec.proto != Protocol::Uci => (RankBase::Zero, "UCCI and Cyclone"),
            None if rank_option => (RankBase::Zero, "set through its Rank Base option"),
            None if variant_offered => (
                RankBase::One,
                "it offers UCI_Variant xiangqi, and such engines number ranks 1-10",
            ),
            None => (RankBase::Zero, "the default"),
        };
        self.ranks = ranks;
        self.ranks_note = format!(
            "{}: ranks {} ({why}; give ranks=0 or ranks=1 to choose)",
            self.name,
            ranks.describe()
        );
        if rank_option {
            self.set_option("Rank Base", ranks.digit())?;
        }
        if ucci {
            self.millis = match self.spec.time_unit {
                TimeUnit::Millis => true,
                TimeUnit::Seconds => false,
                TimeUnit::Auto => offers("usemillisec", &self.options_offered),
            };
            if self.millis && offers("usemillisec", &self.options_offered) {
                self.set_option("usemillisec", "true")?;
            }
        }
        for (key, value) in self.spec.options.clone() {
            self.set_option(&key, &value)?;
        }
        self.ready(deadline)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if self.spec.proto == Protocol::Ucci {
            self.send(&format!("setoption {name} {value}"))
        } else {
            self.send(&format!("setoption name {name} value {value}"))
        }
    }

    /// Sends `isready` and waits for `readyok` until `deadline`.
    fn ready(&mut self, deadline: Instant) -> Result<(), String> {
        self.send("isready")?;
        loop {
            let line = self
                .next_line(deadline)
                .map_err(|e| format!("{e} (waiting for readyok)"))?;
            if line.split_whitespace().next() == Some("readyok") {
                return Ok(());
            }
        }
    }

    /// Writes one line to the engine.
    fn send(&mut self, line: &str) -> Result<(), String> {
        log::debug!("{} < {line}", self.name);
        let result = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        result.map_err(|e| {
            self.dead = true;
            format!("cannot write to the engine: {e}")
        })
    }

    /// The next line before `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<String, String> {
        match self.next_event(deadline) {
            Ok((_, line)) => Ok(line),
            Err(Wait::Timeout) => Err("no answer in time".into()),
            Err(Wait::Eof) => Err(self.exit_message()),
        }
    }

    fn next_event(&mut self, deadline: Instant) -> Result<(Instant, String), Wait> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(left) {
            Ok(Event::Line(at, line)) => {
                log::debug!("{} > {line}", self.name);
                Ok((at, line))
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(Wait::Eof)
            }
            Err(RecvTimeoutError::Timeout) => Err(Wait::Timeout),
        }
    }

    /// "the engine exited (…)", with the exit status if it is known by now.
    fn exit_message(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("the engine exited ({status})"),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => return "the engine closed its output".into(),
            }
        }
    }

    /// Kills the process (used after a hang).
    pub fn kill(&mut self) {
        self.dead = true;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Whether the engine died or was killed.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    fn position_command(&self, game: &Game) -> String {
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|&m| format_move(m, self.ranks))
            .collect();
        let moves = if moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", moves.join(" "))
        };
        let fen = game.start_fen();
        match self.spec.proto {
            Protocol::Cyclone => {
                // Full FEN with the side letter `r` for Red, no `position` keyword.
                let mut fields: Vec<&str> = fen.split_whitespace().collect();
                if fields.get(1) == Some(&"w") {
                    fields[1] = "r";
                }
                format!("fen {}{moves}", fields.join(" "))
            }
            _ if fen == START_FEN => format!("position startpos{moves}"),
            _ => format!("position fen {fen}{moves}"),
        }
    }

    fn go_command(&self, go: Go, side: usize) -> String {
        let ms = |d: Duration| d.as_millis();
        match (self.spec.proto, go) {
            (
                Protocol::Ucci,
                Go::Clock {
                    time,
                    inc,
                    moves_to_go,
                },
            ) => {
                let t = |d: Duration| {
                    if self.millis {
                        d.as_millis()
                    } else {
                        d.as_millis() / 1000
                    }
                };
                let them = 1 - side;
                let own_rate = match moves_to_go {
                    Some(m) => format!("movestogo {m}"),
                    None => format!("increment {}", t(inc[side])),
                };
                format!(
                    "go time {} {own_rate} opptime {} oppincrement {}",
                    t(time[side]),
                    t(time[them]),
                    t(inc[them])
                )
            }
            (Protocol::Ucci, Go::MoveTime(d)) => {
                let v = if self.millis {
                    d.as_millis()
                } else {
                    (d.as_millis() / 1000).max(1)
                };
                format!("go time {v} movestogo 1")
            }
            (
                _,
                Go::Clock {
                    time,
                    inc,
                    moves_to_go,
                },
            ) => {
                let mut s = format!(
                    "go wtime {} btime {} winc {} binc {}",
                    ms(time[0]),
                    ms(time[1]),
                    ms(inc[0]),
                    ms(inc[1])
                );
                if let Some(m) = moves_to_go {
                    s.push_str(&format!(" movestogo {m}"));
                }
                s
            }
            (_, Go::MoveTime(d)) => format!("go movetime {}", ms(d)),
            (_, Go::Nodes(n)) => format!("go nodes {n}"),
            (_, Go::Depth(d)) => format!("go depth {d}"),
        }
    }
}

impl ExternalEngine {
    /// If `token` is illegal read in our rank numbering but legal read in the other, the
    /// message that says so. "Legal" in the other numbering means legal in the position the
    /// engine sees when it reads our moves in its numbering too: our moves while they make
    /// sense to it (an engine ignores the rest of a move list from the first move it cannot
    /// play), which for a wrongly numbered Black is usually the start position.
    fn wrong_numbering(&self, game: &Game, token: &str) -> Option<String> {
        let other = self.ranks.other();
        let theirs = parse_move(token, other)?;
        let legal = legal_moves(game.position());
        if parse_move(token, self.ranks).is_some_and(|m| legal.contains(&m)) {
            return None;
        }
        let mut seen = Position::from_fen(game.start_fen()).ok()?;
        for &mv in game.moves() {
            match parse_move(&format_move(mv, self.ranks), other) {
                Some(m) if legal_moves(&seen).contains(&m) => seen.make_move(m),
                _ => break,
            }
        }
        if !legal.contains(&theirs) && !legal_moves(&seen).contains(&theirs) {
            return None;
        }
        Some(format!(
            "{} answered {token}, illegal in ranks {} but legal in ranks {} (our {theirs}): its \
             rank numbering is {}; give ranks={} in its --engine spec",
            self.name,
            self.ranks.describe(),
            other.describe(),
            other.describe(),
            other.digit()
        ))
    }
}

enum Wait {
    Timeout,
    Eof,
}

/// The name in an `option` line: UCI `option name NAME type …`, UCCI `option NAME type …`.
fn option_name(line: &str, ucci: bool) -> Option<String> {
    let rest = line.strip_prefix("option")?.trim();
    let rest = match rest.strip_prefix("name ") {
        Some(r) => r,
        None if ucci => rest,
        None => return None,
    };
    let end = rest.find(" type ").unwrap_or(rest.len());
    let name = rest[..end].trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// Score and depth from an `info` line (UCI `score cp N`/`score mate N`, UCCI `score N`).
fn parse_info(line: &str, score: &mut Option<Score>, depth: &mut Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    *depth = Some(d);
                }
                i += 2;
            }
            "score" => {
                match (
                    words.get(i + 1).copied(),
                    words.get(i + 2).and_then(|w| w.parse().ok()),
                ) {
                    (Some("cp"), Some(v)) => *score = Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => *score = Some(Score::Mate(v)),
                    (Some(v), _) => {
                        if let Ok(v) = v.parse() {
                            *score = Some(Score::Cp(v));
                        }
                    }
                    _ => {}
                }
                i += 2;
            }
            "pv" | "string" => break,
            _ => i += 1,
        }
    }
}

impl Player for ExternalEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn setup_note(&self) -> Option<String> {
        Some(self.ranks_note.clone())
    }

    fn new_game(&mut self) -> Result<(), String> {
        if self.dead {
            return Err("the engine is not running".into());
        }
        match self.spec.proto {
            Protocol::Ucci => {
                if self
                    .options_offered
                    .iter()
                    .any(|o| o.eq_ignore_ascii_case("newgame"))
                {
                    self.send("setoption newgame")?;
                }
            }
            _ => self.send("ucinewgame")?,
        }
        self.ready(Instant::now() + self.ready_timeout)
    }

    fn think(&mut self, game: &Game, request: &MoveRequest) -> Thought {
        // Drop anything left over from the previous move.
        loop {
            match self.events.try_recv() {
                Ok(Event::Line(..)) => {}
                Ok(Event::Eof) | Err(mpsc::TryRecvError::Disconnected) => {
                    self.dead = true;
                    return Thought::Crash(self.exit_message());
                }
                Err(mpsc::TryRecvError::Empty) => break,
            }
        }
        let side = game.position().side_to_move().index();
        let position = self.position_command(game);
        let go = self.go_command(request.go, side);
        if let Err(e) = self.send(&position).and_then(|()| self.send(&go)) {
            return Thought::Crash(e);
        }
        let start = Instant::now();
        let (mut score, mut depth) = (None, None);
        let stop_at = start + request.stop_after;
        let give_up = stop_at + request.grace;
        let mut stopped = false;
        loop {
            let deadline = if stopped { give_up } else { stop_at };
            match self.next_event(deadline) {
                Ok((at, line)) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("info") => parse_info(&line, &mut score, &mut depth),
                        Some("bestmove") => {
                            let token = words.next().unwrap_or("").to_string();
                            if let Some(why) = self.wrong_numbering(game, &token) {
                                return Thought::Misconfigured(why);
                            }
                            let mv = parse_move(&token, self.ranks).ok_or(token);
                            return Thought::Move {
                                mv,
                                elapsed: at - start,
                                score,
                                depth,
                            };
                        }
                        Some("nobestmove") => {
                            let elapsed = at - start;
                            return Thought::Move {
                                mv: Err(line),
                                elapsed,
                                score,
                                depth,
                            };
                        }
                        _ => {}
                    }
                }
                Err(Wait::Eof) => return Thought::Crash(self.exit_message()),
                Err(Wait::Timeout) if !stopped => {
                    stopped = true;
                    if let Err(e) = self.send("stop") {
                        return Thought::Crash(e);
                    }
                }
                Err(Wait::Timeout) => {
                    self.kill();
                    return Thought::Hang(start.elapsed());
                }
            }
        }
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        if !self.dead {
            let _ = self.send("quit");
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_and_depth() {
        let (mut s, mut d) = (None, None);
        parse_info(
            "info depth 7 seldepth 9 score cp -35 nodes 10 pv h2e2",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(Score::Cp(-35)), Some(7)));
        parse_info("info depth 9 score mate -3 pv a0a1", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Mate(-3)), Some(9)));
        parse_info("info depth 2 score 42 pv h2e2", &mut s, &mut d);
        assert_eq!(s, Some(Score::Cp(42)));
        parse_info("info depth x score cp", &mut s, &mut d);
        parse_info("info string depth 99", &mut s, &mut d);
        assert_eq!(d, Some(2));
    }

    #[test]
    fn option_names_are_read_in_both_dialects() {
        assert_eq!(
            option_name("option name UCI_Variant type combo default xiangqi", false).as_deref(),
            Some("UCI_Variant")
        );
        assert_eq!(
            option_name("option usemillisec type check", true).as_deref(),
            Some("usemillisec")
        );
        assert_eq!(
            option_name("option name Move Overhead type spin", false).as_deref(),
            Some("Move Overhead")
        );
        assert_eq!(option_name("option", false), None);
    }
}
