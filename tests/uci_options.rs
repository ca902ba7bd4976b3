//! UCI options against the real binary over pipes: hash and threads, the
//! evaluation and network files, tablebases, WDL output and strength levels.

mod common;

use common::uci_engine::{info_after, last_info, Engine};

#[test]
fn hash_resize_threads_and_long_move_lists() {
    let mut e = Engine::start();
    let mut moves = String::from("position startpos moves");
    for _ in 0..260 {
        moves += " g1f3 g8f6 f3g1 f6g8";
    }
    for (hash, threads) in [(1, 2), (64, 1), (8, 3), (16, 1)] {
        e.send(&format!("setoption name Hash value {hash}"));
        e.send(&format!("setoption name Threads value {threads}"));
        e.send(&moves);
        e.send("go depth 5");
        let lines = e.until("bestmove");
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    }
    e.send("ucinewgame");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn threads_and_hash_churn() {
    let mut e = Engine::start();
    let hashes = [1, 32, 4, 16, 2, 8];
    for i in 0..30 {
        let threads = 1 + i % 4;
        let hash = hashes[i % hashes.len()];
        e.send(&format!("setoption name Threads value {threads}"));
        e.send(&format!("setoption name Hash value {hash}"));
        if i % 3 == 0 {
            e.send("ucinewgame");
        }
        if i % 2 == 0 {
            e.send("isready");
            e.until("readyok");
        }
        e.send(if i % 2 == 0 {
            "position startpos moves e2e4 c7c5"
        } else {
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        });
        e.send("go depth 4");
        let lines = e.until("bestmove");
        assert!(!lines.iter().any(|l| l.contains("error")), "cycle {i}: {lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("info depth 4")), "cycle {i}: {lines:?}");
        assert!(lines.last().unwrap().split_whitespace().nth(1).is_some_and(|m| m != "0000"), "cycle {i}: {lines:?}");
        // Every few cycles: change the options in the middle of a running search.
        if i % 5 == 4 {
            e.send("go infinite");
            e.send(&format!("setoption name Threads value {}", 4 - i % 4));
            e.until("bestmove");
            e.send("setoption name Hash value 3");
            e.send("go depth 3");
            e.until("bestmove");
        }
    }
    e.send("ucinewgame");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn eval_options_switch_and_refuse_bad_networks() {
    let mut e = Engine::start();
    e.send("uci");
    let decl = e.until("uciok");
    assert!(decl
        .iter()
        .any(|l| l.starts_with("option name Eval type combo") && l.contains("var hce") && l.contains("var nnue")));
    assert!(decl.iter().any(|l| l.starts_with("option name EvalFile type string")));
    // A file that is not a network, and a truncated network: refused, engine keeps going.
    let bad = std::env::temp_dir().join(format!("tetrad-bad-net-{}", std::process::id()));
    std::fs::write(&bad, b"not a network").unwrap();
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    e.send("isready");
    let out = e.until("readyok");
    assert!(out.iter().any(|l| l.starts_with("info string error: EvalFile") && l.contains("bad header")), "{out:?}");
    let net = tetrad_eval::nnue::DEFAULT_NET;
    std::fs::write(&bad, &net[..net.len() / 2]).unwrap();
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    e.send("isready");
    let out = e.until("readyok");
    assert!(out.iter().any(|l| l.starts_with("info string error: EvalFile") && l.contains("truncated")), "{out:?}");
    // A good file loads; both evaluations search.
    std::fs::write(&bad, net).unwrap();
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    e.send("isready");
    assert!(e.until("readyok").iter().any(|l| l.contains("loaded")));
    for kind in ["nnue", "hce"] {
        e.send(&format!("setoption name Eval value {kind}"));
        e.send("position startpos moves e2e4");
        e.send("go depth 4");
        let out = e.until("bestmove");
        assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
    }
    e.send("setoption name Eval value fancy");
    e.send("isready");
    assert!(e.until("readyok").iter().any(|l| l.contains("error: option 'Eval' needs one of")));
    e.send("eval");
    e.send("isready");
    assert!(e.until("readyok").iter().any(|l| l.starts_with("info string eval hce") && l.contains("nnue")));
    let _ = std::fs::remove_file(bad);
    e.quit();
}

#[test]
fn syzygy_options_and_scores() {
    let dir = common::test_data("syzygy");
    let mut e = Engine::start();
    e.send("uci");
    let decl = e.until("uciok");
    for opt in [
        "SyzygyPath type string",
        "SyzygyProbeDepth type spin",
        "SyzygyProbeLimit type spin",
        "Syzygy50MoveRule type check",
    ] {
        assert!(decl.iter().any(|l| l.contains(opt)), "{opt}");
    }
    e.send("setoption name SyzygyPath value /no/such/dir");
    e.send("isready");
    assert!(e.until("readyok").iter().any(|l| l.starts_with("info string error: SyzygyPath")));
    e.send(&format!("setoption name SyzygyPath value {}", dir.display()));
    e.send("position fen 8/8/8/4k3/8/8/8/4K2R w - - 0 1");
    e.send("go depth 10");
    let out = e.until("bestmove");
    let last = last_info(&out);
    let score = info_after(last, "score");
    let winning = (score[0] == "cp" && score[1].parse::<i32>().unwrap() >= 2000) || score[0] == "mate";
    assert!(winning, "{last}");
    assert!(info_after(last, "tbhits")[0].parse::<u64>().unwrap() > 0, "{last}");
    // MultiPV at a won root: every line is one of the moves that keep the
    // win, and says so (the lines after the first reported the search's
    // centipawns, `cp 400`, before).
    e.send("setoption name MultiPV value 3");
    e.send("position fen 8/8/8/4k3/8/8/3QK3/7r w - - 0 1");
    e.send("go depth 6");
    let out = e.until("bestmove");
    let lines: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth 6 ")).collect();
    assert_eq!(lines.len(), 3, "{out:?}");
    for l in lines {
        let score = info_after(l, "score");
        assert!((score[0] == "cp" && score[1].parse::<i32>().unwrap() >= 19_000) || score[0] == "mate", "{l}");
    }
    e.send("setoption name MultiPV value 1");
    // Five pieces: beyond the tables, so no root probes; the win and the
    // tbhits are the search's (Qxc3 reaches KQvKP).
    e.send("position fen 8/p7/3k4/8/8/2r5/8/Q3K3 w - - 0 1");
    e.send("go depth 8");
    let out = e.until("bestmove");
    let last = last_info(&out);
    let score = info_after(last, "score");
    assert!(score[0] == "cp" && score[1].parse::<i32>().unwrap() >= 19_000, "{last}");
    assert!(info_after(last, "tbhits")[0].parse::<u64>().unwrap() > 0, "{last}");
    e.send("position fen 8/8/8/8/4k3/8/4P3/4K3 w - - 0 1");
    e.send("go depth 10");
    let out = e.until("bestmove");
    assert!(last_info(&out).contains("score cp 0 "), "{out:?}");
    e.quit();
}

#[test]
fn show_wdl_adds_per_mille_triples() {
    let mut e = Engine::start();
    e.send("go depth 5");
    assert!(!e.until("bestmove").iter().any(|l| l.contains(" wdl ")), "off by default");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("go depth 5");
    let out = e.until("bestmove");
    let line = last_info(&out);
    assert!(line.starts_with("info depth 5 "), "{line}");
    let triple: Vec<u32> = info_after(line, "wdl").iter().take(3).map(|x| x.parse().unwrap()).collect();
    assert_eq!(triple.len(), 3, "wdl in info: {line}");
    assert_eq!(triple.iter().sum::<u32>(), 1000, "{line}");
    e.quit();
}

#[test]
fn strength_options_limit_the_search() {
    let mut e = Engine::start();
    e.send("uci");
    let decl = e.until("uciok");
    assert!(decl.iter().any(|l| l == "option name Skill Level type spin default 20 min 0 max 20"));
    assert!(decl.iter().any(|l| l == "option name UCI_LimitStrength type check default false"));
    assert!(decl.iter().any(|l| l.starts_with("option name UCI_Elo type spin")));
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 970");
    e.send("go depth 30");
    let out = e.until("bestmove");
    // The weakest calibrated level (3) stops at its node cap (262 nodes), long before depth 30.
    let nodes: u64 = info_after(last_info(&out), "nodes")[0].parse().unwrap();
    assert!(nodes < 1000, "{nodes} nodes at the weakest level");
    e.send("setoption name UCI_LimitStrength value false");
    e.send("go depth 8");
    assert!(e.until("bestmove").iter().any(|l| l.starts_with("info depth 8")));
    e.quit();
}
