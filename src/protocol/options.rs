//! The option table shared by every dialect: one row per setting, with its name in each dialect
//! (UCI `setoption name Hash value 64`, UCCI `setoption hashsize 64`, XBoard
//! `option Move Overhead=50`), its type and range. Parsing turns a name and a value into a typed
//! [`Setting`]; listing prints the table in the dialect's own form.

use std::fmt;
use std::str::FromStr;

use super::dialect::Dialect;
use super::play::{PlaySetting, BUILTIN_BOOK, DEFAULT_BOOK_DEPTH};
use super::ranks::RankMode;
use crate::rules::MoveCountRule;
use crate::search::params::{SearchParams, SPECS, TUNABLE};
use crate::search::skill;

/// Every setting the engine understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    /// Transposition table size in MiB.
    Hash,
    /// Search threads.
    Threads,
    /// Empty the transposition table.
    ClearHash,
    /// Whether the GUI lets the engine ponder.
    Ponder,
    /// Number of principal variations.
    MultiPv,
    /// Time kept back per move, in milliseconds.
    MoveOverhead,
    /// The variant (only `xiangqi`).
    UciVariant,
    /// Rank numbering in move tokens (`auto`, `0`, `1`).
    RankBase,
    /// Move-count draw rule (`cxq`, `sixty`, `none`).
    MoveRule,
    /// UCCI: times in milliseconds instead of seconds.
    UseMillisec,
    /// UCCI: batch mode (accepted, no effect).
    Batch,
    /// UCCI: debug output.
    Debug,
    /// UCCI: start a new game (clears the hash and histories).
    NewGame,
    /// XBoard: which game ends the engine claims with `RESULT`.
    Claims,
    /// Strength limit by level (0–20; 20 is full strength).
    SkillLevel,
    /// Strength limit by Elo (`UCI_LimitStrength`).
    LimitStrength,
    /// The Elo of the strength limit (`UCI_Elo`).
    Elo,
    /// Win/draw/loss chances in `info` lines (UCI).
    ShowWdl,
    /// Seed of the random draws of the book and the strength limit (0: fresh draws).
    RandomSeed,
    /// Play book moves.
    OwnBook,
    /// The book file.
    BookFile,
    /// Consult the book in the first N plies.
    BookDepth,
}

/// The type and range of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
    },
    /// An action without value.
    Button,
    /// Free text (a file name).
    Text {
        /// Default value.
        default: &'static str,
    },
    /// One of a fixed list of words.
    Combo {
        /// Default value.
        default: &'static str,
        /// The allowed values.
        vars: &'static [&'static str],
    },
}

/// One row of the option table.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// Which setting.
    pub id: OptionId,
    /// Name in UCI (and the Cyclone dialect), if offered there.
    pub uci: Option<&'static str>,
    /// Name in UCCI, if offered there.
    pub ucci: Option<&'static str>,
    /// Name in XBoard `feature option=…`, if offered there.
    pub xboard: Option<&'static str>,
    /// Type and range.
    pub kind: Kind,
    /// One line of help.
    pub help: &'static str,
}

impl OptionSpec {
    /// The name of this option in `dialect`, if it is offered there.
    pub fn name(&self, dialect: Dialect) -> Option<&'static str> {
        match dialect {
            Dialect::Uci | Dialect::Cyclone => self.uci,
            Dialect::Ucci => self.ucci,
            Dialect::Xboard => self.xboard,
        }
    }
}

/// Largest transposition table, in MiB.
pub const MAX_HASH_MB: i64 = 65536;
/// Most search threads.
pub const MAX_THREADS: i64 = 256;
/// Largest `Random Seed`.
pub const MAX_SEED: i64 = 2_147_483_647;

