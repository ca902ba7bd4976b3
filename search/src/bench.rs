//! `bench`: a fixed set of positions searched to a fixed depth on one thread
//! with a fresh table each, for node-count signatures (`Bench: N`) and nps.
//!
//! Positions: 20 openings after 8 moves (book_8moves_v3), 15 middlegames from
//! Win At Chess and 15 endgames from the Eigenmann Endgame Test.

use crate::limits::Limits;
use crate::pool::Engine;
use crate::tt::TranspositionTable;
use crate::worker::{SearchJob, Worker};
use std::sync::Arc;
use std::time::Instant;
use tetrad_eval::EvalConfig;
use tetrad_simd::Position;

/// Default bench depth.
pub const BENCH_DEPTH: i32 = 12;

/// The bench positions (FEN).
pub const BENCH_FENS: [&str; 50] = [
    "rn2kb1r/pp3ppp/2p1pn2/3p3b/8/1P1P1NPP/PBPqPPB1/RN2K2R w KQkq - 0 9",
    "r2qk2r/ppp2ppp/2n2n2/b2p4/3P2b1/P1NBBQ2/1PP2PPP/R3K1NR w KQkq - 5 9",
    "rnbqk2r/1p3pbp/p2ppnp1/8/3NP3/2NB4/PPP1QPPP/R1B2RK1 w kq - 2 9",
    "r1b2rk1/ppp1ppbp/2n2np1/q7/3P4/2N2NP1/PPP2PBP/R1BQ1RK1 w - - 1 9",
    "r1bqk2r/1p2npbp/2np2p1/p1p1p3/2P5/P1NP1NP1/1P2PPBP/1RBQK2R w Kkq - 2 9",
    "r1bqk2r/pp2ppbp/2p2np1/8/3P4/4BN2/PPPQ1PPP/R3KB1R w KQkq - 0 9",
    "rn1q1rk1/pbp1bppp/1p1p1n2/3p4/2P5/5NP1/PP2PPBP/RNBQR1K1 w - - 0 9",
    "r2q1rk1/pppb1pbp/2np1np1/4p3/2PP4/1PN2NP1/P3PPBP/R1BQ1RK1 w - - 0 9",
    "rnbqk2r/ppp3b1/3pp2p/5ppn/3P4/2P1PNB1/PP1N1PPP/R2QKB1R w KQkq - 0 9",
    "rnb1kb1r/1p3ppp/p3pn2/2P1N3/P1p5/2N3P1/1P2PP1P/R1BqKB1R w KQkq - 0 9",
    "r1bq1rk1/1ppnbppp/p1np4/4p3/B3P3/2PP1N1P/PP1N1PP1/R1BQK2R w KQ - 1 9",
    "r2qk2r/pp1n1ppp/2pb1n2/3p1b2/8/3PBNP1/PP2PPBP/RN1Q1RK1 w kq - 0 9",
    "1rbqkb1r/1pp2ppp/p1n2n2/4p3/2pP4/4P1P1/PP1N1PBP/RNBQ1RK1 w k - 0 9",
    "r1bq1rk1/pp1nbppp/2p1pn2/8/P1BP4/2N1PN2/1P3PPP/R1BQK2R w KQ - 1 9",
    "rnbqk2r/pp2b1pp/2n2p2/2p1p3/2Pp4/1P1PPN2/PB1NBPPP/R2QK2R w KQkq - 5 9",
    "r1bqkb1r/1p3ppp/p3pn2/n1p5/P1NP4/2N1P3/1P3PPP/R1BQKB1R w KQkq - 1 9",
    "r1bqk1nr/pp4pp/2n1pp2/bN1pP3/3p4/P4N2/1PPB1PPP/R2QKB1R w KQkq - 0 9",
    "r1b1kb1r/1pq2ppp/p1nppn2/8/3NPPP1/2NB4/PPP4P/R1BQK2R w KQkq - 1 9",
    "r1bqkb1r/1p1p1ppp/pnn1p3/4P3/2B1Q3/2P2N2/PP3PPP/RNB1K2R w KQkq - 4 9",
    "r1bqk2r/pp2nppp/2nb4/1B1p4/3p4/5N2/PPPN1PPP/R1BQR1K1 w kq - 2 9",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "6k1/1b1nqpbp/pp4p1/5P2/1PN5/4Q3/P5PP/1B2B1K1 b - - 0 1",
    "3rb1k1/pq3pbp/4n1p1/3p4/2N5/2P2QB1/PP3PPP/1B1R2K1 b - - 0 1",
    "8/6pp/3q1p2/3n1k2/1P6/3NQ2P/5PP1/6K1 w - - 0 1",
    "r2q1r1k/2p1b1pp/p1n5/1p1Q1bN1/4n3/1BP1B3/PP3PPP/R4RK1 w - - 0 1",
    "b4r1k/pq2rp2/1p1bpn1p/3PN2n/2P2P2/P2B3K/1B2Q2N/3R2R1 w - - 0 1",
    "6k1/3r4/2R5/P5P1/1P4p1/8/4rB2/6K1 b - - 0 1",
    "r2q1rk1/pp3ppp/2p2b2/8/B2pPPb1/7P/PPP1N1P1/R2Q1RK1 b - - 0 1",
    "8/6pp/4p3/1p1n4/1NbkN1P1/P4P1P/1PR3K1/r7 w - - 0 1",
    "4kn2/r4p1r/p3bQ2/q1nNP1Np/1p5P/8/PPP3P1/2KR3R w - - 0 1",
    "r1b1qrk1/1p3ppp/p1p5/3Nb3/5N2/P7/1P4PQ/K1R1R3 w - - 0 1",
    "5rk1/p1q3pp/1p1r4/2p1pp1Q/1PPn1P2/3B3P/P2R2P1/3R2K1 b - - 0 1",
    "r6r/pp3ppp/3k1b2/2pb4/B4Pq1/2P1Q3/P5PP/1RBR2K1 w - - 0 1",
    "r2r2k1/1R2qp2/p5pp/2P5/b1PN1b2/P7/1Q3PPP/1B1R2K1 b - - 0 1",
    "3r3k/pp4pp/8/1P6/3N4/Pn2P1qb/1B1Q2B1/2R3K1 w - - 0 1",
    "8/p5pp/3k1p2/3p4/1P3P2/P1K5/5P1P/8 b - - 0 1",
    "2n5/4k1p1/P6p/3PK3/7P/8/6P1/8 b - - 0 1",
    "6k1/1p2p1bp/p5p1/4pb2/1q6/4Q3/1P2BPPP/2R3K1 w - - 0 1",
    "8/3p3B/5p2/5P2/p7/PP5b/k7/6K1 w - - 0 1",
    "5b2/p4B2/5B2/1bN5/8/P3r3/4k1K1/8 w - - 0 1",
    "k2N4/1qpK1p2/1p6/1P4p1/1P4P1/8/8/8 w - - 0 1",
    "8/8/2pn4/p4p1p/P4N2/1Pk2KPP/8/8 w - - 0 1",
    "3k3K/p5P1/P3r3/8/1N6/8/8/8 w - - 0 1",
    "5K2/kp3P2/2p5/2Pp4/3P4/r7/p7/6R1 w - - 0 1",
    "8/1p2R3/8/p5P1/3k4/P2p2K1/1P6/5r2 w - - 0 1",
    "6k1/p6p/1p1p2p1/2bP4/P1P5/2B3P1/4r2P/1R5K w - - 0 1",
    "7k/1p1Nr2P/3Rb3/8/3K4/6b1/8/5B2 w - - 0 1",
    "6R1/P2k1N2/r7/7P/r7/p7/7K/8 w - - 0 1",
    "5k2/R1p5/p1R3Pb/2K5/2B5/2q2b2/8/8 w - - 0 1",
    "8/1k6/8/Q7/7p/6p1/6pr/6Kb w - - 0 1",
];

