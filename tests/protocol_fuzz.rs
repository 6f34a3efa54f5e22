//! Protocol fuzzing: random command sequences — valid, mutated, garbage bytes, invalid UTF-8,
//! huge lines, huge numbers — fed in-process to every dialect (UCI, Cyclone, UCCI, XBoard)
//! through [`chariot::protocol::Session`], the same line reader and parser the binary uses.
//!
//! After every command it checks that
//! - nothing panicked, on any thread (a panic hook counts them);
//! - a refused command left the position as it was;
//!
//! and now and then, and at the end of every session, that
//! - `isready` / `ping` is answered (after a `stop` / `?`, as a GUI would send);
//! - `quit` or end of input ends the session at once.
//!
//! A watchdog fails the run (with the seed and the last commands) when a command does not
//! return, or an answer does not come, within a minute.
//!
//! The default test runs for about 20 seconds. For a long run:
//! `FUZZ_COMMANDS=1000000 FUZZ_SEED=7 cargo test --release --test protocol_fuzz -- --ignored
//! --nocapture` (see docs/testing.md).

use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use chariot::movegen::legal_moves;
use chariot::position::Position;
use chariot::protocol::controller::Caps;
use chariot::protocol::Session;

/// How long one command, or one answer, may take before the run counts as hung.
const HANG: Duration = Duration::from_secs(60);

// ----- randomness -------------------------------------------------------------------------

/// SplitMix64: small, fast, reproducible from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `p` percent.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ----- output -----------------------------------------------------------------------------

/// The session's output, shared with the checker.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads the complete lines a sink got since the last call.
struct Reader {
    sink: Sink,
    read: usize,
    readyoks: usize,
    pongs: Vec<String>,
}

impl Reader {
    fn new(sink: Sink) -> Reader {
        Reader {
            sink,
            read: 0,
            readyoks: 0,
            pongs: Vec::new(),
        }
    }

    fn update(&mut self) {
        let buf = self.sink.0.lock().unwrap_or_else(|e| e.into_inner());
        let Some(end) = buf[self.read..].iter().rposition(|&b| b == b'\n') else {
            return;
        };
        let end = self.read + end + 1;
        for line in String::from_utf8_lossy(&buf[self.read..end]).lines() {
            if line == "readyok" {
                self.readyoks += 1;
            } else if let Some(n) = line.strip_prefix("pong ") {
                self.pongs.push(n.to_string());
            }
        }
        self.read = end;
    }
}

// ----- commands ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    Uci,
    Cyclone,
    Ucci,
    Xboard,
}

impl Dialect {
    fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Cyclone => "cyclone",
            Dialect::Ucci => "ucci",
            Dialect::Xboard => "xboard",
        }
    }
}

const DIALECTS: [Dialect; 4] = [
    Dialect::Uci,
    Dialect::Cyclone,
    Dialect::Ucci,
    Dialect::Xboard,
];

const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1",
    "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1",
    "3aka3/9/9/2p3p2/9/4R4/9/1N7/9/5K3 b - - 0 1",
    "rnbakabnr/9/1c5c1/4p4/9/9/9/9/9/4K4 w - - 0 1",
    "4k4/9/9/9/9/9/4P4/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/9/9/9/9/7R1/9/4p4/4K4/3A5 w - - 0 1",
    // Refused: a general in the wrong place, too few ranks, a bad side, garbage.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1",
    "4k4/9/9/9/9/9/9/9/9/4K4 x - - 0 1",
    "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "k8/9/9/9/9/9/9/9/9/8K w - - 0 1",
    "zzzz",
    "",
];

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-99999999999",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e308",
    "-1e308",
    "nan",
    "inf",
    "0.5",
    "65536",
    "65537",
    "257",
    "4294967296",
    "x",
];

/// 1 to `usual`, or with `percent` % chance 1 to `rare`.
fn up_to(rng: &mut Rng, percent: usize, rare: usize, usual: usize) -> usize {
    let max = if rng.chance(percent) { rare } else { usual };
    1 + rng.below(max)
}

/// A random number token: mostly small, sometimes extreme.
fn number(rng: &mut Rng, small: u64) -> String {
    if rng.chance(85) {
        (rng.next() % small.max(1)).to_string()
    } else {
        rng.pick(NUMBERS).to_string()
    }
}

