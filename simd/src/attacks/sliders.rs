//! Rook and bishop attack tables, indexed by `pext` or by magic multiplication.
//!
//! Both methods map the occupancy of a square's relevant squares (its rays
//! without the board edge) to a dense index into one table of 107,648 attack
//! sets (841 KiB), 2^bits entries per square:
//!
//! - **pext**: `pext(occ, mask)` — one instruction where BMI2 is fast
//!   (Intel since Haswell, AMD since Zen 3).
//! - **magic**: `((occ & mask) * magic) >> (64 - bits)` — portable, and the
//!   choice on AMD Zen 1/2, where `pext` is microcoded and takes tens to
//!   hundreds of cycles. The magics are constants, found once by a seeded
//!   search (`find_magic`, in the tests; 0.2 s: too slow to repeat at every start-up).
//!
//! [`sliders`] builds the table once per process with the method that is
//! fast on this CPU ([`SliderIndex::best`]); `TETRAD_SLIDERS=magic|pext` in the
//! environment overrides the choice (for measuring one against the other).

use super::rays::{bishop_attacks_classical, rook_attacks_classical};
use crate::types::Square;

/// How a slider table turns an occupancy into an index.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SliderIndex {
    /// Multiply-shift magics (portable).
    Magic,
    /// BMI2 `pext` (only offered on builds that target BMI2).
    Pext,
}

impl SliderIndex {
    /// The fast method for this build and CPU: `pext` on BMI2 builds unless
    /// the CPU is an AMD Zen 1/2 (family 17h or older), magics otherwise.
    pub fn best() -> SliderIndex {
        match std::env::var("TETRAD_SLIDERS").as_deref() {
            Ok("magic") => return SliderIndex::Magic,
            Ok("pext") if pext_compiled() => return SliderIndex::Pext,
            _ => {}
        }
        if pext_compiled() && !slow_pext_cpu() {
            SliderIndex::Pext
        } else {
            SliderIndex::Magic
        }
    }

    /// The methods this build can run (magic always; pext on BMI2 builds).
    pub fn available() -> Vec<SliderIndex> {
        let mut v = vec![SliderIndex::Magic];
        if pext_compiled() {
            v.push(SliderIndex::Pext);
        }
        v
    }
}

/// Whether this build targets BMI2 (so `pext` may be used at all).
const fn pext_compiled() -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "bmi2"))
}

/// AMD before Zen 3 (family 0x19) runs `pext`/`pdep` in microcode.
fn slow_pext_cpu() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        // SAFETY: `cpuid` exists on every x86-64 CPU; leaves 0 and 1 always do.
        // (Newer compilers declare `__cpuid` safe; older ones need the block.)
        #[allow(unused_unsafe)]
        let (vendor, sig) = unsafe { (__cpuid(0), __cpuid(1)) };
        let amd = vendor.ebx == 0x6874_7541 && vendor.edx == 0x6974_6e65 && vendor.ecx == 0x444d_4163; // "AuthenticAMD"
        let hygon = vendor.ebx == 0x6f67_7948; // "HygonGenuine" (Zen 1 derivative)
        let family = ((sig.eax >> 8) & 0xF) + ((sig.eax >> 20) & 0xFF);
        (amd || hygon) && family < 0x19
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Rook magics, a1..h8: found by `find_magic` (seed 0x7E7A_D5EE_D000_0001,
/// rooks first) and checked exhaustively by the tests.
#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x60800088F5400020, 0x0040001000200040, 0x0C80200010000880, 0x008010007C810800,
    0x0A00020028902014, 0x0200020010080401, 0x0100140D00038200, 0x0100102208408100,
    0x9950800020804000, 0x000280200040008E, 0x044B001641012000, 0x2881800800805000,
    0x0086002200443018, 0x0001000204010008, 0x2204001002040801, 0x0011800041000080,
    0x1001848000C00224, 0x0100948020004000, 0x0140110020010040, 0x0020120042002008,
    0x2846020004100820, 0x4014008002008004, 0x500A840030480D02, 0x1080020000608401,
    0x0808400080288000, 0x01A000208040008C, 0x4440410100102000, 0x0000120200200840,
    0x4712002600081060, 0x2012440801106040, 0x2001080C00060130, 0x1110004200008104,
    0x1800408001002100, 0xE010002008400040, 0x00A0100080802000, 0x0001810802801000,
    0x0004100801000500, 0xC881000401000802, 0x0001280244000190, 0x9005000041000082,
    0x2100800040088020, 0x0001004082020021, 0x0019004020010011, 0x403000110021000A,
    0x0380040008008080, 0x0004000200048080, 0x2210100208040001, 0x004002C414A20005,
    0x8001004030860600, 0x0040004080200080, 0x50C0401200208200, 0x0040700080080280,
    0x0100080004008080, 0x0401810200040080, 0x0202000884010200, 0x000280014B002180,
    0x5908410020108001, 0x0010908104A24005, 0x0002008311082042, 0x0480900100200509,
    0x3002004588201002, 0x060A000810C10402, 0x030812100100E804, 0xA800004021108402,
];

