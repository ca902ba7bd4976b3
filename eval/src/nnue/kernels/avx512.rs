//! AVX-512 (BW) kernels: 32 lanes of `i16` per register; a slice of up to
//! 512 neurons of the accumulator takes up to 16 `zmm` registers while rows
//! stream in (a 384-wide one whole, in 12).

use super::Kernels;
use crate::nnue::QA;
use std::arch::x86_64::*;

const LANES: usize = 32;
/// Registers that hold a slice of the accumulator while rows stream in.
const REGS: usize = 16;

#[inline]
#[target_feature(enable = "avx512bw")]
fn load(s: &[i16; LANES]) -> __m512i {
    // SAFETY: `s` is 32 `i16` (64 bytes) by its type; loadu has no alignment need.
    unsafe { _mm512_loadu_si512(s.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx512bw")]
fn store(d: &mut [i16; LANES], v: __m512i) {
    // SAFETY: `d` is 32 `i16` (64 bytes) by its type; storeu has no alignment need.
    unsafe { _mm512_storeu_si512(d.as_mut_ptr().cast(), v) }
}

/// [`update`] for a width `H` known when compiling: the accumulator in
/// slices of up to `REGS` registers that divide it evenly
/// ([`super::slice_regs`]), every bound known, every loop unrolled.
#[inline]
#[target_feature(enable = "avx512bw")]
fn update_fixed<const H: usize>(
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
        let mut regs = [_mm512_setzero_si512(); REGS];
        for i in 0..r {
            // Each slice is read whole before it is written: in place is safe.
            regs[i] = load(s.map_or(&d[c + i], |s| &s[c + i]));
        }
        for &a in adds {
            let (row, _) = w1[a + c * LANES..a + (c + r) * LANES].as_chunks::<LANES>();
            for i in 0..r {
                regs[i] = _mm512_add_epi16(regs[i], load(&row[i]));
            }
        }
        for &a in subs {
            let (row, _) = w1[a + c * LANES..a + (c + r) * LANES].as_chunks::<LANES>();
            for i in 0..r {
                regs[i] = _mm512_sub_epi16(regs[i], load(&row[i]));
            }
        }
        for i in 0..r {
            store(&mut d[c + i], regs[i]);
        }
    }
}

/// [`screlu_dot`] for a width `H` known when compiling.
#[inline]
#[target_feature(enable = "avx512bw")]
fn dot_fixed<const H: usize>(a: &[i16; H], w: &[i16; H]) -> i32 {
    let zero = _mm512_setzero_si512();
    let qa = _mm512_set1_epi16(QA as i16);
    let mut sum = _mm512_setzero_si512();
    let (a, _) = a.as_chunks::<LANES>();
    let (w, _) = w.as_chunks::<LANES>();
    for (a, w) in a.iter().zip(w) {
        let c = _mm512_min_epi16(_mm512_max_epi16(load(a), zero), qa);
        let cw = _mm512_mullo_epi16(c, load(w));
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(cw, c));
    }
    // The reduction adds lanes with wrapping 32-bit adds, like the other kernels.
    _mm512_reduce_add_epi32(sum)
}

#[inline]
#[target_feature(enable = "avx512bw")]
fn update(acc: &mut [i16], from: Option<&[i16]>, w1: &[i16], adds: &[usize], subs: &[usize]) {
    super::by_width_update!(acc, from, update_fixed, super::scalar::update, w1, adds, subs)
}

#[inline]
#[target_feature(enable = "avx512bw")]
fn screlu_dot(a: &[i16], w: &[i16]) -> i32 {
    super::by_width!(a, w, dot_fixed, super::scalar::screlu_dot)
}

/// [`update_fixed`] on AVX-512 BW builds.
#[cfg(target_feature = "avx512bw")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn update_fixed_static<const H: usize>(
    acc: &mut [i16; H],
    from: Option<&[i16; H]>,
    w1: &[i16],
    adds: &[usize],
    subs: &[usize],
) {
    // SAFETY: this build targets AVX-512 BW (`cfg(target_feature = "avx512bw")`).
    unsafe { update_fixed(acc, from, w1, adds, subs) }
}

/// [`dot_fixed`] on AVX-512 BW builds.
#[cfg(target_feature = "avx512bw")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn dot_fixed_static<const H: usize>(a: &[i16; H], w: &[i16; H]) -> i32 {
    // SAFETY: this build targets AVX-512 BW.
    unsafe { dot_fixed(a, w) }
}

/// The dispatched update on AVX-512 BW builds.
#[cfg(target_feature = "avx512bw")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn update_static(acc: &mut [i16], from: Option<&[i16]>, w1: &[i16], adds: &[usize], subs: &[usize]) {
    // SAFETY: this build targets AVX-512 BW (`cfg(target_feature = "avx512bw")`).
    unsafe { update(acc, from, w1, adds, subs) }
}

/// The dispatched output kernel on AVX-512 BW builds.
#[cfg(target_feature = "avx512bw")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn screlu_dot_static(a: &[i16], w: &[i16]) -> i32 {
    // SAFETY: this build targets AVX-512 BW.
    unsafe { screlu_dot(a, w) }
}

fn update_checked(acc: &mut [i16], from: Option<&[i16]>, w1: &[i16], adds: &[usize], subs: &[usize]) {
    // SAFETY: only handed out by `kernels` after the CPU check.
    unsafe { update(acc, from, w1, adds, subs) }
}

fn dot_checked(a: &[i16], w: &[i16]) -> i32 {
    // SAFETY: only handed out by `kernels` after the CPU check.
    unsafe { screlu_dot(a, w) }
}

/// The AVX-512 BW kernels, if this CPU has AVX-512 BW.
pub fn kernels() -> Option<Kernels> {
    is_x86_feature_detected!("avx512bw").then_some(Kernels {
        name: "avx512",
        update: update_checked,
        screlu_dot: dot_checked,
    })
}
