//! CCR ↔ bitboards: every kernel this CPU runs, over a fixed set of 1024 positions.
//! Criterion's throughput line gives the time per conversion.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tetrad_simd::convert::ccr_to_bitboards_scalar;
use tetrad_simd::convert::{bitboards_to_ccr, ccr_to_bitboards, forward_kernels, reverse_kernels};
use tetrad_simd::{Bitboards, Ccr};

mod common;

fn bench(c: &mut Criterion) {
    let ccrs: Vec<Ccr> = common::positions(1024).iter().map(|p| *p.ccr()).collect();
    let bbs: Vec<Bitboards> = ccrs.iter().map(ccr_to_bitboards).collect();

    let mut g = c.benchmark_group("ccr_to_bitboards");
    g.throughput(Throughput::Elements(ccrs.len() as u64));
    // Direct (inlined) calls: the paper's loop and the compile-time choice.
    g.bench_function("scalar loop (direct)", |b| {
        b.iter(|| {
            ccrs.iter().for_each(|c| {
                black_box(ccr_to_bitboards_scalar(black_box(c)));
            })
        })
    });
    g.bench_function("dispatched (direct)", |b| {
        b.iter(|| {
            ccrs.iter().for_each(|c| {
                black_box(ccr_to_bitboards(black_box(c)));
            })
        })
    });
    // Every kernel through a function pointer (same call overhead for all).
    for (name, k) in forward_kernels() {
        g.bench_function(format!("{name} (fn ptr)"), |b| {
            b.iter(|| {
                ccrs.iter().for_each(|c| {
                    black_box(k(black_box(c)));
                })
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("bitboards_to_ccr");
    g.throughput(Throughput::Elements(bbs.len() as u64));
    g.bench_function("dispatched (direct)", |b| {
        b.iter(|| {
            bbs.iter().for_each(|x| {
                black_box(bitboards_to_ccr(black_box(x)));
            })
        })
    });
    for (name, k) in reverse_kernels() {
        g.bench_function(format!("{name} (fn ptr)"), |b| {
            b.iter(|| {
                bbs.iter().for_each(|x| {
                    black_box(k(black_box(x)));
                })
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
