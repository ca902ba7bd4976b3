//! Command-line tools whose reader closes the pipe early (`| head -1`) end
//! quietly; `eval --compare` reads a file of positions.

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

#[test]
fn eval_compare_reports_a_matching_scale() {
    let file = std::env::temp_dir().join(format!("tetrad-compare-{}.epd", std::process::id()));
    let fens = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -",
        "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1",
        "not a position",
    ];
    std::fs::write(&file, fens.join("\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tetrad")).args(["eval", "--compare"]).arg(&file).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.starts_with("2 positions") && text.contains("matching search percentage"),
        "{text}"
    );
    let _ = std::fs::remove_file(&file);
}

/// `tetrad tune-params`: one line per search tunable in the seven fields
/// OpenBench's SPSA page reads, `NAME, int, value, min, max, c_end, r_end`.
#[test]
fn tune_params_prints_openbench_spsa_input() {
    let out = Command::new(env!("CARGO_BIN_EXE_tetrad")).arg("tune-params").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), tetrad_search::params::TUNABLES.len());
    assert!(lines.contains(&"rfp_margin, int, 75, 30, 150, 6, 0.002"), "{text}");
    for line in lines {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        assert_eq!(f.len(), 7, "{line}");
        assert_eq!(f[1], "int");
        let (v, lo, hi) = (f[2].parse::<i32>().unwrap(), f[3].parse::<i32>().unwrap(), f[4].parse::<i32>().unwrap());
        assert!(lo <= v && v <= hi, "{line}");
        assert!(f[5].parse::<f64>().unwrap() > 0.0 && f[6].parse::<f64>().unwrap() > 0.0, "{line}");
    }
}