/// Result of one bench position.
pub struct BenchLine {
    /// Position index (1-based).
    pub index: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Best move found.
    pub best: String,
    /// Wall time of this position's search, seconds.
    pub secs: f64,
}

/// Runs the bench at `depth` with a `hash_mb` table and evaluation `eval`,
/// calling `report` per position; returns total nodes and the summed search
/// time in seconds.
///
/// The clock runs only while a position is searched, as Stockfish's bench
/// restarts its clock after `ucinewgame`: clearing the 16 MiB table and
/// 7 MiB of histories before each position (2 ms, ~11% of the whole run on
/// a 2-core Xeon) is memory bandwidth, not search speed, and would make the
/// nps that OpenBench scales time controls by depend on it.
pub fn run_bench(depth: i32, hash_mb: usize, eval: &EvalConfig, mut report: impl FnMut(&BenchLine)) -> (u64, f64) {
    let mut total = 0;
    let mut secs = 0.0;
    let mut worker = Worker::new(0);
    let mut tt = Arc::new(TranspositionTable::new(hash_mb));
    for (i, fen) in BENCH_FENS.iter().enumerate() {
        let root = Position::from_fen(fen).expect("bench FENs are valid");
        // Empty table and histories (cleared in place, as `ucinewgame`
        // does): each position's count stands alone.
        worker.clear();
        TranspositionTable::clear(&mut tt);
        let job = bench_job(root, depth, &tt, eval);
        let t = Instant::now();
        let result = worker.search(&job);
        let line = BenchLine {
            index: i + 1,
            nodes: job.shared.total_nodes(),
            best: result.best.to_string(),
            secs: t.elapsed().as_secs_f64(),
        };
        total += line.nodes;
        secs += line.secs;
        report(&line);
    }
    (total, secs)
}

