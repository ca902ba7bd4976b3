//! A real UCI client that no one here wrote: python-chess (through
//! tools/match.py) plays short games of Tetrad against itself and checks
//! every move for legality and every clock. Skips if python-chess is missing.

use std::process::Command;

#[test]
fn python_chess_self_play_has_no_forfeits() {
    let root = env!("CARGO_MANIFEST_DIR");
    let has_chess = Command::new("python3").args(["-c", "import chess"]).status().is_ok_and(|s| s.success());
    if !has_chess {
        eprintln!("skipping: python3 with python-chess not available");
        return;
    }
    let json = std::env::temp_dir().join(format!("tetrad-selfplay-{}.json", std::process::id()));
    let bin = env!("CARGO_BIN_EXE_tetrad");
    let games = 4;
    let status = Command::new("python3")
        .current_dir(root)
        .args(["tools/match.py", "--engine", &format!("cmd={bin}"), "name=a", "--engine", &format!("cmd={bin}"), "name=b"])
        .args(["--each", "option.Hash=8", "--games", &games.to_string(), "--tc", "1+0.01", "--concurrency", "1"])
        .args(["--maxmoves", "120", "--json", json.to_str().unwrap()])
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
