//! The network keeps its scale through a generation: `datagen` records the
//! search's scores in the network's own units (the search-time percentage
//! and fifty-move decay undone), so a network trained on them scores
//! positions as its parent did, not 73% of it.
//!
//! Tolerances: the recorded (searched) scores' median |score| within
//! [0.85, 1.3] of the parent's static one over the same positions (searches
//! find a little more than a static look: 1.08 on 37,709 positions of the
//! gen5 run; scores still at 73% would give about 0.76), the child
//! trained on them at least 0.9 of the parent's, and the child's file asks
//! the search for the percentage that shows it at the parent's scale
//! (within 10%) over the held-out positions both networks call undecided,
//! as `train` measures it (decided ones dominate a small shard's median).

use std::path::{Path, PathBuf};
use std::process::Command;
use tetrad_eval::learn::dataset::{self, Record};
use tetrad_eval::learn::train::UNDECIDED_MAX;
use tetrad_eval::nnue::{default_network, Network};
use tetrad_simd::{ccr_to_bitboards, Color};

fn tetrad(args: &[&str], dir: &Path) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_tetrad")).args(args).current_dir(dir).output().expect("start tetrad");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn median_abs(mut v: Vec<i32>) -> f64 {
    v.iter_mut().for_each(|x| *x = x.abs());
    v.sort_unstable();
    v[v.len() / 2] as f64
}

/// White-view static scores of `net` in its own units, for positions in the middle range.
fn static_scores(net: &Network, records: &[Record]) -> Vec<i32> {
    records
        .iter()
        .map(|r| {
            let v = net.evaluate(&ccr_to_bitboards(&r.ccr()), r.side_to_move());
            if r.side_to_move() == Color::White {
                v
            } else {
                -v
            }
        })
        .collect()
}

#[test]
fn a_generation_keeps_the_networks_scale() {
    let dir: PathBuf = std::env::temp_dir().join(format!("tetrad-scale-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data");
    let data_s = data.to_str().unwrap();
    tetrad(
        &[
            "datagen",
            "--out",
            data_s,
            "--games",
            "24",
            "--nodes",
            "1500",
            "--seed",
            "3",
            "--walks",
            "100",
            "--shard-games",
            "4",
            "--threads",
            "2",
        ],
        &dir,
    );
    let records: Vec<Record> =
        dataset::list_shards(&data).unwrap().iter().flat_map(|s| dataset::read_shard(s).unwrap().1).collect();
    // Decided positions say little about the scale of the middle range.
    let records: Vec<Record> = records.into_iter().filter(|r| r.score.abs() < 1500).collect();
    assert!(records.len() > 500, "{} positions", records.len());

    let parent = default_network();
    let recorded = median_abs(records.iter().map(|r| i32::from(r.score)).collect());
    let parent_static = median_abs(static_scores(parent, &records));
    let ratio = recorded / parent_static;
    assert!((0.85..=1.3).contains(&ratio), "recorded {recorded} vs static {parent_static}: {ratio:.2}");

    // Two epochs at a learning rate that moves the network: its scale stays.
    let net = dir.join("child.tnn");
    tetrad(
        &[
            "train",
            "--data",
            data_s,
            "--out",
            net.to_str().unwrap(),
            "--init",
            "builtin",
            "--epochs",
            "2",
            "--batch",
            "256",
            "--lr",
            "0.001",
            "--threads",
            "2",
        ],
        &dir,
    );
    let child = Network::load(&net).unwrap();
    assert_eq!(child.scale, parent.scale, "the file carries the output scale on");
    let child_static = median_abs(static_scores(&child, &records));
    assert!(child_static >= 0.9 * parent_static, "child {child_static} vs parent {parent_static}");
    // The search sees the child at the parent's scale: `train` matched the
    // percentage over its validation positions (the last shard of a short run).
    let shards = dataset::list_shards(&data).unwrap();
    let valid = dataset::read_shard(shards.last().unwrap()).unwrap().1;
    // Over the positions both networks call undecided, as `train` measures.
    let (cv, pv): (Vec<i32>, Vec<i32>) = static_scores(&child, &valid)
        .into_iter()
        .zip(static_scores(parent, &valid))
        .filter(|(c, p)| c.abs() < UNDECIDED_MAX && p.abs() < UNDECIDED_MAX)
        .unzip();
    let (c, p) = (median_abs(cv), median_abs(pv));
    let (seen_child, seen_parent) = (c * child.search_pct as f64, p * parent.search_pct as f64);
    assert!(
        (seen_child / seen_parent - 1.0).abs() < 0.1,
        "search sees {seen_child} vs {seen_parent} ({}%)",
        child.search_pct
    );

    // `--epochs 0` trains nothing and measures a network on every position
    // read: the child, trained on them, fits them better than its parent.
    let loss_of = |init: &str| -> f64 {
        let out = tetrad(&["train", "--data", data_s, "--out", "unused.tnn", "--init", init, "--epochs", "0"], &dir);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(
            (words[0], words[2], words[3]),
            ("loss", "over", records_read(&data).to_string().as_str()),
            "{text}"
        );
        words[1].parse().unwrap()
    };
    let (child_loss, parent_loss) = (loss_of(net.to_str().unwrap()), loss_of("builtin"));
    assert!(child_loss < parent_loss, "child {child_loss} vs parent {parent_loss}");
    assert!(!dir.join("unused.tnn").exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Positions in every shard of `dir`.
fn records_read(dir: &Path) -> usize {
    dataset::list_shards(dir).unwrap().iter().map(|s| dataset::read_shard(s).unwrap().1.len()).sum()
}
