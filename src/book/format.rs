//! The book file format (docs/engine.md, "Opening book"): a 32-byte header, a UTF-8
//! comment, then one 12-byte record per book move, sorted by position key. All integers
//! little-endian.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "CHRTBOOK"
//!      8     2  format version (1)
//!     10     2  record size in bytes (12)
//!     12     4  number of positions (distinct keys)
//!     16     4  number of records
//!     20     4  comment length in bytes (at most 65536)
//!     24     8  checksum: FNV-1a 64 of the comment and the records
//!     32     …  comment (UTF-8), then the records:
//!                 key u64 (Zobrist key of the position), move u16 (from + 128 × to, squares
//!                 0–89 = file + 9 × rank), weight u16 (≥ 1)
//! ```
//!
//! Records are sorted by key, then by weight (heaviest first), then by move; a position
//! holds each move once. Decoding checks every field and refuses anything else.

use std::fmt;

use crate::types::Move;

/// The first eight bytes of every book file.
pub const MAGIC: &[u8; 8] = b"CHRTBOOK";
/// The format version written and read.
pub const VERSION: u16 = 1;
/// Bytes per record.
pub const RECORD_SIZE: usize = 12;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 32;
/// Longest comment.
pub const MAX_COMMENT: usize = 65536;

/// One book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Zobrist key of the position ([`crate::position::Position::key`]).
    pub key: u64,
    /// The move.
    pub mv: Move,
    /// Relative weight among the moves of the position (≥ 1).
    pub weight: u16,
}

/// Why bytes are not a valid book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Shorter than a header.
    TooShort(usize),
    /// Not a book file (wrong magic).
    BadMagic,
    /// A version this build cannot read.
    Version(u16),
    /// A record size other than [`RECORD_SIZE`].
    RecordSize(u16),
    /// The length does not match the header's counts.
    Length {
        /// Bytes expected from the header.
        expected: u64,
        /// Bytes present.
        actual: usize,
    },
    /// The checksum does not match (a damaged file).
    Checksum,
    /// The comment is too long or not UTF-8.
    Comment,
    /// A record is invalid or out of order.
    Record {
        /// 0-based index of the record.
        index: usize,
        /// What is wrong.
        why: &'static str,
    },
    /// The position count in the header is wrong.
    PositionCount,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::TooShort(n) => write!(f, "{n} bytes is too short for a book"),
            FormatError::BadMagic => write!(f, "not a Chariot book (bad magic)"),
            FormatError::Version(v) => write!(f, "book format version {v} is not supported"),
            FormatError::RecordSize(s) => write!(f, "record size {s} is not supported"),
            FormatError::Length { expected, actual } => {
                write!(f, "book has {actual} bytes, its header says {expected}")
            }
            FormatError::Checksum => write!(f, "book checksum mismatch (damaged file)"),
            FormatError::Comment => write!(f, "book comment is invalid"),
            FormatError::Record { index, why } => write!(f, "book record {index}: {why}"),
            FormatError::PositionCount => write!(f, "book position count is wrong"),
        }
    }
}

impl std::error::Error for FormatError {}

/// FNV-1a, 64 bits.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The order of records in a file.
pub fn record_order(a: &Entry, b: &Entry) -> std::cmp::Ordering {
    a.key
        .cmp(&b.key)
        .then(b.weight.cmp(&a.weight))
        .then(a.mv.raw().cmp(&b.mv.raw()))
}

