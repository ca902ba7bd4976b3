//! Bitboards made from the CCR: one 64-bit set per 4-bit code.
//!
//! The layout follows the paper (section 5.5): `by_code[c]` holds the squares
//! whose nibble is `c`, so index 0 is the empty squares, 1..=6 the white
//! pieces, 9..=14 the black ones. Codes 7, 8 and 15 never occur in a valid
//! position; for arbitrary input their sets hold the squares carrying them,
//! exactly like every other code, so the 16 sets always partition the board.

use crate::types::{Color, Piece, PieceType, Square};

/// The squares of a set, lowest first.
#[inline]
pub fn squares(mut set: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = Square::new(set.trailing_zeros() as u8);
            set &= set - 1;
            s
        })
    })
}

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
