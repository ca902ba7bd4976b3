//! BMI2 reverse kernel: `pdep` spreads 16 bits of a plane to every fourth bit.
//!
//! CCR word `j` (squares `16j..16j+16`) is the sum over planes `k` of
//! `pdep(plane_k >> 16j, 0x1111…1 << k)`: sixteen `pdep`s in all.

use super::{bitboards_to_planes, ReverseKernel};
use crate::bitboards::Bitboards;
use crate::ccr::Ccr;
use std::arch::x86_64::_pdep_u64;

const NIBBLE_LSB: u64 = 0x1111_1111_1111_1111;

#[inline]
#[target_feature(enable = "bmi2")]
fn to_ccr(bb: &Bitboards) -> Ccr {
    let p = bitboards_to_planes(bb);
    let mut bytes = [0u8; 32];
    for (j, out) in bytes.chunks_exact_mut(8).enumerate() {
        let mut word = 0u64;
        for (k, plane) in p.iter().enumerate() {
            word |= _pdep_u64(plane >> (16 * j), NIBBLE_LSB << k);
        }
        out.copy_from_slice(&word.to_le_bytes());
    }
    Ccr(bytes)
}

/// The dispatched reverse kernel on BMI2 builds without AVX-512.
#[cfg(target_feature = "bmi2")]
#[allow(dead_code)]
#[inline(always)]
pub(crate) fn to_ccr_static(bb: &Bitboards) -> Ccr {
    // SAFETY: this build targets BMI2 (`cfg(target_feature = "bmi2")`).
    unsafe { to_ccr(bb) }
}

fn checked(bb: &Bitboards) -> Ccr {
    // SAFETY: only handed out by `reverse_kernel` after the CPU check.
    unsafe { to_ccr(bb) }
}

/// The BMI2 reverse kernel, if this CPU has BMI2.
pub fn reverse_kernel() -> Option<ReverseKernel> {
    is_x86_feature_detected!("bmi2").then_some(checked as ReverseKernel)
}
