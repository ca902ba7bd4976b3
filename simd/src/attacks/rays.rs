//! Classical ray attacks: take the ray mask, find the nearest blocker by a
//! bit scan in the ray's direction, cut the ray there. Slow next to a table
//! lookup, but obviously right: the slider tables are built from these and
//! tested against them.

use crate::tables::RAY_MASKS;
use crate::types::Square;

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
