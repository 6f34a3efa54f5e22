//! Engine specifications as given to `chariot match --engine "…"`: whitespace-separated
//! `key=value` items, values optionally in double quotes.
//!
//! | key | meaning |
//! |---|---|
//! | `cmd=PATH` | the program to run (required unless `proto=internal`) |
//! | `arg=WORD` | one command-line argument (repeatable) |
//! | `dir=PATH` | working directory |
//! | `name=NAME` | name in PGN and summaries (default: the engine's `id name`) |
//! | `proto=uci\|ucci\|cyclone\|internal` | protocol (default `uci`); `internal` plays Chariot in-process |
//! | `ranks=0\|1` | rank numbering of moves on the wire (default: detected at the handshake, see [`super::engine`]) |
//! | `timeunit=auto\|ms\|s` | UCCI time unit (`auto`: ms if the engine offers `usemillisec`) |
//! | `variant=NAME` | value sent as `UCI_Variant` when the engine offers it (default `xiangqi`) |
//! | `option.NAME=VALUE` | an engine option (`option.Hash=16`, `"option.Move Overhead=10"`) |
//! | `nodes=N` | search `N` nodes per move instead of the match's `--nodes`/`--depth` |

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Protocol {
    /// UCI (`position … moves …`, `go wtime …`, `bestmove`).
    #[default]
    Uci,
    /// UCCI (`ucci`, `setoption NAME VALUE`, `go time … opptime …`).
    Ucci,
    /// The UCI dialect of the Cyclone GUI: positions sent as `fen FEN r|b … moves …` without
    /// the `position` keyword.
    Cyclone,
    /// Chariot's own search, in-process (no pipes).
    Internal,
}

/// How ranks are numbered in move strings on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankBase {
    /// Ranks 0–9 (`h2e2`), our own notation.
    #[default]
    Zero,
    /// Ranks 1–10 (`h3e3`), as Fairy-Stockfish's UCI and cutechess' xiangqi branch use.
    One,
}

impl RankBase {
    /// The other numbering.
    pub fn other(self) -> RankBase {
        match self {
            RankBase::Zero => RankBase::One,
            RankBase::One => RankBase::Zero,
        }
    }

    /// `0-9` or `1-10`.
    pub fn describe(self) -> &'static str {
        match self {
            RankBase::Zero => "0-9",
            RankBase::One => "1-10",
        }
    }

    /// The value of `ranks=` (and of Chariot's `Rank Base` option): `0` or `1`.
    pub fn digit(self) -> &'static str {
        match self {
            RankBase::Zero => "0",
            RankBase::One => "1",
        }
    }
}

/// UCCI time unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeUnit {
    /// Milliseconds if the engine offers the `usemillisec` option (which is then switched
    /// on), else seconds.
    #[default]
    Auto,
    /// Milliseconds.
    Millis,
    /// Seconds.
    Seconds,
}

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EngineSpec {
    /// Program to run.
    pub cmd: Option<String>,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// Display name (`None`: use the engine's `id name`).
    pub name: Option<String>,
    /// Protocol.
    pub proto: Protocol,
    /// Rank numbering on the wire as given by `ranks=`; `None`: detected at the handshake.
    pub ranks: Option<RankBase>,
    /// UCCI time unit.
    pub time_unit: TimeUnit,
    /// `UCI_Variant` value sent when the engine offers that option.
    pub variant: String,
    /// Engine options in order.
    pub options: Vec<(String, String)>,
    /// Nodes per move for this engine, in place of the match's fixed limit.
    pub nodes: Option<u64>,
}

impl EngineSpec {
    /// The value given for option `name` (case-insensitive), if any.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// A name to show before the engine has told us its own.
    pub fn fallback_name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        match (&self.cmd, self.proto) {
            (_, Protocol::Internal) => "Chariot".to_string(),
            (Some(cmd), _) => std::path::Path::new(cmd)
                .file_name()
                .map_or_else(|| cmd.clone(), |f| f.to_string_lossy().into_owned()),
            (None, _) => "engine".to_string(),
        }
    }
}

/// A malformed engine specification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad engine spec: {}", self.0)
    }
}

impl std::error::Error for SpecError {}

