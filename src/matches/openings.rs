//! Opening books for matches and self-play: EPD files (one position per line) and PGN files
//! (each game's start position and moves). Bad lines or games are skipped with a warning,
//! never a panic.

use std::path::Path;

use crate::position::Position;
use crate::types::Move;

use super::pgn;

/// A start position and the moves to play from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Start FEN.
    pub fen: String,
    /// Moves to replay from `fen` (empty for EPD openings).
    pub moves: Vec<Move>,
}

/// Loads the openings of `path`: PGN if the name ends in `.pgn` (any case), else EPD.
/// Returns the openings and one warning per skipped line or game; an unreadable file or a
/// file with no usable opening is an error.
pub fn load(path: &Path) -> Result<(Vec<Opening>, Vec<String>), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let (openings, warnings) = if is_pgn {
        parse_pgn(&text)
    } else {
        parse_epd(&text)
    };
    if openings.is_empty() {
        return Err(format!("no usable opening in {}", path.display()));
    }
    Ok((openings, warnings))
}

/// Openings from PGN text (start FEN + moves of each game).
pub fn parse_pgn(text: &str) -> (Vec<Opening>, Vec<String>) {
    let mut openings = Vec::new();
    let mut warnings = Vec::new();
    for game in pgn::read_games(text) {
        match game {
            Ok(g) => openings.push(Opening {
                fen: g.start_fen().to_string(),
                moves: g.moves,
            }),
            Err(e) => warnings.push(format!("skipping PGN {e}")),
        }
    }
    (openings, warnings)
}

/// Openings from EPD text: each non-empty line not starting with `#` holds a position as
/// `board side [castling en-passant] [half-move full-move]` followed by optional EPD
/// operations (`id "…";`, `hmvc 3;`, `fmvn 10;`) or `;`-separated fields.
pub fn parse_epd(text: &str) -> (Vec<Opening>, Vec<String>) {
    let mut openings = Vec::new();
    let mut warnings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match epd_fen(line) {
            Ok(fen) => openings.push(Opening {
                fen,
                moves: Vec::new(),
            }),
            Err(e) => warnings.push(format!("skipping EPD line {}: {e}", i + 1)),
        }
    }
    (openings, warnings)
}

/// The FEN of one EPD line, checked by parsing it.
pub fn epd_fen(line: &str) -> Result<String, String> {
    let head = line.split(';').next().unwrap_or("");
    let tokens: Vec<&str> = head.split_whitespace().collect();
    if tokens.len() < 2 {
        return Err(format!("expected 'board side …', got '{line}'"));
    }
    let (board, side) = (tokens[0], tokens[1]);
    let mut rest = &tokens[2..];
    let (mut castling, mut ep) = ("-", "-");
    if rest.len() >= 2 && !is_number(rest[0]) {
        (castling, ep) = (rest[0], rest[1]);
        rest = &rest[2..];
    }
    let (mut half, mut full) = ("0", "1");
    if rest.len() >= 2 && is_number(rest[0]) && is_number(rest[1]) {
        (half, full) = (rest[0], rest[1]);
    }
    // EPD operations may carry the counters.
    for op in line.split(';') {
        let words: Vec<&str> = op.split_whitespace().collect();
        for pair in words.windows(2) {
            match (pair[0], pair[1]) {
                ("hmvc", v) if is_number(v) => half = v,
                ("fmvn", v) if is_number(v) => full = v,
                _ => {}
            }
        }
    }
    let fen = format!("{board} {side} {castling} {ep} {half} {full}");
    Position::from_fen(&fen).map_err(|e| format!("bad position '{fen}': {e}"))?;
    Ok(fen)
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_in_several_shapes_load() {
        let text = "# comment\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - hmvc 4; id \"x\";\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w;D1 44\n\
            garbage\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x\n";
        let (openings, warnings) = parse_epd(text);
        assert_eq!(openings.len(), 4);
        assert_eq!(warnings.len(), 2);
        assert!(openings[2].fen.ends_with("w - - 4 1"));
        assert!(openings[1].fen.ends_with("b - - 1 1"));
    }
}
