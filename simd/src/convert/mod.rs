//! CCR ↔ bitboard conversion kernels (the paper's section 5.5, without the loop).
//!
//! Every kernel turns the 32-byte CCR into the sixteen by-code bitboards of
//! [`Bitboards`] with no branch and no per-square loop, and back. They share
//! one idea: get the four *bit planes* of the board (plane `k` holds the
//! squares whose code has bit `k` set), then make the sixteen sets with a
//! fixed network of ANDs ([`planes_to_bitboards`]). The AVX-512 "cmpeq"
//! kernel instead compares all 64 codes against each of the 16 values, one
//! mask register per code.
//!
//! | kernel            | forward                                      | reverse                          |
//! |-------------------|----------------------------------------------|----------------------------------|
//! | `avx512`          | widen bytes to words, split nibbles, 4 `vptestmb` (or 16 `vpcmpeqb`) | plane masks → bytes, `vpmaddubsw` pairs, `vpmovwb` |
//! | `avx2`            | widen, split, 4 shift+`vpmovmskb` per half   | —                                |
//! | `bmi2`            | —                                            | 16 `pdep` (one per plane and word) |
//! | `portable`        | the same as `avx2`, written with `wide`      | shift-and-mask bit spreading     |
//! | `scalar` (reference) | [`ccr_to_bitboards_scalar`] | [`bitboards_to_ccr_scalar`] |
//!
//! [`ccr_to_bitboards`] and [`bitboards_to_ccr`] pick the best kernel at
//! compile time from `cfg(target_feature)`; [`forward_kernels`] and
//! [`reverse_kernels`] list every kernel this CPU can run (checked at run
//! time), for tests and benchmarks.

use crate::bitboards::Bitboards;
use crate::ccr::Ccr;
pub use scalar::{bitboards_to_ccr_scalar, ccr_to_bitboards_scalar};

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
#[cfg(target_arch = "x86_64")]
pub mod bmi2;
pub mod portable;
pub mod scalar;

/// A CCR → bitboards kernel.
pub type ForwardKernel = fn(&Ccr) -> Bitboards;
/// A bitboards → CCR kernel.
pub type ReverseKernel = fn(&Bitboards) -> Ccr;

/// The sixteen by-code sets from the four bit planes: `by_code[c]` is the
/// intersection over `k` of plane `k` (when bit `k` of `c` is set) or its
/// complement. Sixteen ANDs after eight pairwise products; no branches.
#[inline(always)]
pub fn planes_to_bitboards(p: [u64; 4]) -> Bitboards {
    let lo = [!p[0] & !p[1], p[0] & !p[1], !p[0] & p[1], p[0] & p[1]];
    let hi = [!p[2] & !p[3], p[2] & !p[3], !p[2] & p[3], p[2] & p[3]];
    let mut by_code = [0u64; 16];
    // Fixed 4×4 network (unrolled by the compiler): code c = i + 4j.
    for (j, h) in hi.iter().enumerate() {
        for (i, l) in lo.iter().enumerate() {
            by_code[4 * j + i] = l & h;
        }
    }
    Bitboards { by_code }
}

/// The four bit planes of a set of bitboards: plane `k` is the union of the
/// sets whose code has bit `k`. For a partition of the board (what the forward
/// kernels produce) this is exactly the planes of the board it came from;
/// otherwise a square's code becomes the OR of the codes of the sets holding it.
#[inline(always)]
pub fn bitboards_to_planes(bb: &Bitboards) -> [u64; 4] {
    let b = &bb.by_code;
    let odd = [b[1] | b[3], b[5] | b[7], b[9] | b[11], b[13] | b[15]];
    let p0 = odd[0] | odd[1] | odd[2] | odd[3];
    let p1 = b[2] | b[3] | b[6] | b[7] | b[10] | b[11] | b[14] | b[15];
    let upper = [b[4] | b[5] | b[6] | b[7], b[12] | b[13] | b[14] | b[15]];
    let p2 = upper[0] | upper[1];
    let p3 = b[8] | b[9] | b[10] | b[11] | upper[1];
    [p0, p1, p2, p3]
}

