//! The reference kernels: plain loops, wrapping arithmetic.

use crate::nnue::QA;

/// `acc = from` (or `acc` itself) plus rows `adds` minus rows `subs` (offsets into `w1`; rows as long as `acc`).
pub fn update(acc: &mut [i16], from: Option<&[i16]>, w1: &[i16], adds: &[usize], subs: &[usize]) {
    let h = acc.len();
    if let Some(from) = from {
        acc.copy_from_slice(&from[..h]);
    }
    for &a in adds {
        for (v, w) in acc.iter_mut().zip(&w1[a..a + h]) {
            *v = v.wrapping_add(*w);
        }
    }
    for &s in subs {
        for (v, w) in acc.iter_mut().zip(&w1[s..s + h]) {
            *v = v.wrapping_sub(*w);
        }
    }
}

/// `Σ c·(c·w as i16)` with `c = clamp(a, 0, QA)`, wrapping in 32 bits.
pub fn screlu_dot(a: &[i16], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in a.iter().zip(w) {
        let c = x.clamp(0, QA as i16);
        let cw = c.wrapping_mul(w);
        sum = sum.wrapping_add(cw as i32 * c as i32);
    }
    sum
}