impl FromStr for EngineSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<EngineSpec, SpecError> {
        let mut spec = EngineSpec {
            variant: "xiangqi".into(),
            ..EngineSpec::default()
        };
        for item in split_quoted(s)? {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| SpecError(format!("'{item}' is not key=value")))?;
            match key {
                "cmd" => spec.cmd = Some(value.to_string()),
                "arg" => spec.args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "name" => spec.name = Some(value.to_string()),
                "proto" => {
                    spec.proto = match value.to_ascii_lowercase().as_str() {
                        "uci" => Protocol::Uci,
                        "ucci" => Protocol::Ucci,
                        "cyclone" => Protocol::Cyclone,
                        "internal" | "chariot" => Protocol::Internal,
                        _ => {
                            return Err(SpecError(format!(
                                "unknown proto '{value}' (uci, ucci, cyclone or internal)"
                            )))
                        }
                    }
                }
                "ranks" => {
                    spec.ranks = match value {
                        "0" => Some(RankBase::Zero),
                        "1" => Some(RankBase::One),
                        _ => return Err(SpecError(format!("ranks must be 0 or 1, not '{value}'"))),
                    }
                }
                "timeunit" => {
                    spec.time_unit = match value {
                        "auto" => TimeUnit::Auto,
                        "ms" => TimeUnit::Millis,
                        "s" => TimeUnit::Seconds,
                        _ => {
                            return Err(SpecError(format!(
                                "timeunit must be auto, ms or s, not '{value}'"
                            )))
                        }
                    }
                }
                "variant" => spec.variant = value.to_string(),
                "nodes" => match value.parse::<u64>() {
                    Ok(n) if n > 0 => spec.nodes = Some(n),
                    _ => {
                        return Err(SpecError(format!(
                            "nodes must be a positive number, not '{value}'"
                        )))
                    }
                },
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.trim().is_empty() => spec
                        .options
                        .push((name.trim().to_string(), value.to_string())),
                    _ => return Err(SpecError(format!("unknown key '{key}'"))),
                },
            }
        }
        if spec.cmd.is_none() && spec.proto != Protocol::Internal {
            return Err(SpecError("cmd=… is required (or proto=internal)".into()));
        }
        Ok(spec)
    }
}

/// Splits on whitespace outside double quotes and removes the quotes.
fn split_quoted(s: &str) -> Result<Vec<String>, SpecError> {
    let mut items = Vec::new();
    let mut current = String::new();
    let mut in_quotes = false;
    let mut started = false;
    for c in s.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                started = true;
            }
            c if c.is_whitespace() && !in_quotes => {
                if started {
                    items.push(std::mem::take(&mut current));
                    started = false;
                }
            }
            c => {
                current.push(c);
                started = true;
            }
        }
    }
    if in_quotes {
        return Err(SpecError("unbalanced double quote".into()));
    }
    if started {
        items.push(current);
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_spec_reads_every_key() {
        let spec: EngineSpec = "cmd=/usr/games/fairy-stockfish name=fsf proto=uci ranks=1 \
            option.Hash=16 \"option.Move Overhead=10\" arg=\"a b\""
            .parse()
            .unwrap();
        assert_eq!(spec.cmd.as_deref(), Some("/usr/games/fairy-stockfish"));
        assert_eq!(spec.ranks, Some(RankBase::One));
        assert_eq!("cmd=x".parse::<EngineSpec>().unwrap().ranks, None);
        assert_eq!(spec.option("hash"), Some("16"));
        assert_eq!(spec.option("Move Overhead"), Some("10"));
        assert_eq!(spec.args, vec!["a b".to_string()]);
        assert!("name=x".parse::<EngineSpec>().is_err());
        assert!("cmd=x proto=xboard".parse::<EngineSpec>().is_err());
        assert!("cmd=x bogus".parse::<EngineSpec>().is_err());
        assert!("cmd=\"x".parse::<EngineSpec>().is_err());
        assert!("proto=internal".parse::<EngineSpec>().is_ok());
        let spec: EngineSpec = "proto=internal nodes=600".parse().unwrap();
        assert_eq!(spec.nodes, Some(600));
        assert!("proto=internal nodes=0".parse::<EngineSpec>().is_err());
        assert!("proto=internal nodes=x".parse::<EngineSpec>().is_err());
    }
}
