//! `chariot judge`: replay a game from a FEN and print its result under docs/rules.md.

use std::io::Write;

use crate::game::{Game, GameError};
use crate::position::START_FEN;
use crate::rules::{GameResult, MoveCountRule};
use crate::types::Move;

/// Replays `moves` (space-separated, ranks 0–9) from `fen` (default: the start position) under
/// `rule`, and writes one line to `out`: the score, the reason and the ply where the game was
/// decided (`0-1 checkmate ply 0`, `1/2-1/2 repetition ply 16`), or `* ply N` after `N` moves
/// if it is still going. Moves after the end are ignored with a note on `err`.
///
/// Returns the exit code: 0, or 2 after writing the reason to `err` for a bad FEN, a malformed
/// or illegal move, or a failure to write.
pub fn judge(
    fen: Option<&str>,
    moves: &str,
    rule: MoveCountRule,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    match run(fen.unwrap_or(START_FEN), moves, rule, err) {
        Ok(line) => match writeln!(out, "{line}") {
            Ok(()) => 0,
            Err(e) => {
                let _ = writeln!(err, "chariot judge: cannot write the result: {e}");
                2
            }
        },
        Err(message) => {
            let _ = writeln!(err, "chariot judge: {message}");
            2
        }
    }
}

fn run(fen: &str, moves: &str, rule: MoveCountRule, err: &mut dyn Write) -> Result<String, String> {
    let mut game = Game::with_rule(fen, rule).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    for (i, token) in tokens.iter().enumerate() {
        let ply = i + 1;
        let mv: Move = token.parse().map_err(|e| format!("move {ply}: {e}"))?;
        match game.push(mv) {
            Ok(_) => {}
            Err(GameError::Illegal { fen, .. }) => {
                return Err(format!("move {ply}: illegal move {token} in {fen}"));
            }
            Err(GameError::Finished(result)) => {
                let _ = writeln!(
                    err,
                    "chariot judge: the game ended at ply {} ({result}); ignoring the {} \
                     move(s) from move {ply} on: {}",
                    game.moves().len(),
                    tokens.len() - i,
                    tokens[i..].join(" ")
                );
                break;
            }
        }
    }
    Ok(match game.result() {
        GameResult::Ongoing => format!("* ply {}", game.moves().len()),
        decided => decided.to_string(),
    })
}
