//! Attack sets on bitboards: leapers from tables, sliders from rays.
//!
//! Sliders use PEXT tables where BMI2 exists (see `bitgen::sliders`); the
//! classical ray method is the portable fallback and the reference: take the ray mask, find the nearest
//! blocker by a bit scan in the ray's direction, cut the ray there.

use crate::tables::{KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS, RAY_MASKS};
use crate::types::{Color, Square};

/// Directions whose squares have larger indices than the origin (N, E, NE, NW).
const POSITIVE: [bool; 8] = [true, false, true, false, true, false, true, false];

#[inline(always)]
fn ray_attacks(sq: Square, d: usize, occ: u64) -> u64 {
    let ray = RAY_MASKS[sq.index()][d];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    let first = if POSITIVE[d] { blockers.trailing_zeros() } else { 63 - blockers.leading_zeros() };
    ray ^ RAY_MASKS[first as usize][d]
}

/// Rook attacks from `sq` given the occupancy (classical rays; the reference).
#[inline]
pub fn rook_attacks_classical(sq: Square, occ: u64) -> u64 {
    ray_attacks(sq, 0, occ) | ray_attacks(sq, 1, occ) | ray_attacks(sq, 2, occ) | ray_attacks(sq, 3, occ)
}

/// Bishop attacks from `sq` given the occupancy (classical rays; the reference).
#[inline]
pub fn bishop_attacks_classical(sq: Square, occ: u64) -> u64 {
    ray_attacks(sq, 4, occ) | ray_attacks(sq, 5, occ) | ray_attacks(sq, 6, occ) | ray_attacks(sq, 7, occ)
}

/// Rook attacks with the fastest tables of this build (PEXT on BMI2).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: u64) -> u64 {
    crate::bitgen::sliders::sliders().rook(sq, occ)
}

/// Bishop attacks with the fastest tables of this build (PEXT on BMI2).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: u64) -> u64 {
    crate::bitgen::sliders::sliders().bishop(sq, occ)
}

/// Queen attacks.
#[inline]
pub fn queen_attacks(sq: Square, occ: u64) -> u64 {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
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
