//! Attack tables, built once on first use.
//!
//! - Leapers: general, advisor, soldier (and soldier-attackers-to) by square.
//! - Lame leapers: horse, horse-attackers-to and elephant, indexed by the occupancy of their
//!   legs/eyes through small magic tables.
//! - Sliders: chariot and cannon share one magic index per square (same mask, same
//!   multipliers) into one table holding both attack sets in each slot.
//! - `between(a, b)`: points strictly between two points on a line; for a horse at `b` that
//!   attacks `a`, the horse's leg. So "block or capture the checker" is one mask for every check.
//!
//! The magic numbers are ours: `finder.rs` searches them and writes `magic_numbers.rs`.

pub mod finder;
mod magic;
mod magic_numbers;
pub mod reference;

use once_cell::sync::Lazy;

pub use magic::Magic;

use crate::types::{Bitboard, Color, Square};

/// Every attack table of the engine.
pub struct Tables {
    slider_magic: [Magic; 90],
    slider: Vec<SliderEntry>,
    horse_magic: [Magic; 90],
    horse: Vec<Bitboard>,
    horse_to_magic: [Magic; 90],
    horse_to: Vec<Bitboard>,
    elephant_magic: [Magic; 90],
    elephant: Vec<Bitboard>,
    king: [Bitboard; 90],
    advisor: [Bitboard; 90],
    pawn: [[Bitboard; 90]; 2],
    pawn_to: [[Bitboard; 90]; 2],
    between: Box<[[Bitboard; 90]; 90]>,
    line: Box<[[Bitboard; 90]; 90]>,
    cross: [Bitboard; 90],
    horse_reach: [Bitboard; 90],
    uncovering: [Bitboard; 90],
}

static TABLES: Lazy<Tables> = Lazy::new(Tables::build);

/// The attack tables (built on first call).
#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

/// The magic of one square from its generated `(lo, hi, bits)`, its table slice at `offset`.
fn magic_at((lo, hi, bits): (u64, u64, u8), mask: Bitboard, offset: usize) -> Magic {
    // PEXT indexes by the mask's own bit count, magic multiplication by the generated one.
    let shift = if cfg!(feature = "pext") {
        64 - mask.count()
    } else {
        64 - bits as u32
    };
    Magic {
        mask,
        lo,
        hi,
        shift,
        offset: offset as u32,
    }
}

/// Fills one magic family: the magics for every square and the table they index.
fn build_family(
    numbers: &[(u64, u64, u8); 90],
    mask: fn(Square) -> Bitboard,
    tables: &mut [&mut Vec<Bitboard>],
    values: &dyn Fn(Square, Bitboard, usize) -> Bitboard,
) -> [Magic; 90] {
    let mut magics = [Magic::default(); 90];
    let mut offset = 0usize;
    for sq in Square::all() {
        let m = magic_at(numbers[sq.index()], mask(sq), offset);
        for table in tables.iter_mut() {
            table.resize(offset + m.size(), Bitboard::EMPTY);
        }
        for occ in m.mask.subsets() {
            let i = offset + m.index(occ);
            for (t, table) in tables.iter_mut().enumerate() {
                table[i] = values(sq, occ, t);
            }
        }
        offset += m.size();
        magics[sq.index()] = m;
    }
    magics
}

/// The chariot and cannon attacks of one slider table slot, side by side so that
/// [`Tables::rook_and_cannon`] reads one cache line (the alignment keeps a slot inside one).
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct SliderEntry {
    rook: Bitboard,
    cannon: Bitboard,
}

/// The magics of the chariot and cannon and their table. A slider's attacks are a rank
/// part, which depends only on the occupancy of its rank, joined with a file part, which
/// depends only on its file; so the slow reference generator runs 2^r + 2^f times per square
/// instead of once per subset (2^(r+f)), which keeps start-up short.
fn build_sliders(numbers: &[(u64, u64, u8); 90], table: &mut Vec<SliderEntry>) -> [Magic; 90] {
    let mut magics = [Magic::default(); 90];
    let mut offset = 0usize;
    for sq in Square::all() {
        let mask = reference::slider_mask(sq);
        let m = magic_at(numbers[sq.index()], mask, offset);
        table.resize(offset + m.size(), SliderEntry::default());
        // Every occupancy of the line's part of the mask, with the attacks along that line.
        let line_parts = |line: Bitboard| -> Vec<(Bitboard, Bitboard, Bitboard)> {
            (mask & line)
                .subsets()
                .map(|occ| {
                    let [r, c] = reference::slider_entry(sq, occ);
                    (occ, r & line, c & line)
                })
                .collect()
        };
        let file_parts = line_parts(Bitboard::file_mask(sq.file().index()));
        for (rank_occ, rank_rook, rank_cannon) in line_parts(Bitboard::rank_mask(sq.rank().index()))
        {
            for &(file_occ, file_rook, file_cannon) in &file_parts {
                let i = offset + m.index(rank_occ | file_occ);
                table[i] = SliderEntry {
                    rook: rank_rook | file_rook,
                    cannon: rank_cannon | file_cannon,
                };
            }
        }
        offset += m.size();
        magics[sq.index()] = m;
    }
    magics
}

