//! The paper's attack maps (section 4.4), built from bitboards.
//!
//! For each side and square a nibble says which classes of that side's
//! pieces attack the square, with the Axon coding of the paper: pawn `1000b`,
//! knight or bishop `0100b`, rook `0010b`, queen or king `0001b`. The
//! nibbles are laid out exactly like the CCR (square `s` in byte `s / 2`,
//! even squares low), so the CCR's masks and displacements apply unchanged.
//!
//! The evaluation works on the four attack bitboards per side
//! ([`AttackPlanes`]); packing them into nibbles is a SIMD kernel
//! ([`pack_nibbles`], portable `wide` lanes, no `unsafe`) with a scalar twin
//! ([`pack_nibbles_scalar`]) that the tests hold it equal to.

use crate::bits::squares;
use crate::bits::{bishop_attacks, queen_attacks, rook_attacks};
use tetrad_simd::attacks::{king_attacks, knight_attacks, pawn_attacks_bb};
use tetrad_simd::{ccr_to_bitboards, Bitboards, Color, PieceType, Position, Square};
use wide::u64x4;

/// Attack-class bit of pawns.
pub const ATTACK_PAWN: u8 = 0b1000;
/// Attack-class bit of knights and bishops.
pub const ATTACK_MINOR: u8 = 0b0100;
/// Attack-class bit of rooks.
pub const ATTACK_ROOK: u8 = 0b0010;
/// Attack-class bit of queens and kings.
pub const ATTACK_QUEEN_KING: u8 = 0b0001;

/// Index of a class in [`AttackPlanes::by_class`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AttackClass {
    /// Pawns (bit `1000b`).
    Pawn = 0,
    /// Knights and bishops (bit `0100b`).
    Minor = 1,
    /// Rooks (bit `0010b`).
    Rook = 2,
    /// Queens and kings (bit `0001b`).
    QueenKing = 3,
}

/// Four attack bitboards per side, by attacker class.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct AttackPlanes {
    /// `by_class[colour][class]`: squares attacked by that side's pieces of that class.
    pub by_class: [[u64; 4]; 2],
}

impl AttackPlanes {
    /// Computes the planes of both sides from the bitboards.
    pub fn new(bb: &Bitboards) -> AttackPlanes {
        let occ = bb.occupied();
        let mut out = AttackPlanes::default();
        for c in Color::ALL {
            let planes = &mut out.by_class[c.index()];
            planes[0] = pawn_attacks_bb(c, bb.pieces(c, PieceType::Pawn));
            for s in squares(bb.pieces(c, PieceType::Knight)) {
                planes[1] |= knight_attacks(Square::new(s as u8));
            }
            for s in squares(bb.pieces(c, PieceType::Bishop)) {
                planes[1] |= bishop_attacks(Square::new(s as u8), occ);
            }
            for s in squares(bb.pieces(c, PieceType::Rook)) {
                planes[2] |= rook_attacks(Square::new(s as u8), occ);
            }
            for s in squares(bb.pieces(c, PieceType::Queen)) {
                planes[3] |= queen_attacks(Square::new(s as u8), occ);
            }
            for s in squares(bb.pieces(c, PieceType::King)) {
                planes[3] |= king_attacks(Square::new(s as u8));
            }
        }
        out
    }

    /// Every square a side attacks.
    #[inline(always)]
    pub fn all(&self, c: Color) -> u64 {
        let p = &self.by_class[c.index()];
        p[0] | p[1] | p[2] | p[3]
    }
}

/// Per side, 64 attack nibbles in CCR layout (four little-endian words of 16 squares).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[repr(C, align(32))]
pub struct AttackMap {
    /// `words[colour]`: square `s` at bits `4 (s % 16)` of word `s / 16`.
    pub words: [[u64; 4]; 2],
}

impl AttackMap {
    /// Packs the planes with the SIMD kernel.
    #[inline]
    pub fn from_planes(planes: &AttackPlanes) -> AttackMap {
        AttackMap { words: [pack_nibbles(&planes.by_class[0]), pack_nibbles(&planes.by_class[1])] }
    }

    /// The attack map of a position.
    pub fn of_position(pos: &Position) -> AttackMap {
        AttackMap::from_planes(&AttackPlanes::new(&ccr_to_bitboards(pos.ccr())))
    }

    /// The nibble of a side's attacks on a square.
    #[inline(always)]
    pub fn nibble(&self, c: Color, sq: Square) -> u8 {
        let s = sq.index();
        ((self.words[c.index()][s >> 4] >> (4 * (s & 15))) & 0xF) as u8
    }

