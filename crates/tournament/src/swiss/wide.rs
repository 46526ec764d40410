//! Wide signed integers for the Dutch system's edge weights.
//!
//! Each pairing criterion takes a field of bits in an edge's weight, the most important at the
//! top, so that a maximum-weight matching satisfies them in order; with a dozen criteria, some
//! as wide as the score differences they weigh, a bracket of a few hundred players needs a few
//! hundred bits — more than `i128`. Two widths are used: 256 bits, and 512 for the largest brackets. The matching needs only addition, subtraction, comparison,
//! doubling and halving, which is all this type does.

use std::cmp::Ordering;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// A two's-complement integer of `LIMBS` × 64 bits, least significant limb first. A bracket
/// uses the narrowest that holds its criteria: 256 bits for most, 512 for the largest.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const LIMBS: usize>([u64; LIMBS]);

impl<const LIMBS: usize> Wide<LIMBS> {
    /// Zero.
    pub const ZERO: Wide<LIMBS> = Wide([0; LIMBS]);

    /// The bits a weight may use, leaving room for the matching's sums and doubled duals.
    pub const USABLE_BITS: u32 = 64 * LIMBS as u32 - 12;

    /// A small value.
    #[must_use]
    pub fn from_i64(value: i64) -> Wide<LIMBS> {
        let fill = if value < 0 { u64::MAX } else { 0 };
        let mut limbs = [fill; LIMBS];
        limbs[0] = value as u64;
        Wide(limbs)
    }

    fn negative(self) -> bool {
        self.0[LIMBS - 1] >> 63 == 1
    }

    /// `self` shifted left by `bits` (< 512).
    #[must_use]
    pub fn shl(self, bits: u32) -> Wide<LIMBS> {
        let (whole, part) = ((bits / 64) as usize, bits % 64);
        let mut out = [0u64; LIMBS];
        for i in (whole..LIMBS).rev() {
            let low = self.0[i - whole];
            out[i] = low << part;
            if part > 0 && i > whole {
                out[i] |= self.0[i - whole - 1] >> (64 - part);
            }
        }
        Wide(out)
    }

    fn negate(self) -> Wide<LIMBS> {
        let mut inverted = self.0;
        for limb in &mut inverted {
            *limb = !*limb;
        }
        Wide(inverted) + Wide::<LIMBS>::from_i64(1)
    }
}

impl<const LIMBS: usize> Ord for Wide<LIMBS> {
    fn cmp(&self, other: &Wide<LIMBS>) -> Ordering {
        match (self.negative(), other.negative()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            // Same sign: two's complement orders like the unsigned limbs.
            _ => self.0.iter().rev().cmp(other.0.iter().rev()),
        }
    }
}

impl<const LIMBS: usize> PartialOrd for Wide<LIMBS> {
    fn partial_cmp(&self, other: &Wide<LIMBS>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const LIMBS: usize> Add for Wide<LIMBS> {
    type Output = Wide<LIMBS>;
    fn add(self, other: Wide<LIMBS>) -> Wide<LIMBS> {
        let mut out = [0u64; LIMBS];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *limb = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }
}

impl<const LIMBS: usize> Sub for Wide<LIMBS> {
    type Output = Wide<LIMBS>;
    fn sub(self, other: Wide<LIMBS>) -> Wide<LIMBS> {
        let mut out = [0u64; LIMBS];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *limb = diff;
            borrow = b1 || b2;
        }
        Wide(out)
    }
}

impl<const LIMBS: usize> AddAssign for Wide<LIMBS> {
    fn add_assign(&mut self, other: Wide<LIMBS>) {
        *self = *self + other;
    }
}

impl<const LIMBS: usize> SubAssign for Wide<LIMBS> {
    fn sub_assign(&mut self, other: Wide<LIMBS>) {
        *self = *self - other;
    }
}

impl<const LIMBS: usize> std::fmt::Debug for Wide<LIMBS> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (sign, magnitude) = if self.negative() { ("-", self.negate()) } else { ("", *self) };
        write!(f, "{sign}0x")?;
        let mut started = false;
        for limb in magnitude.0.iter().rev() {
            if started {
                write!(f, "{limb:016x}")?;
            } else if *limb != 0 {
                write!(f, "{limb:x}")?;
                started = true;
            }
        }
        if !started {
            write!(f, "0")?;
        }
        Ok(())
    }
}

