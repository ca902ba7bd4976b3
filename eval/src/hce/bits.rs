//! Small bitboard helpers: file and rank masks, fills, spans, distances.

use tetrad_simd::Color;

/// Slider attacks as the evaluation uses them (the tables of `tetrad_simd::attacks`).
pub use tetrad_simd::attacks::{bishop_attacks, queen_attacks, rook_attacks};

/// The a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The first rank.
pub const RANK_1: u64 = 0xFF;
/// Light squares (b1, a2, …).
pub const LIGHT_SQUARES: u64 = 0x55AA_55AA_55AA_55AA;

/// Squares of file `f` (0 = a).
#[inline(always)]
pub const fn file_bb(f: usize) -> u64 {
    FILE_A << (f & 7)
}

/// Squares of rank `r` (0 = rank 1).
#[inline(always)]
pub const fn rank_bb(r: usize) -> u64 {
    RANK_1 << (8 * (r & 7))
}

/// The files beside file `f`.
#[inline(always)]
pub const fn adjacent_files(f: usize) -> u64 {
    let b = file_bb(f);
    ((b << 1) & !FILE_A) | ((b >> 1) & !(FILE_A << 7))
}

/// Every square on or above a set square of the same file.
#[inline(always)]
pub const fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b |= b << 32;
    b
}

/// Every square on or below a set square of the same file.
#[inline(always)]
pub const fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b |= b >> 32;
    b
}

/// The set moved one rank towards `c`'s promotion side.
#[inline(always)]
pub const fn forward(c: Color, b: u64) -> u64 {
    match c {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// Squares strictly in front of the set (from `c`'s side) on the same files.
#[inline(always)]
pub const fn front_span(c: Color, b: u64) -> u64 {
    match c {
        Color::White => north_fill(b << 8),
        Color::Black => south_fill(b >> 8),
    }
}

/// Squares on the set's files, from the set square backwards (inclusive).
#[inline(always)]
pub const fn rear_fill(c: Color, b: u64) -> u64 {
    match c {
        Color::White => south_fill(b),
        Color::Black => north_fill(b),
    }
}

/// All files holding a set square.
#[inline(always)]
pub const fn file_fill(b: u64) -> u64 {
    north_fill(b) | south_fill(b)
}

/// Rank of square index `sq` seen from `c` (0 = own back rank).
#[inline(always)]
pub const fn relative_rank(c: Color, sq: usize) -> usize {
    match c {
        Color::White => sq >> 3,
        Color::Black => 7 - (sq >> 3),
    }
}

/// King-move (Chebyshev) distance between two square indices.
#[inline(always)]
pub const fn distance(a: usize, b: usize) -> i32 {
    let df = (a & 7) as i32 - (b & 7) as i32;
    let dr = (a >> 3) as i32 - (b >> 3) as i32;
    let df = if df < 0 { -df } else { df };
    let dr = if dr < 0 { -dr } else { dr };
    if df > dr {
        df
    } else {
        dr
    }
}

/// Number of set bits as `i32`.
#[inline(always)]
pub const fn popcount(b: u64) -> i32 {
    b.count_ones() as i32
}

/// Iterates the set squares of a bitboard as indices.
#[inline(always)]
pub fn squares(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(s)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(adjacent_files(0), file_bb(1));
        assert_eq!(adjacent_files(7), file_bb(6));
        assert_eq!(adjacent_files(3), file_bb(2) | file_bb(4));
        assert_eq!(front_span(Color::White, 1 << 12), file_bb(4) & !0x1FFF);
        assert_eq!(front_span(Color::Black, 1 << 52), file_bb(4) & ((1 << 52) - 1));
        assert_eq!(distance(0, 63), 7);
        assert_eq!(distance(9, 18), 1);
        assert_eq!(relative_rank(Color::Black, 8), 6);
        assert_eq!(squares(0b1010).collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!(LIGHT_SQUARES & 1, 0);
        assert_eq!(rank_bb(7) >> 56, 0xFF);
    }
}
