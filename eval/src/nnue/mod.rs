//! The evaluation network: (768 × king buckets → hidden) × 2 perspectives
//! → SCReLU → one output chosen by material ([`BUCKETS`] output buckets).
//! The shape ([`arch::Arch`]: width, king buckets with a↔h mirroring), the
//! output scale and the share of it the search sees come from the file's
//! header ([`mod@file`]).
//!
//! Its input is the node's bitboards themselves: feature `(king bucket,
//! colour relative to the perspective, piece kind, square seen from the
//! perspective)` is on when that bit is set. The first layer is a sum of
//! weight rows, one per set bit, computed with SIMD ([`kernels`]) from the
//! bitboards when a node needs an evaluation; nothing is carried in the
//! copied position. A per-thread [`cache::NnueCache`] remembers the
//! bitboards it last summed at each ply, and per king bucket, and adds or
//! subtracts only the rows of squares that differ (Stockfish's accumulator
//! refresh tables), so a child costs a few rows, not thirty.
//!
//! Quantisation: first-layer weights and biases are `i16` at scale
//! [`QA`] = 255, output weights `i16` at [`QB`] = 64, output bias `i32` at
//! `QA·QB`. SCReLU is `clamp(x, 0, QA)²`; the output in centipawns is
//! `(Σ screlu·w / QA + b) · scale / (QA·QB)`.

pub mod aligned;
pub mod arch;
pub mod cache;
pub mod file;
pub mod kernels;

pub use arch::{Arch, KingBuckets, PerspectiveView, INPUTS};
pub use cache::NnueCache;
pub use file::{NetError, Network};

use tetrad_simd::{Bitboards, Color};

/// Output buckets, chosen by the number of pieces on the board.
pub const BUCKETS: usize = 8;
/// Activation scale of the first layer.
pub const QA: i32 = 255;
/// Weight scale of the output layer.
pub const QB: i32 = 64;

/// The network compiled into the engine (see README for how it was made).
pub static DEFAULT_NET: &[u8] = include_bytes!("../../nets/default.tnn");

/// Output bucket of a position with `pieces` pieces on the board (kings included).
#[inline(always)]
pub fn bucket(pieces: u32) -> usize {
    ((pieces.saturating_sub(2) / 4) as usize).min(BUCKETS - 1)
}

/// The CCR codes of the twelve pieces, white pawn first.
pub const PIECE_CODES: [u8; 12] = [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14];

impl Network {
    /// First-layer width.
    #[inline(always)]
    pub fn hidden(&self) -> usize {
        self.arch.hidden
    }

    /// One perspective's first layer from scratch: bias plus one row per set bit.
    pub fn refresh(&self, bb: &Bitboards, view: &PerspectiveView, out: &mut [i16]) {
        let h = self.hidden();
        let mut adds = [0usize; 64];
        let mut n = 0;
        for code in PIECE_CODES {
            let mut set = bb.by_code[code as usize];
            while set != 0 && n < 64 {
                adds[n] = view.feature_of_code(code, set.trailing_zeros() as usize) * h;
                set &= set - 1;
                n += 1;
            }
        }
        kernels::update(out, Some(&self.b1), &self.w1, &adds[..n], &[]);
    }

    /// The output in the network's centipawns for the side to move, given
    /// its accumulator (`us`) and the opponent's (`them`).
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], pieces: u32) -> i32 {
        let (b, h) = (bucket(pieces), self.hidden());
        let w = &self.w2[b * 2 * h..(b + 1) * 2 * h];
        let sum = kernels::screlu_dot(us, &w[..h]).wrapping_add(kernels::screlu_dot(them, &w[h..]));
        self.centipawns(sum, b)
    }

    /// [`Network::output`] for a width `H` known when compiling (the cache's).
    #[inline(always)]
    pub fn output_fixed<const H: usize>(&self, us: &[i16; H], them: &[i16; H], pieces: u32) -> i32 {
        let b = bucket(pieces);
        let (w, _) = self.w2.as_chunks::<H>();
        let sum = kernels::dot_fixed(us, &w[2 * b]).wrapping_add(kernels::dot_fixed(them, &w[2 * b + 1]));
        self.centipawns(sum, b)
    }

    /// The output layer's sum (scale `QA²·QB`) of bucket `b` in centipawns.
    #[inline(always)]
    fn centipawns(&self, sum: i32, b: usize) -> i32 {
        ((i64::from(sum / QA) + i64::from(self.b2[b])) * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// Evaluates bitboards from scratch (no cache): the network's centipawns for `stm`.
    pub fn evaluate(&self, bb: &Bitboards, stm: Color) -> i32 {
        let h = self.hidden();
        let views = self.arch.views(bb);
        let mut acc = vec![0i16; 2 * h];
        let (white, black) = acc.split_at_mut(h);
        self.refresh(bb, &views[0], white);
        self.refresh(bb, &views[1], black);
        let (us, them) = if stm == Color::White { (&*white, &*black) } else { (&*black, &*white) };
        self.output(us, them, bb.occupied().count_ones())
    }
}

/// The built-in network, parsed once.
pub fn default_network() -> &'static std::sync::Arc<Network> {
    static NET: std::sync::OnceLock<std::sync::Arc<Network>> = std::sync::OnceLock::new();
    NET.get_or_init(|| std::sync::Arc::new(Network::from_bytes(DEFAULT_NET).expect("the built-in network is valid")))
}
