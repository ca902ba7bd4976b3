//! Positions shared by the benches: the perft suite's (if present) plus random play.

use tetrad_simd::{legal_moves, Position};

/// Up to `n` positions: the suite file's, then positions along pseudo-random games.
pub fn positions(n: usize) -> Vec<Position> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/perft.epd");
    let mut starts: Vec<Position> = std::fs::read_to_string(path)
        .map(|t| t.lines().filter_map(|l| Position::from_fen(l.split(';').next()?.trim()).ok()).collect())
        .unwrap_or_default();
    starts.push(Position::startpos());
    let mut out: Vec<Position> = starts.iter().copied().take(n).collect();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |k: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % k as u64) as usize
    };
    let mut pos = starts[0];
    while out.len() < n {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            pos = starts[next(starts.len())];
            continue;
        }
        pos = pos.make_move(moves.as_slice()[next(moves.len())]);
        out.push(pos);
    }
    out
}