/// The option table.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        id: OptionId::Hash,
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        xboard: None, // XBoard sends `memory N`
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB,
        },
        help: "transposition table size in MiB",
    },
    OptionSpec {
        id: OptionId::Threads,
        uci: Some("Threads"),
        ucci: Some("threads"),
        xboard: None, // XBoard sends `cores N`
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
        help: "search threads",
    },
    OptionSpec {
        id: OptionId::ClearHash,
        uci: Some("Clear Hash"),
        ucci: None,
        xboard: Some("Clear Hash"),
        kind: Kind::Button,
        help: "empty the transposition table",
    },
    OptionSpec {
        id: OptionId::Ponder,
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        xboard: None, // XBoard sends `hard` / `easy`
        kind: Kind::Check { default: false },
        help: "the GUI may ask the engine to think on the opponent's time",
    },
    OptionSpec {
        id: OptionId::MultiPv,
        uci: Some("MultiPV"),
        ucci: None,
        xboard: Some("MultiPV"),
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 128,
        },
        help: "number of best lines reported",
    },
    OptionSpec {
        id: OptionId::MoveOverhead,
        uci: Some("Move Overhead"),
        ucci: None,
        xboard: Some("Move Overhead"),
        kind: Kind::Spin {
            default: 30,
            min: 0,
            max: 5000,
        },
        help: "milliseconds kept back per move for GUI and pipe delays",
    },
    OptionSpec {
        id: OptionId::UciVariant,
        uci: Some("UCI_Variant"),
        ucci: None,
        xboard: None,
        kind: Kind::Combo {
            default: "xiangqi",
            vars: &["xiangqi"],
        },
        help: "the variant (only xiangqi); setting it selects ranks 1-10 in auto mode",
    },
    OptionSpec {
        id: OptionId::RankBase,
        uci: Some("Rank Base"),
        ucci: None,
        xboard: None,
        kind: Kind::Combo {
            default: "auto",
            vars: &["auto", "0", "1"],
        },
        help: "rank numbering of moves: 0 (h2e2), 1 (h3e3) or auto-detect",
    },
    OptionSpec {
        id: OptionId::MoveRule,
        uci: Some("Move Rule"),
        ucci: Some("moverule"),
        xboard: Some("Move Rule"),
        kind: Kind::Combo {
            default: "cxq",
            vars: &["cxq", "sixty", "none"],
        },
        help: "move-count draw rule: cxq (60/120/600 plies), sixty (120 plies) or none",
    },
    OptionSpec {
        id: OptionId::UseMillisec,
        uci: None,
        ucci: Some("usemillisec"),
        xboard: None,
        kind: Kind::Check { default: false },
        help: "times in go are milliseconds instead of seconds",
    },
    OptionSpec {
        id: OptionId::Batch,
        uci: None,
        ucci: Some("batch"),
        xboard: None,
        kind: Kind::Check { default: false },
        help: "batch mode (accepted, no effect)",
    },
    OptionSpec {
        id: OptionId::Debug,
        uci: None,
        ucci: Some("debug"),
        xboard: None,
        kind: Kind::Check { default: false },
        help: "echo received commands as info messages",
    },
    OptionSpec {
        id: OptionId::NewGame,
        uci: None,
        ucci: Some("newgame"),
        xboard: None,
        kind: Kind::Button,
        help: "new game: clear the hash table and histories",
    },
    OptionSpec {
        id: OptionId::Claims,
        uci: None,
        ucci: None,
        xboard: Some("Claims"),
        kind: Kind::Combo {
            default: "safe",
            vars: &["safe", "all"],
        },
        help: "game ends claimed with RESULT: safe (what a strict referee accepts) or all",
    },
    OptionSpec {
        id: OptionId::SkillLevel,
        uci: Some("Skill Level"),
        ucci: Some("skilllevel"),
        xboard: Some("Skill Level"),
        kind: Kind::Spin {
            default: skill::MAX_LEVEL as i64,
            min: 0,
            max: skill::MAX_LEVEL as i64,
        },
        help: "playing strength 0-20 (20: full strength; see docs/engine.md)",
    },
    OptionSpec {
        id: OptionId::LimitStrength,
        uci: Some("UCI_LimitStrength"),
        ucci: Some("limitstrength"),
        xboard: Some("Limit Strength"),
        kind: Kind::Check { default: false },
        help: "play at the strength of the Elo option instead of the skill level",
    },
    OptionSpec {
        id: OptionId::Elo,
        uci: Some("UCI_Elo"),
        ucci: Some("elo"),
        xboard: Some("Elo"),
        kind: Kind::Spin {
            default: skill::ELO_MIN as i64,
            min: skill::ELO_MIN as i64,
            max: skill::ELO_MAX as i64,
        },
        help: "strength when limited, on the measured scale of docs/engine.md",
    },
    OptionSpec {
        id: OptionId::ShowWdl,
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        xboard: None,
        kind: Kind::Check { default: false },
        help: "add win/draw/loss chances (per mille) to info lines",
    },
    OptionSpec {
        id: OptionId::RandomSeed,
        uci: Some("Random Seed"),
        ucci: Some("randomseed"),
        xboard: Some("Random Seed"),
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: MAX_SEED,
        },
        help: "seed of the book and skill draws (0: fresh draws; other values repeat)",
    },
    OptionSpec {
        id: OptionId::OwnBook,
        uci: Some("OwnBook"),
        ucci: Some("usebook"),
        xboard: Some("OwnBook"),
        kind: Kind::Check { default: false },
        help: "play moves from the opening book",
    },
    OptionSpec {
        id: OptionId::BookFile,
        uci: Some("BookFile"),
        ucci: Some("bookfiles"),
        xboard: Some("BookFile"),
        kind: Kind::Text {
            default: BUILTIN_BOOK,
        },
        help: "opening book file (<built-in>: the book compiled in; see docs/engine.md)",
    },
    OptionSpec {
        id: OptionId::BookDepth,
        uci: Some("BookDepth"),
        ucci: Some("bookdepth"),
        xboard: Some("BookDepth"),
        kind: Kind::Spin {
            default: DEFAULT_BOOK_DEPTH as i64,
            min: 0,
            max: 1000,
        },
        help: "consult the book in the first N plies of the game",
    },
];

