//! FEN reading and writing (docs/rules.md#fen): round trips, one test per rejection reason (every
//! [`FenError`] variant), the accepted alternatives, and property tests showing that no input
//! makes `Position::from_fen` panic.

use chariot::movegen::legal_moves;
use chariot::movegen::perft::{parse_epd, perft};
use chariot::position::{FenError, Position, START_FEN};
use chariot::types::{Color, Piece, PieceKind, Square};
use proptest::prelude::*;

const SUITE: &str = include_str!("../perft/xiangqi.epd");

fn suite_fens() -> Vec<String> {
    parse_epd(SUITE)
        .expect("suite parses")
        .into_iter()
        .map(|e| e.fen)
        .collect()
}

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(pos) => panic!("{fen} was accepted as {}", pos.fen()),
        Err(e) => e,
    }
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn red(kind: PieceKind) -> Piece {
    Piece::new(Color::Red, kind)
}

fn black(kind: PieceKind) -> Piece {
    Piece::new(Color::Black, kind)
}

#[test]
fn every_suite_position_round_trips() {
    for fen in suite_fens() {
        let pos = Position::from_fen(&fen).unwrap();
        assert_eq!(pos.fen(), fen);
        assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
    }
}

#[test]
fn start_position_round_trips() {
    assert_eq!(Position::startpos().fen(), START_FEN);
}

#[test]
fn counters_round_trip() {
    let fen = "3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 17 42";
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(pos.progress_plies(), 17);
    assert_eq!(pos.game_ply(), 2 * 41 + 1);
    assert_eq!(pos.fen(), fen);
}

// ---- Accepted alternatives -------------------------------------------------------------------

#[test]
fn missing_trailing_fields_default_to_red_and_zero_one() {
    let pos =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR").unwrap();
    assert_eq!(pos.fen(), START_FEN);
    let pos = Position::from_fen("3aka3/9/9/9/4R4/9/9/9/9/4K4 b").unwrap();
    assert_eq!(pos.fen(), "3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1");
}

#[test]
fn side_letter_r_means_red() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1";
    assert_eq!(Position::from_fen(fen).unwrap(), Position::startpos());
}

#[test]
fn letters_h_and_e_mean_horse_and_elephant_and_are_written_as_n_and_b() {
    let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(pos, Position::startpos());
    assert_eq!(pos.fen(), START_FEN);
}

#[test]
fn extra_white_space_is_ignored() {
    let fen = format!("  {}  ", START_FEN.replace(' ', "   "));
    assert_eq!(Position::from_fen(&fen).unwrap(), Position::startpos());
}

// ---- One test per rejection reason -----------------------------------------------------------

#[test]
fn empty_fen_is_rejected() {
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err(" \t\n"), FenError::Empty);
}

#[test]
fn board_must_have_ten_rows() {
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/4K4 w"),
        FenError::WrongRowCount(9)
    );
    assert_eq!(
        err("3aka3/9/9/9/9/4R4/9/9/9/9/4K4 w"),
        FenError::WrongRowCount(11)
    );
    assert_eq!(err("w - - 0 1"), FenError::WrongRowCount(1));
}

#[test]
fn unknown_letters_and_zero_are_bad_characters() {
    assert_eq!(
        err("3akx3/9/9/9/4R4/9/9/9/9/4K4 w"),
        FenError::BadCharacter { rank: 9, ch: 'x' }
    );
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/0/4K4 w"),
        FenError::BadCharacter { rank: 1, ch: '0' }
    );
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K3あ w"),
        FenError::BadCharacter { rank: 0, ch: 'あ' }
    );
}

