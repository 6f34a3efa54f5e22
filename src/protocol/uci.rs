//! A minimal UCI front: `uci`, `isready`, `position`, `go perft N`, `d`, `quit`.
//! Bad input is answered with `info string error: …` and the last good position is kept.

use std::io::{BufRead, Write};

use crate::movegen::{legal_moves, perft};
use crate::position::Position;
use crate::types::Move;

/// Parses `startpos|fen <FEN> [moves m1 m2 …]` (the words after `position`). Every move must be
/// legal; on any error nothing is returned.
pub fn parse_position(args: &str) -> Result<Position, String> {
    let args = args.trim();
    let (setup, moves) = match args.find(" moves") {
        Some(i) => (&args[..i], args[i + 6..].trim()),
        None if args.ends_with("moves") => (args.trim_end_matches("moves"), ""),
        None => (args, ""),
    };
    let setup = setup.trim();
    let mut pos = if setup == "startpos" {
        Position::startpos()
    } else if let Some(fen) = setup.strip_prefix("fen") {
        Position::from_fen(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?
    } else {
        return Err(format!("expected 'startpos' or 'fen <FEN>', got '{setup}'"));
    };
    for token in moves.split_whitespace() {
        let mv: Move = token.parse().map_err(|e| format!("{e}"))?;
        if !legal_moves(&pos).contains(&mv) {
            return Err(format!("illegal move '{token}' in {}", pos.fen()));
        }
        pos.make_move(mv);
    }
    Ok(pos)
}

/// Runs the loop until `quit` or end of input.
pub fn run(input: impl BufRead, mut out: impl Write) -> std::io::Result<()> {
    let mut pos = Position::startpos();
    for line in input.lines() {
        let line = line?;
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match cmd {
            "" => {}
            "uci" => {
                writeln!(out, "id name Chariot {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the Chariot developers")?;
                writeln!(out, "uciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "position" => match parse_position(rest) {
                Ok(p) => pos = p,
                Err(e) => writeln!(out, "info string error: {e}")?,
            },
            "go" => {
                let mut words = rest.split_whitespace();
                match (words.next(), words.next().map(str::parse::<u32>)) {
                    (Some("perft"), Some(Ok(depth))) if depth >= 1 => {
                        let mut total = 0;
                        for (mv, n) in perft::divide(&pos, depth, 1) {
                            writeln!(out, "{mv}: {n}")?;
                            total += n;
                        }
                        writeln!(out, "\nNodes searched: {total}")?;
                    }
                    _ => writeln!(out, "info string error: only 'go perft N' (N >= 1) is supported")?,
                }
            }
            "d" => writeln!(out, "{pos}")?,
            "quit" => break,
            _ => writeln!(out, "info string error: unknown command '{cmd}'")?,
        }
        out.flush()?;
    }
    Ok(())
}
