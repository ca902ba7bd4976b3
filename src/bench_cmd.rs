//! `tetrad bench [DEPTH]`: fixed positions, fixed depth, one thread; the last
//! line is `N nodes M nps` (the form OpenBench reads).

use tetrad_search::bench::{run_bench, BENCH_DEPTH};

/// Runs the bench and prints per-position lines and the total.
pub fn run(depth: Option<i32>) -> i32 {
    let depth = depth.unwrap_or(BENCH_DEPTH).clamp(1, 64);
    let (nodes, secs) = run_bench(depth, 16, |line| {
        outln!("position {:2} nodes {:10} bestmove {}", line.index, line.nodes, line.best);
    });
    outln!("{nodes} nodes {} nps", (nodes as f64 / secs.max(1e-9)) as u64);
    0
}
