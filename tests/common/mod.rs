//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod uci_engine;

use std::path::PathBuf;
use tetrad_simd::{legal_moves, Position};

/// Whether the tests run under CI (`CI` set to anything but `false` or `0`).
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Skips a test for a missing tool or file, saying why; under CI it fails
/// instead, so that CI cannot pass by checking nothing.
pub fn skip(reason: &str) {
    assert!(!under_ci(), "CI is set but {reason}: the test would check nothing");
    eprintln!("skipping: {reason}");
}

/// Path of a file or folder in `tests/data/` (in the repository: a clone
/// runs every test with nothing beside it).
pub fn test_data(name: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    assert!(p.exists(), "{} is missing from the repository", p.display());
    p
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
