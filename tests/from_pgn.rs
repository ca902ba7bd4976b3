//! `tetrad datagen --from-pgn`: scored match PGNs (tests/data, written by
//! tools/match.py) become shards that `train` reads, with the score signs of
//! the movers turned to White's view; bad games are counted and skipped.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tetrad_eval::learn::dataset::{self, GameResult};

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tetrad-from-pgn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    let _ = std::fs::remove_file(&p);
    p
}

fn tetrad(args: &[&str], out: &Path) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_tetrad")).args(args).arg("--out").arg(out).output().expect("start tetrad");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    o
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn match_games_become_shards_that_train_reads() {
    let dir = temp("shards");
    let out = tetrad(&["datagen", "--from-pgn", &data("selfplay.pgn")], &dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout(&out).starts_with("184 positions from 6 games; 0 games skipped"), "{}", stdout(&out));
    let shards = dataset::list_shards(&dir).unwrap();
    assert_eq!(shards.len(), 1);
    let (games, records) = dataset::read_shard(&shards[0]).unwrap();
    assert_eq!((games, records.len()), (6, 184));
    let mut clear = 0;
    for r in &records {
        let pos = r.position().expect("a recorded position is legal");
        assert!(!tetrad_simd::in_check(&pos));
        // A clear score agrees with the result: the mover's sign was turned to White's view.
        if r.score.abs() >= 400 {
            clear += 1;
            let want = if r.score > 0 { GameResult::WhiteWin } else { GameResult::BlackWin };
            assert_eq!(r.result(), want, "score {} in {}", r.score, pos.to_fen());
        }
    }
    assert!(clear >= 50, "{clear}");
    // Into a directory that already holds data: refused.
    assert_eq!(tetrad(&["datagen", "--from-pgn", &data("selfplay.pgn")], &dir).status.code(), Some(2));

    let net = dir.join("net.tnn");
    let train = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(["train", "--data"])
        .arg(&dir)
        .arg("--out")
        .arg(&net)
        .args(["--epochs", "1", "--threads", "1"])
        .output()
        .unwrap();
    assert!(train.status.success(), "{}", String::from_utf8_lossy(&train.stderr));
    assert!(tetrad_eval::nnue::Network::load(&net).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_players_scores_with_their_sign_and_units() {
    // The random engine reports +0.25 for its own side on every move: as
    // Black (game 5) that is −25 for White, as White (game 6) +25.
    let epd = temp("random.epd");
    let out = tetrad(&["datagen", "--from-pgn", &data("selfplay.pgn"), "--player", "Random", "--format", "epd"], &epd);
    assert!(out.status.success());
    assert!(stdout(&out).contains("the player was in none of 4 games"), "{}", stdout(&out));
    let text = std::fs::read_to_string(&epd).unwrap();
    assert!(text.lines().count() >= 5);
    for line in text.lines() {
        let black = line.split(' ').nth(1) == Some("b");
        assert!(line.ends_with(if black { "ce -25;" } else { "ce 25;" }), "{line}");
    }
    // A Tetrad player's search scores are turned into the network's units (larger), unless --units as-is.
    let score_sum = |units: &str| {
        let o = tetrad(
            &[
                "datagen",
                "--from-pgn",
                &data("selfplay.pgn"),
                "--player",
                "Tetrad-A",
                "--format",
                "epd",
                "--units",
                units,
            ],
            &epd,
        );
        assert!(o.status.success());
        let text = std::fs::read_to_string(&epd).unwrap();
        text.lines()
            .map(|l| l.rsplit("ce ").next().unwrap().trim_end_matches(';').parse::<i64>().unwrap().abs())
            .sum::<i64>()
    };
    assert!(score_sum("auto") > score_sum("as-is") * 5 / 4);
    // bulletformat: 32 bytes a position.
    let bullet = temp("games.bullet");
    let out = tetrad(&["datagen", "--from-pgn", &data("selfplay.pgn"), "--format", "bullet"], &bullet);
    assert!(out.status.success());
    assert_eq!(std::fs::metadata(&bullet).unwrap().len(), 184 * 32);
    let _ = std::fs::remove_file(&epd);
    let _ = std::fs::remove_file(&bullet);
}

#[test]
fn bad_games_are_counted_and_skipped() {
    let dir = temp("malformed");
    let out = tetrad(&["datagen", "--from-pgn", &data("malformed.pgn")], &dir);
    assert!(out.status.success());
    assert!(
        stdout(&out).starts_with("8 positions from 1 games; 5 games skipped (2 truncated, 1 illegal move, 1 no result, 1 garbage comment, 0 bad tag/FEN/variant)"),
        "{}",
        stdout(&out)
    );
    let (games, records) = dataset::read_shard(&dataset::shard_path(&dir, 0)).unwrap();
    assert_eq!((games, records.len()), (1, 8));
    // A missing input is an error before anything is written.
    let missing = temp("missing");
    assert_eq!(tetrad(&["datagen", "--from-pgn", "/nonexistent.pgn"], &missing).status.code(), Some(2));
    assert!(!missing.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mangled_pgn_never_panics() {
    // The fixture with bytes flipped, cut and repeated at random, and pure noise.
    let base = std::fs::read(data("selfplay.pgn")).unwrap();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut bytes = Vec::new();
    for _ in 0..40 {
        let mut copy = base.clone();
        for _ in 0..next() % 40 {
            let i = (next() % copy.len() as u64) as usize;
            copy[i] = b"{}()[]\"*;%\n 0-1x=O+#"[(next() % 20) as usize];
        }
        let cut = (next() % copy.len() as u64) as usize;
        bytes.extend_from_slice(&copy[..cut.max(copy.len() / 2)]);
        bytes.extend((0..next() % 200).map(|_| next() as u8));
    }
    let file = temp("mangled.pgn");
    std::fs::write(&file, &bytes).unwrap();
    let dir = temp("mangled");
    let out = tetrad(&["datagen", "--from-pgn", file.to_str().unwrap()], &dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_dir_all(&dir);
}