/// Which game ends the engine claims with `RESULT` (see [`xboard`](super::xboard)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ClaimPolicy {
    /// Only what a strict referee accepts.
    #[default]
    Safe,
    /// Everything the rules of docs/rules.md decide.
    All,
}

impl FromStr for ClaimPolicy {
    type Err = String;

    fn from_str(s: &str) -> Result<ClaimPolicy, String> {
        match s.to_ascii_lowercase().as_str() {
            "safe" => Ok(ClaimPolicy::Safe),
            "all" => Ok(ClaimPolicy::All),
            _ => Err(s.to_string()),
        }
    }
}

impl fmt::Display for ClaimPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClaimPolicy::Safe => "safe",
            ClaimPolicy::All => "all",
        })
    }
}

/// A typed option value, ready to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Hash size in MiB.
    Hash(usize),
    /// Thread count.
    Threads(usize),
    /// Clear the hash table.
    ClearHash,
    /// Pondering allowed.
    Ponder(bool),
    /// MultiPV count.
    MultiPv(usize),
    /// Move overhead in milliseconds.
    MoveOverhead(u64),
    /// The variant was confirmed as xiangqi.
    UciVariant,
    /// Rank numbering.
    RankBase(RankMode),
    /// Move-count rule.
    MoveRule(MoveCountRule),
    /// UCCI millisecond times.
    UseMillisec(bool),
    /// UCCI batch mode.
    Batch(bool),
    /// Debug output.
    Debug(bool),
    /// New game.
    NewGame,
    /// XBoard claim policy.
    Claims(ClaimPolicy),
    /// Strength, book and output options (see [`super::play`]).
    Play(PlaySetting),
    /// A search parameter (only in `--features tune` builds, UCI only).
    SearchParam(&'static str, i32),
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of that name in this dialect.
    Unknown(String),
    /// The option needs a value.
    MissingValue(&'static str),
    /// The value is not of the option's type.
    BadValue {
        /// Option name.
        name: &'static str,
        /// The value given.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// A number outside the option's range.
    OutOfRange {
        /// Option name.
        name: &'static str,
        /// The value given.
        value: String,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "no such option '{name}'"),
            OptionError::MissingValue(name) => write!(f, "option '{name}' needs a value"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => {
                write!(
                    f,
                    "invalid value '{value}' for option '{name}' (expected {expected})"
                )
            }
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => {
                write!(
                    f,
                    "value {value} for option '{name}' is out of range {min}..{max}"
                )
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// Parses a boolean the way GUIs write them.
fn parse_bool(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// Looks up `name` (case-insensitive) among the options of `dialect`.
pub fn find(dialect: Dialect, name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|o| {
        o.name(dialect)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.trim()))
    })
}

/// Turns `name` and `value` into a typed setting, checking type and range.
pub fn parse_setting(
    dialect: Dialect,
    name: &str,
    value: Option<&str>,
) -> Result<Setting, OptionError> {
    let Some(spec) = find(dialect, name) else {
        return parse_search_param(dialect, name, value);
    };
    let label = spec.name(dialect).unwrap_or("?");
    let value = value.map(str::trim).filter(|v| !v.is_empty());
    let bad = |v: &str, expected: String| OptionError::BadValue {
        name: label,
        value: v.chars().take(60).collect(),
        expected,
    };
    let int = || -> Result<i64, OptionError> {
        let v = value.ok_or(OptionError::MissingValue(label))?;
        let Kind::Spin { min, max, .. } = spec.kind else {
            return Err(bad(v, "no value".into()));
        };
        let n: i64 = v.parse().map_err(|_| bad(v, "an integer".into()))?;
        if n < min || n > max {
            return Err(OptionError::OutOfRange {
                name: label,
                value: v.to_string(),
                min,
                max,
            });
        }
        Ok(n)
    };
    let boolean = || -> Result<bool, OptionError> {
        let v = value.ok_or(OptionError::MissingValue(label))?;
        parse_bool(v).ok_or_else(|| bad(v, "true or false".into()))
    };
    let word = || -> Result<&str, OptionError> {
        let v = value.ok_or(OptionError::MissingValue(label))?;
        match spec.kind {
            Kind::Combo { vars, .. } if vars.iter().any(|c| c.eq_ignore_ascii_case(v)) => Ok(v),
            Kind::Combo { vars, .. } => Err(bad(v, format!("one of {}", vars.join(", ")))),
            _ => Ok(v),
        }
    };
    Ok(match spec.id {
        OptionId::Hash => Setting::Hash(int()? as usize),
        OptionId::Threads => Setting::Threads(int()? as usize),
        OptionId::ClearHash => Setting::ClearHash,
        OptionId::Ponder => Setting::Ponder(boolean()?),
        OptionId::MultiPv => Setting::MultiPv(int()? as usize),
        OptionId::MoveOverhead => Setting::MoveOverhead(int()? as u64),
        OptionId::UciVariant => {
            word()?;
            Setting::UciVariant
        }
        OptionId::RankBase => {
            let v = word()?;
            Setting::RankBase(v.parse().map_err(|_| bad(v, "auto, 0 or 1".into()))?)
        }
        OptionId::MoveRule => {
            let v = word()?;
            Setting::MoveRule(v.parse().map_err(|_| bad(v, "cxq, sixty or none".into()))?)
        }
        OptionId::UseMillisec => Setting::UseMillisec(boolean()?),
        OptionId::Batch => Setting::Batch(boolean()?),
        OptionId::Debug => Setting::Debug(boolean()?),
        OptionId::NewGame => Setting::NewGame,
        OptionId::Claims => {
            let v = word()?;
            Setting::Claims(v.parse().map_err(|_| bad(v, "safe or all".into()))?)
        }
        OptionId::SkillLevel => Setting::Play(PlaySetting::SkillLevel(int()? as u32)),
        OptionId::LimitStrength => Setting::Play(PlaySetting::LimitStrength(boolean()?)),
        OptionId::Elo => Setting::Play(PlaySetting::Elo(int()? as i32)),
        OptionId::ShowWdl => Setting::Play(PlaySetting::ShowWdl(boolean()?)),
        OptionId::RandomSeed => Setting::Play(PlaySetting::RandomSeed(int()? as u64)),
        OptionId::OwnBook => Setting::Play(PlaySetting::OwnBook(boolean()?)),
        OptionId::BookFile => Setting::Play(PlaySetting::BookFile(word()?.to_string())),
        OptionId::BookDepth => Setting::Play(PlaySetting::BookDepth(int()? as u32)),
    })
}

/// A search parameter set by name: only `--features tune` builds offer them, in UCI.
fn parse_search_param(
    dialect: Dialect,
    name: &str,
    value: Option<&str>,
) -> Result<Setting, OptionError> {
    let unknown = || OptionError::Unknown(name.trim().chars().take(60).collect());
    if !TUNABLE || !matches!(dialect, Dialect::Uci | Dialect::Cyclone) {
        return Err(unknown());
    }
    let spec = SearchParams::spec(name.trim()).ok_or_else(unknown)?;
    let v = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or(OptionError::MissingValue(spec.name))?;
    let n: i64 = v.parse().map_err(|_| OptionError::BadValue {
        name: spec.name,
        value: v.chars().take(60).collect(),
        expected: "an integer".into(),
    })?;
    if n < spec.min as i64 || n > spec.max as i64 {
        return Err(OptionError::OutOfRange {
            name: spec.name,
            value: v.to_string(),
            min: spec.min as i64,
            max: spec.max as i64,
        });
    }
    Ok(Setting::SearchParam(spec.name, n as i32))
}

/// The `option …` lines of UCI (and the Cyclone dialect); a `--features tune` build adds one
/// spin per search parameter.
pub fn uci_lines() -> Vec<String> {
    let params = SPECS.iter().filter(|_| TUNABLE).map(|p| {
        format!(
            "option name {} type spin default {} min {} max {}",
            p.name, p.default, p.min, p.max
        )
    });
    OPTIONS
        .iter()
        .filter_map(|o| {
            let name = o.uci?;
            Some(match o.kind {
                Kind::Spin { default, min, max } => {
                    format!("option name {name} type spin default {default} min {min} max {max}")
                }
                Kind::Check { default } => {
                    format!("option name {name} type check default {default}")
                }
                Kind::Button => format!("option name {name} type button"),
                Kind::Text { default } => {
                    format!("option name {name} type string default {default}")
                }
                Kind::Combo { default, vars } => {
                    let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                    format!("option name {name} type combo default {default}{vars}")
                }
            })
        })
        .chain(params)
        .collect()
}

/// The `option …` lines of UCCI (no `name` keyword; range before the default).
pub fn ucci_lines() -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|o| {
            let name = o.ucci?;
            Some(match o.kind {
                Kind::Spin { default, min, max } => {
                    format!("option {name} type spin min {min} max {max} default {default}")
                }
                Kind::Check { default } => format!("option {name} type check default {default}"),
                Kind::Button => format!("option {name} type button"),
                Kind::Text { default } => format!("option {name} type string default {default}"),
                Kind::Combo { default, vars } => {
                    let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                    format!("option {name} type combo{vars} default {default}")
                }
            })
        })
        .collect()
}

/// The `feature option="…"` lines of XBoard.
pub fn xboard_lines() -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|o| {
            let name = o.xboard?;
            let desc = match o.kind {
                Kind::Spin { default, min, max } => format!("{name} -spin {default} {min} {max}"),
                Kind::Check { default } => format!("{name} -check {}", default as u8),
                Kind::Button => format!("{name} -button"),
                Kind::Text { default } => format!("{name} -file {default}"),
                Kind::Combo { default, vars } => {
                    let choices: Vec<String> = vars
                        .iter()
                        .map(|v| {
                            if *v == default {
                                format!("*{v}")
                            } else {
                                v.to_string()
                            }
                        })
                        .collect();
                    format!("{name} -combo {}", choices.join(" /// "))
                }
            };
            Some(format!("feature option=\"{desc}\""))
        })
        .collect()
}

