//! Command-line tools whose reader closes the pipe early (`| head -1`) end quietly.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

fn first_line_then_close(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tetrad");
    let stdout = child.stdout.take().unwrap();
    let mut first = String::new();
    BufReader::new(stdout).read_line(&mut first).unwrap();
    // The reader is dropped here: later writes meet a closed pipe.
    assert!(!first.is_empty(), "{args:?}");
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(status.success(), "{args:?}: {status:?} {err}");
}

#[test]
fn closed_stdout_is_not_a_panic() {
    first_line_then_close(&["perft", "5", "--divide"]);
    first_line_then_close(&["bench", "6"]);
    first_line_then_close(&["eval"]);
}