/// Bishop magics, a1..h8: found by `find_magic` (seed 0x7E7A_D5EE_D000_0001,
/// rooks first) and checked exhaustively by the tests.
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0xB808020800440080, 0x01281000C8890028, 0x0004010206008000, 0x2008086300000000,
    0x0081104040880000, 0x0402080444020402, 0x0643051120610048, 0x0100820082200280,
    0x820A60920C080082, 0x0020841000812900, 0x0000080829023000, 0x06000E0A0A040280,
    0x0000840422040040, 0x000007040A400280, 0x0004004228044050, 0x4122010041042000,
    0x0011000404100400, 0x1010082114010C40, 0x041000010C042040, 0x0808000082004006,
    0x0041040820080810, 0x9032081500A00414, 0x020C002104010425, 0x8102000C90440214,
    0x092018023010B100, 0x1404040610301080, 0x812404402E080900, 0x8084080104202040,
    0x0002002102008040, 0x0000590202008200, 0x0240A08001041000, 0x0449004A41004842,
    0x2010032000100400, 0x2042100400100100, 0x8040484041880204, 0x4010600800028820,
    0x00610104000A0021, 0x00510802018B0904, 0x0101080081810402, 0x0D50D48204808200,
    0x00880184101A2001, 0x0442080202080880, 0x10000A0090010200, 0x8008020214008200,
    0x0000440408202404, 0x1002103A00204A00, 0x0044040464000841, 0x4004882040430100,
    0x0080840402400008, 0x000E060904022040, 0x040100208410000A, 0x0000811842088040,
    0x0001004008220000, 0x0420C08801A10311, 0x1020185003245024, 0x2021011102008108,
    0x0000440401019004, 0x2014004200900800, 0x20002A020C420861, 0x00012B08302A0804,
    0x000D200028030400, 0x0000024082B40100, 0x00062018100C80A0, 0x1048181004004018,
];

#[derive(Clone, Copy, Default)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// Rook and bishop attack sets on a given occupancy.
pub struct Sliders {
    attacks: Box<[u64]>,
    rook: [Entry; 64],
    bishop: [Entry; 64],
    pext: bool,
}

/// Total entries of the table: the sum over squares of 2^bits, rooks and bishops.
pub const TABLE_SIZE: usize = 107_648;

