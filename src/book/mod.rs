//! The opening book: positions keyed by their Zobrist key, each with moves and weights, in the
//! compact binary format of [`format`] (docs/engine.md, "Opening book").
//!
//! - [`Book`] holds a loaded book and finds the moves of a position by binary search.
//! - [`playable`] says whether the rules allow a book move in a position *with its history*:
//!   the move must be legal and must not return to a position of the game (a book move never
//!   starts a repetition, so it can never be the move that makes a perpetual check or chase).
//! - [`Book::choose`] draws one playable move with probability proportional to its weight.
//! - [`build`] makes a book from games (PGN or self-play data), [`cli`] is `chariot book`.
//! - [`builtin`] is the default book compiled into the binary (`src/book/default.cbk`).
//!
//! Loading never panics: a missing, damaged or foreign file is a [`BookError`], and the engine
//! goes on without a book.

pub mod build;
pub mod cli;
pub mod format;

use std::fmt;
use std::path::Path;

use once_cell::sync::Lazy;

pub use format::Entry;

use crate::movegen::legal_moves;
use crate::position::Position;
use crate::types::Move;

/// Largest book file the engine reads.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Why a book could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read.
    Io(String),
    /// The file is larger than [`MAX_FILE_BYTES`].
    TooLarge(u64),
    /// The bytes are not a valid book.
    Format(format::FormatError),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "{e}"),
            BookError::TooLarge(n) => write!(f, "book file of {n} bytes is too large"),
            BookError::Format(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BookError {}

/// A loaded book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
    comment: String,
}

/// A move drawn from the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its weight.
    pub weight: u16,
    /// The weights of all playable book moves of the position together.
    pub total: u32,
}

impl Book {
    /// A book of `entries` (any order; see [`format::encode`] for what is dropped).
    pub fn new(entries: &[Entry], comment: &str) -> Book {
        Book::from_bytes(&format::encode(entries, comment)).expect("encode makes valid books")
    }

