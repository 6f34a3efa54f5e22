//! Splitting a run of numbered work items (self-play games, match game pairs) over many
//! machines: shard `I` of `N` takes the `I`-th of `N` contiguous, nearly equal blocks, so the
//! shards are disjoint, cover the run, and their outputs concatenated in shard order are the
//! output of the whole run in item order.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Shard `index` of `count` (`I/N` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// This shard, `0 ≤ index < count`.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Default for Shard {
    /// The whole run: `0/1`.
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl Shard {
    /// The items of `total` this shard takes: `[I·total/N, (I+1)·total/N)`. Blocks differ in
    /// size by at most one; with more shards than items some blocks are empty.
    pub fn range(&self, total: usize) -> Range<usize> {
        let at = |i: usize| (i as u128 * total as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }

    /// Whether this is the whole run (`0/1`).
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `0 ≤ I < N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard '{s}' (expected I/N with 0 <= I < N)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_print() {
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
        assert_eq!(
            Shard {
                index: 3,
                count: 16
            }
            .to_string(),
            "3/16"
        );
        for bad in ["4/4", "1/0", "x", "1", "-1/2", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_are_contiguous_balanced_and_cover_the_run() {
        for total in [0, 1, 5, 10, 17, 100_000] {
            for count in [1, 2, 3, 7, 16, 64] {
                let mut next = 0;
                for index in 0..count {
                    let r = Shard { index, count }.range(total);
                    assert_eq!(r.start, next, "{index}/{count} of {total}");
                    assert!(r.len() == total / count || r.len() == total / count + 1);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!(Shard { index: 1, count: 3 }.range(10), 3..6);
    }
}
