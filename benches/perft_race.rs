//! One-run speed race: bulk-counting perft, one thread, Tetrad's generators
//! against cozy-chess on the same positions. `cargo bench --bench perft_race`
//! (set `RACE_REPS` to change the repetitions; the best time is kept).

use std::hint::black_box;
use std::time::Instant;
use tetrad_simd::perft::{perft, BitboardGenerator, CcrGenerator, Generator};
use tetrad_simd::{MoveList, Position};

mod common;

use common::{cozy_perft, KIWIPETE, STARTPOS};

/// The bitboard generator writing a list even at the last ply (no set-wise counting).
struct BitboardListOnly;

impl Generator for BitboardListOnly {
    fn legal(&self, pos: &Position, list: &mut MoveList) {
        BitboardGenerator.legal(pos, list);
    }
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