impl Sliders {
    /// Builds the tables for one indexing method.
    pub fn build(method: SliderIndex) -> Sliders {
        let pext = method == SliderIndex::Pext && pext_compiled();
        let mut s =
            Sliders { attacks: Box::default(), rook: [Entry::default(); 64], bishop: [Entry::default(); 64], pext };
        let mut table = vec![0u64; TABLE_SIZE];
        let mut offset = 0usize;
        let mut subsets = Vec::with_capacity(4096);
        let mut reference = Vec::with_capacity(4096);
        for bishop in [false, true] {
            for sq in Square::all() {
                let mask = if bishop { bishop_mask(sq) } else { rook_mask(sq) };
                let bits = mask.count_ones();
                // Carry-rippler: every subset of the mask, in increasing order.
                subsets.clear();
                reference.clear();
                let mut subset = 0u64;
                loop {
                    subsets.push(subset);
                    reference.push(if bishop {
                        bishop_attacks_classical(sq, subset)
                    } else {
                        rook_attacks_classical(sq, subset)
                    });
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
                let mut e = Entry { mask, magic: 0, shift: 64 - bits, offset: offset as u32 };
                let slot = &mut table[offset..offset + (1 << bits)];
                if pext {
                    // Subsets in carry-rippler order are in increasing pext order.
                    slot.copy_from_slice(&reference);
                } else {
                    e.magic = if bishop { BISHOP_MAGICS[sq.index()] } else { ROOK_MAGICS[sq.index()] };
                    for (&occ, &att) in subsets.iter().zip(&reference) {
                        slot[(occ.wrapping_mul(e.magic) >> e.shift) as usize] = att;
                    }
                }
                offset += 1 << bits;
                if bishop {
                    s.bishop[sq.index()] = e;
                } else {
                    s.rook[sq.index()] = e;
                }
            }
        }
        debug_assert_eq!(offset, TABLE_SIZE);
        s.attacks = table.into_boxed_slice();
        s
    }

    /// The indexing method these tables use.
    pub fn method(&self) -> SliderIndex {
        if self.pext {
            SliderIndex::Pext
        } else {
            SliderIndex::Magic
        }
    }

    #[inline(always)]
    fn lookup(&self, e: &Entry, occ: u64) -> u64 {
        let index = if self.pext { pext(occ, e.mask) } else { (occ & e.mask).wrapping_mul(e.magic) >> e.shift };
        // In bounds by construction; `get` keeps a bad index from panicking.
        self.attacks.get(e.offset as usize + index as usize).copied().unwrap_or(0)
    }

    /// Rook attacks from `sq` on occupancy `occ`.
    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: u64) -> u64 {
        self.lookup(&self.rook[sq.index()], occ)
    }

    /// Bishop attacks from `sq` on occupancy `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: Square, occ: u64) -> u64 {
        self.lookup(&self.bishop[sq.index()], occ)
    }

    /// Queen attacks.
    #[inline(always)]
    pub fn queen(&self, sq: Square, occ: u64) -> u64 {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

/// `pext` where the build targets BMI2; never called otherwise.
#[inline(always)]
fn pext(a: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: compiled only when the build targets BMI2, so the instruction exists.
        unsafe { std::arch::x86_64::_pext_u64(a, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let _ = (a, mask);
        0
    }
}

/// The slider tables of this process, built on first use with [`SliderIndex::best`].
#[inline(always)]
pub fn sliders() -> &'static Sliders {
    static TABLES: std::sync::OnceLock<Sliders> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| Sliders::build(SliderIndex::best()))
}

#[cfg(test)]
struct SplitMix(u64);

#[cfg(test)]
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Searches a magic (how the constants above were made) that maps every subset to a slot holding its attack set
/// (collisions allowed only between subsets with equal attacks); fills `slot`.
#[cfg(test)]
fn find_magic(mask: u64, bits: u32, subsets: &[u64], reference: &[u64], slot: &mut [u64], rng: &mut SplitMix) -> u64 {
    let shift = 64 - bits;
    // `stamp[i] == attempt` marks slot i as written in this attempt.
    let mut stamp = vec![0u32; slot.len()];
    let mut attempt = 0u32;
    loop {
        let magic = rng.next() & rng.next() & rng.next();
        // Quick reject: the top byte of mask * magic needs enough bits to spread the index.
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let ok = subsets.iter().zip(reference).all(|(&occ, &att)| {
            let i = (occ.wrapping_mul(magic) >> shift) as usize;
            if stamp[i] != attempt {
                stamp[i] = attempt;
                slot[i] = att;
                true
            } else {
                slot[i] == att
            }
        });
        if ok {
            return magic;
        }
    }
}

