//! AVX2 kernel (forward only; the reverse gains nothing over `pdep`).
//!
//! Each 16-byte half of the CCR is zero-extended to 16 words (`vpmovzxbw`)
//! and split into one code per byte as in the AVX-512 kernel. `vpmovmskb`
//! collects bit 7 of every byte, so shifting the words left by `7 - k` and
//! taking the mask gives plane `k` for 32 squares (a word shift by at most 7
//! never carries the low byte's bit `k` into the high byte's bit 7).

use super::{planes_to_bitboards, ForwardKernel};
use crate::bitboards::Bitboards;
use crate::ccr::Ccr;
use std::arch::x86_64::*;

#[inline]
#[target_feature(enable = "avx2")]
fn split(half: __m128i) -> __m256i {
    let w = _mm256_cvtepu8_epi16(half);
    _mm256_and_si256(_mm256_or_si256(w, _mm256_slli_epi16::<4>(w)), _mm256_set1_epi16(0x0F0F))
}

#[inline]
#[target_feature(enable = "avx2")]
fn mask(v: __m256i) -> u64 {
    _mm256_movemask_epi8(v) as u32 as u64
}

#[inline]
#[target_feature(enable = "avx2")]
fn to_bitboards(ccr: &Ccr) -> Bitboards {
    let halves: [__m128i; 2] = bytemuck::cast(ccr.0);
    let a = split(halves[0]);
    let b = split(halves[1]);
    let plane = |a: __m256i, b: __m256i| mask(a) | mask(b) << 32;
    planes_to_bitboards([
        plane(_mm256_slli_epi16::<7>(a), _mm256_slli_epi16::<7>(b)),
        plane(_mm256_slli_epi16::<6>(a), _mm256_slli_epi16::<6>(b)),
        plane(_mm256_slli_epi16::<5>(a), _mm256_slli_epi16::<5>(b)),
        plane(_mm256_slli_epi16::<4>(a), _mm256_slli_epi16::<4>(b)),
    ])
}

/// The dispatched kernel on AVX2 builds without AVX-512.
#[cfg(target_feature = "avx2")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn to_bitboards_static(ccr: &Ccr) -> Bitboards {
    // SAFETY: this build targets AVX2 (`cfg(target_feature = "avx2")`).
    unsafe { to_bitboards(ccr) }
}

fn checked(ccr: &Ccr) -> Bitboards {
    // SAFETY: only handed out by `forward_kernel` after the CPU check.
    unsafe { to_bitboards(ccr) }
}

/// The AVX2 forward kernel, if this CPU has AVX2.
pub fn forward_kernel() -> Option<ForwardKernel> {
    is_x86_feature_detected!("avx2").then_some(checked as ForwardKernel)
}
