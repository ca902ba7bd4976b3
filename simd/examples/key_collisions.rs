//! Counts collisions of the paper's table-free direct key (section 5.4) over
//! distinct positions from perft trees, using the Zobrist key plus the FEN
//! state as the identity of a position.
//!
//! `cargo run --release -p tetrad-simd --example key_collisions [TARGET]`
//! (TARGET distinct positions, default 100 000 000; needs ~4 GB of memory).

use tetrad_simd::{legal_moves, Position};

/// Walks the tree below `pos` to `depth`, recording (direct key, Zobrist key, board words).
fn walk(pos: &Position, depth: u32, out: &mut Vec<(u64, u64)>) {
    out.push((pos.direct_key(), pos.key()));
    if depth == 0 {
        return;
    }
    for &m in legal_moves(pos).iter() {
        walk(&pos.make_move(m), depth - 1, out);
    }
}

fn main() {
    let target: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000_000);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/perft.epd");
    let text = std::fs::read_to_string(path).expect("tests/data/perft.epd");
    let cases = tetrad_simd::perft::parse_suite(&text).expect("suite parses");
    let mut seen: Vec<(u64, u64)> = Vec::new();
    // Deepest tree per position under a node budget; deeper passes until the target is met.
    'outer: for max_nodes in [3_000_000u64, 30_000_000, 250_000_000] {
        for case in &cases {
            let Some(&(depth, _)) = case.depths.iter().rfind(|d| d.1 <= max_nodes) else { continue };
            let pos = Position::from_fen(&case.fen).expect("suite FEN");
            let mut batch = Vec::new();
            walk(&pos, depth, &mut batch);
            batch.sort_unstable();
            batch.dedup();
            seen.extend(batch);
            if seen.len() > target + target / 2 {
                seen.sort_unstable();
                seen.dedup();
                eprintln!("{} distinct so far", seen.len());
                if seen.len() >= target {
                    break 'outer;
                }
            }
        }
    }
    seen.sort_unstable();
    seen.dedup();
    // Distinct positions = distinct Zobrist keys (a 64-bit Zobrist collision
    // among 1e8 positions has probability ~3e-4).
    let mut zob: Vec<u64> = seen.iter().map(|p| p.1).collect();
    zob.sort_unstable();
    zob.dedup();
    let collisions = seen.windows(2).filter(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1).count();
    println!("{} distinct positions (by Zobrist key), {} distinct (direct, zobrist) pairs", zob.len(), seen.len());
    println!("direct-key collisions: {collisions}");
}