#[test]
fn every_row_must_cover_nine_points() {
    assert_eq!(
        err("3aka2/9/9/9/4R4/9/9/9/9/4K4 w"),
        FenError::WrongPointCount { rank: 9, points: 8 }
    );
    assert_eq!(
        err("3aka3/9/9/9/4R5/9/9/9/9/4K4 w"),
        FenError::WrongPointCount {
            rank: 5,
            points: 10
        }
    );
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/ w"),
        FenError::WrongPointCount { rank: 0, points: 0 }
    );
    assert!(matches!(
        err("3aka3/99/9/9/4R4/9/9/9/9/4K4 w"),
        FenError::WrongPointCount { .. }
    ));
}

#[test]
fn each_side_needs_a_general() {
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/9 w"),
        FenError::MissingGeneral(Color::Red)
    );
    assert_eq!(
        err("3a1a3/9/9/9/4R4/9/9/9/9/4K4 w"),
        FenError::MissingGeneral(Color::Black)
    );
}

#[test]
fn each_side_has_at_most_one_general() {
    assert_eq!(
        err("3kk4/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::TooManyGenerals(Color::Black)
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/4K4/4K4 w"),
        FenError::TooManyGenerals(Color::Red)
    );
}

#[test]
fn piece_counts_are_capped() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/RRR6/4K4 w"),
        FenError::TooManyPieces(red(PieceKind::Rook))
    );
    assert_eq!(
        err("3k5/9/9/pcpcpcp2/9/9/9/9/9/4K4 w"),
        FenError::TooManyPieces(black(PieceKind::Cannon))
    );
    assert_eq!(
        err("3k5/9/9/9/PPPPPP3/9/9/9/9/4K4 w"),
        FenError::TooManyPieces(red(PieceKind::Pawn))
    );
}

#[test]
fn general_may_not_leave_its_palace() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/2K6 w"),
        FenError::UnreachablePoint {
            piece: red(PieceKind::King),
            square: sq("c0")
        }
    );
    assert_eq!(
        err("9/9/9/4k4/9/9/9/9/9/4K4 w"),
        FenError::UnreachablePoint {
            piece: black(PieceKind::King),
            square: sq("e6")
        }
    );
}

#[test]
fn advisor_stands_only_on_palace_diagonal_points() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/3A5/4K4 w"),
        FenError::UnreachablePoint {
            piece: red(PieceKind::Advisor),
            square: sq("d1")
        }
    );
    assert_eq!(
        err("5k3/3a5/9/9/9/9/9/9/9/4K4 w"),
        FenError::UnreachablePoint {
            piece: black(PieceKind::Advisor),
            square: sq("d8")
        }
    );
}

#[test]
fn elephant_stands_only_on_its_seven_points() {
    assert_eq!(
        err("3k5/9/9/9/2B6/9/9/9/9/4K4 w"),
        FenError::UnreachablePoint {
            piece: red(PieceKind::Elephant),
            square: sq("c5")
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/4b4/4K4 w"),
        FenError::UnreachablePoint {
            piece: black(PieceKind::Elephant),
            square: sq("e1")
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/3BK4 w"),
        FenError::UnreachablePoint {
            piece: red(PieceKind::Elephant),
            square: sq("d0")
        }
    );
}

#[test]
fn soldier_never_stands_behind_its_start() {
    assert_eq!(
        err("3k5/9/9/9/9/9/9/1P7/9/4K4 w"),
        FenError::UnreachablePoint {
            piece: red(PieceKind::Pawn),
            square: sq("b2")
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/1P7/9/9/4K4 w"),
        FenError::UnreachablePoint {
            piece: red(PieceKind::Pawn),
            square: sq("b3")
        }
    );
    assert_eq!(
        err("3k5/p8/9/9/9/9/9/9/9/4K4 w"),
        FenError::UnreachablePoint {
            piece: black(PieceKind::Pawn),
            square: sq("a8")
        }
    );
}

#[test]
fn side_to_move_must_be_w_r_or_b() {
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 x"),
        FenError::BadSide("x".into())
    );
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 red"),
        FenError::BadSide("red".into())
    );
}

#[test]
fn castling_and_en_passant_fields_must_be_dashes() {
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 b KQ -"),
        FenError::BadPlaceholder("KQ".into())
    );
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 b - e3"),
        FenError::BadPlaceholder("e3".into())
    );
}

