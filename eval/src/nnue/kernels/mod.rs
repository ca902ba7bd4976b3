//! First-layer and output kernels of the network.
//!
//! Two operations, each in four versions that must agree bit for bit:
//!
//! - [`update`]: one perspective's accumulator from another (its parent's,
//!   or itself before the change) plus and minus weight rows (wrapping `i16`
//!   lanes, as the hardware adds them), so a child never copies first;
//! - [`screlu_dot`]: `Σ clamp(a, 0, QA)² · w` over one perspective, with the
//!   product `clamp(a)·w` taken in 16 bits first (exact for |w| ≤ 128) and
//!   then multiplied by `clamp(a)` in 32 bits (`pmaddwd`); all sums wrap.
//!
//! | kernel     | where                                                     |
//! |------------|-----------------------------------------------------------|
//! | `scalar`   | the reference: plain loops                                |
//! | `portable` | `wide` vectors (AVX2, SSE, NEON or arrays, as compiled)    |
//! | `avx2`     | intrinsics; the whole accumulator stays in 16 registers   |
//! | `avx512`   | intrinsics; 8 registers of 32 lanes                       |
//!
//! [`update`] and [`screlu_dot`] use the best kernel the build targets
//! (`cfg(target_feature)`); [`all`] lists every kernel this CPU can run, for
//! the tests and the benches.

pub mod portable;
pub mod scalar;
#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;

use super::HIDDEN;

/// `dst = src` plus rows `adds` minus rows `subs` (offsets into `w1`).
pub type UpdateFn = fn(&[i16; HIDDEN], &mut [i16; HIDDEN], &[i16], &[usize], &[usize]);
/// `Σ screlu(a)·w` over one perspective.
pub type DotFn = fn(&[i16; HIDDEN], &[i16]) -> i32;

/// One kernel set, by name.
#[derive(Clone, Copy)]
pub struct Kernels {
    /// Name for messages.
    pub name: &'static str,
    /// Row updates.
    pub update: UpdateFn,
    /// Output dot product.
    pub screlu_dot: DotFn,
}

/// Row updates with the best kernel of this build.
#[inline(always)]
pub fn update(src: &[i16; HIDDEN], dst: &mut [i16; HIDDEN], w1: &[i16], adds: &[usize], subs: &[usize]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
    {
        avx512::update_static(src, dst, w1, adds, subs)
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2", not(target_feature = "avx512bw")))]
    {
        avx2::update_static(src, dst, w1, adds, subs)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        portable::update(src, dst, w1, adds, subs)
    }
}

/// Output dot product with the best kernel of this build.
#[inline(always)]
pub fn screlu_dot(a: &[i16; HIDDEN], w: &[i16]) -> i32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
    {
        avx512::screlu_dot_static(a, w)
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2", not(target_feature = "avx512bw")))]
    {
        avx2::screlu_dot_static(a, w)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        portable::screlu_dot(a, w)
    }
}

/// Every kernel set this CPU can run, the scalar reference first.
pub fn all() -> Vec<Kernels> {
    let mut v = vec![
        Kernels { name: "scalar", update: scalar::update, screlu_dot: scalar::screlu_dot },
        Kernels { name: "portable", update: portable::update, screlu_dot: portable::screlu_dot },
    ];
    #[cfg(target_arch = "x86_64")]
    {
        v.extend(avx2::kernels());
        v.extend(avx512::kernels());
    }
    v.push(Kernels { name: "dispatched", update, screlu_dot });
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::{INPUTS, QA};

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Every kernel against the scalar twin, on random rows, accumulators
    /// and weights, including values that wrap and weights at ±128.
    #[test]
    fn kernels_match_scalar() {
        let mut rng = Rng(0x1234_5678);
        let w1: Vec<i16> = (0..INPUTS * HIDDEN).map(|_| rng.next() as i16 >> (rng.next() % 8)).collect();
        let kernels = all();
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        assert!(kernels.iter().any(|k| k.name == "avx2"), "an AVX2 build must list its kernel");
        for round in 0..300 {
            let mut acc = [0i16; HIDDEN];
            for a in acc.iter_mut() {
                *a = match round % 3 {
                    0 => rng.next() as i16,
                    1 => (rng.next() % (2 * QA as u64 + 40)) as i16 - 20,
                    _ => (rng.next() % 300) as i16,
                };
            }
            let n_add = (rng.next() % 33) as usize;
            let n_sub = (rng.next() % 9) as usize;
            let adds: Vec<usize> = (0..n_add).map(|_| (rng.next() % INPUTS as u64) as usize * HIDDEN).collect();
            let subs: Vec<usize> = (0..n_sub).map(|_| (rng.next() % INPUTS as u64) as usize * HIDDEN).collect();
            let w: Vec<i16> = (0..HIDDEN).map(|_| (rng.next() % 257) as i16 - 128).collect();
            let mut want = [0x5555; HIDDEN];
            scalar::update(&acc, &mut want, &w1, &adds, &subs);
            let dot = scalar::screlu_dot(&acc, &w);
            for k in &kernels {
                // The destination starts as garbage: every lane must be written.
                let mut got = [round as i16; HIDDEN];
                (k.update)(&acc, &mut got, &w1, &adds, &subs);
                assert_eq!(got, want, "update: kernel {}", k.name);
                assert_eq!((k.screlu_dot)(&acc, &w), dot, "screlu_dot: kernel {}", k.name);
            }
        }
    }
}
