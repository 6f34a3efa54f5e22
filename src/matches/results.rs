//! The results file of a match (`chariot match --results FILE`, JSON lines) and the merge of
//! the files of many slices (`chariot match merge FILE…`) into the summary one machine would
//! print over the same games.
//!
//! A file holds one slice (`--slice I/N`, `0/1` for a whole match):
//!
//! ```text
//! {"type":"header","version":1,"names":["A","B"],"games":16,"slice":"1/4","first_game":4,
//!  "end_game":8,"limit":"nodes=1000","repeat":true,"openings":8,"rule":"cxq",
//!  "sprt":{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05},"settings":"5f0c…"}
//! {"type":"game","game":4,"pair":2,"opening":2,"red":0,"red_name":"A","black_name":"B",
//!  "result":"1-0","reason":"checkmate","fault":null,"plies":57,"book_plies":0,
//!  "lowest_clock_ms":null}
//! …
//! {"type":"end","games":4,"abandoned":0,"elapsed":12.3}
//! ```
//!
//! (one line each). `games` is the whole match's game count; the slice plays the games
//! `first_game..end_game`, each written as it ends (so a stopped run loses only the games in
//! progress; the reader puts them back in game order). `settings` is a fingerprint of
//! everything that decides the games (engine specs, limit, games, slices, pairing, book,
//! rules, limits of the referee, SPRT), so files of different runs are not merged by mistake.
//! `fault` names the faulty engine, the kind and its detail
//! (`{"engine":1,"kind":"crash","detail":"…"}`). `lowest_clock_ms` is, under a clock, the
//! least time engine 0 and 1 had left after a move (`[812,-40]`; an engine that made no move
//! is `null`); files without it still read. The `end` line is written only when the slice
//! finished: a file without it is incomplete. `chariot match --resume` reads such a file
//! back, keeps its games and writes it again with the games still to play
//! ([`super::run_match_resumed`]).
//!
//! The merge counts the games of all slices with the very code a single run uses
//! ([`MatchReport::add_outcome`], [`super::stats`]), so W/D/L, Elo, pentanomial Elo, LOS and
//! the SPRT LLR are exactly those of one machine that played the same games; its "played in"
//! time is the sum of the slices' times.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

use super::stats::SprtConfig;
use super::{counts_kind, GameOutcome, MatchConfig, MatchReport};
use crate::json::{quote, Json};
use crate::shard::Shard;
use crate::types::Color;

/// Version of the file format.
pub const VERSION: u64 = 1;

/// FNV-1a, 64 bits: a stable fingerprint of the settings text.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The fingerprint of everything that decides a match's games and statistics (not the slice
/// index, concurrency or PGN event).
pub fn settings_fingerprint(config: &MatchConfig) -> String {
    let mut text = String::new();
    let _ = write!(
        text,
        "{:?}|{}|{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|",
        config.engines,
        config.limit,
        config.games,
        config.slice.count,
        config.repeat,
        config.rule,
        config.max_plies,
        config.time_margin,
        config.move_timeout,
        config.hang_grace,
        config.startup_timeout,
        config.sprt,
    );
    for o in &config.openings {
        let _ = write!(text, "{};", o.fen);
        for m in &o.moves {
            let _ = write!(text, "{m} ");
        }
        text.push('|');
    }
    format!("{:016x}", fnv1a(&text))
}

fn sprt_json(sprt: Option<SprtConfig>) -> String {
    match sprt {
        None => "null".into(),
        Some(s) => format!(
            "{{\"elo0\":{},\"elo1\":{},\"alpha\":{},\"beta\":{}}}",
            s.elo0, s.elo1, s.alpha, s.beta
        ),
    }
}

