//! Portable kernels on `wide` vectors of 16 lanes (whatever the target compiles them to).

use crate::nnue::QA;
use wide::{i16x16, i32x8};

const LANES: usize = 16;
/// Vectors that hold a slice of the accumulator while rows stream in.
const REGS: usize = 16;

#[inline(always)]
fn load(s: &[i16; LANES]) -> i16x16 {
    i16x16::from(*s)
}

/// [`update`] for a width `H` known when compiling (see the AVX2 kernel).
#[inline(always)]
pub(crate) fn update_fixed<const H: usize>(
    acc: &mut [i16; H],
    from: Option<&[i16; H]>,
    w1: &[i16],
    adds: &[usize],
    subs: &[usize],
) {
    let r = super::slice_regs(H, LANES, REGS);
    let (d, _) = acc.as_chunks_mut::<LANES>();
    let s = from.map(|f| f.as_chunks::<LANES>().0);
    for c in (0..H / LANES).step_by(r) {
        let mut regs = [i16x16::ZERO; REGS];
        for i in 0..r {
            // Each slice is read whole before it is written: in place is safe.
            regs[i] = load(s.map_or(&d[c + i], |s| &s[c + i]));
        }
        for &a in adds {
            let (row, _) = w1[a + c * LANES..a + (c + r) * LANES].as_chunks::<LANES>();
            for i in 0..r {
                regs[i] += load(&row[i]);
            }
        }
        for &a in subs {
            let (row, _) = w1[a + c * LANES..a + (c + r) * LANES].as_chunks::<LANES>();
            for i in 0..r {
                regs[i] -= load(&row[i]);
            }
        }
        for i in 0..r {
            d[c + i] = regs[i].to_array();
        }
    }
}

/// [`screlu_dot`] for a width `H` known when compiling.
#[inline(always)]
pub(crate) fn dot_fixed<const H: usize>(a: &[i16; H], w: &[i16; H]) -> i32 {
    let (zero, qa) = (i16x16::ZERO, i16x16::splat(QA as i16));
    let mut sum = i32x8::ZERO;
    let (a, _) = a.as_chunks::<LANES>();
    let (w, _) = w.as_chunks::<LANES>();
    for (a, w) in a.iter().zip(w) {
        let c = load(a).max(zero).min(qa);
        sum += (c * load(w)).dot(c);
    }
    sum.to_array().iter().fold(0i32, |s, &x| s.wrapping_add(x))
}

/// `dst = src` plus rows `adds` minus rows `subs` (offsets into `w1`; rows as long as `src`).
pub fn update(acc: &mut [i16], from: Option<&[i16]>, w1: &[i16], adds: &[usize], subs: &[usize]) {
    super::by_width_update!(acc, from, update_fixed, super::scalar::update, w1, adds, subs)
}

/// `Σ c·(c·w as i16)` with `c = clamp(a, 0, QA)`, wrapping in 32 bits.
pub fn screlu_dot(a: &[i16], w: &[i16]) -> i32 {
    super::by_width!(a, w, dot_fixed, super::scalar::screlu_dot)
}

// The names the other instruction sets give their build-wide kernels
// (used where no AVX2 is compiled in).
#[allow(unused_imports)]
pub(crate) use {
    dot_fixed as dot_fixed_static, screlu_dot as screlu_dot_static, update as update_static,
    update_fixed as update_fixed_static,
};