/// The bench's search of `root`: one thread to `depth` on table `tt`.
fn bench_job(root: Position, depth: i32, tt: &Arc<TranspositionTable>, eval: &EvalConfig) -> SearchJob {
    SearchJob::quiet(root, Vec::new(), Limits { depth: Some(depth), ..Default::default() }, tt, eval, false)
}

/// Runs the bench positions through the engine's thread pool (lazy SMP, as in
/// play) with `threads` threads and a `hash_mb` table, cleared with the
/// threads' histories before each position (like `ucinewgame`). Returns total
/// nodes and the summed search time in seconds: the time to reach `depth` on
/// every position. With several threads the node counts are not reproducible.
pub fn run_bench_threads(
    depth: i32,
    threads: usize,
    hash_mb: usize,
    eval: &EvalConfig,
    mut report: impl FnMut(&BenchLine),
) -> (u64, f64) {
    let mut engine = Engine::new(threads, hash_mb);
    engine.set_eval_config(eval.clone());
    engine.ensure_ready();
    let mut total = 0;
    let mut secs = 0.0;
    for (i, fen) in BENCH_FENS.iter().enumerate() {
        let root = Position::from_fen(fen).expect("bench FENs are valid");
        engine.new_game();
        let t = Instant::now();
        let out = engine.search_sync(root, Vec::new(), Limits { depth: Some(depth), ..Default::default() }, false);
        let line =
            BenchLine { index: i + 1, nodes: out.nodes, best: out.best.to_string(), secs: t.elapsed().as_secs_f64() };
        total += line.nodes;
        secs += line.secs;
        report(&line);
    }
    (total, secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The picker buffers come back to their ply after every node: over the
    /// bench's middlegames a ply never holds more than the two a singular
    /// search nested in its node's own move loop needs, so nothing is
    /// allocated once every ply has its pair.
    #[test]
    fn picker_buffers_stay_bounded() {
        let mut worker = Worker::new(0);
        let mut tt = Arc::new(TranspositionTable::new(4));
        let eval = EvalConfig::default();
        for fen in &BENCH_FENS[20..26] {
            worker.clear();
            TranspositionTable::clear(&mut tt);
            let job = bench_job(Position::from_fen(fen).unwrap(), 9, &tt, &eval);
            worker.search(&job);
            assert!(worker.pick_buffers.iter().all(|b| b.len() <= 2), "{fen}");
        }
        // The test means something only if some search did nest.
        assert!(worker.pick_buffers.iter().any(|b| b.len() == 2), "no second picker opened at any ply");
    }
}
