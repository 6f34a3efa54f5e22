//! Magic indexing of 128-bit occupancies.
//!
//! A mask selects the points whose occupancy matters (the legs of a horse, the eyes of an
//! elephant: at most four).
//! Our index folds the 128-bit masked occupancy with two 64-bit multiplies, one per half:
//! `index = ((occ.lo * magic.lo) ^ (occ.hi * magic.hi)) >> shift`. Two 64-bit products are
//! cheaper than one 128 × 128 multiply and give the finder the same freedom. With the `pext`
//! feature the index is `pext(lo, mask.lo) | pext(hi, mask.hi) << popcount(mask.lo)` instead;
//! the tables are filled through the same `index` function, so either backend works with the
//! same API.

use crate::types::Bitboard;

/// One square's magic: mask, multipliers, shift and the offset of its slice in a shared table
/// (the horse, horse-attacker and elephant tables).
#[derive(Clone, Copy, Debug, Default)]
pub struct Magic {
    /// Points whose occupancy is looked at.
    pub mask: Bitboard,
    /// Multiplier for the low 64 bits of the masked occupancy.
    pub lo: u64,
    /// Multiplier for the high bits.
    pub hi: u64,
    /// `64 - index bits`.
    pub shift: u32,
    /// Start of this square's slice in the table.
    pub offset: u32,
}

impl Magic {
    /// Number of table entries this square needs.
    pub const fn size(&self) -> usize {
        1 << (64 - self.shift)
    }

    /// The table index (within this square's slice) of occupancy `occ`.
    #[cfg(not(feature = "pext"))]
    #[inline(always)]
    pub fn index(&self, occ: Bitboard) -> usize {
        let x = occ & self.mask;
        ((x.lo().wrapping_mul(self.lo) ^ x.hi().wrapping_mul(self.hi)) >> self.shift) as usize
    }

    /// The table index (within this square's slice) of occupancy `occ`.
    #[cfg(feature = "pext")]
    #[inline(always)]
    pub fn index(&self, occ: Bitboard) -> usize {
        use core::arch::x86_64::_pext_u64;
        // SAFETY: the `pext` feature is documented to require a BMI2 target
        // (`-C target-feature=+bmi2`); `_pext_u64` has no memory effects.
        unsafe {
            let lo = _pext_u64(occ.lo(), self.mask.lo());
            let hi = _pext_u64(occ.hi(), self.mask.hi());
            (lo | hi << self.mask.lo().count_ones()) as usize
        }
    }
}

/// Whether `(lo, hi)` with `bits` index bits maps every subset of `mask` to a slot holding one
/// value per attack function. `attack` gives the values for a subset; `used`/`epoch` are scratch.
pub fn magic_works<const N: usize>(
    mask: Bitboard,
    lo: u64,
    hi: u64,
    bits: u32,
    subsets: &[(Bitboard, [Bitboard; N])],
    slots: &mut [(u32, [Bitboard; N])],
    epoch: u32,
) -> bool {
    let shift = 64 - bits;
    for (occ, values) in subsets {
        let x = *occ & mask;
        let i = ((x.lo().wrapping_mul(lo) ^ x.hi().wrapping_mul(hi)) >> shift) as usize;
        let slot = &mut slots[i];
        if slot.0 != epoch {
            *slot = (epoch, *values);
        } else if slot.1 != *values {
            return false;
        }
    }
    true
}
