//! Position keys, two ways.
//!
//! * [`Zobrist`]: classic random keys, updated incrementally by make-move.
//! * [`direct_key`]: the CCR paper's idea (section 5.4) of a key made from the
//!   board itself with no random tables — here each 64-bit lane of the CCR is
//!   multiplied by its own odd constant, rotated by a prime, and the lanes are
//!   folded and finished with a strong mixer. It is recomputed from scratch,
//!   which is cheap for 32 bytes.

use crate::ccr::Ccr;
use crate::types::{Color, Square};

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Random keys for incremental hashing.
pub struct Zobrist {
    /// `[ccr code][square]`; rows 0, 7, 8, 15 are zero (no such piece).
    pub piece: [[u64; 64]; 16],
    /// One key per castling-rights value (all 16 combinations).
    pub castle: [u64; 16],
    /// En-passant file keys.
    pub ep: [u64; 8],
    /// Toggled when Black is to move.
    pub side: u64,
}

const fn make_keys() -> Zobrist {
    let mut s = 0x7E7A_D000_C0DE_2026u64;
    let mut piece = [[0u64; 64]; 16];
    let mut code = 0;
    while code < 16 {
        let valid = (code >= 1 && code <= 6) || (code >= 9 && code <= 14);
        let mut sq = 0;
        while sq < 64 {
            let k = splitmix(&mut s);
            if valid {
                piece[code][sq] = k;
            }
            sq += 1;
        }
        code += 1;
    }
    let mut castle_bits = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        castle_bits[i] = splitmix(&mut s);
        i += 1;
    }
    let mut castle = [0u64; 16];
    let mut c = 0;
    while c < 16 {
        let mut b = 0;
        while b < 4 {
            if c & (1 << b) != 0 {
                castle[c] ^= castle_bits[b];
            }
            b += 1;
        }
        c += 1;
    }
    let mut ep = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        ep[f] = splitmix(&mut s);
        f += 1;
    }
    let side = splitmix(&mut s);
    Zobrist { piece, castle, ep, side }
}

/// The engine's Zobrist keys.
pub static ZOBRIST: Zobrist = make_keys();

/// Zobrist key of a full position state, computed from scratch.
pub fn zobrist_from_scratch(ccr: &Ccr, stm: Color, castling: u8, ep: Option<Square>) -> u64 {
    let mut k = 0u64;
    for sq in Square::all() {
        k ^= ZOBRIST.piece[ccr.code(sq) as usize][sq.index()];
    }
    k ^= ZOBRIST.castle[castling as usize & 15];
    if let Some(e) = ep {
        k ^= ZOBRIST.ep[e.file() as usize];
    }
    if stm == Color::Black {
        k ^= ZOBRIST.side;
    }
    k
}

/// Odd multipliers and prime rotations, one per 64-bit lane of the CCR.
const LANE_MUL: [u64; 4] = [0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0xD6E8_FEB8_6659_FD93];
const LANE_ROT: [u32; 4] = [13, 29, 41, 53];

#[inline(always)]
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z ^ (z >> 32)
}

/// The direct (table-free) key of the board plus side, castling and en-passant file.
///
/// The four lanes are independent, so the compiler maps the multiply/rotate
/// step onto vector instructions (AVX-512DQ `vpmullq`, `vprolq`) where present.
#[inline]
pub fn direct_key(ccr: &Ccr, stm: Color, castling: u8, ep: Option<Square>) -> u64 {
    let w = ccr.words();
    let mut lanes = [0u64; 4];
    for i in 0..4 {
        // A murmur-style finaliser per lane: multiply, xor-shift, multiply, rotate.
        let t = (w[i] ^ LANE_MUL[(i + 1) & 3]).wrapping_mul(LANE_MUL[i]);
        lanes[i] = (t ^ (t >> 29)).wrapping_mul(LANE_MUL[(i + 2) & 3]).rotate_left(LANE_ROT[i]);
    }
    let state = (stm as u64) | ((castling as u64) << 1) | (ep.map_or(0, |s| s.file() as u64 + 1) << 5);
    let folded = (lanes[0] ^ lanes[1].rotate_left(7)) ^ (lanes[2].wrapping_add(lanes[3].rotate_left(19)));
    mix64(folded ^ state.wrapping_mul(0xA076_1D64_78BD_642F))
}