/// Relevant-occupancy mask of a rook: its empty-board rays without the last square.
fn rook_mask(sq: Square) -> u64 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const RANK_1: u64 = 0xFF;
    let (f, r) = (sq.file() as u32, sq.rank() as u32);
    let file_edges = (FILE_A | FILE_A << 7) & !(FILE_A << f);
    let rank_edges = (RANK_1 | RANK_1 << 56) & !(RANK_1 << (8 * r));
    rook_attacks_classical(sq, 0) & !file_edges & !rank_edges
}

/// Relevant-occupancy mask of a bishop: its empty-board rays inside the border.
fn bishop_mask(sq: Square) -> u64 {
    const BORDER: u64 = 0xFF81_8181_8181_81FF;
    bishop_attacks_classical(sq, 0) & !BORDER
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::XorShift;

    /// Every available method's lookups against their scalar twin, the classical rays.
    #[test]
    fn tables_match_classical_rays() {
        let methods = SliderIndex::available();
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        assert!(methods.contains(&SliderIndex::Pext), "a BMI2 build must offer pext");
        for method in methods {
            let s = Sliders::build(method);
            assert_eq!(s.method(), method);
            let mut rng = XorShift::new(5);
            for sq in Square::all() {
                for i in 0..2000 {
                    let occ = match i % 3 {
                        0 => rng.next(),
                        1 => rng.next() & rng.next(),
                        _ => rng.next() & rng.next() & rng.next(),
                    };
                    assert_eq!(s.rook(sq, occ), rook_attacks_classical(sq, occ), "{method:?} rook {sq}");
                    assert_eq!(s.bishop(sq, occ), bishop_attacks_classical(sq, occ), "{method:?} bishop {sq}");
                }
            }
        }
        let size: usize = Square::all()
            .map(|sq| (1usize << rook_mask(sq).count_ones()) + (1usize << bishop_mask(sq).count_ones()))
            .sum();
        assert_eq!(size, TABLE_SIZE);
    }

    /// Every subset of every mask maps to its own attack set under the constant
    /// magics (no destructive collision) and under pext, and the search
    /// re-finds the first magics.
    #[test]
    fn every_occupancy_is_exactly_right() {
        for method in SliderIndex::available() {
            let s = Sliders::build(method);
            for sq in Square::all() {
                for (bishop, e) in [(false, &s.rook[sq.index()]), (true, &s.bishop[sq.index()])] {
                    let mut occ = 0u64;
                    loop {
                        let want =
                            if bishop { bishop_attacks_classical(sq, occ) } else { rook_attacks_classical(sq, occ) };
                        assert_eq!(s.lookup(e, occ | !e.mask & 0x8100_0000_0000_0081), want, "{method:?} {sq}");
                        occ = occ.wrapping_sub(e.mask) & e.mask;
                        if occ == 0 {
                            break;
                        }
                    }
                }
            }
        }
        let mut rng = SplitMix(0x7E7A_D5EE_D000_0001);
        let (mask, bits) = (rook_mask(Square::A1), rook_mask(Square::A1).count_ones());
        let mut subsets = vec![];
        let mut occ = 0u64;
        loop {
            subsets.push(occ);
            occ = occ.wrapping_sub(mask) & mask;
            if occ == 0 {
                break;
            }
        }
        let reference: Vec<u64> = subsets.iter().map(|&o| rook_attacks_classical(Square::A1, o)).collect();
        let mut slot = vec![0; 1 << bits];
        assert_eq!(find_magic(mask, bits, &subsets, &reference, &mut slot, &mut rng), ROOK_MAGICS[0]);
    }
}
