//! Quick timing of the evaluation (minimum over repetitions, robust on a
//! busy machine): `cargo run --release -p tetrad-eval --example eval_speed`.

use std::hint::black_box;
use std::time::Instant;
use tetrad_eval::{evaluate_uncached, Evaluator};
use tetrad_simd::{ccr_to_bitboards, Position};

fn positions(n: usize) -> Vec<Position> {
    let mut out = Vec::new();
    tetrad_simd::sample::extend_random_walk(&mut out, n, 0x0123_4567_89AB_CDEF);
    out
}

fn time(name: &str, set: &[Position], mut f: impl FnMut(&Position) -> i64) {
    let mut best = f64::MAX;
    for _ in 0..200 {
        let t = Instant::now();
        let mut acc = 0i64;
        for p in set {
            acc = acc.wrapping_add(f(black_box(p)));
        }
        black_box(acc);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{name:>16}: {:6.1} ns/position", best * 1e9 / set.len() as f64);
}

fn main() {
    let set = positions(2000);
    time("conversion", &set, |p| ccr_to_bitboards(p.ccr()).by_code[1] as i64);
    let mut ev = Evaluator::hce();
    time("pawn hash hits", &set, |p| ev.evaluate(p) as i64);
    time("no pawn hash", &set, |p| evaluate_uncached(p) as i64);
}