/// Encodes `entries` (sorted here) with `comment` (cut to [`MAX_COMMENT`] bytes at a
/// character boundary). Entries with weight 0, a null move or a repeated (key, move) are
/// dropped; the first of equal (key, move) pairs in the sorted order stays.
pub fn encode(entries: &[Entry], comment: &str) -> Vec<u8> {
    let mut sorted: Vec<Entry> = entries
        .iter()
        .copied()
        .filter(|e| e.weight > 0 && !e.mv.is_null())
        .collect();
    sorted.sort_by(record_order);
    let mut seen = std::collections::HashSet::new();
    sorted.retain(|e| seen.insert((e.key, e.mv)));
    let mut cut = comment.len().min(MAX_COMMENT);
    while !comment.is_char_boundary(cut) {
        cut -= 1;
    }
    let comment = &comment.as_bytes()[..cut];
    let mut records = Vec::with_capacity(sorted.len() * RECORD_SIZE);
    for e in &sorted {
        records.extend_from_slice(&e.key.to_le_bytes());
        records.extend_from_slice(&e.mv.raw().to_le_bytes());
        records.extend_from_slice(&e.weight.to_le_bytes());
    }
    let positions = sorted.windows(2).filter(|w| w[0].key != w[1].key).count()
        + usize::from(!sorted.is_empty());
    let mut out = Vec::with_capacity(HEADER_SIZE + comment.len() + records.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
    out.extend_from_slice(&(positions as u32).to_le_bytes());
    out.extend_from_slice(&(sorted.len() as u32).to_le_bytes());
    out.extend_from_slice(&(comment.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a(&[comment, &records]).to_le_bytes());
    out.extend_from_slice(comment);
    out.extend_from_slice(&records);
    out
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// Decodes a book file: its records (in file order) and its comment.
pub fn decode(bytes: &[u8]) -> Result<(Vec<Entry>, String), FormatError> {
    if bytes.len() < HEADER_SIZE {
        return Err(FormatError::TooShort(bytes.len()));
    }
    if &bytes[..8] != MAGIC {
        return Err(FormatError::BadMagic);
    }
    let version = u16_at(bytes, 8);
    if version != VERSION {
        return Err(FormatError::Version(version));
    }
    let record_size = u16_at(bytes, 10);
    if usize::from(record_size) != RECORD_SIZE {
        return Err(FormatError::RecordSize(record_size));
    }
    let positions = u32_at(bytes, 12) as usize;
    let count = u32_at(bytes, 16) as usize;
    let comment_len = u32_at(bytes, 20) as usize;
    if comment_len > MAX_COMMENT {
        return Err(FormatError::Comment);
    }
    let expected = HEADER_SIZE as u64 + comment_len as u64 + count as u64 * RECORD_SIZE as u64;
    if expected != bytes.len() as u64 {
        return Err(FormatError::Length {
            expected,
            actual: bytes.len(),
        });
    }
    let comment = &bytes[HEADER_SIZE..HEADER_SIZE + comment_len];
    let records = &bytes[HEADER_SIZE + comment_len..];
    if fnv1a(&[comment, records]) != u64_at(bytes, 24) {
        return Err(FormatError::Checksum);
    }
    let comment = std::str::from_utf8(comment).map_err(|_| FormatError::Comment)?;
    let mut entries = Vec::with_capacity(count);
    let mut distinct = 0;
    for (index, r) in records.chunks_exact(RECORD_SIZE).enumerate() {
        let bad = |why| FormatError::Record { index, why };
        let key = u64_at(r, 0);
        let raw = u16_at(r, 8);
        let weight = u16_at(r, 10);
        let mv = Move::from_raw(raw).ok_or(bad("square out of range"))?;
        if mv.is_null() || raw >> 14 != 0 || mv.from() == mv.to() {
            return Err(bad("not a move"));
        }
        if weight == 0 {
            return Err(bad("zero weight"));
        }
        let e = Entry { key, mv, weight };
        match entries.last() {
            Some(prev) if record_order(prev, &e) != std::cmp::Ordering::Less => {
                return Err(bad("out of order"));
            }
            Some(prev) if prev.key == key => {
                if entries
                    .iter()
                    .rev()
                    .take_while(|p: &&Entry| p.key == key)
                    .any(|p| p.mv == mv)
                {
                    return Err(bad("move repeated"));
                }
            }
            _ => distinct += 1,
        }
        entries.push(e);
    }
    if distinct != positions {
        return Err(FormatError::PositionCount);
    }
    Ok((entries, comment.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn sample() -> Vec<Entry> {
        vec![
            Entry {
                key: 9,
                mv: mv("h2e2"),
                weight: 10,
            },
            Entry {
                key: 3,
                mv: mv("b0c2"),
                weight: 5,
            },
            Entry {
                key: 9,
                mv: mv("b2e2"),
                weight: 30,
            },
            Entry {
                key: 9,
                mv: mv("h2e2"),
                weight: 1,
            },
            Entry {
                key: 4,
                mv: mv("a3a4"),
                weight: 0,
            },
        ]
    }

    #[test]
    fn books_round_trip_sorted_and_deduplicated() {
        let bytes = encode(&sample(), "built by a test ✓");
        assert_eq!(
            bytes.len(),
            HEADER_SIZE + "built by a test ✓".len() + 3 * RECORD_SIZE
        );
        let (entries, comment) = decode(&bytes).unwrap();
        assert_eq!(comment, "built by a test ✓");
        let got: Vec<(u64, String, u16)> = entries
            .iter()
            .map(|e| (e.key, e.mv.to_string(), e.weight))
            .collect();
        assert_eq!(
            got,
            vec![
                (3, "b0c2".to_string(), 5),
                (9, "b2e2".to_string(), 30),
                (9, "h2e2".to_string(), 10),
            ]
        );
        assert_eq!(encode(&entries, &comment), bytes, "re-encoding is stable");
    }

    #[test]
    fn damaged_books_are_refused() {
        let good = encode(&sample(), "c");
        assert!(decode(&good).is_ok());
        assert_eq!(decode(&good[..10]), Err(FormatError::TooShort(10)));
        let mut b = good.clone();
        b[0] = b'X';
        assert_eq!(decode(&b), Err(FormatError::BadMagic));
        let mut b = good.clone();
        b[8] = 2;
        assert_eq!(decode(&b), Err(FormatError::Version(2)));
        let mut b = good.clone();
        b.pop();
        assert!(matches!(decode(&b), Err(FormatError::Length { .. })));
        let mut b = good.clone();
        let last = b.len() - 1;
        b[last] ^= 1;
        assert_eq!(decode(&b), Err(FormatError::Checksum));
        assert!(decode(&[]).is_err());
        assert!(decode(&[0u8; 4096]).is_err());
    }

    #[test]
    fn records_are_checked_one_by_one() {
        // A record with a square beyond the board, with a valid checksum.
        let mut e = sample();
        e.truncate(1);
        let mut b = encode(&e, "");
        let at = HEADER_SIZE + 8;
        b[at..at + 2].copy_from_slice(&(95u16 | 3 << 7).to_le_bytes());
        let sum = fnv1a(&[&b[HEADER_SIZE..]]);
        b[24..32].copy_from_slice(&sum.to_le_bytes());
        assert!(matches!(decode(&b), Err(FormatError::Record { .. })));
    }
}
