//! Portable kernels: the forward one with the `wide` crate (SSE/AVX2/NEON or
//! plain arrays, whatever the target has), the reverse one in plain 64-bit
//! shift-and-mask arithmetic.

use super::{bitboards_to_planes, planes_to_bitboards};
use crate::bitboards::Bitboards;
use crate::ccr::Ccr;
use wide::{u16x16, u8x16, u8x32};

/// Sixteen CCR bytes → 32 bytes, one code per square, in square order.
#[inline(always)]
fn split(half: u8x16) -> u16x16 {
    let w = u16x16::from(half);
    (w | (w << 4)) & u16x16::splat(0x0F0F)
}

#[inline(always)]
fn top_bits(v: u16x16) -> u64 {
    bytemuck::cast::<u16x16, u8x32>(v).move_mask() as u32 as u64
}

/// CCR → bitboards: split nibbles, then bit 7 of each byte after a word
/// shift by `7 - k` gives plane `k`.
#[inline]
pub fn to_bitboards(ccr: &Ccr) -> Bitboards {
    let halves: [u8x16; 2] = bytemuck::cast(ccr.0);
    let a = split(halves[0]);
    let b = split(halves[1]);
    let plane = |s: u32| top_bits(a << s) | top_bits(b << s) << 32;
    planes_to_bitboards([plane(7), plane(6), plane(5), plane(4)])
}

/// Spreads the low 16 bits of `x` to bits 0, 4, 8, …, 60.
#[inline(always)]
fn spread_nibbles(x: u64) -> u64 {
    let x = x & 0xFFFF;
    let x = (x | x << 24) & 0x0000_00FF_0000_00FF;
    let x = (x | x << 12) & 0x000F_000F_000F_000F;
    let x = (x | x << 6) & 0x0303_0303_0303_0303;
    (x | x << 3) & 0x1111_1111_1111_1111
}

/// Bitboards → CCR: each plane's 16-square slices spread to nibble bit `k`.
#[inline]
pub fn to_ccr(bb: &Bitboards) -> Ccr {
    let p = bitboards_to_planes(bb);
    let mut bytes = [0u8; 32];
    for (j, out) in bytes.chunks_exact_mut(8).enumerate() {
        let mut word = 0u64;
        for (k, plane) in p.iter().enumerate() {
            word |= spread_nibbles(plane >> (16 * j)) << k;
        }
        out.copy_from_slice(&word.to_le_bytes());
    }
    Ccr(bytes)
}
