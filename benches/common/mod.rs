//! Shared by the benches: the perft suite's positions (if present) plus random
//! play, the two classic perft positions, and cozy-chess's bulk perft.
#![allow(dead_code)] // each bench uses part of this module

use tetrad_simd::{legal_moves, Position};

/// Up to `n` positions: the suite file's, then positions along pseudo-random games.
pub fn positions(n: usize) -> Vec<Position> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.epd");
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

/// Kiwipete, the classic perft stress position.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// The start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// cozy-chess bulk perft, as in its own `examples/perft.rs`.
pub fn cozy_perft(board: &cozy_chess::Board, depth: u8) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes += 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}
