//! AVX-512 (BW) kernels.
//!
//! Forward: zero-extend the 32 CCR bytes to 32 words (`vpmovzxbw`); word `i`
//! is `0x00HL` for squares `2i` (L) and `2i+1` (H). `(w | w << 4) & 0x0F0F`
//! turns it into the bytes `L, H`: 64 bytes, one code per square, in square
//! order. Then either four `vptestmb` give the bit planes straight into mask
//! registers (the "planes" kernel), or sixteen `vpcmpeqb` give the sixteen
//! sets directly (the "cmpeq" kernel).
//!
//! Reverse: each plane mask becomes bytes holding its bit (`vmovdqu8` under
//! zero-masking), the four are ORed, `vpmaddubsw` with `1, 16` packs byte
//! pairs into `L + 16·H`, and `vpmovwb` narrows the words back to 32 bytes.

use super::{bitboards_to_planes, planes_to_bitboards, ForwardKernel, ReverseKernel};
use crate::bitboards::Bitboards;
use crate::ccr::Ccr;
use std::arch::x86_64::*;

/// The 64 codes in square order, one per byte.
#[inline]
#[target_feature(enable = "avx512bw")]
fn unpack(ccr: &Ccr) -> __m512i {
    let packed: __m256i = bytemuck::cast(ccr.0);
    let words = _mm512_cvtepu8_epi16(packed);
    _mm512_and_si512(_mm512_or_si512(words, _mm512_slli_epi16::<4>(words)), _mm512_set1_epi16(0x0F0F))
}

/// Forward by bit planes: four byte tests, then the AND network.
#[inline]
#[target_feature(enable = "avx512bw")]
fn to_bitboards_planes(ccr: &Ccr) -> Bitboards {
    let v = unpack(ccr);
    planes_to_bitboards([
        _mm512_test_epi8_mask(v, _mm512_set1_epi8(1)),
        _mm512_test_epi8_mask(v, _mm512_set1_epi8(2)),
        _mm512_test_epi8_mask(v, _mm512_set1_epi8(4)),
        _mm512_test_epi8_mask(v, _mm512_set1_epi8(8)),
    ])
}

/// Forward by comparison: one `vpcmpeqb` into a mask register per code.
#[inline]
#[target_feature(enable = "avx512bw")]
fn to_bitboards_cmpeq(ccr: &Ccr) -> Bitboards {
    let v = unpack(ccr);
    let mut by_code = [0u64; 16];
    for (c, set) in by_code.iter_mut().enumerate() {
        *set = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c as i8));
    }
    Bitboards { by_code }
}

/// Reverse: plane masks → bytes → nibble pairs → 32 bytes.
#[inline]
#[target_feature(enable = "avx512bw")]
fn to_ccr(bb: &Bitboards) -> Ccr {
    let p = bitboards_to_planes(bb);
    let bytes = _mm512_or_si512(
        _mm512_or_si512(
            _mm512_maskz_mov_epi8(p[0], _mm512_set1_epi8(1)),
            _mm512_maskz_mov_epi8(p[1], _mm512_set1_epi8(2)),
        ),
        _mm512_or_si512(
            _mm512_maskz_mov_epi8(p[2], _mm512_set1_epi8(4)),
            _mm512_maskz_mov_epi8(p[3], _mm512_set1_epi8(8)),
        ),
    );
    // Unsigned bytes times signed (1, 16): each word is L + 16·H <= 255.
    let pairs = _mm512_maddubs_epi16(bytes, _mm512_set1_epi16(0x1001));
    Ccr(bytemuck::cast(_mm512_cvtepi16_epi8(pairs)))
}

/// The dispatched forward kernel (cmpeq: measured faster than planes on this Zen 5).
#[cfg(target_feature = "avx512bw")]
#[inline(always)]
pub(crate) fn to_bitboards_static(ccr: &Ccr) -> Bitboards {
    // SAFETY: this build targets AVX-512 BW (`cfg(target_feature = "avx512bw")`),
    // so every CPU it runs on has the instructions.
    unsafe { to_bitboards_cmpeq(ccr) }
}

/// The dispatched reverse kernel.
#[cfg(target_feature = "avx512bw")]
#[inline(always)]
pub(crate) fn to_ccr_static(bb: &Bitboards) -> Ccr {
    // SAFETY: as for `to_bitboards_static`, the build targets AVX-512 BW.
    unsafe { to_ccr(bb) }
}

fn available() -> bool {
    is_x86_feature_detected!("avx512bw")
}

fn planes_checked(ccr: &Ccr) -> Bitboards {
    // SAFETY: only handed out by `forward_kernel_planes` after the CPU check.
    unsafe { to_bitboards_planes(ccr) }
}

fn cmpeq_checked(ccr: &Ccr) -> Bitboards {
    // SAFETY: only handed out by `forward_kernel_cmpeq` after the CPU check.
    unsafe { to_bitboards_cmpeq(ccr) }
}

fn reverse_checked(bb: &Bitboards) -> Ccr {
    // SAFETY: only handed out by `reverse_kernel` after the CPU check.
    unsafe { to_ccr(bb) }
}

/// The bit-plane forward kernel, if this CPU has AVX-512 BW.
pub fn forward_kernel_planes() -> Option<ForwardKernel> {
    available().then_some(planes_checked as ForwardKernel)
}

/// The compare-per-code forward kernel, if this CPU has AVX-512 BW.
pub fn forward_kernel_cmpeq() -> Option<ForwardKernel> {
    available().then_some(cmpeq_checked as ForwardKernel)
}

/// The reverse kernel, if this CPU has AVX-512 BW.
pub fn reverse_kernel() -> Option<ReverseKernel> {
    available().then_some(reverse_checked as ReverseKernel)
}
