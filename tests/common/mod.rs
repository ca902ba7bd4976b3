//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use tetrad_simd::{legal_moves, Position};

/// Path of a file in `../shared/data/` beside the repository, if present.
pub fn shared_data(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data").join(name);
    p.exists().then_some(p)
}

/// A small deterministic PRNG (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    /// Next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions along seeded random games from the start position.
pub fn random_positions(seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..max_plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() || pos.halfmove_clock() >= 100 {
                break;
            }
            pos = pos.make_move(moves.as_slice()[rng.below(moves.len())]);
            out.push(pos);
        }
    }
    out
}
