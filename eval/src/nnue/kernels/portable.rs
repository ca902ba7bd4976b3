//! Portable kernels on `wide` vectors of 16 lanes (whatever the target compiles them to).

use crate::nnue::{HIDDEN, QA};
use wide::{i16x16, i32x8};

const LANES: usize = 16;
const CHUNKS: usize = HIDDEN / LANES;

#[inline(always)]
fn load(s: &[i16]) -> i16x16 {
    let a: [i16; LANES] = s[..LANES].try_into().unwrap_or([0; LANES]);
    i16x16::from(a)
}

/// `dst = src` plus rows `adds` minus rows `subs` (offsets into `w1`).
pub fn update(src: &[i16; HIDDEN], dst: &mut [i16; HIDDEN], w1: &[i16], adds: &[usize], subs: &[usize]) {
    let mut regs = [i16x16::ZERO; CHUNKS];
    for (i, r) in regs.iter_mut().enumerate() {
        *r = load(&src[i * LANES..]);
    }
    for &a in adds {
        let row = &w1[a..a + HIDDEN];
        for (i, r) in regs.iter_mut().enumerate() {
            *r += load(&row[i * LANES..]);
        }
    }
    for &s in subs {
        let row = &w1[s..s + HIDDEN];
        for (i, r) in regs.iter_mut().enumerate() {
            *r -= load(&row[i * LANES..]);
        }
    }
    for (i, r) in regs.iter().enumerate() {
        dst[i * LANES..(i + 1) * LANES].copy_from_slice(&r.to_array());
    }
}

/// `Σ c·(c·w as i16)` with `c = clamp(a, 0, QA)`, wrapping in 32 bits.
pub fn screlu_dot(a: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let (zero, qa) = (i16x16::ZERO, i16x16::splat(QA as i16));
    let mut sum = i32x8::ZERO;
    for i in 0..CHUNKS {
        let c = load(&a[i * LANES..]).max(zero).min(qa);
        sum += (c * load(&w[i * LANES..])).dot(c);
    }
    sum.to_array().iter().fold(0i32, |s, &x| s.wrapping_add(x))
}
