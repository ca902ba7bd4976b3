//! Bitboards made from the CCR: one 64-bit set per 4-bit code.
//!
//! The layout follows the paper (section 5.5): `by_code[c]` holds the squares
//! whose nibble is `c`, so index 0 is the empty squares, 1..=6 the white
//! pieces, 9..=14 the black ones. Codes 7, 8 and 15 never occur in a valid
//! position; for arbitrary input their sets hold the squares carrying them,
//! exactly like every other code, so the 16 sets always partition the board.

use crate::ccr::Ccr;
use crate::types::{Color, Piece, PieceType};

/// Sixteen bitboards, one per CCR code.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[repr(C, align(64))]
pub struct Bitboards {
    /// `by_code[c]`: squares whose nibble equals `c`.
    pub by_code: [u64; 16],
}

impl Bitboards {
    /// Squares of one piece.
    #[inline(always)]
    pub fn piece(&self, p: Piece) -> u64 {
        self.by_code[p.code() as usize]
    }

    /// Squares of a colour's pieces of one kind.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceType) -> u64 {
        self.by_code[Piece::new(c, k).code() as usize]
    }

    /// All squares occupied by a colour (codes 1..=6 or 9..=14).
    #[inline(always)]
    pub fn color(&self, c: Color) -> u64 {
        let b = &self.by_code[(c as usize) * 8..(c as usize) * 8 + 8];
        b[1] | b[2] | b[3] | b[4] | b[5] | b[6]
    }

    /// All occupied squares (of valid codes).
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.color(Color::White) | self.color(Color::Black)
    }

    /// Empty squares (code 0).
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        self.by_code[0]
    }

    /// Bishops and queens of a colour.
    #[inline(always)]
    pub fn diagonal_sliders(&self, c: Color) -> u64 {
        self.pieces(c, PieceType::Bishop) | self.pieces(c, PieceType::Queen)
    }

    /// Rooks and queens of a colour.
    #[inline(always)]
    pub fn orthogonal_sliders(&self, c: Color) -> u64 {
        self.pieces(c, PieceType::Rook) | self.pieces(c, PieceType::Queen)
    }
}

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
            let sq = crate::types::Square::new(s.trailing_zeros() as u8);
            ccr.set_code(sq, ccr.code(sq) | code);
            s &= s - 1;
        }
    }
    ccr
}

/// CCR → bitboards with the fastest kernel this build was compiled for
/// (see [`crate::convert`]; AVX-512 BW on a `target-cpu=native` build here).
#[inline(always)]
pub fn ccr_to_bitboards(ccr: &Ccr) -> Bitboards {
    crate::convert::ccr_to_bitboards(ccr)
}

/// Bitboards → CCR with the fastest kernel this build was compiled for: the
/// exact inverse of [`ccr_to_bitboards`].
#[inline(always)]
pub fn bitboards_to_ccr(bb: &Bitboards) -> Ccr {
    crate::convert::bitboards_to_ccr(bb)
}
