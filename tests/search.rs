//! Search behaviour through the library: bench determinism and mates.

use tetrad_eval::{EvalConfig, EvalKind};
use tetrad_search::bench::{run_bench, run_bench_threads};
use tetrad_search::{Engine, Limits, MATE_IN_MAX};
use tetrad_simd::Position;

#[test]
fn bench_node_count_is_deterministic() {
    for kind in [EvalKind::Hce, EvalKind::Nnue] {
        let cfg = EvalConfig { kind, ..EvalConfig::default() };
        let a = run_bench(6, 4, &cfg, |_| {}).0;
        let b = run_bench(6, 4, &cfg, |_| {}).0;
        assert_eq!(a, b, "{kind:?}");
        assert!(a > 0);
    }
}

#[test]
fn finds_mate_in_two() {
    let mut engine = Engine::new(1, 8);
    let pos = Position::from_fen("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1").unwrap();
    let out = engine.search_sync(pos, Vec::new(), Limits { depth: Some(6), ..Default::default() }, false);
    assert_eq!(out.best.to_string(), "d5f6");
    assert!(out.score >= MATE_IN_MAX);
}

/// A zugzwang where the null move lies: only Rf1 (giving the rook back)
/// holds. Verifying deep null-move cut-offs finds it by depth 20 (1.7 M
/// nodes); without verification it took until depth 24 (9.3 M nodes).
#[test]
fn null_move_verification_sees_a_zugzwang() {
    let mut engine = Engine::new(1, 16);
    let pos = Position::from_fen("8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1").unwrap();
    let out = engine.search_sync(pos, Vec::new(), Limits { depth: Some(20), ..Default::default() }, false);
    assert_eq!(out.best.to_string(), "e1f1");
}

/// A position the game reached once before the root is no draw when it
/// comes back (the opponent can still avoid the third time): a side a queen
/// down must not score its knight's way back as one. (Three-fold, and
/// two-fold inside the search, still are draws; this test does not check them.)
#[test]
fn one_earlier_occurrence_in_the_game_is_no_draw() {
    let mut pos = Position::from_fen("4k1n1/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let mut history = Vec::new();
    // Qd2 Nf6 Qd1 Ng8 Qd2: Black's Nf6 now brings back a position seen once.
    for m in ["d1d2", "g8f6", "d2d1", "f6g8", "d1d2"] {
        history.push(pos.key());
        pos = pos.make_move(tetrad_simd::parse_uci_move(&pos, m).unwrap());
    }
    let mut engine = Engine::new(1, 8);
    let out = engine.search_sync(pos, history, Limits { depth: Some(8), ..Default::default() }, false);
    assert!(out.score < -100, "Black a queen down scores {} (best {})", out.score, out.best);
}

/// A quiet move at the horizon that brings back a position for the third
/// time is a draw in quiescence too, not the static evaluation of the
/// position it repeats (fastchess warned of PVs that went on past one).
#[test]
fn a_repetition_at_the_horizon_is_a_draw() {
    let mut pos = Position::from_fen("4k1n1/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let mut history = Vec::new();
    // Qd2 Nf6 Qd1 Ng8 Qd2 Nf6 Qd1: Black's Ng8 now brings the start back a third time.
    for m in ["d1d2", "g8f6", "d2d1", "f6g8", "d1d2", "g8f6", "d2d1"] {
        history.push(pos.key());
        pos = pos.make_move(tetrad_simd::parse_uci_move(&pos, m).unwrap());
    }
    let mut engine = Engine::new(1, 8);
    let out = engine.search_sync(pos, history, Limits { depth: Some(1), ..Default::default() }, false);
    assert_eq!((out.best.to_string(), out.score), ("f6g8".to_string(), 0));
}

#[test]
fn several_threads_agree_on_a_legal_move() {
    let mut engine = Engine::new(3, 8);
    let pos = Position::startpos();
    let out = engine.search_sync(pos, Vec::new(), Limits { depth: Some(7), ..Default::default() }, false);
    assert!(tetrad_simd::is_legal(&pos, out.best));
}

#[test]
fn pool_bench_matches_the_signature_on_one_thread_and_runs_on_two() {
    // One thread through the pool searches exactly like the direct bench.
    let cfg = EvalConfig::default();
    let direct = run_bench(5, 4, &cfg, |_| {}).0;
    let pooled = run_bench_threads(5, 1, 4, &cfg, |_| {}).0;
    assert_eq!(direct, pooled);
    let mut lines = 0;
    let (nodes, _) = run_bench_threads(5, 2, 4, &cfg, |l| {
        lines += 1;
        assert!(l.best != "0000", "position {}", l.index);
    });
    assert_eq!(lines, tetrad_search::bench::BENCH_FENS.len());
    assert!(nodes > 0);
}

/// The node view is the only CCR -> bitboards conversion of a node: over a
/// whole bench, conversions never outnumber nodes (plus one per search for
/// the root's move list).
#[test]
fn at_most_one_conversion_per_node() {
    for kind in [EvalKind::Hce, EvalKind::Nnue] {
        let cfg = EvalConfig { kind, ..EvalConfig::default() };
        let before = tetrad_simd::convert::conversions();
        let (nodes, _) = run_bench(7, 4, &cfg, |_| {});
        let conversions = tetrad_simd::convert::conversions() - before;
        let searches = tetrad_search::bench::BENCH_FENS.len() as u64;
        eprintln!("{kind:?}: {nodes} nodes, {conversions} conversions");
        assert!(conversions <= nodes + 2 * searches, "{kind:?}: {conversions} conversions for {nodes} nodes");
        assert!(conversions * 2 > nodes, "the count should see the search's conversions");
    }
}
