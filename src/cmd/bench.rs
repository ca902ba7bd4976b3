//! `tetrad bench [DEPTH] [--threads N] [--hash MB]`: fixed positions, fixed
//! depth; the last line is `N nodes M nps` (the form OpenBench reads).
//!
//! Without `--threads` one worker searches each position directly: its node
//! count is the search's signature (`Bench: N`). With `--threads N` the
//! positions go through the engine's lazy-SMP pool, for nps and
//! time-to-depth figures across thread counts.

use tetrad_eval::EvalConfig;
use tetrad_search::bench::{run_bench, run_bench_threads, BENCH_DEPTH};

/// Runs the bench and prints per-position lines and the total.
pub fn run(depth: Option<i32>, threads: Option<Vec<usize>>, hash_mb: Option<usize>, eval: &EvalConfig) -> i32 {
    let depth = depth.unwrap_or(BENCH_DEPTH).clamp(1, 64);
    let hash = hash_mb.unwrap_or(16).clamp(1, 65536);
    let Some(counts) = threads.filter(|t| !t.is_empty()) else {
        let (nodes, secs) = run_bench(depth, hash, eval, |line| {
            outln!("position {:2} nodes {:10} bestmove {}", line.index, line.nodes, line.best);
        });
        outln!("{nodes} nodes {} nps", (nodes as f64 / secs.max(1e-9)) as u64);
        return 0;
    };
    let mut rows = Vec::new();
    for &threads in &counts {
        let threads = threads.clamp(1, 256);
        let (nodes, secs) = run_bench_threads(depth, threads, hash, eval, |line| {
            outln!("position {:2} nodes {:10} bestmove {} time {:.3} s", line.index, line.nodes, line.best, line.secs);
        });
        outln!("threads {threads} depth {depth} hash {hash} MB: time to depth {secs:.3} s");
        rows.push((threads, secs, nodes));
        if counts.len() == 1 {
            outln!("{nodes} nodes {} nps", (nodes as f64 / secs.max(1e-9)) as u64);
        }
    }
    if counts.len() > 1 {
        let (_, base_secs, base_nodes) = rows[0];
        let base_nps = base_nodes as f64 / base_secs.max(1e-9);
        outln!();
        outln!("| threads | time to depth {depth} | nodes | nps | nps ratio | time-to-depth speed-up |");
        outln!("|---|---|---|---|---|---|");
        for &(t, secs, nodes) in &rows {
            let nps = nodes as f64 / secs.max(1e-9);
            outln!(
                "| {t} | {secs:.2} s | {nodes} | {:.0} | {:.2}x | {:.2}x |",
                nps,
                nps / base_nps,
                base_secs / secs.max(1e-9)
            );
        }
        let (nodes, secs) = rows.iter().fold((0, 0.0), |(n, s), r| (n + r.2, s + r.1));
        outln!("{nodes} nodes {} nps", (nodes as f64 / secs.max(1e-9)) as u64);
    }
    0
}
