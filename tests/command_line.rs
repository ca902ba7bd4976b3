//! `tetrad "cmd 1" "cmd 2" …`: arguments that are not subcommands run as UCI
//! lines, the way OpenBench calls engines; `genfens` makes reproducible,
//! legal, distinct openings for its DATAGEN workloads.

use std::collections::HashSet;
use std::process::{Command, Output};
use tetrad_simd::{legal_moves, Position};

fn tetrad(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tetrad")).args(args).output().expect("start tetrad")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The FENs of the `info string genfens` lines, checking every line is one.
fn genfens(args: &str) -> Vec<String> {
    let out = tetrad(&[args, "quit"]);
    assert!(out.status.success(), "{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    stdout(&out)
        .lines()
        .map(|l| l.strip_prefix("info string genfens ").unwrap_or_else(|| panic!("unexpected line '{l}'")).to_string())
        .collect()
}

#[test]
fn genfens_prints_the_same_legal_distinct_openings_for_a_seed() {
    let fens = genfens("genfens 64 seed 1 book None");
    assert_eq!(fens.len(), 64);
    assert_eq!(fens, genfens("genfens 64 seed 1 book None"), "the same seed must give the same openings");
    let mut keys = HashSet::new();
    for fen in &fens {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(!legal_moves(&pos).is_empty(), "{fen} is over");
        assert!(keys.insert(pos.key()), "{fen} twice");
        // Eight or nine plies from the start position; OpenBench reads six fields.
        assert_eq!(pos.fullmove_number(), 5, "{fen}");
        assert_eq!(fen.split(' ').count(), 6, "{fen}");
    }
    let other = genfens("genfens 64 seed 2 book None");
    assert!(other.iter().filter(|f| fens.contains(f)).count() < 8, "another seed, other openings");
}

#[test]
fn genfens_from_a_book_and_in_chess960() {
    let dir = std::env::temp_dir().join(format!("tetrad-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    std::fs::write(&book, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - bm Nf3;\nr1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -\n").unwrap();
    let fens = genfens(&format!("genfens 8 seed 3 book {}", book.display()));
    assert_eq!(fens.len(), 8);
    for fen in &fens {
        assert!(!legal_moves(&Position::from_fen(fen).unwrap()).is_empty());
        // Two or three random plies after the book line: never the line itself.
        assert!(!fen.starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"), "{fen}");
    }
    let pgn = dir.join("book.pgn");
    std::fs::write(&pgn, "[Event \"b\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 *\n\n[Event \"bad\"]\n\n1. d4 d4 *\n")
        .unwrap();
    assert_eq!(genfens(&format!("genfens 4 seed 3 book {}", pgn.display())).len(), 4);
    let out = tetrad(&["setoption name UCI_Chess960 value true", "genfens 4 seed 1 book None", "quit"]);
    let text = stdout(&out);
    let chess960: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("info string genfens ")).collect();
    assert_eq!(chess960.len(), 4);
    assert!(chess960.iter().all(|f| Position::from_fen(f).is_ok()));
    assert_eq!(chess960, genfens("genfens 4 seed 1 book None chess960"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_errors() {
    // One unknown word: clap's usage error, with the nearest subcommand.
    let out = tetrad(&["bnech"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unrecognized subcommand 'bnech'") && err.contains("'bench'"), "{err}");
    // Among UCI lines, a word that is neither: named.
    let out = tetrad(&["isready", "frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'frobnicate' is neither a subcommand nor a UCI command"));
    // Zero, negative and absurd counts are bad values, named as such (not flags).
    for (args, says) in [
        (&["bench", "0"][..], "needs at least 1, not 0"),
        (&["bench", "--threads", "0"], "needs at least 1, not 0"),
        (&["bench", "--hash", "-4"], "needs at least 1, not -4"),
        (&["datagen", "--out", "x", "--games", "0"], "needs at least 1, not 0"),
        (&["train", "--data", "x", "--out", "y", "--lr", "-1"], "needs a number above 0, not -1"),
        (&["train", "--data", "x", "--out", "y", "--wdl", "1.5"], "needs a number from 0 to 1, not 1.5"),
        (&["perft", "3", "--threads", "0"], "needs at least 1, not 0"),
    ] {
        let out = tetrad(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("invalid value") && err.contains(says), "{args:?}: {err}");
    }
    // Checked before anything runs.
    let out = tetrad(&["genfens 2 seed 1 book None", "frob"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    // A UCI command that is answered with an error exits 1.
    for bad in [
        "genfens 2 seed x book None",
        "genfens 2 seed 1 book /nonexistent.epd",
        "go",
        "go infinite",
        "position fen nonsense",
    ] {
        let out = tetrad(&[bad, "quit"]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        assert!(stdout(&out).contains("info string error: "), "{bad}");
    }
}

#[test]
fn uci_lines_run_in_order_and_go_waits_for_its_search() {
    let out = tetrad(&["position startpos moves e2e4", "go depth 4"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let best = text.lines().last().unwrap_or("");
    assert!(best.starts_with("bestmove "), "{text}");
    let pos = tetrad_simd::parse_uci_move(
        &Position::startpos().make_move(tetrad_simd::parse_uci_move(&Position::startpos(), "e2e4").unwrap()),
        best.split(' ').nth(1).unwrap(),
    );
    assert!(pos.is_some(), "a legal reply for Black: {best}");
    // `quit` ends the run: later lines are not read.
    let out = tetrad(&["isready", "quit", "d"]);
    assert_eq!(stdout(&out), "readyok\n");
    // Subcommands keep their meaning.
    let out = tetrad(&["perft", "3"]);
    assert!(out.status.success() && stdout(&out).contains("8902"), "{}", stdout(&out));
}

/// `tune-params` prints the list either way; a build where the tunables are
/// constants says so on stderr.
#[test]
fn tune_params_says_when_the_build_cannot_take_them() {
    let out = tetrad(&["tune-params"]);
    assert!(out.status.success());
    assert!(stdout(&out).lines().all(|l| l.split(',').count() == 7));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.contains("not UCI options"), !cfg!(feature = "tune"), "{err}");
}
