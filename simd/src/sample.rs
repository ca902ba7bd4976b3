//! Deterministic sample positions for benches and examples: a seeded random
//! walk from the start position (every third ply, restarting after 120 plies
//! or at a game's end).

use crate::movegen::legal_moves;
use crate::position::Position;

/// Appends positions from the seeded walk to `out` until it holds `n`.
pub fn extend_random_walk(out: &mut Vec<Position>, n: usize, mut seed: u64) {
    seed |= 1;
    let mut pos = Position::startpos();
    let mut ply = 0;
    while out.len() < n {
        // xorshift64
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let moves = legal_moves(&pos);
        if moves.is_empty() || ply >= 120 {
            pos = Position::startpos();
            ply = 0;
            continue;
        }
        pos = pos.make_move(moves.as_slice()[(seed % moves.len() as u64) as usize]);
        ply += 1;
        if ply % 3 == 0 {
            out.push(pos);
        }
    }
}