/// The entry of `table` for occupancy `occ` in the slice of magic `m`, read without a bounds
/// check (these reads are the hottest in the engine).
#[inline(always)]
fn entry<T: Copy>(table: &[T], m: &Magic, occ: Bitboard) -> T {
    let i = m.offset as usize + m.index(occ);
    debug_assert!(i < table.len());
    // SAFETY: `m.index(occ) < m.size()` for every occupancy (the index keeps `64 - shift`
    // bits; with `pext`, the mask's bit count, which is what `shift` encodes there), and the
    // builders give each magic the slice `offset .. offset + size()` of the table it indexes.
    // Magics are private to `Tables` and never change after the build.
    unsafe { *table.get_unchecked(i) }
}

impl Tables {
    fn build() -> Tables {
        use magic_numbers::*;
        let mut slider = Vec::new();
        let slider_magic = build_sliders(&SLIDER_MAGICS, &mut slider);
        let mut horse = Vec::new();
        let horse_magic = build_family(
            &HORSE_MAGICS,
            reference::horse_mask,
            &mut [&mut horse],
            &|sq, occ, _| reference::horse(sq, occ),
        );
        let mut horse_to = Vec::new();
        let horse_to_magic = build_family(
            &HORSE_ATTACKERS_MAGICS,
            reference::horse_attackers_mask,
            &mut [&mut horse_to],
            &|sq, occ, _| reference::horse_attackers(sq, occ),
        );
        let mut elephant = Vec::new();
        let elephant_magic = build_family(
            &ELEPHANT_MAGICS,
            reference::elephant_mask,
            &mut [&mut elephant],
            &|sq, occ, _| reference::elephant(sq, occ),
        );

        let mut king = [Bitboard::EMPTY; 90];
        let mut advisor = [Bitboard::EMPTY; 90];
        let mut pawn = [[Bitboard::EMPTY; 90]; 2];
        let mut pawn_to = [[Bitboard::EMPTY; 90]; 2];
        for sq in Square::all() {
            king[sq.index()] = reference::king(sq);
            advisor[sq.index()] = reference::advisor(sq);
            for color in Color::ALL {
                let attacks = reference::pawn(color, sq);
                pawn[color.index()][sq.index()] = attacks;
                for target in attacks {
                    pawn_to[color.index()][target.index()].set(sq);
                }
            }
        }

        // Boxed: 127 KiB each, too much for a thread's stack on the way into the static.
        let empty_pairs = || -> Box<[[Bitboard; 90]; 90]> {
            vec![[Bitboard::EMPTY; 90]; 90]
                .into_boxed_slice()
                .try_into()
                .expect("90 rows")
        };
        let mut between = empty_pairs();
        let mut line = empty_pairs();
        for a in Square::all() {
            for b in Square::all() {
                let (df, dr) = (
                    b.file().index() as i32 - a.file().index() as i32,
                    b.rank().index() as i32 - a.rank().index() as i32,
                );
                let (i, j) = (a.index(), b.index());
                if a != b && (df == 0 || dr == 0) {
                    let (sf, sr) = (df.signum(), dr.signum());
                    let mut cur = a.offset(sf, sr).unwrap();
                    while cur != b {
                        between[i][j].set(cur);
                        cur = cur.offset(sf, sr).unwrap();
                    }
                    let empty = Bitboard::EMPTY;
                    line[i][j] = (reference::rook(a, empty) & reference::rook(b, empty))
                        | Bitboard::from(a)
                        | Bitboard::from(b);
                } else if df.abs() + dr.abs() == 3 && df != 0 && dr != 0 {
                    // A horse at b attacking a: its leg is next to b along the long step.
                    let leg = if df.abs() == 2 {
                        b.offset(-df.signum(), 0)
                    } else {
                        b.offset(0, -dr.signum())
                    };
                    between[i][j].set(leg.unwrap());
                }
            }
        }

        let mut cross = [Bitboard::EMPTY; 90];
        let mut horse_reach = [Bitboard::EMPTY; 90];
        let mut uncovering = [Bitboard::EMPTY; 90];
        for sq in Square::all() {
            cross[sq.index()] = reference::rook(sq, Bitboard::EMPTY);
            horse_reach[sq.index()] = reference::horse_attackers(sq, Bitboard::EMPTY);
            uncovering[sq.index()] = cross[sq.index()];
            for (df, dr) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                if let Some(leg) = sq.offset(df, dr) {
                    uncovering[sq.index()].set(leg);
                }
            }
        }

