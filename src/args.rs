//! Value parsers shared by the command-line tools (`clap` calls them on the raw text): whole
//! numbers within a range, thread counts, hash sizes, search depths, minutes. Each one names
//! the range it expects, so a refused value explains itself.

use std::ops::RangeInclusive;
use std::time::Duration;

use crate::protocol::options::{MAX_HASH_MB, MAX_THREADS};

/// The deepest fixed-depth search the tools accept (`bench --depth`, `selfplay --depth`,
/// `match --depth`); see [`crate::bench::MAX_DEPTH`] for why.
pub const MAX_SEARCH_DEPTH: u32 = crate::bench::MAX_DEPTH;

/// A whole number within `range`.
pub fn count_in(s: &str, range: RangeInclusive<usize>) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ if *range.end() == usize::MAX => Err(format!(
            "'{s}' is not a whole number of at least {}",
            range.start()
        )),
        _ => Err(format!(
            "'{s}' is not a whole number in {}..={}",
            range.start(),
            range.end()
        )),
    }
}

/// A count of at least 1.
pub fn positive_count(s: &str) -> Result<usize, String> {
    count_in(s, 1..=usize::MAX)
}

/// A thread count, `1..=256` (the engine's `Threads` range).
pub fn threads(s: &str) -> Result<usize, String> {
    count_in(s, 1..=MAX_THREADS as usize)
}

/// A hash size in MiB, `1..=65536` (the engine's `Hash` range).
pub fn hash_mb(s: &str) -> Result<usize, String> {
    count_in(s, 1..=MAX_HASH_MB as usize)
}

/// A fixed search depth, `1..=MAX_SEARCH_DEPTH`.
pub fn search_depth(s: &str) -> Result<u32, String> {
    count_in(s, 1..=MAX_SEARCH_DEPTH as usize).map(|d| d as u32)
}

/// A wall time in whole minutes, `0..=1000000` (`match --stop-after`).
pub fn minutes(s: &str) -> Result<Duration, String> {
    count_in(s, 0..=1_000_000).map(|m| Duration::from_secs(60 * m as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_outside_their_range_are_refused_with_the_range() {
        assert_eq!(count_in("3", 1..=5), Ok(3));
        assert_eq!(
            count_in("0", 1..=5).unwrap_err(),
            "'0' is not a whole number in 1..=5"
        );
        assert!(count_in("-1", 0..=5).is_err());
        assert!(count_in("2.5", 0..=5).is_err());
        assert_eq!(
            positive_count("0").unwrap_err(),
            "'0' is not a whole number of at least 1"
        );
        assert_eq!(threads("256"), Ok(256));
        assert!(threads("257").is_err());
        assert!(hash_mb("0").is_err());
        assert_eq!(search_depth("64"), Ok(64));
        assert!(search_depth("65").is_err());
        assert_eq!(minutes("0"), Ok(Duration::ZERO));
        assert_eq!(minutes("90"), Ok(Duration::from_secs(5400)));
        assert!(minutes("1.5").is_err());
        assert!(minutes("-1").is_err());
    }
}