    /// Decodes a book file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let (entries, comment) = format::decode(bytes).map_err(BookError::Format)?;
        Ok(Book { entries, comment })
    }

    /// Reads and decodes the book at `path`.
    /// Only regular files are read, and never more than [`MAX_FILE_BYTES`]: a device such as
    /// `/dev/zero` or a FIFO would otherwise be read for ever.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        use std::io::Read as _;
        let io = |e: std::io::Error| BookError::Io(format!("cannot read {}: {e}", path.display()));
        // Looked at before opening: opening a FIFO would already wait for a writer.
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(BookError::Io(format!(
                "{} is not a regular file",
                path.display()
            )));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(BookError::TooLarge(meta.len()));
        }
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(BookError::TooLarge(bytes.len() as u64));
        }
        Book::from_bytes(&bytes)
    }

    /// The file bytes of this book.
    pub fn to_bytes(&self) -> Vec<u8> {
        format::encode(&self.entries, &self.comment)
    }

    /// The comment (how the book was built).
    pub fn comment(&self) -> &str {
        &self.comment
    }

    /// All records, sorted by key.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of positions.
    pub fn positions(&self) -> usize {
        self.entries
            .windows(2)
            .filter(|w| w[0].key != w[1].key)
            .count()
            + usize::from(!self.entries.is_empty())
    }

    /// Number of moves (records).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no move.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The records of the position with Zobrist key `key`, heaviest first.
    pub fn probe(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// Draws a move for `pos` among its book moves that are [`playable`] and `allowed`, with
    /// probability proportional to the weights, from the 64 random bits `random`.
    pub fn choose(
        &self,
        pos: &Position,
        allowed: impl Fn(Move) -> bool,
        random: u64,
    ) -> Option<BookMove> {
        let candidates: Vec<&Entry> = self
            .probe(pos.key())
            .iter()
            .filter(|e| allowed(e.mv) && playable(pos, e.mv))
            .collect();
        let total: u32 = candidates.iter().map(|e| u32::from(e.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut x = ((u128::from(random) * u128::from(total)) >> 64) as u32;
        for e in &candidates {
            if x < u32::from(e.weight) {
                return Some(BookMove {
                    mv: e.mv,
                    weight: e.weight,
                    total,
                });
            }
            x -= u32::from(e.weight);
        }
        None
    }
}

/// Whether the rules let the book play `mv` in `pos` (whose undo history is the game so far):
/// the move is legal, and the position after it has not occurred before since the last
/// capture. Every repetition starts with such a move, so a book move never walks into a
/// perpetual check or chase (which loses, docs/rules.md "Repetition"), nor into a repetition draw.
pub fn playable(pos: &Position, mv: Move) -> bool {
    if !legal_moves(pos).contains(&mv) {
        return false;
    }
    let mut after = pos.clone();
    after.make_move(mv);
    let key = after.key();
    let mut n = 1;
    while let Some((k, irreversible)) = after.history(n) {
        if irreversible {
            break;
        }
        if n % 2 == 0 && k == key {
            return false;
        }
        n += 1;
    }
    true
}

static BUILTIN_BYTES: &[u8] = include_bytes!("default.cbk");

static BUILTIN: Lazy<Option<Book>> = Lazy::new(|| match Book::from_bytes(BUILTIN_BYTES) {
    Ok(book) => Some(book),
    Err(e) => {
        log::error!("the built-in book is unusable: {e}");
        None
    }
});

/// The default book compiled into the binary (`None` if it does not decode, which a test
/// rules out).
pub fn builtin() -> Option<&'static Book> {
    BUILTIN.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(pos: &Position, mv: &str, weight: u16) -> Entry {
        Entry {
            key: pos.key(),
            mv: mv.parse().unwrap(),
            weight,
        }
    }

    #[test]
    fn only_regular_files_are_loaded() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            if Path::new(path).exists() {
                let err = Book::load(Path::new(path)).unwrap_err();
                assert!(
                    err.to_string().contains("not a regular file"),
                    "{path}: {err}"
                );
            }
        }
    }

    #[test]
    fn probes_find_the_moves_of_a_position() {
        let start = Position::startpos();
        let mut after = start.clone();
        after.make_move("h2e2".parse().unwrap());
        let book = Book::new(
            &[
                entry(&start, "h2e2", 50),
                entry(&start, "b2e2", 20),
                entry(&after, "h9g7", 7),
            ],
            "test",
        );
        assert_eq!(book.positions(), 2);
        assert_eq!(book.len(), 3);
        let moves: Vec<String> = book
            .probe(start.key())
            .iter()
            .map(|e| e.mv.to_string())
            .collect();
        assert_eq!(moves, ["h2e2", "b2e2"]);
        assert_eq!(book.probe(after.key()).len(), 1);
        assert!(book.probe(12345).is_empty());
        assert_eq!(Book::from_bytes(&book.to_bytes()).unwrap(), book);
    }

    #[test]
    fn draws_follow_the_weights_and_skip_illegal_moves() {
        let start = Position::startpos();
        // e0e2 is not a legal move: it is never drawn, whatever its weight.
        let book = Book::new(
            &[
                entry(&start, "h2e2", 3),
                entry(&start, "b0c2", 1),
                entry(&start, "e0e2", 60000),
            ],
            "",
        );
        let mut counts = [0u32; 2];
        for i in 0..4000u64 {
            // Evenly spread random bits: i times the golden ratio, modulo 2^64.
            let r = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let m = book.choose(&start, |_| true, r).unwrap();
            assert_eq!(m.total, 4);
            counts[usize::from(m.mv.to_string() != "h2e2")] += 1;
        }
        assert!(counts[0] > 2 * counts[1], "{counts:?}");
        assert!(counts[1] > 0);
        let only = book.choose(&start, |m| m.to_string() == "b0c2", 0).unwrap();
        assert_eq!(only.mv.to_string(), "b0c2");
        assert!(book.choose(&start, |_| false, 0).is_none());
    }

    #[test]
    fn a_book_move_that_starts_a_perpetual_check_is_not_played() {
        // Red checks with the chariot along ranks 9 and 8 while the general steps d9-d8-d9:
        // i8i9 would return to the position after i0i9, the start of a perpetual check.
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap();
        for m in ["i0i9", "d9d8", "i9i8", "d8d9"] {
            pos.make_move(m.parse().unwrap());
        }
        let repeat: Move = "i8i9".parse().unwrap();
        let fresh: Move = "i8h8".parse().unwrap();
        assert!(!playable(&pos, repeat));
        assert!(playable(&pos, fresh));
        assert!(!playable(&pos, "e0e2".parse().unwrap()), "illegal");
        let book = Book::new(&[entry(&pos, "i8i9", 60000), entry(&pos, "i8h8", 1)], "");
        for r in [0, u64::MAX / 3, u64::MAX] {
            assert_eq!(book.choose(&pos, |_| true, r).unwrap().mv, fresh);
        }
        // The same position without the history: no repetition, the heavy move is fine.
        let mut fresh_game = Position::from_fen(&pos.fen()).unwrap();
        fresh_game.clear_history();
        assert!(playable(&fresh_game, repeat));
    }

    #[test]
    fn the_builtin_book_decodes() {
        assert!(builtin().is_some());
    }
}
