//! PGN for xiangqi games: a writer (tags, ICCS moves such as `H2-E2`, comments) and a small
//! reader that turns PGN text back into tags and moves.
//!
//! The writer always emits the seven-tag roster (Red plays as `White`), then `Variant
//! "xiangqi"`, `Format "ICCS"`, and `FEN`/`SetUp` when the game does not start from the
//! standard position. The reader accepts ICCS (`H2-E2`), plain coordinates (`h2e2`, ranks
//! 0–9), move numbers, comments (`{…}` and `;…`), variations (skipped), NAGs and `%` escape
//! lines; it never panics on malformed text.

use std::fmt::Write as _;

use crate::position::{Position, START_FEN};
use crate::types::Move;

/// One game to write or as read: tags in order, moves with optional comments, the result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order (`Event`, `Site`, …). The `Result` tag is written from
    /// [`PgnGame::result`].
    pub tags: Vec<(String, String)>,
    /// Moves from the start position (ranks 0–9).
    pub moves: Vec<Move>,
    /// A comment after each move (same length as `moves` when writing; empty strings are
    /// not written). The reader fills it with the text of comments that follow each move.
    pub comments: Vec<String>,
    /// A comment after the last move (e.g. `Red wins by checkmate`). The reader cannot tell
    /// it from the last move's comment and merges the two there; it puts a comment that comes
    /// before the first move here instead.
    pub final_comment: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing an existing one, else appending).
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The start FEN: the `FEN` tag, or the standard start position.
    pub fn start_fen(&self) -> &str {
        self.tag("FEN").unwrap_or(START_FEN)
    }

    /// Writes the game as PGN text (ending with a blank line).
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        let mut tags = self.tags.clone();
        if !tags.iter().any(|(k, _)| k == "Result") {
            tags.push(("Result".into(), self.result.clone()));
        }
        for (key, value) in &tags {
            let value = if key == "Result" {
                self.result.as_str()
            } else {
                value.as_str()
            };
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{key} \"{escaped}\"]");
        }
        out.push('\n');
        let black_first = Position::from_fen(self.start_fen())
            .map(|p| p.side_to_move() == crate::types::Color::Black)
            .unwrap_or(false);
        let mut tokens: Vec<String> = Vec::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let ply = i + usize::from(black_first);
            if ply % 2 == 0 {
                tokens.push(format!("{}.", ply / 2 + 1));
            } else if i == 0 {
                tokens.push(format!("{}...", ply / 2 + 1));
            }
            tokens.push(iccs(*mv));
            if let Some(c) = self.comments.get(i).filter(|c| !c.is_empty()) {
                tokens.push(format!("{{{}}}", c.replace('}', ")")));
            }
        }
        if let Some(c) = &self.final_comment {
            tokens.push(format!("{{{}}}", c.replace('}', ")")));
        }
        tokens.push(self.result.clone());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}

/// A move in ICCS notation: `H2-E2`.
pub fn iccs(mv: Move) -> String {
    let text = mv.to_string().to_ascii_uppercase();
    format!("{}-{}", &text[..2], &text[2..])
}

/// Parses a move token: ICCS `H2-E2`, `h2-e2` or `h2e2` (ranks 0–9), ignoring trailing
/// annotation marks (`!`, `?`, `+`, `#`).
pub fn parse_move_token(token: &str) -> Option<Move> {
    let core: String = token
        .trim_end_matches(['!', '?', '+', '#'])
        .chars()
        .filter(|&c| c != '-')
        .collect::<String>()
        .to_ascii_lowercase();
    core.parse().ok().filter(|m: &Move| !m.is_null())
}

/// A problem found while reading PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based number of the game in the file.
    pub game: usize,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}: {}", self.game, self.message)
    }
}

impl std::error::Error for PgnError {}

/// Reads every game of a PGN text. Each game is checked by replaying it: a bad FEN, an
/// unknown move token or an illegal move makes that game an error; the others still load.
pub fn read_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    let mut games = Vec::new();
    for (i, raw) in split_games(text).into_iter().enumerate() {
        games.push(raw.into_game().map_err(|message| PgnError {
            game: i + 1,
            message,
        }));
    }
    games
}

/// A game as tokens, before the moves are checked.
#[derive(Default)]
struct RawGame {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
    comments: Vec<String>,
    leading_comment: Vec<String>,
    result: Option<String>,
}