/// Up to `n` moves of a random game from `pos`, in ranks 0–9 or 1–10.
fn random_moves(rng: &mut Rng, pos: &Position, n: usize, one_based: bool) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for _ in 0..n {
        let moves = legal_moves(&p);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        p.make_move(mv);
        let text = mv.to_string();
        out.push(if one_based { shift_ranks(&text) } else { text });
    }
    out
}

/// `h2e2` → `h3e3` (ranks 1–10).
fn shift_ranks(mv: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in mv.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                out += &(digits.parse::<u32>().unwrap_or(0) + 1).to_string();
                digits.clear();
            }
            out.push(c);
        }
    }
    if !digits.is_empty() {
        out += &(digits.parse::<u32>().unwrap_or(0) + 1).to_string();
    }
    out
}

/// One move token: mostly legal in `pos`, sometimes not.
fn some_move(rng: &mut Rng, pos: &Position) -> String {
    let moves = legal_moves(pos);
    if !moves.is_empty() && rng.chance(80) {
        moves[rng.below(moves.len())].to_string()
    } else {
        rng.pick(&[
            "a0a1", "e0e1", "h2e2", "z9z9", "a10a9", "i9i0", "0000", "h2", "",
        ])
        .to_string()
    }
}

/// A `position` (or Cyclone bare) command.
fn position_command(rng: &mut Rng, pos: &Position, dialect: Dialect, keyword: &str) -> String {
    let one_based = dialect != Dialect::Ucci && rng.chance(20);
    let (setup, start) = if rng.chance(60) {
        ("startpos".to_string(), Position::startpos())
    } else if rng.chance(30) {
        (format!("fen {}", pos.fen()), pos.clone())
    } else {
        let fen = rng.pick(FENS);
        let start = Position::from_fen(fen).unwrap_or_else(|_| Position::startpos());
        (format!("fen {fen}"), start)
    };
    let n = if rng.chance(2) { 400 } else { rng.below(12) };
    let moves = random_moves(rng, &start, n, one_based);
    let prefix = if keyword.is_empty() {
        String::new()
    } else {
        format!("{keyword} ")
    };
    if moves.is_empty() && rng.chance(50) {
        format!("{prefix}{setup}")
    } else {
        format!("{prefix}{setup} moves {}", moves.join(" "))
    }
}

fn uci_command(rng: &mut Rng, pos: &Position, dialect: Dialect) -> String {
    let options = [
        ("Hash", "16"),
        ("Threads", "2"),
        ("Ponder", "true"),
        ("MultiPV", "3"),
        ("Move Overhead", "10"),
        ("UCI_Variant", "xiangqi"),
        ("Rank Base", "auto"),
        ("Move Rule", "sixty"),
    ];
    match rng.below(20) {
        0 => "isready".into(),
        1 => "ucinewgame".into(),
        2 => {
            if rng.chance(15) {
                "setoption name Clear Hash".into()
            } else {
                let (name, good) = rng.pick(&options);
                let value = if rng.chance(50) {
                    good.to_string()
                } else if rng.chance(50) {
                    number(rng, 64)
                } else {
                    rng.pick(&["auto", "0", "1", "none", "cxq", "false", "chess"])
                        .to_string()
                };
                format!("setoption name {name} value {value}")
            }
        }
        3..=6 => {
            let keyword = if dialect == Dialect::Cyclone && rng.chance(50) {
                ""
            } else {
                "position"
            };
            position_command(rng, pos, dialect, keyword)
        }
        7..=11 => {
            let mut go = vec!["go".to_string()];
            for _ in 0..rng.below(4) {
                match rng.below(12) {
                    0 | 1 => go.push(format!("depth {}", 1 + rng.below(3))),
                    2 => go.push(format!("nodes {}", number(rng, 3000))),
                    3 => go.push(format!("movetime {}", number(rng, 30))),
                    4 => go.push(format!(
                        "wtime {} btime {}",
                        number(rng, 500),
                        number(rng, 500)
                    )),
                    5 => go.push(format!("winc {} binc {}", number(rng, 20), number(rng, 20))),
                    6 => go.push(format!("movestogo {}", number(rng, 40))),
                    7 => go.push("infinite".into()),
                    8 => go.push("ponder".into()),
                    9 => go.push(format!("searchmoves {}", some_move(rng, pos))),
                    10 => go.push(format!("mate {}", number(rng, 3))),
                    _ => go.push(format!("depth {}", number(rng, 4))),
                }
            }
            if go.len() == 1 {
                go.push("depth 1".into());
            }
            go.join(" ")
        }
        12 | 13 => "stop".into(),
        14 => "ponderhit".into(),
        15 => format!("go perft {}", up_to(rng, 10, 12, 3)),
        16 => match rng.below(3) {
            0 => "d".into(),
            1 => "eval".into(),
            _ => "help".into(),
        },
        17 => format!("bench {}", up_to(rng, 5, 64, 2)),
        18 => format!("debug {}", rng.pick(&["on", "off", "maybe"])),
        _ => rng
            .pick(&["uci", "register later", "flip", "go perft", "stop now"])
            .to_string(),
    }
}