/// Writes the header line of a slice.
pub fn write_header(
    out: &mut dyn Write,
    config: &MatchConfig,
    names: &[String; 2],
) -> io::Result<()> {
    let range = config.game_range();
    writeln!(
        out,
        "{{\"type\":\"header\",\"version\":{VERSION},\"names\":[{},{}],\"games\":{},\
         \"slice\":\"{}\",\"first_game\":{},\"end_game\":{},\"limit\":{},\"repeat\":{},\
         \"openings\":{},\"rule\":{},\"sprt\":{},\"settings\":\"{}\"}}",
        quote(&names[0]),
        quote(&names[1]),
        config.games,
        config.slice,
        range.start,
        range.end,
        quote(&config.limit.to_string()),
        config.repeat,
        config.openings.len(),
        quote(&format!("{:?}", config.rule).to_ascii_lowercase()),
        sprt_json(config.sprt),
        settings_fingerprint(config),
    )?;
    out.flush()
}

/// Writes the line of one game.
pub fn write_game(
    out: &mut dyn Write,
    config: &MatchConfig,
    names: &[String; 2],
    game: &GameOutcome,
) -> io::Result<()> {
    let opening = config
        .opening_index(game.index)
        .map_or_else(|| "null".to_string(), |i| i.to_string());
    let fault = match game.faulty_engine() {
        None => "null".to_string(),
        Some(engine) => format!(
            "{{\"engine\":{engine},\"kind\":{},\"detail\":{}}}",
            quote(&game.kind),
            game.detail.as_deref().map_or_else(|| "null".into(), quote)
        ),
    };
    writeln!(
        out,
        "{{\"type\":\"game\",\"game\":{},\"pair\":{},\"opening\":{opening},\"red\":{},\
         \"red_name\":{},\"black_name\":{},\"result\":\"{}\",\"reason\":{},\"fault\":{fault},\
         \"plies\":{},\"book_plies\":{},\"lowest_clock_ms\":{}}}",
        game.index,
        game.index / 2,
        game.red,
        quote(&names[game.red]),
        quote(&names[1 - game.red]),
        game.result(),
        quote(&game.kind),
        game.plies,
        game.opening_plies,
        lowest_clock_json(game.lowest_clock_ms),
    )?;
    out.flush()
}

/// `[812,-40]`, `[812,null]`, or `null` without a clock.
fn lowest_clock_json(ms: [Option<i64>; 2]) -> String {
    if ms.iter().all(Option::is_none) {
        return "null".into();
    }
    let [a, b] = ms.map(|v| v.map_or_else(|| "null".to_string(), |v| v.to_string()));
    format!("[{a},{b}]")
}

/// Writes the closing line of a finished slice.
pub fn write_end(out: &mut dyn Write, report: &MatchReport) -> io::Result<()> {
    writeln!(
        out,
        "{{\"type\":\"end\",\"games\":{},\"abandoned\":{},\"elapsed\":{}}}",
        report.wdl.games(),
        report.abandoned,
        report.elapsed.as_secs_f64()
    )?;
    out.flush()
}

/// The header of a results file.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The engines' names.
    pub names: [String; 2],
    /// Games of the whole match.
    pub games: usize,
    /// The slice this file holds.
    pub slice: Shard,
    /// Its games: `first_game..end_game`.
    pub first_game: usize,
    /// One past its last game.
    pub end_game: usize,
    /// Whether pairs share an opening (pentanomial statistics).
    pub repeat: bool,
    /// The SPRT, if any.
    pub sprt: Option<SprtConfig>,
    /// The settings fingerprint.
    pub settings: String,
}

/// One results file, read.
#[derive(Clone, Debug)]
pub struct SliceResults {
    /// Its header.
    pub header: Header,
    /// Its games in game order (whatever their order in the file).
    pub games: Vec<GameOutcome>,
    /// The slice's wall time, if it finished (the `end` line).
    pub elapsed: Option<Duration>,
}

impl SliceResults {
    /// Whether the slice finished and holds every one of its games.
    pub fn is_complete(&self) -> bool {
        self.elapsed.is_some() && self.games.len() == self.header.end_game - self.header.first_game
    }
}

fn field<'a>(v: &'a Json, key: &str) -> Result<&'a Json, String> {
    v.get(key).ok_or_else(|| format!("no \"{key}\""))
}

