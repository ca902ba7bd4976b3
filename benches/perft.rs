//! Perft side by side with cozy-chess (startpos depth 5, Kiwipete depth 4,
//! bulk counting, one thread), and the cost of copy-make.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use tetrad_simd::perft::{perft, BitboardGenerator, CcrGenerator};
use tetrad_simd::{legal_moves, Move, Position};

mod common;

use common::{cozy_perft, KIWIPETE, STARTPOS};

fn perft_benches(c: &mut Criterion) {
    for (name, fen, depth, expected) in
        [("startpos d5", STARTPOS, 5u32, 4_865_609u64), ("kiwipete d4", KIWIPETE, 4, 4_085_603)]
    {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let board = cozy_chess::Board::from_fen(fen, false).expect("valid FEN");
        assert_eq!(perft(&CcrGenerator, &pos, depth), expected);
        assert_eq!(perft(&BitboardGenerator, &pos, depth), expected);
        assert_eq!(cozy_perft(&board, depth as u8), expected);
        let mut g = c.benchmark_group(format!("perft {name}"));
        g.throughput(Throughput::Elements(expected));
        g.sample_size(10).measurement_time(Duration::from_secs(4));
        g.bench_function("tetrad ccr", |b| {
            b.iter(|| assert_eq!(perft(&CcrGenerator, black_box(&pos), depth), expected))
        });
        g.bench_function("tetrad bitboard", |b| {
            b.iter(|| assert_eq!(perft(&BitboardGenerator, black_box(&pos), depth), expected))
        });
        g.bench_function("cozy-chess", |b| b.iter(|| assert_eq!(cozy_perft(black_box(&board), depth as u8), expected)));
        g.finish();
    }
}

fn copy_make(c: &mut Criterion) {
    // Every legal move of 256 positions: (position, move) pairs, and the same for cozy-chess.
    let mut pairs: Vec<(Position, Move)> = Vec::new();
    let mut cozy: Vec<(cozy_chess::Board, cozy_chess::Move)> = Vec::new();
    for p in common::positions(256) {
        let board = cozy_chess::Board::from_fen(&p.to_fen(), false).expect("same position");
        for &m in legal_moves(&p).iter() {
            pairs.push((p, m));
            let text = m.to_string();
            board.generate_moves(|ms| {
                cozy.extend(ms.into_iter().filter(|cm| cm.to_string() == text).map(|cm| (board.clone(), cm)));
                false
            });
        }
    }
    let mut g = c.benchmark_group("copy-make");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("tetrad Position::make_move", |b| {
        b.iter(|| {
            pairs.iter().for_each(|(p, m)| {
                black_box(black_box(p).make_move(*m));
            })
        })
    });
    g.throughput(Throughput::Elements(cozy.len() as u64));
    g.bench_function("cozy-chess clone+play_unchecked", |b| {
        b.iter(|| {
            cozy.iter().for_each(|(bd, m)| {
                let mut child = black_box(bd).clone();
                child.play_unchecked(*m);
                black_box(child);
            })
        })
    });
    g.finish();
}

criterion_group!(benches, perft_benches, copy_make);
criterion_main!(benches);