#[test]
fn halfmove_clock_must_be_a_non_negative_number() {
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - x 1"),
        FenError::BadHalfmove("x".into())
    );
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - -1 1"),
        FenError::BadHalfmove("-1".into())
    );
}

#[test]
fn move_number_must_be_a_number() {
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 0 x"),
        FenError::BadFullmove("x".into())
    );
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 0 -3"),
        FenError::BadFullmove("-3".into())
    );
}

#[test]
fn text_after_the_move_number_is_rejected() {
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1 bm h2e2"),
        FenError::TrailingFields("bm".into())
    );
}

#[test]
fn side_not_to_move_may_not_be_in_check() {
    // Red to move with the black general attacked by the red chariot: Black never answered.
    assert_eq!(
        err("3aka3/9/9/9/4R4/9/9/9/9/4K4 w"),
        FenError::SideNotToMoveInCheck(Color::Black)
    );
    // Black to move with a black cannon aiming at the red general over one screen.
    assert_eq!(
        err("3k5/9/4c4/9/9/9/4P4/9/9/4K4 b"),
        FenError::SideNotToMoveInCheck(Color::Red)
    );
}

#[test]
fn facing_generals_count_as_check() {
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::SideNotToMoveInCheck(Color::Black)
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 b"),
        FenError::SideNotToMoveInCheck(Color::Red)
    );
}

/// The name of a variant; a `match` without a wildcard, so a new variant fails to compile here
/// until it gets a case in [`rejection_cases`].
fn variant(e: &FenError) -> &'static str {
    match e {
        FenError::Empty => "Empty",
        FenError::WrongRowCount(_) => "WrongRowCount",
        FenError::BadCharacter { .. } => "BadCharacter",
        FenError::WrongPointCount { .. } => "WrongPointCount",
        FenError::MissingGeneral(_) => "MissingGeneral",
        FenError::TooManyGenerals(_) => "TooManyGenerals",
        FenError::TooManyPieces(_) => "TooManyPieces",
        FenError::UnreachablePoint { .. } => "UnreachablePoint",
        FenError::BadSide(_) => "BadSide",
        FenError::BadPlaceholder(_) => "BadPlaceholder",
        FenError::BadHalfmove(_) => "BadHalfmove",
        FenError::BadFullmove(_) => "BadFullmove",
        FenError::TrailingFields(_) => "TrailingFields",
        FenError::SideNotToMoveInCheck(_) => "SideNotToMoveInCheck",
    }
}

/// One rejected FEN per variant.
fn rejection_cases() -> Vec<&'static str> {
    vec![
        "",
        "3aka3/9/9/9/4R4/9/9/9/4K4 w",
        "3akx3/9/9/9/4R4/9/9/9/9/4K4 w",
        "3aka2/9/9/9/4R4/9/9/9/9/4K4 w",
        "3aka3/9/9/9/4R4/9/9/9/9/9 w",
        "3kk4/9/9/9/9/9/9/9/9/4K4 w",
        "3k5/9/9/9/9/9/9/9/RRR6/4K4 w",
        "3k5/9/9/9/9/9/9/9/9/2K6 w",
        "3aka3/9/9/9/4R4/9/9/9/9/4K4 x",
        "3aka3/9/9/9/4R4/9/9/9/9/4K4 b KQ -",
        "3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - x 1",
        "3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 0 x",
        "3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 0 1 x",
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
    ]
}

#[test]
fn every_rejection_reason_is_tested_and_explained() {
    let mut seen = Vec::new();
    for fen in rejection_cases() {
        let e = err(fen);
        let message = e.to_string();
        assert!(
            message.len() > 8,
            "{fen}: message '{message}' says too little"
        );
        seen.push(variant(&e));
    }
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), seen.len(), "one case per variant: {seen:?}");
    assert_eq!(
        seen.len(),
        14,
        "every FenError variant has a case: {seen:?}"
    );
}