thread_local! {
    static CONVERSIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// CCR → bitboards conversions made by this thread so far (every call of
/// [`ccr_to_bitboards`] counts; the tests hold the search to one per node).
pub fn conversions() -> u64 {
    CONVERSIONS.with(|c| c.get())
}

/// CCR → bitboards with the fastest kernel this build was compiled for.
#[inline(always)]
pub fn ccr_to_bitboards(ccr: &Ccr) -> Bitboards {
    CONVERSIONS.with(|c| c.set(c.get() + 1));
    convert_dispatched(ccr)
}

#[inline(always)]
fn convert_dispatched(ccr: &Ccr) -> Bitboards {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
    {
        avx512::to_bitboards_static(ccr)
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2", not(target_feature = "avx512bw")))]
    {
        avx2::to_bitboards_static(ccr)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        portable::to_bitboards(ccr)
    }
}

/// Bitboards → CCR with the fastest kernel this build was compiled for: the
/// exact inverse of [`ccr_to_bitboards`] (see [`bitboards_to_planes`] for
/// overlapping sets).
#[inline(always)]
pub fn bitboards_to_ccr(bb: &Bitboards) -> Ccr {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
    {
        avx512::to_ccr_static(bb)
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2", not(target_feature = "avx512bw")))]
    {
        bmi2::to_ccr_static(bb)
    }
    #[cfg(not(all(target_arch = "x86_64", any(target_feature = "avx512bw", target_feature = "bmi2"))))]
    {
        portable::to_ccr(bb)
    }
}

fn dispatched_forward(ccr: &Ccr) -> Bitboards {
    ccr_to_bitboards(ccr)
}

fn dispatched_reverse(bb: &Bitboards) -> Ccr {
    bitboards_to_ccr(bb)
}

/// Every CCR → bitboards kernel this CPU can run, by name (scalar reference first).
pub fn forward_kernels() -> Vec<(&'static str, ForwardKernel)> {
    let mut v: Vec<(&'static str, ForwardKernel)> =
        vec![("scalar", ccr_to_bitboards_scalar), ("portable", portable::to_bitboards)];
    #[cfg(target_arch = "x86_64")]
    {
        v.extend(avx2::forward_kernel().map(|k| ("avx2", k)));
        v.extend(avx512::forward_kernel_planes().map(|k| ("avx512-planes", k)));
        v.extend(avx512::forward_kernel_cmpeq().map(|k| ("avx512-cmpeq", k)));
    }
    v.push(("dispatched", dispatched_forward));
    v
}

/// Every bitboards → CCR kernel this CPU can run, by name (scalar reference first).
pub fn reverse_kernels() -> Vec<(&'static str, ReverseKernel)> {
    let mut v: Vec<(&'static str, ReverseKernel)> =
        vec![("scalar", bitboards_to_ccr_scalar), ("portable", portable::to_ccr)];
    #[cfg(target_arch = "x86_64")]
    {
        v.extend(bmi2::reverse_kernel().map(|k| ("bmi2", k)));
        v.extend(avx512::reverse_kernel().map(|k| ("avx512", k)));
    }
    v.push(("dispatched", dispatched_reverse));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{random_positions, suite_positions, XorShift};

    fn random_ccrs(n: usize) -> Vec<Ccr> {
        let mut rng = XorShift::new(0xC0FFEE);
        let mut v: Vec<Ccr> = (0..n)
            .map(|_| {
                let mut c = Ccr::EMPTY;
                for b in c.0.iter_mut() {
                    *b = rng.next() as u8;
                }
                c
            })
            .collect();
        // Boards made entirely of one code, for every code.
        for code in 0..16u8 {
            v.push(Ccr([code | code << 4; 32]));
        }
        v
    }

    fn boards() -> Vec<Ccr> {
        let mut v: Vec<Ccr> = suite_positions().iter().map(|p| *p.ccr()).collect();
        v.extend(random_positions(20_000, 7).iter().map(|p| *p.ccr()));
        v.extend(random_ccrs(20_000));
        v
    }

    #[test]
    fn kernels_are_listed() {
        // Every kernel the CPU can run must be listed, or the comparison tests skip it.
        let names: Vec<_> = forward_kernels().iter().map(|k| k.0).collect();
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(names.contains(&"avx2"), is_x86_feature_detected!("avx2"), "{names:?}");
            let avx512 = is_x86_feature_detected!("avx512bw");
            assert_eq!(names.contains(&"avx512-planes") && names.contains(&"avx512-cmpeq"), avx512, "{names:?}");
            let reverse: Vec<_> = reverse_kernels().iter().map(|k| k.0).collect();
            assert_eq!(reverse.contains(&"bmi2"), is_x86_feature_detected!("bmi2"), "{reverse:?}");
        }
        assert!(names.contains(&"scalar") && names.contains(&"portable") && names.contains(&"dispatched"));
    }

    #[test]
    fn forward_kernels_match_scalar() {
        let kernels = forward_kernels();
        for ccr in boards() {
            let want = ccr_to_bitboards_scalar(&ccr);
            // The documented meaning, square by square.
            for (code, set) in want.by_code.iter().enumerate() {
                assert_eq!(*set, ccr.squares_with(code as u8));
            }
            for (name, k) in &kernels {
                assert_eq!(k(&ccr), want, "kernel {name} on {ccr:?}");
            }
        }
    }

    #[test]
    fn reverse_kernels_invert_forward() {
        let kernels = reverse_kernels();
        for ccr in boards() {
            let bb = ccr_to_bitboards(&ccr);
            for (name, k) in &kernels {
                assert_eq!(k(&bb), ccr, "reverse kernel {name}");
            }
        }
    }

    #[test]
    fn reverse_kernels_agree_on_arbitrary_sets() {
        let kernels = reverse_kernels();
        let mut rng = XorShift::new(99);
        for _ in 0..20_000 {
            let mut bb = Bitboards::default();
            for s in bb.by_code.iter_mut() {
                // Sparse random sets, so that some squares are in none and some in several.
                *s = rng.next() & rng.next() & rng.next();
            }
            let want = bitboards_to_ccr_scalar(&bb);
            for (name, k) in &kernels {
                assert_eq!(k(&bb), want, "reverse kernel {name}");
            }
        }
    }
}
