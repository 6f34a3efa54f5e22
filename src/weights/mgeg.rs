//! A midgame/endgame pair of centipawn values packed into one integer.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// `(mg, eg)` stored as `mg · 2¹⁶ + eg`, so that one addition, or one multiplication by a
/// count, updates both halves (the idea of Stockfish's `Score`). Exact while each half of
/// every sum stays within `i16`: the weights are checked to fit in [`MgEg::new`], and the
/// sums the evaluation forms are bounded in a test (`eval::tests`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MgEg(i32);

impl MgEg {
    /// Zero in both halves.
    pub const ZERO: MgEg = MgEg(0);

    /// Packs `mg` and `eg`; both must fit in `i16` (a panic in a constant context).
    pub const fn new(mg: i32, eg: i32) -> MgEg {
        assert!(mg >= i16::MIN as i32 && mg <= i16::MAX as i32);
        assert!(eg >= i16::MIN as i32 && eg <= i16::MAX as i32);
        MgEg(mg.wrapping_mul(1 << 16).wrapping_add(eg))
    }

    /// The midgame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        // The low half is signed: adding 2¹⁵ before the shift undoes its borrow. Wrapping
        // arithmetic throughout: the halves are exact modulo 2³² however the whole overflows.
        self.0.wrapping_add(1 << 15) >> 16
    }

    /// The endgame half.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        self.0 as i16 as i32
    }
}

impl Add for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn add(self, rhs: MgEg) -> MgEg {
        MgEg(self.0.wrapping_add(rhs.0))
    }
}

impl Sub for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn sub(self, rhs: MgEg) -> MgEg {
        MgEg(self.0.wrapping_sub(rhs.0))
    }
}

impl AddAssign for MgEg {
    #[inline(always)]
    fn add_assign(&mut self, rhs: MgEg) {
        self.0 = self.0.wrapping_add(rhs.0);
    }
}

impl SubAssign for MgEg {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: MgEg) {
        self.0 = self.0.wrapping_sub(rhs.0);
    }
}

impl Mul<i32> for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn mul(self, n: i32) -> MgEg {
        MgEg(self.0.wrapping_mul(n))
    }
}

impl Neg for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn neg(self) -> MgEg {
        MgEg(self.0.wrapping_neg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_survive_packing_and_arithmetic() {
        let values = [-32768, -20000, -301, -1, 0, 1, 77, 16384, 32767];
        for &m in &values {
            for &e in &values {
                let s = MgEg::new(m, e);
                assert_eq!((s.mg(), s.eg()), (m, e));
                let half = MgEg::new(m / 2, e / 2);
                let sum = half + MgEg::new(m - m / 2, e - e / 2);
                assert_eq!((sum.mg(), sum.eg()), (m, e));
                assert_eq!(((s - half).mg(), (s - half).eg()), (m - m / 2, e - e / 2));
                if m > i16::MIN as i32 && e > i16::MIN as i32 {
                    assert_eq!(((-s).mg(), (-s).eg()), (-m, -e));
                }
                let third = MgEg::new(m / 3, e / 3) * 3;
                assert_eq!((third.mg(), third.eg()), (m / 3 * 3, e / 3 * 3));
            }
        }
    }
}