fn usize_field(v: &Json, key: &str) -> Result<usize, String> {
    field(v, key)?
        .as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| format!("\"{key}\" is not a count"))
}

fn str_field<'a>(v: &'a Json, key: &str) -> Result<&'a str, String> {
    field(v, key)?
        .as_str()
        .ok_or_else(|| format!("\"{key}\" is not a string"))
}

fn read_header(v: &Json) -> Result<Header, String> {
    let version = field(v, "version")?.as_u64();
    if version != Some(VERSION) {
        return Err(format!("format version {version:?}, expected {VERSION}"));
    }
    let names = match field(v, "names")?.as_array() {
        Some([a, b]) => match (a.as_str(), b.as_str()) {
            (Some(a), Some(b)) => [a.to_string(), b.to_string()],
            _ => return Err("\"names\" are not strings".into()),
        },
        _ => return Err("\"names\" is not a pair".into()),
    };
    let sprt = match field(v, "sprt")? {
        Json::Null => None,
        s => {
            let num = |k: &str| {
                field(s, k)?
                    .as_f64()
                    .ok_or_else(|| format!("sprt \"{k}\" is not a number"))
            };
            Some(SprtConfig {
                elo0: num("elo0")?,
                elo1: num("elo1")?,
                alpha: num("alpha")?,
                beta: num("beta")?,
            })
        }
    };
    let header = Header {
        names,
        games: usize_field(v, "games")?,
        slice: str_field(v, "slice")?.parse()?,
        first_game: usize_field(v, "first_game")?,
        end_game: usize_field(v, "end_game")?,
        repeat: field(v, "repeat")?
            .as_bool()
            .ok_or("\"repeat\" is not a boolean")?,
        sprt,
        settings: str_field(v, "settings")?.to_string(),
    };
    if header.first_game > header.end_game || header.end_game > header.games {
        return Err("the slice's games lie outside the match".into());
    }
    Ok(header)
}

fn read_game(v: &Json) -> Result<GameOutcome, String> {
    let red = usize_field(v, "red")?;
    if red > 1 {
        return Err("\"red\" must be 0 or 1".into());
    }
    let kind = str_field(v, "reason")?.to_string();
    let winner = match (str_field(v, "result")?, counts_kind(&kind)) {
        ("1-0", true) => Some(Color::Red),
        ("0-1", true) => Some(Color::Black),
        ("1/2-1/2", true) | ("*", false) => None,
        (r, _) => return Err(format!("result \"{r}\" does not fit reason \"{kind}\"")),
    };
    let detail = field(v, "fault")?
        .get("detail")
        .and_then(Json::as_str)
        .map(str::to_string);
    Ok(GameOutcome {
        index: usize_field(v, "game")?,
        red,
        winner,
        kind,
        detail,
        plies: usize_field(v, "plies")?,
        opening_plies: usize_field(v, "book_plies")?,
        lowest_clock_ms: read_lowest_clock(v)?,
    })
}

/// The optional `lowest_clock_ms` of a game line.
fn read_lowest_clock(v: &Json) -> Result<[Option<i64>; 2], String> {
    let bad = || Err("\"lowest_clock_ms\" must be null or two integers or nulls".to_string());
    let Some(field) = v.get("lowest_clock_ms") else {
        return Ok([None; 2]);
    };
    if field.is_null() {
        return Ok([None; 2]);
    }
    let Some(items) = field.as_array().filter(|a| a.len() == 2) else {
        return bad();
    };
    let mut out = [None; 2];
    for (slot, item) in out.iter_mut().zip(items) {
        if item.is_null() {
            continue;
        }
        match item.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => *slot = Some(x as i64),
            _ => return bad(),
        }
    }
    Ok(out)
}

