//! AVX-512 (BW) kernels: 32 lanes of `i16` per register; with 256 neurons the
//! accumulator takes 8 `zmm` registers while rows stream in.

use super::Kernels;
use crate::nnue::{HIDDEN, QA};
use std::arch::x86_64::*;

const LANES: usize = 32;
const CHUNKS: usize = HIDDEN / LANES;

#[inline]
#[target_feature(enable = "avx512bw")]
fn load(s: &[i16]) -> __m512i {
    let s = &s[..LANES];
    // SAFETY: `s` holds 32 `i16` (64 bytes), checked by the slice above; loadu has no alignment need.
    unsafe { _mm512_loadu_si512(s.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx512bw")]
fn update(src: &[i16; HIDDEN], dst: &mut [i16; HIDDEN], w1: &[i16], adds: &[usize], subs: &[usize]) {
    let mut regs = [_mm512_setzero_si512(); CHUNKS];
    for (i, r) in regs.iter_mut().enumerate() {
        *r = load(&src[i * LANES..]);
    }
    for &a in adds {
        let row = &w1[a..a + HIDDEN];
        for (i, r) in regs.iter_mut().enumerate() {
            *r = _mm512_add_epi16(*r, load(&row[i * LANES..]));
        }
    }
    for &s in subs {
        let row = &w1[s..s + HIDDEN];
        for (i, r) in regs.iter_mut().enumerate() {
            *r = _mm512_sub_epi16(*r, load(&row[i * LANES..]));
        }
    }
    for (i, r) in regs.iter().enumerate() {
        let out = &mut dst[i * LANES..(i + 1) * LANES];
        // SAFETY: `out` holds exactly 32 `i16` (64 bytes); storeu has no alignment need.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), *r) };
    }
}

#[inline]
#[target_feature(enable = "avx512bw")]
fn screlu_dot(a: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let zero = _mm512_setzero_si512();
    let qa = _mm512_set1_epi16(QA as i16);
    let mut sum = _mm512_setzero_si512();
    for i in 0..CHUNKS {
        let c = _mm512_min_epi16(_mm512_max_epi16(load(&a[i * LANES..]), zero), qa);
        let cw = _mm512_mullo_epi16(c, load(&w[i * LANES..]));
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(cw, c));
    }
    // The reduction adds lanes with wrapping 32-bit adds, like the other kernels.
    _mm512_reduce_add_epi32(sum)
}

/// The dispatched update on AVX-512 builds.
#[cfg(target_feature = "avx512bw")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn update_static(src: &[i16; HIDDEN], dst: &mut [i16; HIDDEN], w1: &[i16], adds: &[usize], subs: &[usize]) {
    // SAFETY: this build targets AVX-512 BW (`cfg(target_feature = "avx512bw")`).
    unsafe { update(src, dst, w1, adds, subs) }
}

/// The dispatched output kernel on AVX-512 builds.
#[cfg(target_feature = "avx512bw")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn screlu_dot_static(a: &[i16; HIDDEN], w: &[i16]) -> i32 {
    // SAFETY: this build targets AVX-512 BW.
    unsafe { screlu_dot(a, w) }
}

fn update_checked(src: &[i16; HIDDEN], dst: &mut [i16; HIDDEN], w1: &[i16], adds: &[usize], subs: &[usize]) {
    // SAFETY: only handed out by `kernels` after the CPU check.
    unsafe { update(src, dst, w1, adds, subs) }
}

fn dot_checked(a: &[i16; HIDDEN], w: &[i16]) -> i32 {
    // SAFETY: only handed out by `kernels` after the CPU check.
    unsafe { screlu_dot(a, w) }
}

/// The AVX-512 kernels, if this CPU has AVX-512 BW.
pub fn kernels() -> Option<Kernels> {
    is_x86_feature_detected!("avx512bw").then_some(Kernels { name: "avx512", update: update_checked, screlu_dot: dot_checked })
}
