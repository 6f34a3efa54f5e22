//! A game record: the start FEN, the moves, and after every move its classification, the draw
//! counters and the result under docs/rules.md. This is the referee used by `chariot judge`,
//! self-play and matches; the search uses the same [`rules`](crate::rules) functions directly.

use std::fmt;

use crate::movegen::count_legal;
use crate::position::{FenError, Position, START_FEN};
use crate::rules::{
    automatic_draw, classify_move, is_effective, judge_span, Counters, EndReason, GameResult,
    MoveCountRule, PlyRecord, RepetitionKind, Verdict,
};
use crate::types::Move;

/// Why [`Game::push`] refused a move. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The move is not legal in the current position.
    Illegal {
        /// The move.
        mv: Move,
        /// The position it was tried in.
        fen: String,
    },
    /// The game is already over.
    Finished(GameResult),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Illegal { mv, fen } => write!(f, "illegal move {mv} in {fen}"),
            GameError::Finished(result) => write!(f, "the game is over ({result})"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game from a start position, judged after every move.
#[derive(Clone, Debug)]
pub struct Game {
    start_fen: String,
    rule: MoveCountRule,
    /// The current position; its undo stack holds every move since the start.
    pos: Position,
    start_key: u64,
    start_counters: Counters,
    start_result: GameResult,
    moves: Vec<Move>,
    history: Vec<PlyRecord>,
}

impl Game {
    /// A game from the standard start position under the CXQ rules.
    pub fn startpos() -> Game {
        Game::from_position(
            Position::startpos(),
            START_FEN.to_string(),
            MoveCountRule::Cxq,
        )
    }

    /// A game from `fen` under the CXQ rules.
    pub fn new(fen: &str) -> Result<Game, FenError> {
        Game::with_rule(fen, MoveCountRule::Cxq)
    }

    /// A game from `fen` under `rule`.
    pub fn with_rule(fen: &str, rule: MoveCountRule) -> Result<Game, FenError> {
        let pos = Position::from_fen(fen)?;
        Ok(Game::from_position(pos, fen.trim().to_string(), rule))
    }

    fn from_position(mut pos: Position, start_fen: String, rule: MoveCountRule) -> Game {
        pos.clear_history();
        let start_counters = Counters::at_start(&pos);
        let mut game = Game {
            start_fen,
            rule,
            start_key: pos.key(),
            pos,
            start_counters,
            start_result: GameResult::Ongoing,
            moves: Vec::new(),
            history: Vec::new(),
        };
        game.start_result = game.judge(&start_counters);
        game
    }

    /// The FEN the game started from, as given.
    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }

    /// The move-count rule in force.
    pub fn rule(&self) -> MoveCountRule {
        self.rule
    }

    /// The current position (its undo stack holds the game's moves).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// One record per move played, in order (`history()[i]` belongs to `moves()[i]`).
    pub fn history(&self) -> &[PlyRecord] {
        &self.history
    }

    /// The counters of docs/rules.md#automatic-draws now.
    pub fn counters(&self) -> Counters {
        self.history
            .last()
            .map_or(self.start_counters, |r| r.counters)
    }

    /// The result now: [`GameResult::Ongoing`] or how and at which ply the game was decided.
    pub fn result(&self) -> GameResult {
        self.history.last().map_or(self.start_result, |r| r.result)
    }

    /// Plays `mv` and returns the new result. An illegal move, or any move once the game is
    /// decided, is refused with the game unchanged.
    pub fn push(&mut self, mv: Move) -> Result<GameResult, GameError> {
        let result = self.result();
        if result.is_decided() {
            return Err(GameError::Finished(result));
        }
        if !self.pos.is_legal(mv) {
            return Err(GameError::Illegal {
                mv,
                fen: self.pos.fen(),
            });
        }
        let mover = self.pos.side_to_move();
        let mover_in_check = self.pos.in_check();
        let class = classify_move(&self.pos, mv);
        let captured = self.pos.piece_at(mv.to());
        let effective = is_effective(class, mover_in_check, self.history.last().map(|r| r.class));
        self.pos.make_move(mv);
        let counters = self
            .counters()
            .next(&self.pos, mover, captured.is_some(), effective);
        self.moves.push(mv);
        self.history.push(PlyRecord {
            key: self.pos.key(),
            class,
            mover_in_check,
            captured,
            effective,
            counters,
            result: GameResult::Ongoing,
        });
        let result = self.judge(&counters);
        if let Some(last) = self.history.last_mut() {
            last.result = result;
        }
        Ok(result)
    }

    /// Takes back the last move, restoring everything exactly; `None` at the start.
    pub fn pop(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.history.pop();
        self.pos.unmake_move();
        Some(mv)
    }

    /// The key of the position after `ply` moves.
    fn key_at(&self, ply: usize) -> u64 {
        match ply {
            0 => self.start_key,
            _ => self.history[ply - 1].key,
        }
    }

    /// The result of the current position, reached with `counters` (docs/rules.md#end-of-the-game).
    fn judge(&self, counters: &Counters) -> GameResult {
        let ply = self.moves.len();
        let decided = |winner, reason| GameResult::Decided {
            winner,
            reason,
            ply,
        };
        if count_legal(&self.pos) == 0 {
            let reason = if self.pos.in_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return decided(Some(!self.pos.side_to_move()), reason);
        }
        if let Some(first) = self.third_occurrence() {
            return match judge_span(&self.pos, ply - first) {
                (Verdict::Loses(loser), RepetitionKind::PerpetualCheck) => {
                    decided(Some(!loser), EndReason::PerpetualCheck)
                }
                (Verdict::Loses(loser), _) => decided(Some(!loser), EndReason::PerpetualChase),
                (Verdict::Draw, _) => decided(None, EndReason::Repetition),
            };
        }
        match automatic_draw(counters, self.rule) {
            Some(reason) => decided(None, reason),
            None => GameResult::Ongoing,
        }
    }

    /// If the current position occurs for the third time since the last capture, the ply of
    /// its first occurrence.
    fn third_occurrence(&self) -> Option<usize> {
        let now = self.moves.len();
        let key = self.key_at(now);
        let (mut seen, mut first) = (1, now);
        let mut ply = now;
        // Same side to move: step back two plies at a time, never across a capture.
        while ply >= 2 && !self.history[ply - 1].is_capture() && !self.history[ply - 2].is_capture()
        {
            ply -= 2;
            if self.key_at(ply) == key {
                seen += 1;
                first = ply;
            }
        }
        (seen >= 3).then_some(first)
    }
}
