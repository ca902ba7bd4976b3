//! Test helpers: a small RNG, the perft suite's positions, random games.

use crate::movegen::legal_moves;
use crate::position::Position;

/// xorshift64*: deterministic and good enough to pick moves.
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> XorShift {
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// The perft suite's text (tests/data/perft.epd), if the file is there.
pub fn suite_text() -> Option<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/perft.epd");
    match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) => {
            // Under CI a missing suite is a failure, not a silent skip.
            let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
            assert!(!ci, "CI is set but the perft suite {path} is not readable ({e})");
            eprintln!("note: perft suite {path} not readable ({e}); skipping its positions");
            None
        }
    }
}

/// The suite's positions (empty if the file is absent), plus the start position.
pub fn suite_positions() -> Vec<Position> {
    let mut v = vec![Position::startpos()];
    if let Some(text) = suite_text() {
        for line in text.lines() {
            let fen = line.split(';').next().unwrap_or("").trim();
            if let Ok(p) = Position::from_fen(fen) {
                v.push(p);
            }
        }
    }
    v
}

/// Positions along random games from the suite positions, `n` in all.
pub fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let starts = suite_positions();
    let mut rng = XorShift::new(seed);
    let mut out = Vec::with_capacity(n);
    let mut pos = starts[0];
    let mut plies = 0;
    while out.len() < n {
        let moves = legal_moves(&pos);
        if moves.is_empty() || plies > 200 {
            pos = starts[rng.below(starts.len())];
            plies = 0;
            continue;
        }
        pos = pos.make_move(moves.as_slice()[rng.below(moves.len())]);
        plies += 1;
        out.push(pos);
    }
    out
}
