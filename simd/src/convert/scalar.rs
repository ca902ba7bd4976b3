//! The paper's scalar conversion loops (section 5.5): the reference every
//! kernel is tested against.

use crate::bitboards::Bitboards;
use crate::ccr::Ccr;
use crate::types::Square;

/// The paper's conversion loop (section 5.5): the reference every kernel is tested against.
pub fn ccr_to_bitboards_scalar(ccr: &Ccr) -> Bitboards {
    let mut bb = Bitboards::default();
    for r in 0..8 {
        let mut rank = ccr.rank_word(r);
        for f in 0..8 {
            bb.by_code[(rank & 0xF) as usize] |= 1u64 << (r * 8 + f);
            rank >>= 4;
        }
    }
    bb
}

/// Bitboards → CCR, scalar reference: each square takes the code of the set holding it.
/// (If sets overlap, a square gets the OR of the codes of the sets holding it,
/// as in every kernel; they never overlap for converted boards.)
pub fn bitboards_to_ccr_scalar(bb: &Bitboards) -> Ccr {
    let mut ccr = Ccr::EMPTY;
    for code in 1..16u8 {
        let mut s = bb.by_code[code as usize];
        while s != 0 {
            let sq = Square::new(s.trailing_zeros() as u8);
            ccr.set_code(sq, ccr.code(sq) | code);
            s &= s - 1;
        }
    }
    ccr
}
