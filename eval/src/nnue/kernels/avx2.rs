//! AVX2 kernels: 16 lanes of `i16` per register; with 256 neurons the whole
//! accumulator lives in 16 of the 16 `ymm` registers while rows stream in.

use super::Kernels;
use crate::nnue::{HIDDEN, QA};
use std::arch::x86_64::*;

const LANES: usize = 16;
const CHUNKS: usize = HIDDEN / LANES;

#[inline]
#[target_feature(enable = "avx2")]
fn load(s: &[i16]) -> __m256i {
    let s = &s[..LANES];
    // SAFETY: `s` holds 16 `i16` (32 bytes), checked by the slice above; loadu has no alignment need.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn update(src: &[i16; HIDDEN], dst: &mut [i16; HIDDEN], w1: &[i16], adds: &[usize], subs: &[usize]) {
    let mut regs = [_mm256_setzero_si256(); CHUNKS];
    for (i, r) in regs.iter_mut().enumerate() {
        *r = load(&src[i * LANES..]);
    }
    for &a in adds {
        let row = &w1[a..a + HIDDEN];
        for (i, r) in regs.iter_mut().enumerate() {
            *r = _mm256_add_epi16(*r, load(&row[i * LANES..]));
        }
    }
    for &s in subs {
        let row = &w1[s..s + HIDDEN];
        for (i, r) in regs.iter_mut().enumerate() {
            *r = _mm256_sub_epi16(*r, load(&row[i * LANES..]));
        }
    }
    for (i, r) in regs.iter().enumerate() {
        let out = &mut dst[i * LANES..(i + 1) * LANES];
        // SAFETY: `out` holds exactly 16 `i16` (32 bytes); storeu has no alignment need.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), *r) };
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn screlu_dot(a: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for i in 0..CHUNKS {
        let c = _mm256_min_epi16(_mm256_max_epi16(load(&a[i * LANES..]), zero), qa);
        let cw = _mm256_mullo_epi16(c, load(&w[i * LANES..]));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
    }
    let lanes: [i32; 8] = bytemuck::cast(sum);
    lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
}

/// The dispatched update on AVX2 builds.
#[cfg(target_feature = "avx2")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn update_static(src: &[i16; HIDDEN], dst: &mut [i16; HIDDEN], w1: &[i16], adds: &[usize], subs: &[usize]) {
    // SAFETY: this build targets AVX2 (`cfg(target_feature = "avx2")`).
    unsafe { update(src, dst, w1, adds, subs) }
}

/// The dispatched output kernel on AVX2 builds.
#[cfg(target_feature = "avx2")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn screlu_dot_static(a: &[i16; HIDDEN], w: &[i16]) -> i32 {
    // SAFETY: this build targets AVX2.
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

/// The AVX2 kernels, if this CPU has AVX2.
pub fn kernels() -> Option<Kernels> {
    is_x86_feature_detected!("avx2").then_some(Kernels { name: "avx2", update: update_checked, screlu_dot: dot_checked })
}
