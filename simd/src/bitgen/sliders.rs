//! Slider attacks for the bitboard generator.
//!
//! On BMI2 builds (`cfg(target_feature = "bmi2")`) a rook or bishop attack set
//! is one `pext` of the occupancy under the square's relevance mask and one
//! load from a 107,648-entry table (841 KiB), filled on first use. Elsewhere
//! the classical ray attacks of [`crate::attacks`] stand in. Either way the
//! generator takes a [`Sliders`] once per call and asks it for attacks.

use crate::attacks;
use crate::types::Square;

/// Rook and bishop attack sets on a given occupancy.
pub struct Sliders {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    pext: pext::Tables,
}

impl Sliders {
    /// Rook attacks from `sq` on occupancy `occ`.
    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: u64) -> u64 {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            self.pext.rook(sq, occ)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            attacks::rook_attacks_classical(sq, occ)
        }
    }

    /// Bishop attacks from `sq` on occupancy `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: Square, occ: u64) -> u64 {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            self.pext.bishop(sq, occ)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            attacks::bishop_attacks_classical(sq, occ)
        }
    }

    /// Queen attacks.
    #[inline(always)]
    pub fn queen(&self, sq: Square, occ: u64) -> u64 {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

/// The slider tables (built on first use on BMI2 builds; nothing to build otherwise).
#[inline(always)]
pub fn sliders() -> &'static Sliders {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        static TABLES: std::sync::OnceLock<Sliders> = std::sync::OnceLock::new();
        TABLES.get_or_init(|| Sliders { pext: pext::Tables::new() })
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        &Sliders {}
    }
}

/// Relevant-occupancy mask of a rook: its empty-board rays without the last square.
fn rook_mask(sq: Square) -> u64 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const RANK_1: u64 = 0xFF;
    let (f, r) = (sq.file() as u32, sq.rank() as u32);
    let file_edges = (FILE_A | FILE_A << 7) & !(FILE_A << f);
    let rank_edges = (RANK_1 | RANK_1 << 56) & !(RANK_1 << (8 * r));
    attacks::rook_attacks_classical(sq, 0) & !file_edges & !rank_edges
}

/// Relevant-occupancy mask of a bishop: its empty-board rays inside the border.
fn bishop_mask(sq: Square) -> u64 {
    const BORDER: u64 = 0xFF81_8181_8181_81FF;
    attacks::bishop_attacks_classical(sq, 0) & !BORDER
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
mod pext {
    use super::{bishop_mask, rook_mask};
    use crate::attacks;
    use crate::types::Square;

    #[derive(Clone, Copy, Default)]
    struct Entry {
        mask: u64,
        offset: usize,
    }

    pub(super) struct Tables {
        attacks: Box<[u64]>,
        rook: [Entry; 64],
        bishop: [Entry; 64],
    }

    /// `pext` for this BMI2 build.
    #[inline(always)]
    fn pext(a: u64, mask: u64) -> u64 {
        // SAFETY: this module only exists when the build targets BMI2
        // (`cfg(target_feature = "bmi2")`), so the instruction is present.
        unsafe { std::arch::x86_64::_pext_u64(a, mask) }
    }

    impl Tables {
        pub(super) fn new() -> Tables {
            let mut t = Tables { attacks: Box::default(), rook: [Entry::default(); 64], bishop: [Entry::default(); 64] };
            let mut table = Vec::with_capacity(107_648);
            for sq in Square::all() {
                for (bishop, mask) in [(false, rook_mask(sq)), (true, bishop_mask(sq))] {
                    let entry = Entry { mask, offset: table.len() };
                    // Carry-rippler: the subsets of `mask` in increasing order,
                    // which is also increasing order of their `pext` index.
                    let mut subset = 0u64;
                    loop {
                        table.push(if bishop {
                            attacks::bishop_attacks_classical(sq, subset)
                        } else {
                            attacks::rook_attacks_classical(sq, subset)
                        });
                        subset = subset.wrapping_sub(mask) & mask;
                        if subset == 0 {
                            break;
                        }
                    }
                    if bishop {
                        t.bishop[sq.index()] = entry;
                    } else {
                        t.rook[sq.index()] = entry;
                    }
                }
            }
            t.attacks = table.into_boxed_slice();
            t
        }

        #[inline(always)]
        fn lookup(&self, e: &Entry, occ: u64) -> u64 {
            // In bounds by construction; `get` keeps a bad index from panicking.
            self.attacks.get(e.offset + pext(occ, e.mask) as usize).copied().unwrap_or(0)
        }

        #[inline(always)]
        pub(super) fn rook(&self, sq: Square, occ: u64) -> u64 {
            self.lookup(&self.rook[sq.index()], occ)
        }

        #[inline(always)]
        pub(super) fn bishop(&self, sq: Square, occ: u64) -> u64 {
            self.lookup(&self.bishop[sq.index()], occ)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::XorShift;

    /// The table lookups against their scalar twin, the classical ray attacks.
    #[test]
    fn sliders_match_classical_rays() {
        let s = sliders();
        let mut rng = XorShift::new(5);
        for sq in Square::all() {
            for i in 0..2000 {
                let occ = match i % 3 {
                    0 => rng.next(),
                    1 => rng.next() & rng.next(),
                    _ => rng.next() & rng.next() & rng.next(),
                };
                assert_eq!(s.rook(sq, occ), attacks::rook_attacks_classical(sq, occ));
                assert_eq!(s.bishop(sq, occ), attacks::bishop_attacks_classical(sq, occ));
            }
        }
        let size: u64 = Square::all().map(|sq| (1u64 << rook_mask(sq).count_ones()) + (1u64 << bishop_mask(sq).count_ones())).sum();
        assert_eq!(size, 107_648);
    }
}
