//! First-layer and output kernels of the network.
//!
//! Two operations, each in four versions that must agree bit for bit:
//!
//! - [`update`]: one perspective's accumulator from another (its parent's,
//!   or itself before the change) plus and minus weight rows (wrapping `i16`
//!   lanes, as the hardware adds them), so a child never copies first; the
//!   width is any multiple of 128, done in the fewest even slices of neurons
//!   that stay in registers while the rows stream in;
//! - [`screlu_dot`]: `Σ clamp(a, 0, QA)² · w` over one perspective, with the
//!   product `clamp(a)·w` taken in 16 bits first (exact for |w| ≤ 128) and
//!   then multiplied by `clamp(a)` in 32 bits (`pmaddwd`); all sums wrap.
//!
//! | kernel     | where                                                     |
//! |------------|-----------------------------------------------------------|
//! | `scalar`   | the reference: plain loops                                |
//! | `portable` | `wide` vectors (AVX2, SSE, NEON or arrays, as compiled)    |
//! | `avx2`     | intrinsics; slices of up to 16 registers of 16 lanes      |
//! | `avx512`   | intrinsics; slices of up to 16 registers of 32 lanes      |
//!
//! [`update`] and [`screlu_dot`] use the best kernel the build targets
//! (`cfg(target_feature)`); [`all`] lists every kernel this CPU can run, for
//! the tests and the benches.

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
pub mod portable;
pub mod scalar;

/// `$body` with the constant `$h` set to `$len` when `$len` is a width the
/// file format allows (every multiple of 128 up to 1024: the kernels and
/// the cache have a copy compiled for each, loops unrolled, every bound
/// known), `$other` otherwise. The one list of those widths.
#[rustfmt::skip] // one line per width: the table reads as the list it is
macro_rules! with_width {
    ($len:expr, $h:ident => $body:expr, _ => $other:expr) => {
        match $len {
            256 => { const $h: usize = 256; $body }
            512 => { const $h: usize = 512; $body }
            384 => { const $h: usize = 384; $body }
            768 => { const $h: usize = 768; $body }
            1024 => { const $h: usize = 1024; $body }
            128 => { const $h: usize = 128; $body }
            640 => { const $h: usize = 640; $body }
            896 => { const $h: usize = 896; $body }
            _ => $other,
        }
    };
}
pub(crate) use with_width;

/// Calls `$fixed::<H>` on the two slices as arrays when their width is one
/// of [`with_width!`]'s, `$other` otherwise (the scalar reference: never
/// reached by a network that loaded).
macro_rules! by_width {
    ($a:expr, $b:expr, $fixed:ident, $other:path $(, $arg:expr)*) => {{
        let (a, b) = ($a, $b);
        super::with_width!(a.len(), H => match (a.try_into(), b.try_into()) {
            (Ok(x), Ok(y)) => $fixed::<H>(x, y $(, $arg)*),
            _ => $other(a, b $(, $arg)*),
        }, _ => $other(a, b $(, $arg)*))
    }};
}
pub(crate) use by_width;

/// [`by_width!`] for the update kernels: `$fixed::<H>(acc, from, …)`.
macro_rules! by_width_update {
    ($acc:expr, $from:expr, $fixed:ident, $other:path $(, $arg:expr)*) => {{
        let (acc, from): (&mut [i16], Option<&[i16]>) = ($acc, $from);
        super::with_width!(acc.len(), H => {
            let fixed: Option<Option<&[i16; H]>> = match from {
                None => Some(None),
                Some(f) => f.try_into().ok().map(Some),
            };
            match (<&mut [i16; H]>::try_from(&mut *acc), fixed) {
                (Ok(x), Some(y)) => $fixed::<H>(x, y $(, $arg)*),
                _ => $other(acc, from $(, $arg)*),
            }
        }, _ => $other(acc, from $(, $arg)*))
    }};
}
pub(crate) use by_width_update;

/// How many registers of `lanes` lanes hold one slice of an accumulator
/// `h` wide while rows stream in: the most, up to `max`, that divide it
/// evenly, so a width of 384 goes in two passes over the rows of 12
/// registers (AVX2) rather than three of 8. Every pass re-reads the list
/// of rows and loads and stores its slice once.
pub(crate) const fn slice_regs(h: usize, lanes: usize, max: usize) -> usize {
    let units = h / lanes;
    let mut r = if units < max { units } else { max };
    while r > 1 && !units.is_multiple_of(r) {
        r -= 1;
    }
    r
}