// ---- Property tests: no input makes the parser panic --------------------------------------

/// Parses `text`; if it is accepted, the position must round-trip and generate moves.
fn parse_survives(text: &str) -> Result<(), TestCaseError> {
    if let Ok(pos) = Position::from_fen(text) {
        let again = Position::from_fen(&pos.fen());
        prop_assert_eq!(again.as_ref(), Ok(&pos), "round trip of {:?}", text);
        prop_assert_eq!(pos.key(), pos.compute_key());
        let moves = legal_moves(&pos);
        prop_assert_eq!(perft(&mut pos.clone(), 1), moves.len() as u64);
        let mut p = pos.clone();
        perft(&mut p, 2);
        prop_assert_eq!(p, pos);
    }
    Ok(())
}

/// Characters FENs are made of, plus a few that are not.
const FEN_ALPHABET: &[char] = &[
    'r', 'n', 'b', 'a', 'k', 'c', 'p', 'h', 'e', 'R', 'N', 'B', 'A', 'K', 'C', 'P', 'H', 'E', '0',
    '1', '2', '3', '4', '5', '6', '7', '8', '9', '/', ' ', '-', 'w', 'x', '\t', 'é',
];

/// One edit of a valid FEN.
#[derive(Clone, Debug)]
enum Edit {
    Replace(prop::sample::Index, char),
    Insert(prop::sample::Index, char),
    Delete(prop::sample::Index),
    /// Replace a whole whitespace-separated field by arbitrary digits (huge numbers).
    Field(prop::sample::Index, String),
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let ch = prop::sample::select(FEN_ALPHABET);
    prop_oneof![
        (any::<prop::sample::Index>(), ch.clone()).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<prop::sample::Index>(), ch).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<prop::sample::Index>().prop_map(Edit::Delete),
        (any::<prop::sample::Index>(), "[0-9]{1,25}").prop_map(|(i, s)| Edit::Field(i, s)),
    ]
}

fn apply(fen: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    match edit {
        Edit::Replace(i, c) if !chars.is_empty() => {
            let i = i.index(chars.len());
            chars[i] = *c;
        }
        Edit::Insert(i, c) => {
            let i = i.index(chars.len() + 1);
            chars.insert(i, *c);
        }
        Edit::Delete(i) if !chars.is_empty() => {
            chars.remove(i.index(chars.len()));
        }
        Edit::Field(i, digits) => {
            let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
            let i = i.index(fields.len());
            fields[i] = digits.clone();
            return fields.join(" ");
        }
        _ => {}
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn from_fen_never_panics_on_random_text(text in "\\PC{0,100}") {
        parse_survives(&text)?;
    }

    #[test]
    fn from_fen_never_panics_on_fen_alphabet_soup(
        chars in prop::collection::vec(prop::sample::select(FEN_ALPHABET), 0..120)
    ) {
        parse_survives(&chars.into_iter().collect::<String>())?;
    }

    #[test]
    fn from_fen_never_panics_on_mutated_fens(
        index in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_strategy(), 1..6),
    ) {
        let fens = suite_fens();
        let mut fen = fens[index.index(fens.len())].clone();
        for edit in &edits {
            fen = apply(&fen, edit);
        }
        parse_survives(&fen)?;
    }
}

#[test]
fn huge_move_number_saturates_instead_of_overflowing() {
    for fullmove in ["4294967295", "2147483649", "2147483648"] {
        let fen = format!("3aka3/9/9/9/4R4/9/9/9/9/4K4 b - - 4294967295 {fullmove}");
        let pos = Position::from_fen(&fen).unwrap();
        assert!(
            pos.game_ply() > 1_000_000,
            "{fen}: game ply {}",
            pos.game_ply()
        );
        assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
    }
}