fn ucci_command(rng: &mut Rng, pos: &Position) -> String {
    match rng.below(18) {
        0 => "isready".into(),
        1 => {
            let name = rng.pick(&[
                "hashsize",
                "threads",
                "ponder",
                "batch",
                "moverule",
                "newgame",
                "usemillisec",
                "debug",
                "colour",
            ]);
            let value = if rng.chance(50) {
                number(rng, 32)
            } else {
                rng.pick(&["true", "false", "on", "none", "sixty", ""])
                    .to_string()
            };
            format!("setoption {name} {value}")
        }
        2..=5 => position_command(rng, pos, Dialect::Ucci, "position"),
        6 => format!("banmoves {}", some_move(rng, pos)),
        7..=10 => {
            let mut go = vec!["go".to_string()];
            if rng.chance(20) {
                go.push("ponder".into());
            }
            if rng.chance(10) {
                go.push("draw".into());
            }
            match rng.below(5) {
                0 => go.push(format!("depth {}", 1 + rng.below(3))),
                1 => go.push(format!(
                    "time {} increment {}",
                    number(rng, 2),
                    number(rng, 2)
                )),
                2 => go.push(format!("nodes {}", number(rng, 3000))),
                3 => go.push("depth infinite".into()),
                _ => go.push(format!("depth {}", number(rng, 4))),
            }
            go.join(" ")
        }
        11 | 12 => "stop".into(),
        13 => rng.pick(&["ponderhit", "ponderhit draw"]).to_string(),
        14 => position_command(rng, pos, Dialect::Ucci, "probe"),
        15 => format!("perft {}", up_to(rng, 10, 12, 3)),
        16 => format!("bench {}", 1 + rng.below(2)),
        _ => rng.pick(&["ucci", "d", "eval", "help", "bye"]).to_string(),
    }
}

fn xboard_command(rng: &mut Rng, pos: &Position, pings: &mut u64) -> String {
    match rng.below(30) {
        0 => "new".into(),
        1 => "force".into(),
        2 => "go".into(),
        3 => "playother".into(),
        4..=8 => format!("usermove {}", some_move(rng, pos)),
        9 => some_move(rng, pos),
        10 => "?".into(),
        11 => {
            *pings += 1;
            format!("ping r{pings}")
        }
        12 => format!("setboard {}", rng.pick(FENS)),
        13 => rng.pick(&["undo", "remove"]).to_string(),
        14 => format!(
            "level {} {} {}",
            number(rng, 40),
            number(rng, 2),
            number(rng, 2)
        ),
        15 => format!("st 0.0{}", 1 + rng.below(5)),
        16 => format!("sd {}", 1 + rng.below(3)),
        17 => format!("{} {}", rng.pick(&["time", "otim"]), number(rng, 3000)),
        18 => rng.pick(&["post", "nopost", "hard", "easy"]).to_string(),
        19 => rng.pick(&["analyze", "exit", "."]).to_string(),
        20 => format!("memory {}", number(rng, 32)),
        21 => format!("cores {}", number(rng, 3)),
        22 => {
            let option = rng.pick(&[
                "Clear Hash",
                "Move Rule=none",
                "Claims=all",
                "Claims=safe",
                "MultiPV=2",
                "Move Overhead=5",
                "Nonsense=1",
            ]);
            format!("option {option}")
        }
        23 => format!(
            "result {} {{fuzz}}",
            rng.pick(&["1-0", "0-1", "1/2-1/2", "*"])
        ),
        24 => rng.pick(&["draw", "hint", "bk", "d", "eval"]).to_string(),
        25 => format!("perft {}", up_to(rng, 10, 12, 3)),
        26 => format!("bench {}", 1 + rng.below(2)),
        27 => "variant xiangqi".into(),
        28 => rng
            .pick(&["protover 2", "variant shogi", "accepted setboard"])
            .to_string(),
        _ => rng
            .pick(&["random", "computer", "name Fuzz", "rating 1 2", "white"])
            .to_string(),
    }
}

