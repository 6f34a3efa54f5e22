//! The protocol families the engine speaks, chosen by the first line of a session.

use std::fmt;

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