/// Reads one results file (`text`); errors name the line.
pub fn read(text: &str) -> Result<SliceResults, String> {
    let mut header = None;
    let mut games: Vec<GameOutcome> = Vec::new();
    let mut seen = HashSet::new();
    let mut elapsed = None;
    for (n, line) in text.lines().enumerate() {
        let at = |e: String| format!("line {}: {e}", n + 1);
        if line.trim().is_empty() {
            continue;
        }
        let v = Json::parse(line).map_err(at)?;
        let kind = str_field(&v, "type").map_err(at)?;
        match (kind, &header, elapsed) {
            ("header", None, _) => header = Some(read_header(&v).map_err(at)?),
            (_, None, _) => return Err(at("the first line is not a header".into())),
            ("header", Some(_), _) => return Err(at("a second header".into())),
            (_, Some(_), Some(_)) => return Err(at("a line after the end line".into())),
            ("game", Some(h), None) => {
                let game = read_game(&v).map_err(at)?;
                if !(h.first_game..h.end_game).contains(&game.index) {
                    return Err(at(format!(
                        "game {} out of place (games {}..{} of this slice)",
                        game.index, h.first_game, h.end_game
                    )));
                }
                if !seen.insert(game.index) {
                    return Err(at(format!("game {} a second time", game.index)));
                }
                games.push(game);
            }
            ("end", Some(_), None) => {
                let secs = field(&v, "elapsed")
                    .map_err(at)?
                    .as_f64()
                    .filter(|s| s.is_finite() && *s >= 0.0)
                    .ok_or_else(|| at("\"elapsed\" is not a time".into()))?;
                elapsed = Some(Duration::from_secs_f64(secs));
            }
            (other, Some(_), None) => return Err(at(format!("unknown line type \"{other}\""))),
        }
    }
    let header = header.ok_or("no header (empty file)")?;
    games.sort_by_key(|g| g.index);
    Ok(SliceResults {
        header,
        games,
        elapsed,
    })
}

/// The merge of the results of all slices of a match.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The statistics, as one machine would print them.
    pub report: MatchReport,
    /// Slices with no file (by index).
    pub missing: Vec<usize>,
    /// Slices whose file is incomplete (by index).
    pub incomplete: Vec<usize>,
}

/// Merges the files of one match's slices (`(name, text)` pairs, any order). Files must come
/// from the same run (same settings, same slice count) and hold distinct slices. Unless
/// `partial`, every slice must be present and complete; with `partial` the games at hand
/// are counted and the missing and incomplete slices are listed.
pub fn merge(files: &[(String, String)], partial: bool) -> Result<Merged, String> {
    let mut slices: Vec<(String, SliceResults)> = Vec::new();
    for (name, text) in files {
        let s = read(text).map_err(|e| format!("{name}: {e}"))?;
        slices.push((name.clone(), s));
    }
    let Some((first_name, first)) = slices.first() else {
        return Err("no results files given".into());
    };
    let reference = first.header.clone();
    let count = reference.slice.count;
    let mut by_slice: Vec<Option<&str>> = vec![None; count];
    for (name, s) in &slices {
        let h = &s.header;
        if h.settings != reference.settings
            || h.slice.count != count
            || h.games != reference.games
            || h.names != reference.names
        {
            return Err(format!(
                "{name} is from another run than {first_name} (engines, limit, games, slices, \
                 openings, rules or SPRT differ)"
            ));
        }
        let expected = MatchConfig::slice_games(h.games, h.slice);
        if (h.first_game, h.end_game) != (expected.start, expected.end) {
            return Err(format!("{name}: slice {} has the wrong games", h.slice));
        }
        if let Some(other) = by_slice[h.slice.index].replace(name) {
            return Err(format!("slice {} is in both {other} and {name}", h.slice));
        }
    }
    let missing: Vec<usize> = (0..count).filter(|&i| by_slice[i].is_none()).collect();
    let incomplete: Vec<usize> = slices
        .iter()
        .filter(|(_, s)| !s.is_complete())
        .map(|(_, s)| s.header.slice.index)
        .collect();
    if !partial && (!missing.is_empty() || !incomplete.is_empty()) {
        return Err(format!(
            "missing slices: {}; incomplete: {} (re-run these, or merge with --partial)",
            list(&missing),
            list(&incomplete)
        ));
    }
    let mut report = MatchReport::new(reference.names.clone(), reference.sprt, reference.repeat);
    report.scheduled = reference.games;
    slices.sort_by_key(|(_, s)| s.header.slice.index);
    for (_, s) in &slices {
        for game in &s.games {
            report.add_outcome(game);
        }
        report.elapsed += s.elapsed.unwrap_or_default();
    }
    Ok(Merged {
        report,
        missing,
        incomplete,
    })
}

