//! Attack sets on bitboards: the one owner of every attack computation.
//!
//! Leapers (knight, king, pawn) come from compile-time tables. Sliders come
//! from [`mod@sliders`]: one table of attack sets indexed either by `pext` (where
//! BMI2 is present *and* fast) or by a multiply-shift magic (everywhere else,
//! including AMD Zen 1/2 where `pext` is microcoded). The classical ray
//! method of [`rays`] builds those tables and is the reference the tests
//! compare them against.

pub mod rays;
pub mod sliders;

pub use rays::{bishop_attacks_classical, rook_attacks_classical};
pub use sliders::{sliders, SliderIndex, Sliders};

use crate::tables::{KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};
use crate::types::{Color, Square};

/// Rook attacks with the table of this process (see [`fn@sliders`]).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: u64) -> u64 {
    sliders().rook(sq, occ)
}

/// Bishop attacks with the table of this process (see [`fn@sliders`]).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: u64) -> u64 {
    sliders().bishop(sq, occ)
}

/// Queen attacks.
#[inline]
pub fn queen_attacks(sq: Square, occ: u64) -> u64 {
    let s = sliders();
    s.rook(sq, occ) | s.bishop(sq, occ)
}

/// Knight attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> u64 {
    KNIGHT_ATTACKS[sq.index()]
}

/// King attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> u64 {
    KING_ATTACKS[sq.index()]
}

/// Squares a pawn of colour `c` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(c: Color, sq: Square) -> u64 {
    PAWN_ATTACKS[c.index()][sq.index()]
}

/// All squares attacked by pawns of colour `c` standing on `pawns`.
#[inline(always)]
pub fn pawn_attacks_bb(c: Color, pawns: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    match c {
        Color::White => ((pawns & NOT_H) << 9) | ((pawns & NOT_A) << 7),
        Color::Black => ((pawns & NOT_H) >> 7) | ((pawns & NOT_A) >> 9),
    }
}