/// One help line per option of `dialect`.
pub fn help_lines(dialect: Dialect) -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|o| Some(format!("  {:<14} {}", o.name(dialect)?, o.help)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_per_dialect() {
        assert_eq!(
            parse_setting(Dialect::Uci, "hash", Some("64")),
            Ok(Setting::Hash(64))
        );
        assert_eq!(
            parse_setting(Dialect::Ucci, "hashsize", Some("8")),
            Ok(Setting::Hash(8))
        );
        assert!(matches!(
            parse_setting(Dialect::Ucci, "Hash", Some("8")),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(
            parse_setting(Dialect::Uci, "Clear Hash", None),
            Ok(Setting::ClearHash)
        );
    }

    #[test]
    fn values_are_checked() {
        assert!(matches!(
            parse_setting(Dialect::Uci, "Hash", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_setting(Dialect::Uci, "Hash", Some("lots")),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            parse_setting(Dialect::Uci, "UCI_Variant", Some("chess")),
            Err(OptionError::BadValue { .. })
        ));
        assert_eq!(
            parse_setting(Dialect::Uci, "UCI_Variant", Some("xiangqi")),
            Ok(Setting::UciVariant)
        );
        assert!(matches!(
            parse_setting(Dialect::Uci, "Threads", None),
            Err(OptionError::MissingValue(_))
        ));
    }

    #[test]
    fn every_dialect_lists_its_options() {
        assert!(uci_lines()
            .iter()
            .any(|l| l == "option name UCI_Variant type combo default xiangqi var xiangqi"));
        assert!(ucci_lines()
            .iter()
            .any(|l| l == "option usemillisec type check default false"));
        assert!(xboard_lines()
            .iter()
            .any(|l| l == "feature option=\"Move Rule -combo *cxq /// sixty /// none\""));
    }
}
