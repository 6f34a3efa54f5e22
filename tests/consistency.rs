//! Consistency of the board core over many positions: every suite position and the positions of
//! short random playouts from each (fixed seed, small budget).
//!
//! At every visited position: the incremental key equals `compute_key()` and the pawn and
//! piece keys equal `compute_structure_keys()` after every make and unmake; make + unmake (and null make + unmake) restore the position exactly; `gives_check`
//! agrees with `in_check` after the move; captures and quiets partition the legal moves;
//! evasions equal the legal moves in check; `is_legal` agrees with the legal list for every
//! from/to pair starting on a piece; the legal list equals a slow oracle built only from
//! `attacks::reference` and a mailbox; the checkers equal the oracle's; the FEN round-trips;
//! the progress counter follows docs/rules.md#automatic-draws.

use std::collections::BTreeSet;

use chariot::attacks::reference;
use chariot::movegen::perft::parse_epd;
use chariot::movegen::{captures, count_legal, evasions, legal_moves, quiets};
use chariot::position::Position;
use chariot::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

const SUITE: &str = include_str!("../perft/xiangqi.epd");

/// Random playouts started from each suite position.
const PLAYOUTS_PER_POSITION: usize = 3;
/// Maximum plies of one playout (it stops early at a position without legal moves).
const PLAYOUT_PLIES: usize = 50;

/// splitmix64: a small deterministic generator, so every run visits the same positions.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

fn suite_positions() -> Vec<Position> {
    parse_epd(SUITE)
        .expect("suite parses")
        .iter()
        .map(|e| Position::from_fen(&e.fen).expect("suite FEN parses"))
        .collect()
}

fn sorted(moves: &[Move]) -> Vec<Move> {
    let mut v = moves.to_vec();
    v.sort();
    v
}

/// The slow oracle: a mailbox and the step-by-step generators of `attacks::reference`.
struct Oracle {
    board: [Option<Piece>; 90],
}

impl Oracle {
    fn new(pos: &Position) -> Oracle {
        Oracle {
            board: std::array::from_fn(|i| pos.piece_at(Square::from_index(i))),
        }
    }

    fn occupied(&self) -> Bitboard {
        Square::all()
            .filter(|s| self.board[s.index()].is_some())
            .collect()
    }

    fn of(&self, color: Color) -> Bitboard {
        Square::all()
            .filter(|s| self.board[s.index()].is_some_and(|p| p.color() == color))
            .collect()
    }

    /// Every point `piece` on `from` may move to, ignoring the safety of its general.
    fn targets(&self, piece: Piece, from: Square) -> Bitboard {
        let occ = self.occupied();
        let own = self.of(piece.color());
        let theirs = self.of(!piece.color());
        let targets = match piece.kind() {
            PieceKind::Rook => reference::rook(from, occ),
            PieceKind::Cannon => {
                (reference::rook(from, occ) - occ) | (reference::cannon(from, occ) & theirs)
            }
            PieceKind::Horse => reference::horse(from, occ),
            PieceKind::Elephant => reference::elephant(from, occ),
            PieceKind::Advisor => reference::advisor(from),
            PieceKind::King => reference::king(from),
            PieceKind::Pawn => reference::pawn(piece.color(), from),
        };
        targets - own
    }

    /// Pieces of `by` attacking `color`'s general, the facing general included.
    fn checkers(&self, color: Color) -> Bitboard {
        let occ = self.occupied();
        let king = Piece::new(color, PieceKind::King);
        let ksq = Square::all()
            .find(|s| self.board[s.index()] == Some(king))
            .expect("a general");
        let mut out = Bitboard::EMPTY;
        for from in self.of(!color) {
            let piece = self.board[from.index()].unwrap();
            let attacks = match piece.kind() {
                PieceKind::Rook | PieceKind::King => reference::rook(from, occ),
                PieceKind::Cannon => reference::cannon(from, occ),
                PieceKind::Horse => reference::horse(from, occ),
                PieceKind::Pawn => reference::pawn(piece.color(), from),
                PieceKind::Elephant | PieceKind::Advisor => Bitboard::EMPTY,
            };
            if attacks.has(ksq) {
                out.set(from);
            }
        }
        out
    }

    /// The legal moves of `side`: targets whose result leaves its general unattacked.
    fn legal_moves(&self, side: Color) -> Vec<Move> {
        let mut out = Vec::new();
        for from in self.of(side) {
            let piece = self.board[from.index()].unwrap();
            for to in self.targets(piece, from) {
                let mut after = Oracle { board: self.board };
                after.board[to.index()] = Some(piece);
                after.board[from.index()] = None;
                if after.checkers(side).is_empty() {
                    out.push(Move::new(from, to));
                }
            }
        }
        out.sort();
        out
    }
}

/// The incremental pawn and piece keys equal the recomputed ones.
fn assert_structure_keys(pos: &Position, context: &str) {
    let incremental = (
        pos.pawn_key(),
        [pos.piece_key(Color::Red), pos.piece_key(Color::Black)],
    );
    assert_eq!(
        incremental,
        pos.compute_structure_keys(),
        "{context}: pawn/piece keys"
    );
}

