//! The evaluation network: (768 → [`HIDDEN`]) × 2 perspectives → SCReLU →
//! one output chosen by material ([`BUCKETS`] output buckets).
//!
//! Its input is the node's bitboards themselves: feature `(colour relative to
//! the perspective, piece kind, square seen from the perspective)` is on when
//! that bit is set. The first layer is a sum of weight rows, one per set bit,
//! computed with SIMD ([`kernels`]) from the bitboards when a node needs an
//! evaluation; nothing is carried in the copied position. A per-thread
//! [`cache::NnueCache`] remembers the bitboards it last summed at each ply and
//! adds or subtracts only the rows of squares that differ (the idea of
//! Stockfish's accumulator refresh tables), so a child costs a few rows, not
//! thirty.
//!
//! Quantisation: first-layer weights and biases are `i16` at scale
//! [`QA`] = 255, output weights `i16` at [`QB`] = 64, output bias `i32` at
//! `QA·QB`. SCReLU is `clamp(x, 0, QA)²`; the output in centipawns is
//! `(Σ screlu·w / QA + b) · SCALE / (QA·QB)`.

pub mod cache;
pub mod file;
pub mod kernels;

pub use cache::NnueCache;
pub use file::{NetError, Network};

use tetrad_simd::{Bitboards, Color, PieceType};

/// Inputs per perspective: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// Width of the first layer (per perspective).
pub const HIDDEN: usize = 256;
/// Output buckets, chosen by the number of pieces on the board.
pub const BUCKETS: usize = 8;
/// Activation scale of the first layer.
pub const QA: i32 = 255;
/// Weight scale of the output layer.
pub const QB: i32 = 64;
/// Network output unit → centipawns.
pub const SCALE: i32 = 400;
/// The search sees `SEARCH_PCT`% of the network's centipawns. Fitted partly
/// to game results, the built-in network scores positions 1.36× higher than
/// the hand-written evaluation (381 positions of `texel_sample.epd`, median
/// |score| 245 vs 174), and the search's margins (futility, razoring,
/// ProbCut, aspiration) were tuned on the latter: at 73 the network build
/// scored +31.4 ± 26.0 Elo against itself at 100 (300 games, 2+0.02).
pub const SEARCH_PCT: i32 = 73;

/// The network compiled into the engine (see README for how it was made).
pub static DEFAULT_NET: &[u8] = include_bytes!("../../nets/default.tnn");

/// First-layer sums of one position, both perspectives (White's first).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// `v[perspective][neuron]`.
    pub v: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { v: [[0; HIDDEN]; 2] }
    }
}

/// Row index of a piece on a square, for one perspective.
#[inline(always)]
pub fn feature(perspective: Color, color: Color, kind: PieceType, sq: usize) -> usize {
    let flip = if perspective == Color::White { 0 } else { 56 };
    usize::from(color != perspective) * 384 + kind.index() * 64 + (sq ^ flip)
}

/// Output bucket of a position with `pieces` pieces on the board (kings included).
#[inline(always)]
pub fn bucket(pieces: u32) -> usize {
    ((pieces.saturating_sub(2) / 4) as usize).min(BUCKETS - 1)
}

/// The CCR codes of the twelve pieces, white pawn first.
pub const PIECE_CODES: [u8; 12] = [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14];

/// Feature row offsets (`feature * HIDDEN`) of a piece code's set bit, both perspectives.
#[inline(always)]
pub fn rows(code: u8, sq: usize) -> [usize; 2] {
    let color = if code & 8 == 0 { Color::White } else { Color::Black };
    let kind = PieceType::from_bits(code & 7).unwrap_or(PieceType::Pawn);
    [feature(Color::White, color, kind, sq) * HIDDEN, feature(Color::Black, color, kind, sq) * HIDDEN]
}

impl Network {
    /// Sums the first layer from scratch: bias plus one row per set bit.
    pub fn refresh(&self, bb: &Bitboards, acc: &mut Accumulator) {
        // One row per piece; at most one piece a square.
        let mut adds = [[0usize; 64]; 2];
        let mut n = 0;
        for code in PIECE_CODES {
            let mut set = bb.by_code[code as usize];
            while set != 0 && n < 64 {
                let [w, b] = rows(code, set.trailing_zeros() as usize);
                set &= set - 1;
                adds[0][n] = w;
                adds[1][n] = b;
                n += 1;
            }
        }
        for (p, rows) in adds.iter().enumerate() {
            kernels::update(&self.b1, &mut acc.v[p], &self.w1, &rows[..n], &[]);
        }
    }

    /// The output in centipawns for the side to move, given its accumulator.
    #[inline]
    pub fn output(&self, acc: &Accumulator, stm: Color, pieces: u32) -> i32 {
        let b = bucket(pieces);
        let (us, them) = (&acc.v[stm.index()], &acc.v[stm.flip().index()]);
        let w = &self.w2[b];
        let sum = kernels::screlu_dot(us, &w[..HIDDEN]).wrapping_add(kernels::screlu_dot(them, &w[HIDDEN..]));
        (sum / QA + self.b2[b]) * SCALE / (QA * QB)
    }

    /// Evaluates bitboards from scratch (no cache): centipawns for `stm`.
    pub fn evaluate(&self, bb: &Bitboards, stm: Color) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(bb, &mut acc);
        self.output(&acc, stm, bb.occupied().count_ones())
    }
}

/// The built-in network, parsed once.
pub fn default_network() -> &'static std::sync::Arc<Network> {
    static NET: std::sync::OnceLock<std::sync::Arc<Network>> = std::sync::OnceLock::new();
    NET.get_or_init(|| std::sync::Arc::new(Network::from_bytes(DEFAULT_NET).expect("the built-in network is valid")))
}