impl<const LIMBS: usize> integer_blossom::Weight for Wide<LIMBS> {
    const ZERO: Wide<LIMBS> = Wide([0; LIMBS]);
    const ONE: Wide<LIMBS> = {
        let mut limbs = [0; LIMBS];
        limbs[0] = 1;
        Wide(limbs)
    };

    fn inf() -> Wide<LIMBS> {
        // A quarter of the largest value, as the crate does for its own integers.
        let mut limbs = [u64::MAX; LIMBS];
        limbs[LIMBS - 1] = u64::MAX >> 3;
        Wide(limbs)
    }

    fn double(self) -> Wide<LIMBS> {
        self + self
    }

    fn half(self) -> Wide<LIMBS> {
        // An arithmetic shift (the sign kept) floors; `/ 2` on the built-in integers rounds
        // toward zero, which differs only for odd negative values: one more for those.
        let negative = self.negative();
        let odd = self.0[0] & 1 == 1;
        let mut out = [0u64; LIMBS];
        for (i, limb) in out.iter_mut().enumerate() {
            *limb = self.0[i] >> 1;
            match self.0.get(i + 1) {
                Some(next) => *limb |= next << 63,
                None if negative => *limb |= 1 << 63,
                None => {}
            }
        }
        let floored = Wide(out);
        if negative && odd { floored + Wide::<LIMBS>::from_i64(1) } else { floored }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use integer_blossom::Weight;

    type W = Wide<8>;

    #[test]
    fn arithmetic_agrees_with_i128_where_both_fit() {
        let values = [0i64, 1, -1, 7, -7, i64::MAX, i64::MIN + 1, 1 << 40, -(1 << 40)];
        for &a in &values {
            for &b in &values {
                let (wa, wb) = (W::from_i64(a), W::from_i64(b));
                assert_eq!(wa.cmp(&wb), a.cmp(&b), "{a} <=> {b}");
                let sum = i128::from(a) + i128::from(b);
                let diff = i128::from(a) - i128::from(b);
                assert_eq!(format!("{:?}", wa + wb), hex(sum));
                assert_eq!(format!("{:?}", wa - wb), hex(diff));
            }
            assert_eq!(format!("{:?}", W::from_i64(a).half()), hex(i128::from(a) / 2));
            assert_eq!(format!("{:?}", W::from_i64(a).double()), hex(i128::from(a) * 2));
        }
    }

    fn hex(v: i128) -> String {
        if v < 0 { format!("-0x{:x}", v.unsigned_abs()) } else { format!("0x{v:x}") }
    }

    #[test]
    fn the_most_negative_value_halves_and_doubles_back() {
        let min = W::ZERO - W::from_i64(1).shl(511);
        assert_eq!(min.half().double(), min);
        assert_eq!(W::from_i64(-3).half(), W::from_i64(-1));
        assert_eq!(W::from_i64(-4).half(), W::from_i64(-2));
    }

    #[test]
    fn shifts_carry_across_limbs() {
        let one = W::from_i64(1);
        assert_eq!(format!("{:?}", one.shl(64)), "0x10000000000000000");
        assert!(one.shl(400) > one.shl(399));
        assert!(one.shl(499) < W::inf());
        assert_eq!(one.shl(130) - one.shl(130), W::ZERO);
        assert_eq!(W::from_i64(3).shl(63) + W::from_i64(3).shl(63), W::from_i64(3).shl(64));
    }

    #[test]
    fn the_matching_runs_on_wide_weights() {
        // Weights far above i128's range: 0-1 and 2-3 (2^300 + 10) beat 0-2 alone (2^300 + 5).
        let n = 4;
        let big = W::from_i64(1).shl(300);
        let mut w = vec![W::ZERO; n * n];
        w[1] = big;
        w[2 * n + 3] = W::from_i64(10);
        w[2] = big + W::from_i64(5);
        let mates = integer_blossom::max_weight_matching(&w, n);
        assert_eq!(mates, vec![Some(1), Some(0), Some(3), Some(2)]);
        // One more than the two pairs, and 0-2 alone wins.
        w[2] = big + W::from_i64(11);
        assert_eq!(integer_blossom::max_weight_matching(&w, n)[0], Some(2));
    }
}
