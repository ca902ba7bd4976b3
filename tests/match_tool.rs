//! Runs the match runner's own unit tests (tools/test_match.py): statistics
//! against hand-computed references and a short real match between random
//! engines. Skips with a message if python3 is missing (fails under CI).

mod common;

use std::process::Command;

#[test]
fn match_runner_unit_tests() {
    let root = env!("CARGO_MANIFEST_DIR");
    let Ok(out) = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", "tools", "-p", "test_*.py"])
        .current_dir(root)
        .output()
    else {
        common::skip("python3 is not found");
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stderr}");
    assert!(out.status.success(), "tools/test_match.py failed:\n{stderr}");
}