impl RawGame {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.result.is_none()
    }

    fn into_game(self) -> Result<PgnGame, String> {
        let fen = self
            .tags
            .iter()
            .find(|(k, _)| k == "FEN")
            .map_or(START_FEN, |(_, v)| v);
        let mut pos = Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, token) in self.moves.iter().enumerate() {
            let mv = parse_move_token(token)
                .ok_or_else(|| format!("move {}: cannot read '{token}'", i + 1))?;
            if !pos.is_legal(mv) {
                return Err(format!(
                    "move {}: illegal move '{token}' in {}",
                    i + 1,
                    pos.fen()
                ));
            }
            pos.make_move(mv);
            moves.push(mv);
        }
        let result = self
            .result
            .or_else(|| {
                self.tags
                    .iter()
                    .find(|(k, _)| k == "Result")
                    .map(|(_, v)| v.clone())
            })
            .unwrap_or_else(|| "*".to_string());
        let mut comments = self.comments;
        comments.resize(moves.len(), String::new());
        let final_comment =
            (!self.leading_comment.is_empty()).then(|| self.leading_comment.join(" "));
        Ok(PgnGame {
            tags: self.tags,
            moves,
            comments,
            final_comment,
            result,
        })
    }
}

fn split_games(text: &str) -> Vec<RawGame> {
    let mut games = Vec::new();
    let mut game = RawGame::default();
    let mut chars = text.chars().peekable();
    let mut at_line_start = true;
    let mut depth = 0usize; // variation nesting
    while let Some(c) = chars.next() {
        let line_start = at_line_start;
        at_line_start = c == '\n';
        match c {
            '%' if line_start => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        at_line_start = true;
                        break;
                    }
                }
            }
            '[' if depth == 0 => {
                if !game.moves.is_empty() || game.result.is_some() {
                    games.push(std::mem::take(&mut game));
                }
                let mut inner = String::new();
                let mut in_quotes = false;
                let mut escaped = false;
                for c in chars.by_ref() {
                    if escaped {
                        inner.push(c);
                        escaped = false;
                    } else if c == '\\' && in_quotes {
                        escaped = true;
                    } else if c == '"' {
                        in_quotes = !in_quotes;
                        inner.push('\u{1}');
                    } else if c == ']' && !in_quotes {
                        break;
                    } else {
                        inner.push(c);
                    }
                }
                let inner = inner.trim();
                if let Some((key, rest)) = inner.split_once(char::is_whitespace) {
                    let value = rest.trim().trim_matches('\u{1}').replace('\u{1}', "\"");
                    game.tags.push((key.to_string(), value));
                }
            }
            '{' => {
                let mut comment = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    comment.push(c);
                }
                if depth == 0 {
                    let comment = comment.split_whitespace().collect::<Vec<_>>().join(" ");
                    if game.moves.is_empty() {
                        game.leading_comment.push(comment);
                    } else {
                        let slot = &mut game.comments[game.moves.len() - 1];
                        if !slot.is_empty() {
                            slot.push(' ');
                        }
                        slot.push_str(&comment);
                    }
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        at_line_start = true;
                        break;
                    }
                }
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {}
            _ => {
                let mut token = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || "{}()[];".contains(n) {
                        break;
                    }
                    token.push(n);
                    chars.next();
                }
                if depth > 0 {
                    continue;
                }
                match token.as_str() {
                    "1-0" | "0-1" | "1/2-1/2" | "*" => {
                        game.result = Some(token);
                        games.push(std::mem::take(&mut game));
                    }
                    t if t.starts_with('$') => {}
                    t => {
                        // Strip a move number glued to the move (`12.H2-E2`, `3...h9g7`).
                        let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
                        let t = t.trim_start_matches('.');
                        if !t.is_empty() {
                            game.moves.push(t.to_string());
                            game.comments.push(String::new());
                        }
                    }
                }
            }
        }
    }
    if !game.is_empty() {
        games.push(game);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_round_trips_moves_tags_and_comments() {
        let moves: Vec<Move> = ["h2e2", "h9g7", "h0g2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let game = PgnGame {
            tags: vec![
                ("Event".into(), "Test \"q\"".into()),
                ("Variant".into(), "xiangqi".into()),
            ],
            moves: moves.clone(),
            comments: vec!["+0.10/5 0.01s".into(), String::new(), "x".into()],
            final_comment: Some("Red wins by checkmate".into()),
            result: "1-0".into(),
        };
        let text = game.to_pgn();
        assert!(text.contains("1. H2-E2 {+0.10/5 0.01s} H9-G7 2. H0-G2"));
        let back = read_games(&text);
        assert_eq!(back.len(), 1);
        let back = back[0].clone().unwrap();
        assert_eq!(back.moves, moves);
        assert_eq!(back.tag("Event"), Some("Test \"q\""));
        assert_eq!(back.result, "1-0");
    }

    #[test]
    fn reader_skips_variations_and_reports_bad_moves() {
        let text = "[Event \"a\"]\n\n1. h2e2 (1. b2e2 b9c7) h9g7 $1 2. zz 1-0\n\n\
                    [Event \"b\"]\n1. C2.5 *\n1. b2e2 *";
        let games = read_games(text);
        assert_eq!(games.len(), 3);
        assert!(games[0].as_ref().unwrap_err().message.contains("'zz'"));
        assert!(games[1].is_err());
        assert_eq!(games[2].as_ref().unwrap().moves.len(), 1);
    }
}