/// Mutates a valid line: tokens dropped, doubled, replaced by extremes, bytes flipped,
/// invalid UTF-8 put in.
fn mutate(rng: &mut Rng, line: &str) -> Vec<u8> {
    let mut tokens: Vec<String> = line.split(' ').map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        let i = rng
            .below(tokens.len().max(1))
            .min(tokens.len().saturating_sub(1));
        match rng.below(6) {
            0 if !tokens.is_empty() => {
                tokens.remove(i);
            }
            1 if !tokens.is_empty() => {
                let t = tokens[i].clone();
                tokens.insert(i, t);
            }
            2 => tokens.insert(i.min(tokens.len()), rng.pick(NUMBERS).to_string()),
            3 if !tokens.is_empty() => tokens[i] = tokens[i].to_uppercase(),
            _ => {}
        }
    }
    let mut bytes = tokens.join(" ").into_bytes();
    match rng.below(4) {
        0 if !bytes.is_empty() => {
            let i = rng.below(bytes.len());
            bytes[i] ^= 1 << rng.below(8);
        }
        1 => {
            let i = rng.below(bytes.len() + 1);
            const BAD: [&[u8]; 5] = [&[0xff], &[0xc3, 0x28], &[0xe2, 0x82], &[0x00], &[0x80]];
            let bad = *rng.pick(&BAD);
            bytes.splice(i..i, bad.iter().copied());
        }
        2 if !bytes.is_empty() => bytes.truncate(rng.below(bytes.len())),
        _ => {}
    }
    bytes
}

/// Random bytes (no newline: one line).
fn garbage(rng: &mut Rng) -> Vec<u8> {
    let n = rng.below(80);
    (0..n)
        .map(|_| match rng.below(4) {
            0 => rng.below(256) as u8,
            1 => b' ',
            _ => b"abcdefghiklmnopqrstuvwxyz0123456789-=./?\t\r"[rng.below(42)],
        })
        .filter(|&b| b != b'\n')
        .collect()
}

/// A line that ends a session, or `None` for end of input.
fn ending(rng: &mut Rng) -> Option<&'static str> {
    if rng.chance(30) {
        None
    } else {
        Some("quit")
    }
}

// ----- the driver -------------------------------------------------------------------------

/// What the watchdog sees.
#[derive(Default)]
struct Progress {
    /// Commands fed so far (moves on whenever one returns or an answer comes).
    steps: AtomicU64,
    /// The seed of the session under test and its last commands.
    recent: Mutex<(String, VecDeque<String>)>,
}

impl Progress {
    fn note(&self, text: String) {
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        recent.1.push_back(text);
        if recent.1.len() > 40 {
            recent.1.pop_front();
        }
    }
}

/// Panics on any thread, counted by the hook.
static PANICS: AtomicUsize = AtomicUsize::new(0);
static FIRST_PANIC: Mutex<String> = Mutex::new(String::new());

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if PANICS.fetch_add(1, Ordering::SeqCst) == 0 {
                *FIRST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = info.to_string();
            }
            previous(info);
        }));
    });
}

/// One session under test.
struct Driver<'a> {
    s: Session,
    out: Reader,
    progress: &'a Progress,
    dialect: Dialect,
    /// `dialect:seed`, for messages.
    name: String,
    /// `isready` lines sent (each is owed a `readyok`).
    isreadys: usize,
    /// Commands fed.
    fed: usize,
}