/// Every check at one position; `pos` is left exactly as it was.
fn check_position(pos: &mut Position) {
    let before = pos.clone();
    let context = pos.fen();
    let us = pos.side_to_move();
    assert_eq!(pos.key(), pos.compute_key(), "{context}: key");
    assert_structure_keys(pos, &context);
    assert_eq!(
        Position::from_fen(&context).as_ref(),
        Ok(&*pos),
        "FEN round trip"
    );

    let oracle = Oracle::new(pos);
    assert_eq!(pos.checkers(), oracle.checkers(us), "{context}: checkers");
    assert!(
        oracle.checkers(!us).is_empty(),
        "{context}: side not to move is in check"
    );

    let legal = sorted(&legal_moves(pos));
    assert_eq!(
        legal,
        oracle.legal_moves(us),
        "{context}: legal moves against the oracle"
    );
    assert_eq!(
        count_legal(pos),
        legal.len() as u64,
        "{context}: count_legal"
    );
    let set: BTreeSet<Move> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "{context}: duplicate moves");

    let caps = sorted(&captures(pos));
    let quiet = sorted(&quiets(pos));
    assert!(
        caps.iter().all(|m| pos.is_capture(*m)),
        "{context}: quiet move among captures"
    );
    assert!(
        quiet.iter().all(|m| !pos.is_capture(*m)),
        "{context}: capture among quiets"
    );
    assert_eq!(
        sorted(&[caps, quiet].concat()),
        legal,
        "{context}: captures ∪ quiets"
    );
    if pos.in_check() {
        assert_eq!(sorted(&evasions(pos)), legal, "{context}: evasions");
    }

    assert!(
        !pos.is_legal(Move::NULL),
        "{context}: the null move is not a legal move"
    );
    for from in pos.occupied() {
        for to in Square::all().filter(|&to| to != from) {
            let mv = Move::new(from, to);
            assert_eq!(
                pos.is_legal(mv),
                set.contains(&mv),
                "{context}: is_legal({mv})"
            );
        }
    }

    for &mv in &legal {
        let gives_check = pos.gives_check(mv);
        let capture = pos.piece_at(mv.to());
        let mover = pos.piece_at(mv.from()).unwrap();
        pos.make_move(mv);
        assert_eq!(pos.key(), pos.compute_key(), "{context}: key after {mv}");
        assert_structure_keys(pos, &format!("{context}, after {mv}"));
        assert_eq!(pos.in_check(), gives_check, "{context}: gives_check({mv})");
        assert_eq!(pos.side_to_move(), !us);
        assert_eq!(pos.last_move(), Some(mv));
        assert_eq!(pos.last_captured(), capture);
        assert_eq!(pos.game_ply(), before.game_ply() + 1);
        let crossed_soldier =
            mover.kind() == PieceKind::Pawn && !mv.from().rank().is_own_half(mover.color());
        let progress = if capture.is_some() || crossed_soldier {
            0
        } else {
            before.progress_plies() + 1
        };
        assert_eq!(
            pos.progress_plies(),
            progress,
            "{context}: progress after {mv}"
        );
        pos.unmake_move();
        assert_eq!(
            pos.key(),
            pos.compute_key(),
            "{context}: key after unmaking {mv}"
        );
        assert_eq!(*pos, before, "{context}: make + unmake {mv}");
    }

    if !pos.in_check() {
        pos.make_null_move();
        assert_eq!(
            pos.key(),
            pos.compute_key(),
            "{context}: key after the null move"
        );
        assert_eq!(pos.side_to_move(), !us);
        assert_eq!(pos.last_move(), Some(Move::NULL));
        assert_eq!(
            pos.checkers(),
            Oracle::new(pos).checkers(!us),
            "{context}: null checkers"
        );
        pos.unmake_null_move();
        assert_eq!(
            pos.key(),
            pos.compute_key(),
            "{context}: key after unmaking the null move"
        );
        assert_eq!(*pos, before, "{context}: null move + unmake");
    }
}

/// Checks every suite position and the positions of random playouts from it. Returns the
/// number of positions checked.
fn check_suite_and_playouts(seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut checked = 0;
    for start in suite_positions() {
        let mut pos = start.clone();
        check_position(&mut pos);
        checked += 1;
        for _ in 0..PLAYOUTS_PER_POSITION {
            for _ in 0..PLAYOUT_PLIES {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.below(moves.len())]);
                check_position(&mut pos);
                checked += 1;
            }
            while pos.moves_made() > 0 {
                pos.unmake_move();
                assert_eq!(pos.key(), pos.compute_key());
            }
            assert_eq!(pos, start, "unwinding a whole playout restores its start");
        }
    }
    checked
}

#[test]
fn board_core_is_consistent_over_suite_and_random_playouts() {
    let checked = check_suite_and_playouts(0x0c4a_2101_7e57_5eed);
    assert!(checked > 1000, "only {checked} positions visited");
}

#[test]
fn oracle_agrees_with_the_reference_start_position() {
    // The oracle itself must be right for the checks above to mean anything.
    let pos = Position::startpos();
    assert_eq!(Oracle::new(&pos).legal_moves(Color::Red).len(), 44);
    let pos = Position::from_fen("3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert_eq!(Oracle::new(&pos).legal_moves(Color::Black).len(), 2);
}
