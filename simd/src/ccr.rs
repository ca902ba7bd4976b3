//! The Compact Chessboard Representation: 64 squares × 4 bits = 32 bytes.
//!
//! # Square ↔ nibble mapping (the one place it is defined)
//!
//! Square `s` (a1 = 0 … h8 = 63) lives in byte `s / 2`: even squares in the
//! low nibble, odd squares in the high nibble. Read as eight little-endian
//! `u32` *rank words*, word `r` is rank `r + 1` and file `f` sits at bits
//! `4f..4f+4` — the paper's rank registers (with rank 1 first rather than
//! rank 8). Moving one file right is a shift left by 4, one rank up is the
//! next word: the paper's "displacement" and "mask rotation".

use crate::types::{Piece, Square};
use bytemuck::{Pod, Zeroable};

/// 32 bytes of 4-bit piece codes, aligned to be loaded as one 256-bit register.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Pod, Zeroable)]
#[repr(C, align(32))]
pub struct Ccr(pub [u8; 32]);

const _: () = assert!(std::mem::size_of::<Ccr>() == 32);
const _: () = assert!(std::mem::align_of::<Ccr>() == 32);

impl Ccr {
    /// The empty board.
    pub const EMPTY: Ccr = Ccr([0; 32]);

    /// Raw nibble code at a square (0 = empty).
    #[inline(always)]
    pub fn code(&self, sq: Square) -> u8 {
        let i = sq.index();
        (self.0[i >> 1] >> ((i & 1) * 4)) & 0xF
    }

    /// The piece on a square, if any.
    #[inline(always)]
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.code(sq))
    }

    /// Writes a raw code (0 clears the square).
    #[inline(always)]
    pub fn set_code(&mut self, sq: Square, code: u8) {
        let i = sq.index();
        let shift = (i & 1) * 4;
        let b = &mut self.0[i >> 1];
        *b = (*b & !(0xF << shift)) | ((code & 0xF) << shift);
    }

    /// Puts a piece on a square, or clears it.
    #[inline(always)]
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.set_code(sq, piece.map_or(0, Piece::code));
    }

    /// Rank word `r` (0 = rank 1): file `f` at bits `4f..4f+4`.
    #[inline(always)]
    pub fn rank_word(&self, r: usize) -> u32 {
        u32::from_le_bytes([self.0[4 * r], self.0[4 * r + 1], self.0[4 * r + 2], self.0[4 * r + 3]])
    }

    /// The board as four little-endian 64-bit words (two ranks each).
    #[inline(always)]
    pub fn words(&self) -> [u64; 4] {
        bytemuck::cast(self.0)
    }

    /// Colour flip: ranks mirrored and every piece's colour bit toggled.
    pub fn flip_colors(&self) -> Ccr {
        let mut out = Ccr::EMPTY;
        for r in 0..8 {
            for k in 0..4 {
                let b = self.0[4 * r + k];
                // Toggle bit 3 of each non-empty nibble.
                let lo = b & 0xF;
                let hi = b >> 4;
                let lo = if lo != 0 { lo ^ 8 } else { 0 };
                let hi = if hi != 0 { hi ^ 8 } else { 0 };
                out.0[4 * (7 - r) + k] = lo | (hi << 4);
            }
        }
        out
    }

    /// Squares holding a given raw code, as a bitboard (scalar helper).
    pub fn squares_with(&self, code: u8) -> u64 {
        let mut bb = 0u64;
        for sq in Square::all() {
            if self.code(sq) == code {
                bb |= sq.bit();
            }
        }
        bb
    }
}

impl std::fmt::Debug for Ccr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ccr[")?;
        for r in (0..8).rev() {
            write!(f, "{:08x}", self.rank_word(r))?;
            if r > 0 {
                write!(f, " ")?;
            }
        }
        write!(f, "]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, PieceType};

    #[test]
    fn nibble_mapping() {
        let mut c = Ccr::EMPTY;
        c.set(Square::parse("b1").unwrap(), Some(Piece::new(Color::Black, PieceType::Knight)));
        assert_eq!(c.0[0], 0xA0);
        assert_eq!(c.rank_word(0), 0x0000_00A0);
        c.set(Square::parse("h8").unwrap(), Some(Piece::new(Color::White, PieceType::King)));
        assert_eq!(c.rank_word(7), 0x6000_0000);
        assert_eq!(c.words()[3] >> 60, 6);
    }
}
