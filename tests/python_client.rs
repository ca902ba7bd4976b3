//! A real UCI client that no one here wrote: python-chess (through
//! tools/match.py) plays short games of Tetrad against itself and checks
//! every move for legality and every clock, from the start position and from
//! Chess960 positions. Skips if python-chess is missing (fails under CI).

mod common;

use std::process::Command;

fn has_python_chess() -> bool {
    let ok = Command::new("python3").args(["-c", "import chess"]).status().is_ok_and(|s| s.success());
    if !ok {
        common::skip("python3 with python-chess is not available");
    }
    ok
}

#[test]
fn python_chess_self_play_has_no_forfeits() {
    if has_python_chess() {
        self_play(&[]);
    }
}

#[test]
fn chess960_self_play_has_no_forfeits() {
    let book = common::test_data("perft960.epd");
    if has_python_chess() {
        self_play(&["--openings", book.to_str().unwrap(), "--variant", "chess960", "--order", "random", "--seed", "7"]);
    }
}

fn self_play(extra: &[&str]) {
    let root = env!("CARGO_MANIFEST_DIR");
    let json = std::env::temp_dir().join(format!("tetrad-selfplay-{}-{}.json", std::process::id(), extra.len()));
    let bin = env!("CARGO_BIN_EXE_tetrad");
    let games = 4;
    let status = Command::new("python3")
        .current_dir(root)
        .args([
            "tools/match.py",
            "--engine",
            &format!("cmd={bin}"),
            "name=a",
            "--engine",
            &format!("cmd={bin}"),
            "name=b",
        ])
        .args(["--each", "option.Hash=8", "--games", &games.to_string(), "--tc", "1+0.01", "--concurrency", "1"])
        // A generous time margin: the clock is still enforced (overstepping
        // adds up over a game), but a loaded machine's scheduling delays in
        // the client are no forfeit (seen with the suite niced behind a
        // two-thread datagen: every game lost by 0.10 s over at the default).
        .args(["--maxmoves", "120", "--time-margin", "1", "--json", json.to_str().unwrap()])
        .args(extra)
        .status()
        .expect("run tools/match.py");
    assert!(status.success());
    let check = format!(
        "import json; d = json.load(open({json:?})); f = d['forfeits']; \
         assert d['games'] == {games}, d['games']; \
         assert all(v == 0 for e in f.values() for v in e.values()), f; print('forfeits', f)"
    );
    let ok = Command::new("python3").args(["-c", &check]).status().expect("python3");
    let _ = std::fs::remove_file(&json);
    assert!(ok.success(), "a game was forfeited (illegal move, time or crash)");
}