        Tables {
            cross,
            horse_reach,
            uncovering,
            slider_magic,
            slider,
            horse_magic,
            horse,
            horse_to_magic,
            horse_to,
            elephant_magic,
            elephant,
            king,
            advisor,
            pawn,
            pawn_to,
            between,
            line,
        }
    }

    /// Chariot attacks from `sq`: every point up to and including the first piece on each ray.
    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.slider_magic[sq.index()];
        entry(&self.slider, m, occ).rook
    }

    /// Cannon capture targets from `sq`: the first piece beyond exactly one screen on each ray
    /// (may include an empty edge point; intersect with pieces).
    #[inline(always)]
    pub fn cannon(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.slider_magic[sq.index()];
        entry(&self.slider, m, occ).cannon
    }

    /// Chariot and cannon attacks from `sq` from a single index computation.
    #[inline(always)]
    pub fn rook_and_cannon(&self, sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
        let m = &self.slider_magic[sq.index()];
        let e = entry(&self.slider, m, occ);
        (e.rook, e.cannon)
    }

    /// Horse moves from `sq` whose leg is empty.
    #[inline(always)]
    pub fn horse(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.horse_magic[sq.index()];
        entry(&self.horse, m, occ)
    }

    /// Points from which a horse attacks `sq` (its leg empty).
    #[inline(always)]
    pub fn horse_attackers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.horse_to_magic[sq.index()];
        entry(&self.horse_to, m, occ)
    }

    /// Elephant moves from `sq` whose eye is empty (never across the river).
    #[inline(always)]
    pub fn elephant(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.elephant_magic[sq.index()];
        entry(&self.elephant, m, occ)
    }

    /// General steps from `sq` inside its palace.
    #[inline(always)]
    pub fn king(&self, sq: Square) -> Bitboard {
        self.king[sq.index()]
    }

    /// Advisor steps from `sq` inside its palace.
    #[inline(always)]
    pub fn advisor(&self, sq: Square) -> Bitboard {
        self.advisor[sq.index()]
    }

    /// Soldier moves of `color` from `sq`.
    #[inline(always)]
    pub fn pawn(&self, color: Color, sq: Square) -> Bitboard {
        self.pawn[color.index()][sq.index()]
    }

    /// Every point attacked by the soldiers `pawns` of `color`, by shifts of the whole set:
    /// one step forward, and sideways for those across the river.
    #[inline(always)]
    pub fn pawns_attacks(&self, color: Color, pawns: Bitboard) -> Bitboard {
        const NOT_FILE_A: u128 = Bitboard::FULL.0 & !Bitboard::file_mask(0).0;
        const NOT_FILE_I: u128 = Bitboard::FULL.0 & !Bitboard::file_mask(8).0;
        let p = pawns.0;
        let crossed = p & Bitboard::half(!color).0;
        let forward = match color {
            Color::Red => p << 9,
            Color::Black => p >> 9,
        };
        let sideways = (crossed & NOT_FILE_I) << 1 | (crossed & NOT_FILE_A) >> 1;
        Bitboard((forward | sideways) & Bitboard::FULL.0)
    }

    /// Points from which a soldier of `color` attacks `sq`.
    #[inline(always)]
    pub fn pawn_attackers(&self, color: Color, sq: Square) -> Bitboard {
        self.pawn_to[color.index()][sq.index()]
    }

    /// Points strictly between `a` and `b` on a rank or file; for a horse on `b` attacking
    /// `a`, its leg; otherwise empty.
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        self.between[a.index()][b.index()]
    }

    /// The whole rank or file through `a` and `b` (empty if they share neither).
    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> Bitboard {
        self.line[a.index()][b.index()]
    }

    /// Every point on the rank and the file of `sq`, `sq` excluded (a chariot's reach on an
    /// empty board).
    #[inline(always)]
    pub fn cross(&self, sq: Square) -> Bitboard {
        self.cross[sq.index()]
    }

    /// Points a piece may leave to uncover an attack on `sq`: its rank and file (a line
    /// opens, a cannon screen goes) and its four diagonal neighbours (a horse's leg).
    #[inline(always)]
    pub fn uncovering(&self, sq: Square) -> Bitboard {
        self.uncovering[sq.index()]
    }

    /// Points from which a horse could attack `sq` were no leg blocked.
    #[inline(always)]
    pub fn horse_reach(&self, sq: Square) -> Bitboard {
        self.horse_reach[sq.index()]
    }

    /// The magic of `sq` for chariot/cannon (for tests and tools).
    pub fn slider_magic(&self, sq: Square) -> &Magic {
        &self.slider_magic[sq.index()]
    }
}

#[cfg(test)]
mod tests;
