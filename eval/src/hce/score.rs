//! Packed middlegame/endgame scores.
//!
//! A [`Score`] holds two 16-bit halves in one `i32` (endgame in the high
//! half, middlegame in the low half), so a whole tapered term costs one
//! integer add. Both halves must stay within ±32767, which every sum of the
//! evaluation does with a wide margin.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame/endgame pair packed into one `i32`.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
#[repr(transparent)]
pub struct Score(i32);

/// Makes a [`Score`] from its middlegame and endgame values.
#[allow(non_snake_case)]
#[inline(always)]
pub const fn S(mg: i32, eg: i32) -> Score {
    Score(((eg as u32) << 16).wrapping_add(mg as u32) as i32)
}

impl Score {
    /// The zero score.
    pub const ZERO: Score = Score(0);

    /// Middlegame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    /// The packed representation.
    #[inline(always)]
    pub const fn raw(self) -> i32 {
        self.0
    }

    /// From the packed representation.
    #[inline(always)]
    pub const fn from_raw(v: i32) -> Score {
        Score(v)
    }

    /// Endgame half.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        ((self.0.wrapping_add(0x8000)) >> 16) as i16 as i32
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, o: Score) -> Score {
        Score(self.0.wrapping_add(o.0))
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, o: Score) -> Score {
        Score(self.0.wrapping_sub(o.0))
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, o: Score) {
        self.0 = self.0.wrapping_add(o.0);
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, o: Score) {
        self.0 = self.0.wrapping_sub(o.0);
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(self.0.wrapping_neg())
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, n: i32) -> Score {
        Score(self.0.wrapping_mul(n))
    }
}

impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for mg in [-30000, -257, -1, 0, 1, 255, 30000] {
            for eg in [-30000, -256, -1, 0, 1, 256, 30000] {
                let s = S(mg, eg);
                assert_eq!((s.mg(), s.eg()), (mg, eg));
                assert_eq!((-s).eg(), -eg);
            }
        }
        for (mg, eg) in [(-100, 37), (5, -9), (-3, -3), (1000, -2000)] {
            let s = S(mg, eg) * 3 - S(mg, eg) + S(1, -1);
            assert_eq!((s.mg(), s.eg()), (2 * mg + 1, 2 * eg - 1));
        }
    }
}
