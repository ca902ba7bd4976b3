//! Evaluation speed: CCR→bitboard conversion plus the full evaluation, per
//! position, over a fixed set of varied positions (perft suite + seeded
//! random play), with the pawn hash warm (hits) and without it.
//!
//! The network is timed from scratch (bias plus a row per piece) and through
//! the per-thread cache, walking the set in order (each position three plies
//! after the one before, so the cache adds and subtracts about six rows).
//!
//! Run: `cargo bench --bench eval`. Criterion reports the time for the whole
//! set and the throughput in positions per second; ns/position = time / N.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tetrad_eval::{evaluate_nnue_uncached, evaluate_uncached, EvalConfig, EvalKind, Evaluator};
use tetrad_simd::{ccr_to_bitboards, Position};

fn positions() -> Vec<Position> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.epd");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out: Vec<Position> =
        text.lines().filter_map(|l| l.split(';').next()).filter_map(|f| Position::from_fen(f.trim()).ok()).collect();
    tetrad_simd::sample::extend_random_walk(&mut out, 2000, 0x0123_4567_89AB_CDEF);
    out
}

fn bench(c: &mut Criterion) {
    let set = positions();
    let mut g = c.benchmark_group("eval");
    g.throughput(Throughput::Elements(set.len() as u64));
    g.bench_function("conversion_only", |b| {
        b.iter(|| set.iter().map(|p| ccr_to_bitboards(black_box(p).ccr()).by_code[1]).fold(0u64, |a, x| a ^ x))
    });
    let mut ev = Evaluator::hce();
    g.bench_function("pawn_hash_hits", |b| {
        b.iter(|| set.iter().map(|p| ev.evaluate(black_box(p))).fold(0i32, i32::wrapping_add))
    });
    g.bench_function("no_pawn_hash", |b| {
        b.iter(|| set.iter().map(|p| evaluate_uncached(black_box(p))).fold(0i32, i32::wrapping_add))
    });
    let net = tetrad_eval::nnue::default_network();
    g.bench_function("nnue_scratch", |b| {
        b.iter(|| set.iter().map(|p| evaluate_nnue_uncached(black_box(p), net)).fold(0i32, i32::wrapping_add))
    });
    let mut nn = Evaluator::with_config(&EvalConfig { kind: EvalKind::Nnue, net: std::sync::Arc::clone(net) });
    g.bench_function("nnue_cached_walk", |b| {
        b.iter(|| set.iter().map(|p| nn.evaluate_at(black_box(p), 1)).fold(0i32, i32::wrapping_add))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