impl Driver<'_> {
    /// Feeds one line.
    fn feed(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(120)]).into_owned();
        self.progress.note(shown);
        let mut line = bytes.to_vec();
        line.push(b'\n');
        self.s.feed(&line);
        self.fed += 1;
        self.progress.steps.fetch_add(1, Ordering::Relaxed);
    }

    fn stop_word(&self) -> &'static [u8] {
        if self.dialect == Dialect::Xboard {
            b"?"
        } else {
            b"stop"
        }
    }

    /// Sends stop and isready (XBoard: `?` and ping) and waits for the answer, sending stop
    /// again meanwhile as an impatient GUI would.
    fn check_answered(&mut self, tag: usize) {
        self.feed(self.stop_word());
        let token = format!("check{tag}");
        if self.dialect == Dialect::Xboard {
            self.feed(format!("ping {token}").as_bytes());
        } else {
            self.isreadys += 1;
            self.feed(b"isready");
        }
        let start = Instant::now();
        let mut last_stop = Instant::now();
        loop {
            self.s.pump();
            self.out.update();
            let answered = if self.dialect == Dialect::Xboard {
                self.out.pongs.contains(&token)
            } else {
                self.out.readyoks >= self.isreadys
            };
            if answered || self.s.controller().finished() {
                return;
            }
            assert!(
                start.elapsed() < HANG,
                "{}: isready / ping not answered",
                self.name
            );
            if last_stop.elapsed() > Duration::from_millis(50) {
                self.feed(self.stop_word());
                last_stop = Instant::now();
            }
            self.s.pump_wait(Duration::from_millis(5));
        }
    }

    fn assert_no_panic(&self) {
        assert_eq!(
            PANICS.load(Ordering::SeqCst),
            0,
            "{}: {}",
            self.name,
            FIRST_PANIC.lock().unwrap_or_else(|e| e.into_inner())
        );
    }
}

/// One session of up to `budget` commands in `dialect` from `seed`; returns the commands fed.
fn session(dialect: Dialect, seed: u64, budget: usize, progress: &Progress) -> usize {
    let mut rng = Rng(seed);
    let sink = Sink::default();
    let caps = Caps {
        hash_mb: 2,
        threads: 2,
    };
    let name = format!("{}:{seed}", dialect.name());
    *progress.recent.lock().unwrap_or_else(|e| e.into_inner()) = (name.clone(), VecDeque::new());
    let mut d = Driver {
        s: Session::new(sink.clone(), caps),
        out: Reader::new(sink),
        progress,
        dialect,
        name: name.clone(),
        isreadys: 0,
        fed: 0,
    };
    let hello: &[u8] = match dialect {
        Dialect::Uci => b"uci",
        Dialect::Cyclone => b"ucicyclone",
        Dialect::Ucci => b"ucci",
        Dialect::Xboard => b"xboard",
    };
    d.feed(hello);
    if dialect == Dialect::Xboard {
        d.feed(b"protover 2");
    }
    let mut pings = 0u64;
    let mut tag = 0;
    while d.fed < budget && !d.s.controller().finished() {
        d.s.pump();
        let pos = d.s.controller().position().clone();
        let valid = match dialect {
            Dialect::Uci | Dialect::Cyclone => uci_command(&mut rng, &pos, dialect),
            Dialect::Ucci => ucci_command(&mut rng, &pos),
            Dialect::Xboard => xboard_command(&mut rng, &pos, &mut pings),
        };
        let bytes = match rng.below(100) {
            0..=64 => valid.clone().into_bytes(),
            65..=89 => mutate(&mut rng, &valid),
            90..=97 => garbage(&mut rng),
            98 => {
                // Over the line limit: skipped whole.
                let mut huge = b"position startpos moves ".to_vec();
                huge.resize(300_000, b'a');
                huge
            }
            _ => format!("{} {}", valid, rng.pick(NUMBERS).repeat(1 + rng.below(50))).into_bytes(),
        };
        if bytes == b"isready" {
            d.isreadys += 1;
        }
        let c = d.s.controller();
        let before = (!c.commands_wait()).then(|| {
            let p = c.position();
            (p.fen(), p.key(), p.moves_made(), c.rejected())
        });
        d.feed(&bytes);
        if let Some((fen, key, moves, rejected)) = before {
            let c = d.s.controller();
            if c.rejected() > rejected {
                let p = c.position();
                assert_eq!(
                    (p.fen(), p.key(), p.moves_made()),
                    (fen, key, moves),
                    "{name}: a refused command changed the position: {}",
                    String::from_utf8_lossy(&bytes)
                );
            }
        }
        d.assert_no_panic();
        if rng.chance(1) {
            tag += 1;
            d.check_answered(tag);
        }
    }
    if !d.s.controller().finished() {
        d.check_answered(tag + 1);
        match ending(&mut rng) {
            Some(line) => d.feed(line.as_bytes()),
            None => d.s.end_input(),
        }
    }
    assert!(
        d.s.controller().finished(),
        "{name}: quit or end of input ends the session"
    );
    d.assert_no_panic();
    d.fed
}

