//! One-run speed race: bulk-counting perft, one thread, Tetrad's generators
//! against cozy-chess on the same positions. `cargo bench --bench perft_race`
//! (set `RACE_REPS` to change the repetitions; the best time is kept).

use std::hint::black_box;
use std::time::Instant;
use tetrad_simd::perft::{perft, BitboardGenerator, CcrGenerator, Generator};
use tetrad_simd::{MoveList, Position};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The bitboard generator writing a list even at the last ply (no set-wise counting).
struct BitboardListOnly;

impl Generator for BitboardListOnly {
    fn legal(&self, pos: &Position, list: &mut MoveList) {
        BitboardGenerator.legal(pos, list);
    }
}

/// cozy-chess bulk perft, as in its own `examples/perft.rs`.
fn cozy_perft(board: &cozy_chess::Board, depth: u8) -> u64 {
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

fn best_of(reps: usize, expected: u64, mut f: impl FnMut() -> u64) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..reps {
        let t = Instant::now();
        let n = black_box(f());
        let s = t.elapsed().as_secs_f64();
        assert_eq!(n, expected, "wrong perft count");
        best = best.min(s);
    }
    best
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    let reps: usize = std::env::var("RACE_REPS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let cases = [("startpos", STARTPOS, 6u32, 119_060_324u64), ("kiwipete", KIWIPETE, 5, 193_690_690)];
    println!("perft race: bulk counting, one thread, best of {reps}");
    println!("{:<10} {:>2} {:<26} {:>9} {:>9} {:>9}", "position", "d", "generator", "seconds", "Mnps", "vs cozy");
    for (name, fen, depth, expected) in cases {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let board = cozy_chess::Board::from_fen(fen, false).expect("valid FEN");
        let cozy = best_of(reps, expected, || cozy_perft(&board, depth as u8));
        let rows: [(&str, f64); 4] = [
            ("cozy-chess 0.3", cozy),
            ("tetrad bitboard (default)", best_of(reps, expected, || perft(&BitboardGenerator, &pos, depth))),
            ("tetrad bitboard, list leaf", best_of(reps, expected, || perft(&BitboardListOnly, &pos, depth))),
            ("tetrad ccr", best_of(reps, expected, || perft(&CcrGenerator, &pos, depth))),
        ];
        for (gen, secs) in rows {
            println!(
                "{name:<10} {depth:>2} {gen:<26} {secs:>9.3} {:>9.1} {:>8.2}x",
                expected as f64 / secs / 1e6,
                cozy / secs
            );
        }
    }
}
