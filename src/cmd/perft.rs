//! `tetrad perft`: one position (Stockfish-style output) or a whole EPD suite.

use crate::cli::{GenChoice, PerftArgs};
use std::time::Instant;
use tetrad_simd::perft::{parse_suite, perft, perft_divide, BitboardGenerator, CcrGenerator, Generator};
use tetrad_simd::Position;

/// Runs the command; returns the process exit code.
pub fn run(args: &PerftArgs) -> i32 {
    if args.threads > 1 {
        // Ignore the error if a pool already exists: the count is what matters.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global();
    }
    match args.r#gen {
        GenChoice::Ccr => with_gen(&CcrGenerator, args),
        GenChoice::Bitboard => with_gen(&BitboardGenerator, args),
    }
}

fn with_gen<G: Generator>(gen: &G, args: &PerftArgs) -> i32 {
    if let Some(path) = &args.suite {
        return suite(gen, path, args.max_nodes.unwrap_or(u64::MAX), args.threads > 1);
    }
    let Some(depth) = args.depth else {
        errln!("error: perft needs a DEPTH or --suite FILE");
        return 2;
    };
    let pos = match args.fen.as_deref().map_or(Ok(Position::startpos()), Position::from_fen) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: bad FEN: {e}");
            return 2;
        }
    };
    let start = Instant::now();
    let nodes = if args.divide || args.threads > 1 {
        let rows = perft_divide(gen, &pos, depth.max(1), args.threads > 1);
        if args.divide {
            for (m, n) in &rows {
                outln!("{m}: {n}");
            }
            outln!();
        }
        if depth == 0 {
            1
        } else {
            rows.iter().map(|r| r.1).sum()
        }
    } else {
        perft(gen, &pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    outln!("Nodes searched: {nodes}");
    outln!("Time: {:.3} s", secs);
    outln!("Nodes/second: {:.0}", nodes as f64 / secs.max(1e-9));
    0
}

fn suite<G: Generator>(gen: &G, path: &str, max_nodes: u64, parallel: bool) -> i32 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            errln!("error: cannot read {path}: {e}");
            return 2;
        }
    };
    let cases = match parse_suite(&text) {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {path}: {e}");
            return 2;
        }
    };
    let (mut passed, mut failed, mut total) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for (i, case) in cases.iter().enumerate() {
        let pos = match Position::from_fen(&case.fen) {
            Ok(p) => p,
            Err(e) => {
                outln!("{:4} FAIL bad FEN ({e}): {}", i + 1, case.fen);
                failed += 1;
                continue;
            }
        };
        let mut line = format!("{:4} {}", i + 1, case.fen);
        let mut ok = true;
        for &(depth, expected) in case.depths.iter().filter(|d| d.1 <= max_nodes) {
            let got: u64 = if parallel && depth > 1 {
                perft_divide(gen, &pos, depth, true).iter().map(|r| r.1).sum()
            } else {
                perft(gen, &pos, depth)
            };
            total += got;
            if got == expected {
                line += &format!(" D{depth}:ok");
            } else {
                line += &format!(" D{depth}:FAIL({got}!={expected})");
                ok = false;
            }
        }
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
        outln!("{line}");
    }
    let secs = start.elapsed().as_secs_f64();
    outln!("{total} nodes checked in {secs:.1} s ({:.0} nps)", total as f64 / secs.max(1e-9));
    outln!("{passed} passed, {failed} failed");
    if failed == 0 {
        0
    } else {
        1
    }
}
