//! Perft is the truth: every generator must match ../shared/data/perft.epd exactly.

mod common;

use tetrad_simd::perft::{parse_suite, perft, CcrGenerator};
use tetrad_simd::Position;

/// Entries up to this many nodes are checked (the whole suite is ~1e10 nodes;
/// `tetrad perft --suite` checks it all).
const NODE_BUDGET: u64 = 5_000_000;

#[test]
fn perft_suite_ccr_generator() {
    let Some(path) = common::shared_data("perft.epd") else {
        eprintln!("skipping: ../shared/data/perft.epd not found");
        return;
    };
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
    let Some(path) = common::shared_data("perft.epd") else { return };
    let cases = parse_suite(&std::fs::read_to_string(path).unwrap()).unwrap();
    for case in &cases {
        let pos = Position::from_fen(&case.fen).unwrap();
        let mirror = pos.flip_colors();
        for &(depth, expected) in case.depths.iter().filter(|d| d.1 <= 200_000) {
            assert_eq!(perft(&CcrGenerator, &mirror, depth), expected, "mirror of {} depth {depth}", case.fen);
        }
    }
}
