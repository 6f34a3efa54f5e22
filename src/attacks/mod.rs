//! Attack tables, built once on first use.
//!
//! - Leapers: general, advisor, soldier (and soldier-attackers-to) by square.
//! - Lame leapers: horse, horse-attackers-to and elephant, indexed by the occupancy of their
//!   legs/eyes through small magic tables.
//! - Sliders: a chariot's or cannon's attacks are a rank part, which depends only on the
//!   occupancy of its rank, joined with a file part, which depends only on its file. Each part
//!   is read from a small per-square table indexed by that line's inner occupancy (7 bits of
//!   the rank by a shift, 8 bits of the file gathered by one multiplication), both attack sets
//!   side by side in each slot: 1.1 MB in all, where one table indexed by the whole cross
//!   needed 35 MB.
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
    slider_rank: Box<[SliderEntry]>,
    slider_file: Box<[SliderEntry]>,
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
/// [`Tables::rook_and_cannon`] reads one cache line per part (the alignment keeps a slot
/// inside one).
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct SliderEntry {
    rook: Bitboard,
    cannon: Bitboard,
}

/// Slots per square of the rank table: the occupancy of files b–h (the edge files never
/// change an attack set).
const RANK_SLOTS: usize = 1 << 7;
/// Slots per square of the file table: the occupancy of ranks 1–8.
const FILE_SLOTS: usize = 1 << 8;
/// The points of file a on ranks 1–8, after shifting the board right by 9 (rank 1 to bit 0):
/// bits 0, 9, …, 63.
const FILE_GATHER_MASK: u64 = 0x8040_2010_0804_0201;
/// Multiplying the masked file by this moves its bit `9i` to bit `56 + i`: each partial product
/// `9i + 8k` lands on its own bit, so no carries, and only `k = 7 - i` reaches the top byte.
const FILE_GATHER_MUL: u64 = 0x0101_0101_0101_0101;

/// Index into the rank table slice of the square on `rank`: files b–h of that rank.
#[inline(always)]
fn rank_index(occ: Bitboard, rank: usize) -> usize {
    ((occ.0 >> (9 * rank + 1)) as usize) & (RANK_SLOTS - 1)
}

/// Index into the file table slice of the square on `file`: ranks 1–8 of that file, rank
/// `1 + i` in bit `i`.
#[inline(always)]
fn file_index(occ: Bitboard, file: usize) -> usize {
    let bits = ((occ.0 >> (file + 9)) as u64) & FILE_GATHER_MASK;
    (bits.wrapping_mul(FILE_GATHER_MUL) >> 56) as usize
}

/// Builds the rank and file tables of the chariot and cannon from the reference generator:
/// for every square and every inner occupancy of its rank (resp. file), the attacks along
/// that line.
fn build_sliders() -> (Box<[SliderEntry]>, Box<[SliderEntry]>) {
    let mut rank = vec![SliderEntry::default(); 90 * RANK_SLOTS];
    let mut file = vec![SliderEntry::default(); 90 * FILE_SLOTS];
    for sq in Square::all() {
        let (f, r) = (sq.file().index(), sq.rank().index());
        let rank_mask = Bitboard::rank_mask(r);
        for i in 0..RANK_SLOTS {
            let occ: Bitboard = (0..7)
                .filter(|b| i >> b & 1 != 0)
                .map(|b| Square::from_index(9 * r + 1 + b))
                .collect();
            debug_assert_eq!(rank_index(occ, r), i);
            let [rook, cannon] = reference::slider_entry(sq, occ);
            rank[sq.index() * RANK_SLOTS + i] = SliderEntry {
                rook: rook & rank_mask,
                cannon: cannon & rank_mask,
            };
        }
        let file_mask = Bitboard::file_mask(f);
        for i in 0..FILE_SLOTS {
            let occ: Bitboard = (0..8)
                .filter(|b| i >> b & 1 != 0)
                .map(|b| Square::from_index(9 * (b + 1) + f))
                .collect();
            debug_assert_eq!(file_index(occ, f), i);
            let [rook, cannon] = reference::slider_entry(sq, occ);
            file[sq.index() * FILE_SLOTS + i] = SliderEntry {
                rook: rook & file_mask,
                cannon: cannon & file_mask,
            };
        }
    }
    (rank.into_boxed_slice(), file.into_boxed_slice())
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
        let (slider_rank, slider_file) = build_sliders();
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
            slider_rank,
            slider_file,
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

    /// The rank and file slots of `sq` for `occ`.
    #[inline(always)]
    fn slider_parts(&self, sq: Square, occ: Bitboard) -> (&SliderEntry, &SliderEntry) {
        let (f, r) = (sq.file().index(), sq.rank().index());
        let rank_at = sq.index() * RANK_SLOTS + rank_index(occ, r);
        let file_at = sq.index() * FILE_SLOTS + file_index(occ, f);
        debug_assert!(rank_at < self.slider_rank.len() && file_at < self.slider_file.len());
        // SAFETY: `sq.index() < 90` by construction, `rank_index` keeps 7 bits and
        // `file_index` 8 (the top byte of a u64), and the tables hold 90 slices of
        // `RANK_SLOTS` and `FILE_SLOTS` slots.
        unsafe {
            (
                self.slider_rank.get_unchecked(rank_at),
                self.slider_file.get_unchecked(file_at),
            )
        }
    }

    /// Chariot attacks from `sq`: every point up to and including the first piece on each ray.
    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let (rank, file) = self.slider_parts(sq, occ);
        rank.rook | file.rook
    }

    /// Cannon capture targets from `sq`: the first piece beyond exactly one screen on each ray
    /// (may include an empty edge point; intersect with pieces).
    #[inline(always)]
    pub fn cannon(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let (rank, file) = self.slider_parts(sq, occ);
        rank.cannon | file.cannon
    }

    /// Chariot and cannon attacks from `sq` from a single index computation.
    #[inline(always)]
    pub fn rook_and_cannon(&self, sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
        let (rank, file) = self.slider_parts(sq, occ);
        (rank.rook | file.rook, rank.cannon | file.cannon)
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
}

#[cfg(test)]
mod tests;