fn list(items: &[usize]) -> String {
    if items.is_empty() {
        return "none".into();
    }
    items
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_files_are_errors_with_the_line() {
        assert!(read("").is_err());
        let err = read("{\"type\":\"game\"}").unwrap_err();
        assert!(err.starts_with("line 1:"), "{err}");
        assert!(read("not json").is_err());
    }

    #[test]
    fn games_read_back_in_game_order_each_once() {
        let header = "{\"type\":\"header\",\"version\":1,\"names\":[\"A\",\"B\"],\
                      \"games\":8,\"slice\":\"1/2\",\"first_game\":4,\"end_game\":8,\
                      \"repeat\":true,\"sprt\":null,\"settings\":\"x\"}";
        let game = |n: usize| {
            format!(
                "{{\"type\":\"game\",\"game\":{n},\"red\":0,\"result\":\"1-0\",\
                 \"reason\":\"checkmate\",\"fault\":null,\"plies\":9,\"book_plies\":0}}"
            )
        };
        let file = |games: &[usize]| {
            let lines: Vec<String> = games.iter().map(|&n| game(n)).collect();
            format!("{header}\n{}\n", lines.join("\n"))
        };
        // Written as the games ended: 5 before 4, 7 before 6.
        let read_back = read(&file(&[5, 4, 7, 6])).unwrap();
        let order: Vec<usize> = read_back.games.iter().map(|g| g.index).collect();
        assert_eq!(order, [4, 5, 6, 7]);
        // A stop while game 4 was in progress keeps the games that ended after it started.
        let stopped = read(&file(&[5, 7])).unwrap();
        assert_eq!(stopped.games.len(), 2);
        assert!(!stopped.is_complete());
        let err = read(&file(&[5, 4, 5])).unwrap_err();
        assert!(
            err.starts_with("line 4:") && err.contains("second time"),
            "{err}"
        );
        let err = read(&file(&[4, 8])).unwrap_err();
        assert!(
            err.starts_with("line 3:") && err.contains("out of place"),
            "{err}"
        );
        let err = read(&file(&[3])).unwrap_err();
        assert!(err.contains("out of place"), "{err}");
    }

    #[test]
    fn the_lowest_clock_reads_back_and_may_be_absent() {
        let game = |extra: &str| {
            let line = format!(
                "{{\"type\":\"game\",\"game\":0,\"red\":0,\"result\":\"1-0\",\
                 \"reason\":\"checkmate\",\"fault\":null,\"plies\":9,\"book_plies\":0{extra}}}"
            );
            read_game(&Json::parse(&line).unwrap())
        };
        let lows = |extra: &str| game(extra).map(|g| g.lowest_clock_ms);
        assert_eq!(lows(""), Ok([None, None]));
        assert_eq!(lows(",\"lowest_clock_ms\":null"), Ok([None, None]));
        assert_eq!(
            lows(",\"lowest_clock_ms\":[812,-40]"),
            Ok([Some(812), Some(-40)])
        );
        assert_eq!(lows(",\"lowest_clock_ms\":[null,7]"), Ok([None, Some(7)]));
        for bad in ["[1]", "[1,2,3]", "[1.5,2]", "\"x\"", "[\"1\",2]"] {
            assert!(
                lows(&format!(",\"lowest_clock_ms\":{bad}")).is_err(),
                "{bad}"
            );
        }
        for ms in [[None, None], [Some(812), Some(-40)], [None, Some(3)]] {
            let text = lowest_clock_json(ms);
            assert_eq!(
                lows(&format!(",\"lowest_clock_ms\":{text}")),
                Ok(ms),
                "{text}"
            );
        }
    }
}
