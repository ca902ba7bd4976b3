//! Perft is the truth: every generator must match tests/data/perft.epd exactly.

mod common;

use tetrad_simd::perft::{parse_suite, perft, BitboardGenerator, CcrGenerator, Generator};
use tetrad_simd::Position;

/// Entries up to this many nodes are checked (the whole suite is ~1e10 nodes;
/// `tetrad perft --suite` checks it all).
const NODE_BUDGET: u64 = 5_000_000;

#[test]
fn perft_suite_ccr_generator() {
    let path = common::test_data("perft.epd");
    let cases = parse_suite(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(cases.len(), 168);
    let mut checked = 0u64;
    for case in &cases {
        let pos = Position::from_fen(&case.fen).unwrap();
        for &(depth, expected) in case.depths.iter().filter(|d| d.1 <= NODE_BUDGET) {
            assert_eq!(perft(&CcrGenerator, &pos, depth), expected, "{} depth {depth}", case.fen);
            checked += expected;
        }
    }
    eprintln!("checked {checked} nodes");
}

#[test]
fn perft_of_mirror_equals_perft() {
    let path = common::test_data("perft.epd");
    let cases = parse_suite(&std::fs::read_to_string(path).unwrap()).unwrap();
    for case in &cases {
        let pos = Position::from_fen(&case.fen).unwrap();
        let mirror = pos.flip_colors();
        for &(depth, expected) in case.depths.iter().filter(|d| d.1 <= 200_000) {
            assert_eq!(perft(&CcrGenerator, &mirror, depth), expected, "mirror of {} depth {depth}", case.fen);
        }
    }
}

/// Every Chess960 position with both generators: the bitboard generator on
/// entries up to 1e6 nodes (3,771 of 5,760 entries), the CCR generator up to
/// 1e5 (2,887). `tetrad perft --suite tests/data/perft960.epd` checks all.
#[test]
fn perft960_suite_both_generators() {
    let path = common::test_data("perft960.epd");
    let cases = parse_suite(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(cases.len(), 960);
    fn check<G: Generator + Sync>(gen: &G, cases: &[tetrad_simd::perft::PerftCase], budget: u64) -> usize {
        use rayon::prelude::*;
        cases
            .par_iter()
            .map(|case| {
                let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
                let mut n = 0;
                for &(depth, expected) in case.depths.iter().filter(|d| d.1 <= budget) {
                    assert_eq!(perft(gen, &pos, depth), expected, "{} depth {depth}", case.fen);
                    n += 1;
                }
                n
            })
            .sum()
    }
    assert_eq!(check(&BitboardGenerator, &cases, 1_000_000), 3771);
    assert_eq!(check(&CcrGenerator, &cases, 100_000), 2887);
}