    /// The map of one side as 32 CCR-shaped bytes.
    pub fn bytes(&self, c: Color) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, w) in self.words[c.index()].iter().enumerate() {
            out[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Whether side `c` attacks `sq` with a piece cheaper than a `victim`
    /// (pawns count as cheaper than minors, minors than rooks, rooks than queens).
    /// The classes' descending bit order makes this one comparison.
    #[inline(always)]
    pub fn attacked_by_lesser(&self, c: Color, sq: Square, victim: PieceType) -> bool {
        let cheaper_bits = match victim {
            PieceType::Pawn => 0,
            PieceType::Knight | PieceType::Bishop => ATTACK_PAWN,
            PieceType::Rook => ATTACK_PAWN | ATTACK_MINOR,
            PieceType::Queen | PieceType::King => ATTACK_PAWN | ATTACK_MINOR | ATTACK_ROOK,
        };
        self.nibble(c, sq) & cheaper_bits != 0
    }
}

/// Spreads 16 bits per lane into 16 nibbles (bit `i` to bit `4 i`).
#[inline(always)]
fn spread16(x: u64x4) -> u64x4 {
    let x = x & u64x4::splat(0xFFFF);
    let x = (x | (x << 24u32)) & u64x4::splat(0x0000_00FF_0000_00FF);
    let x = (x | (x << 12u32)) & u64x4::splat(0x000F_000F_000F_000F);
    let x = (x | (x << 6u32)) & u64x4::splat(0x0303_0303_0303_0303);
    (x | (x << 3u32)) & u64x4::splat(0x1111_1111_1111_1111)
}

#[inline(always)]
fn quarters(b: u64) -> u64x4 {
    u64x4::new([b, b >> 16, b >> 32, b >> 48])
}

/// SIMD kernel: four class planes (pawn, minor, rook, queen/king) to 64
/// nibbles in CCR layout. Each 64-bit lane handles 16 squares.
#[inline]
pub fn pack_nibbles(planes: &[u64; 4]) -> [u64; 4] {
    let p = spread16(quarters(planes[0])) << 3u32;
    let m = spread16(quarters(planes[1])) << 2u32;
    let r = spread16(quarters(planes[2])) << 1u32;
    let q = spread16(quarters(planes[3]));
    (p | m | r | q).to_array()
}

/// Scalar twin of [`pack_nibbles`]: one square at a time.
pub fn pack_nibbles_scalar(planes: &[u64; 4]) -> [u64; 4] {
    let bits = [ATTACK_PAWN, ATTACK_MINOR, ATTACK_ROOK, ATTACK_QUEEN_KING];
    let mut out = [0u64; 4];
    for s in 0..64 {
        let mut nib = 0u64;
        for (plane, bit) in planes.iter().zip(bits) {
            if plane >> s & 1 == 1 {
                nib |= bit as u64;
            }
        }
        out[s / 16] |= nib << (4 * (s % 16));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn kernel_matches_scalar_twin() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        for i in 0..20000 {
            let mut planes = [xorshift(&mut seed), xorshift(&mut seed), xorshift(&mut seed), xorshift(&mut seed)];
            if i % 3 == 0 {
                planes[i % 4] &= xorshift(&mut seed); // sparser sets too
            }
            if i < 4 {
                planes = [[0; 4], [u64::MAX; 4], [1, 0, 0, 1 << 63], [0x8000_0000_0000_0001; 4]][i];
            }
            assert_eq!(pack_nibbles(&planes), pack_nibbles_scalar(&planes), "planes {planes:x?}");
        }
    }

    #[test]
    fn paper_coding_on_a_position() {
        // White pawn d3 attacked by a black knight (b4) and rook (d8): nibble 0110b.
        let pos = Position::from_fen("3r2k1/8/8/8/1n6/3P4/8/4K3 w - - 0 1").unwrap();
        let map = AttackMap::of_position(&pos);
        let d3 = Square::parse("d3").unwrap();
        assert_eq!(map.nibble(Color::Black, d3), ATTACK_MINOR | ATTACK_ROOK);
        assert_eq!(map.nibble(Color::White, Square::parse("e4").unwrap()), ATTACK_PAWN);
        assert_eq!(map.nibble(Color::White, Square::parse("d2").unwrap()), ATTACK_QUEEN_KING);
        assert!(map.attacked_by_lesser(Color::Black, d3, PieceType::Queen));
        assert!(!map.attacked_by_lesser(Color::Black, d3, PieceType::Knight));
        assert_eq!(map.bytes(Color::Black)[d3.index() / 2] & 0xF0, (ATTACK_MINOR | ATTACK_ROOK) << 4);
    }
}
