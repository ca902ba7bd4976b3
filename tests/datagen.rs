//! `tetrad datagen`: shards depend only on the arguments (not the thread
//! count), `--resume` makes only what is missing, and the records read back;
//! `tetrad train` starts from them, from scratch or from a network.

use std::path::{Path, PathBuf};
use std::process::Command;
use tetrad_eval::learn::dataset;

fn datagen(dir: &Path, games: usize, threads: usize, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(["datagen", "--out"])
        .arg(dir)
        .args(["--games", &games.to_string(), "--nodes", "600", "--seed", "5", "--shard-games", "3"])
        .args(["--threads", &threads.to_string()])
        .args(extra)
        .output()
        .expect("start tetrad")
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrad-datagen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn shards_are_thread_independent_and_resumable() {
    let (a, b) = (temp_dir("a"), temp_dir("b"));
    // Two threads, all six games at once.
    let out = datagen(&a, 6, 2, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // One thread, three games, then resumed to six.
    assert!(datagen(&b, 3, 1, &[]).status.success());
    let again = datagen(&b, 6, 1, &[]);
    assert!(!again.status.success(), "an existing run without --resume must be refused");
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    let resumed = datagen(&b, 6, 1, &["--resume"]);
    assert!(resumed.status.success());
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("1 of 2 shards to make"));
    // Other arguments than the run's are refused.
    let other = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(["datagen", "--out"])
        .arg(&b)
        .args(["--games", "6", "--nodes", "601", "--seed", "5", "--shard-games", "3", "--resume"])
        .output()
        .unwrap();
    assert!(!other.status.success());

    let shards = dataset::list_shards(&a).unwrap();
    assert_eq!(shards.len(), 2);
    let mut total = 0;
    for s in &shards {
        let name = s.file_name().unwrap();
        assert_eq!(std::fs::read(s).unwrap(), std::fs::read(b.join(name)).unwrap(), "{name:?} differs");
        let (games, records) = dataset::read_shard(s).unwrap();
        assert_eq!(games, 3);
        for r in &records {
            let pos = r.position().expect("a recorded position is legal");
            assert!(!tetrad_simd::in_check(&pos));
            assert!(r.score.abs() < 30_000);
        }
        total += records.len();
    }
    assert!(total > 0);

    // The built-in network given as a file plays the same games: a
    // candidate network can make data before it is built in.
    let c = temp_dir("c");
    std::fs::create_dir_all(&c).unwrap();
    let copy = c.join("builtin.tnn");
    let tetrad = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_tetrad")).args(args).output().unwrap();
    assert!(tetrad(&["net", "builtin", "--out", copy.to_str().unwrap()]).status.success());
    let from_file = c.join("run");
    let out = datagen(&from_file, 6, 2, &["--net", copy.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for s in &dataset::list_shards(&a).unwrap() {
        let name = s.file_name().unwrap();
        assert_eq!(std::fs::read(s).unwrap(), std::fs::read(from_file.join(name)).unwrap(), "{name:?} differs");
    }
    // A file that is no network, and a network with the hand-written evaluation, are refused.
    let junk = c.join("junk.tnn");
    std::fs::write(&junk, b"not a network").unwrap();
    let bad = datagen(&c.join("bad"), 3, 1, &["--net", junk.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("junk.tnn"));
    assert!(!c.join("bad").exists(), "nothing is written for a bad network");
    let hce = datagen(&c.join("hce"), 3, 1, &["--eval", "hce", "--net", copy.to_str().unwrap()]);
    assert_eq!(hce.status.code(), Some(2));
    // `bench --net` searches with the file: the built-in network's copy
    // gives the built-in node count; a junk file is refused.
    let nodes = |out: std::process::Output| {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).lines().last().unwrap().split(' ').next().unwrap().to_string()
    };
    assert_eq!(nodes(tetrad(&["bench", "5"])), nodes(tetrad(&["bench", "5", "--net", copy.to_str().unwrap()])));
    let bad = tetrad(&["bench", "5", "--net", junk.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("junk.tnn"));
    let _ = std::fs::remove_dir_all(&c);

    // A short run from the built-in network writes a network; a missing start is refused.
    let net = a.join("net.tnn");
    let train_with = |init: &str, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tetrad"))
            .args(["train", "--data"])
            .arg(&a)
            .arg("--out")
            .arg(&net)
            .args(["--epochs", "1", "--batch", "64", "--threads", "1", "--init", init])
            .args(extra)
            .output()
            .unwrap()
    };
    let train = |init: &str| train_with(init, &[]);
    let out = train("builtin");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(tetrad_eval::nnue::Network::load(&net).is_ok());
    let missing = train("/nonexistent/net.tnn");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("error: cannot start from"));
    // Grown into king buckets with a factoriser, the file is an ordinary bucketed network.
    let out = train_with("builtin", &["--king-buckets", "4", "--factorise"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(tetrad_eval::nnue::Network::load(&net).unwrap().arch.kings.count(), 4);
    // (The built-in network has king buckets; without --init training starts from a plain random one.)
    let plain = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(["train", "--data"])
        .arg(&a)
        .arg("--out")
        .arg(&net)
        .args(["--epochs", "1", "--batch", "64", "--threads", "1", "--factorise"])
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&plain.stderr).contains("--factorise needs king buckets"));

    // Generations pooled: every shard of one directory and a range of
    // another's (`DIR:A..B`), the range naming the directory's own shards
    // whatever `--shards` says for the others.
    let records = |dir: &Path, i: usize| {
        dataset::read_shard(&dataset::select_shards(dir, Some(i..i + 1)).unwrap()[0]).unwrap().1.len()
    };
    let positions = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_tetrad"))
            .args(["train", "--epochs", "0", "--init", "builtin", "--threads", "1", "--out"])
            .arg(a.join("unused.tnn"))
            .args(extra)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{text}");
        let line = text.lines().find(|l| l.contains("validation positions")).expect(&text).to_string();
        let n: Vec<usize> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
        n[0] + n[1]
    };
    let (a_all, b_second) = (format!("{}", a.display()), format!("{}:1..2", b.display()));
    assert_eq!(positions(&["--data", &a_all, "--data", &b_second]), records(&a, 0) + records(&a, 1) + records(&b, 1));
    assert_eq!(
        positions(&["--data", &a_all, "--data", &b_second, "--shards", "0..1"]),
        records(&a, 0) + records(&b, 1)
    );
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

/// `tetrad rescore`: new labels from a deeper search, the same whatever the
/// thread count; results and game counts kept, tactical positions dropped,
/// the source never overwritten, a finished run resumed without work; and
/// `wdl-fit` over a range of such shards, in the scale of the evaluation
/// that labelled them only.
#[test]
fn rescore_relabels_deterministically() {
    let (src, one, two) = (temp_dir("rs-src"), temp_dir("rs-one"), temp_dir("rs-two"));
    let out = datagen(&src, 6, 2, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // 1500 nodes unless `extra` names others.
    let rescore = |dst: &Path, threads: &str, extra: &[&str]| {
        let nodes: &[&str] = if extra.contains(&"--nodes") { &[] } else { &["--nodes", "1500"] };
        Command::new(env!("CARGO_BIN_EXE_tetrad"))
            .args(["rescore", "--data"])
            .arg(&src)
            .arg("--out")
            .arg(dst)
            .args(nodes)
            .args(["--threads", threads])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = rescore(&one, "1", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 shards relabelled at 1500 nodes"));
    // Two threads, one shard at a time, give the same bytes.
    for range in ["0..1", "1..2"] {
        let out = rescore(&two, "2", &["--shards", range, "--resume"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let mut changed = 0;
    for s in &dataset::list_shards(&src).unwrap() {
        let name = s.file_name().unwrap();
        let relabelled = std::fs::read(one.join(name)).unwrap();
        assert_eq!(relabelled, std::fs::read(two.join(name)).unwrap(), "{name:?} depends on the threads");
        let (games, old) = dataset::read_shard(s).unwrap();
        let (games_new, new) = dataset::read_shard(&one.join(name)).unwrap();
        assert_eq!(games, games_new);
        assert!(new.len() <= old.len() && new.len() * 10 >= old.len() * 8, "{} of {} kept", new.len(), old.len());
        // Every new record is an old position, in the old order, with its game's result.
        let mut rest = old.iter();
        for r in &new {
            let o = rest
                .find(|o| o.ccr == r.ccr && o.flags == r.flags && o.fullmove == r.fullmove)
                .expect("an old position");
            assert_eq!(o.result, r.result);
            changed += usize::from(o.score != r.score);
            assert!(!tetrad_simd::in_check(&r.position().unwrap()));
        }
    }
    assert!(changed > 0, "a deeper search changes some labels");
    // Done shards are not made again; other arguments, a second run, or the source as output are refused.
    let again = rescore(&one, "1", &["--resume"]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("nothing to do: all 2 shards are already relabelled"));
    assert_eq!(rescore(&one, "1", &[]).status.code(), Some(2));
    let other = rescore(&one, "1", &["--nodes", "1501", "--resume"]);
    assert_eq!(other.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("other arguments"),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    let onto_source = rescore(&src, "1", &[]);
    assert_eq!(onto_source.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&onto_source.stderr).contains("must not be the --data directory"));
    assert_eq!(dataset::list_shards(&src).unwrap().len(), 2);
    let missing = rescore(&temp_dir("rs-none"), "1", &["--shards", "2..3"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("shard-00002.bin"));
    // `wdl-fit` reads a range of shards, old labels or new, and names a missing one.
    let wdl_fit = |dir: &Path, shards: &str| {
        Command::new(env!("CARGO_BIN_EXE_tetrad"))
            .args(["wdl-fit", "--data"])
            .arg(dir)
            .args(["--shards", shards, "--steps", "3"])
            .output()
            .unwrap()
    };
    for dir in [&src, &one] {
        let fit = wdl_fit(dir, "0..2");
        assert!(fit.status.success(), "{}", String::from_utf8_lossy(&fit.stderr));
        assert!(String::from_utf8_lossy(&fit.stdout).contains("pub const MODEL"));
    }
    let missing = wdl_fit(&src, "1..3");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("shard-00002.bin"));
    // Labels of the network are not fitted in the hand-written evaluation's scale.
    for dir in [&src, &one] {
        let hce = Command::new(env!("CARGO_BIN_EXE_tetrad"))
            .args(["wdl-fit", "--eval", "hce", "--data"])
            .arg(dir)
            .args(["--steps", "3"])
            .output()
            .unwrap();
        assert_eq!(hce.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&hce.stderr).contains("labelled by the nnue evaluation"));
    }
    let hce_dir = temp_dir("rs-hce");
    assert!(datagen(&hce_dir, 3, 1, &["--eval", "hce"]).status.success());
    let nnue = Command::new(env!("CARGO_BIN_EXE_tetrad")).args(["wdl-fit", "--data"]).arg(&hce_dir).output().unwrap();
    assert_eq!(nnue.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&nnue.stderr).contains("labelled by the hce evaluation"));
    let _ = std::fs::remove_dir_all(&hce_dir);
    for d in [&src, &one, &two] {
        let _ = std::fs::remove_dir_all(d);
    }
}