/// `acc = from` (or `acc` itself) plus rows `adds` minus rows `subs` (offsets into `w1`; rows as long as `acc`).
pub type UpdateFn = fn(&mut [i16], Option<&[i16]>, &[i16], &[usize], &[usize]);
/// `Σ screlu(a)·w` over one perspective.
pub type DotFn = fn(&[i16], &[i16]) -> i32;

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

// The best kernels of this build, chosen once when compiling.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2", not(target_feature = "avx512bw")))]
use avx2 as best;
#[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
use avx512 as best;
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
use portable as best;

/// Row updates with the best kernel of this build.
#[inline(always)]
pub fn update(acc: &mut [i16], from: Option<&[i16]>, w1: &[i16], adds: &[usize], subs: &[usize]) {
    best::update_static(acc, from, w1, adds, subs)
}

/// [`update`] for a width `H` known when compiling, with the best kernel
/// of this build (the cache runs one copy of itself per width).
#[inline(always)]
pub fn update_fixed<const H: usize>(
    acc: &mut [i16; H],
    from: Option<&[i16; H]>,
    w1: &[i16],
    adds: &[usize],
    subs: &[usize],
) {
    best::update_fixed_static(acc, from, w1, adds, subs)
}

/// [`screlu_dot`] for a width `H` known when compiling, with the best kernel of this build.
#[inline(always)]
pub fn dot_fixed<const H: usize>(a: &[i16; H], w: &[i16; H]) -> i32 {
    best::dot_fixed_static(a, w)
}

/// Output dot product with the best kernel of this build.
#[inline(always)]
pub fn screlu_dot(a: &[i16], w: &[i16]) -> i32 {
    best::screlu_dot_static(a, w)
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
    use crate::nnue::QA;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Slices divide the width evenly and are as large as the registers allow.
    #[test]
    fn slices_divide_the_width() {
        let cases = [(128, 8), (256, 16), (384, 12), (512, 16), (640, 10), (768, 16), (896, 14), (1024, 16)];
        for (h, want) in cases {
            assert_eq!(slice_regs(h, 16, 16), want, "width {h}, 16 lanes");
            assert!((h / 16).is_multiple_of(slice_regs(h, 16, 16)));
        }
        assert_eq!(slice_regs(384, 32, 16), 12);
        assert_eq!(slice_regs(1024, 32, 16), 16);
    }

    /// Every kernel against the scalar twin, on random rows, accumulators
    /// and weights, including values that wrap and weights at ±128, for
    /// widths done in slices of every size [`slice_regs`] picks (16, 12,
    /// 8, 10 and 14 AVX2 registers).
    #[test]
    fn kernels_match_scalar() {
        let mut rng = Rng(0x1234_5678);
        let kernels = all();
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        assert!(kernels.iter().any(|k| k.name == "avx2"), "an AVX2 build must list its kernel");
        for hidden in [256usize, 384, 512, 128, 640, 896] {
            let inputs = 3 * 768;
            let w1: Vec<i16> = (0..inputs * hidden).map(|_| rng.next() as i16 >> (rng.next() % 8)).collect();
            for round in 0..100 {
                let mut acc = vec![0i16; hidden];
                for a in acc.iter_mut() {
                    *a = match round % 3 {
                        0 => rng.next() as i16,
                        1 => (rng.next() % (2 * QA as u64 + 40)) as i16 - 20,
                        _ => (rng.next() % 300) as i16,
                    };
                }
                let n_add = (rng.next() % 33) as usize;
                let n_sub = (rng.next() % 9) as usize;
                let adds: Vec<usize> = (0..n_add).map(|_| (rng.next() % inputs as u64) as usize * hidden).collect();
                let subs: Vec<usize> = (0..n_sub).map(|_| (rng.next() % inputs as u64) as usize * hidden).collect();
                let w: Vec<i16> = (0..hidden).map(|_| (rng.next() % 257) as i16 - 128).collect();
                let mut want = vec![0x5555; hidden];
                scalar::update(&mut want, Some(&acc), &w1, &adds, &subs);
                let dot = scalar::screlu_dot(&acc, &w);
                for k in &kernels {
                    // The destination starts as garbage: every lane must be written.
                    let mut got = vec![round as i16; hidden];
                    (k.update)(&mut got, Some(&acc), &w1, &adds, &subs);
                    assert_eq!(got, want, "update: kernel {}, width {hidden}", k.name);
                    // In place: the accumulator is its own source.
                    let mut own = acc.clone();
                    (k.update)(&mut own, None, &w1, &adds, &subs);
                    assert_eq!(own, want, "update in place: kernel {}, width {hidden}", k.name);
                    assert_eq!((k.screlu_dot)(&acc, &w), dot, "screlu_dot: kernel {}, width {hidden}", k.name);
                }
            }
        }
    }
}