/// Runs sessions from `seed` until `commands` are fed or `wall` has passed (or only the
/// session `only`, as `dialect:seed`); returns the commands fed and the sessions run. A failure
/// names the session (`FUZZ_SESSION` reruns it) and shows its last commands.
fn fuzz(seed: u64, commands: usize, wall: Duration, only: Option<String>) -> (usize, usize) {
    count_panics();
    let progress = Arc::new(Progress::default());
    let worker_progress = Arc::clone(&progress);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("fuzz".into())
        .spawn(move || {
            if let Some(only) = only {
                let (name, seed) = only.split_once(':').expect("FUZZ_SESSION is dialect:seed");
                let dialect = *DIALECTS
                    .iter()
                    .find(|d| d.name() == name)
                    .expect("a dialect: uci, cyclone, ucci or xboard");
                let seed = seed.parse().expect("a seed");
                let fed = session(dialect, seed, commands, &worker_progress);
                let _ = tx.send((fed, 1));
                return;
            }
            let start = Instant::now();
            let mut rng = Rng(seed);
            let (mut fed, mut sessions) = (0, 0);
            while fed < commands && start.elapsed() < wall {
                let dialect = DIALECTS[sessions % DIALECTS.len()];
                let length = up_to(&mut rng, 10, 2000, 150);
                let session_seed = rng.next();
                fed += session(
                    dialect,
                    session_seed,
                    length.min(commands - fed),
                    &worker_progress,
                );
                sessions += 1;
            }
            let _ = tx.send((fed, sessions));
        })
        .expect("the fuzz thread starts");
    let mut last = (0, Instant::now());
    loop {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(done) => return done,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                let panic = FIRST_PANIC
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone();
                let recent = progress.recent.lock().unwrap_or_else(|e| e.into_inner());
                panic!(
                    "the fuzz run failed in session {} (FUZZ_SESSION reruns it): {panic}\n\
                     last commands:\n{}",
                    recent.0,
                    recent.1.iter().cloned().collect::<Vec<_>>().join("\n")
                );
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                let steps = progress.steps.load(Ordering::Relaxed);
                if steps != last.0 {
                    last = (steps, Instant::now());
                } else if last.1.elapsed() > HANG {
                    let recent = progress.recent.lock().unwrap_or_else(|e| e.into_inner());
                    panic!(
                        "no progress for {HANG:?} in session {} (FUZZ_SESSION reruns it); \
                         last commands:\n{}",
                        recent.0,
                        recent.1.iter().cloned().collect::<Vec<_>>().join("\n")
                    );
                }
            }
        }
    }
}

#[test]
fn random_command_sequences_never_break_a_session() {
    let start = Instant::now();
    let (fed, sessions) = fuzz(0x00c4_a410_f022, 200_000, Duration::from_secs(20), None);
    eprintln!(
        "protocol fuzz: {fed} commands in {sessions} sessions, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(
        sessions >= DIALECTS.len(),
        "every dialect ran: {sessions} sessions"
    );
}

/// The long run, by hand: `FUZZ_COMMANDS` (default 1 000 000) commands from `FUZZ_SEED`
/// (default 1), or only the session `FUZZ_SESSION` (`dialect:seed`, as a failure names it).
#[test]
#[ignore]
fn long_fuzz_run() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let commands = env("FUZZ_COMMANDS", 1_000_000) as usize;
    let seed = env("FUZZ_SEED", 1);
    let start = Instant::now();
    let only = std::env::var("FUZZ_SESSION").ok();
    let (fed, sessions) = fuzz(seed, commands, Duration::MAX, only);
    eprintln!(
        "protocol fuzz: {fed} commands in {sessions} sessions from seed {seed}, {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
