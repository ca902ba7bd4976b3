//! What an OpenBench worker relies on, checked without a server: the output of
//! `tetrad bench` and of `genfens` read the way OpenBench's client reads them
//! (Client/bench.py and Client/genfens.py at the commit tools/openbench/run.sh
//! pins). Both run the engine with stderr sent into the same pipe as stdout, so
//! the checks here read one stream holding both. `make EXE=path`, the worker's
//! build, is checked in tests/makefile.rs; a whole workload through a server is
//! `tools/openbench/run.sh` (docs/openbench.md).

use std::fs::File;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Run tetrad with `args`, stdout and stderr into one file as OpenBench's
/// `stderr=STDOUT` does; the exit status and the merged text.
fn merged(args: &[&str]) -> (bool, String) {
    static RUN: AtomicUsize = AtomicUsize::new(0);
    let run = RUN.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("tetrad-openbench-{}-{run}.txt", std::process::id()));
    let file = File::create(&path).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .expect("start tetrad");
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    (status.success(), text)
}

/// Client/bench.py's parse_stream_output: lines from the last, non-alphanumerics
/// as spaces, and in each the leftmost `\d+ nodes`, `nodes \d+` or `nodes searched
/// \d+` (the bench) and `\d+ nps`, `nps \d+` or `nodes second \d+` (the speed),
/// each kept from the first line that has one. Returns (bench, nps).
fn openbench_bench_parse(text: &str) -> (Option<u64>, Option<u64>) {
    fn trailing_digits(w: &str) -> Option<u64> {
        let n = w.len() - w.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        w[w.len() - n..].parse().ok()
    }
    fn leading_digits(w: &str) -> Option<u64> {
        let n = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        w[..n].parse().ok()
    }
    // Word by word from the left, as the regular expression's leftmost match.
    fn first(words: &[String], unit: &str, long_form: &str) -> Option<u64> {
        (0..words.len()).find_map(|i| {
            let next = words.get(i + 1).map(String::as_str).unwrap_or("");
            let after = words.get(i + 2).map(String::as_str).unwrap_or("");
            let number_then_unit = if next.starts_with(unit) { trailing_digits(&words[i]) } else { None };
            let unit_then_number = if words[i].ends_with(unit) { leading_digits(next) } else { None };
            let long = if words[i].ends_with("nodes") && next == long_form { leading_digits(after) } else { None };
            number_then_unit.or(unit_then_number).or(long)
        })
    }
    let (mut bench, mut nps) = (None, None);
    for line in text.trim().split('\n').rev() {
        let clean: String = line.chars().map(|c| if c.is_ascii_alphanumeric() || c == ' ' { c } else { ' ' }).collect();
        let words: Vec<String> = clean.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
        bench = bench.or_else(|| first(&words, "nodes", "searched"));
        nps = nps.or_else(|| first(&words, "nps", "second"));
    }
    (bench, nps)
}

/// The worker runs `./engine bench` (no other argument) and refuses a binary whose
/// node count differs from the test's `Bench:` or from run to run; the count and
/// the speed it scales time controls by come from the last line, `N nodes M nps`.
#[test]
fn bench_is_deterministic_and_its_last_line_is_what_openbench_reads() {
    let mut counts = Vec::new();
    for _ in 0..2 {
        let (ok, text) = merged(&["bench"]);
        assert!(ok, "{text}");
        let last = text.trim_end().lines().last().unwrap();
        let fields: Vec<&str> = last.split(' ').collect();
        assert!(
            fields.len() == 4 && fields[1] == "nodes" && fields[3] == "nps",
            "the last line must be `N nodes M nps`: '{last}'"
        );
        let (nodes, nps): (u64, u64) = (fields[0].parse().unwrap(), fields[2].parse().unwrap());
        assert!(nodes > 100_000 && nps > 0, "{last}");
        assert_eq!(openbench_bench_parse(&text), (Some(nodes), Some(nps)), "Client/bench.py would read other numbers");
        counts.push(nodes);
    }
    assert_eq!(counts[0], counts[1], "bench must give the same node count every run");
}

/// Client/genfens.py runs `./engine "genfens N seed S book B <extra>" quit`, with
/// `<extra>` empty unless the workload has custom arguments (so the command ends
/// with a space), keeps the lines that start with `info string genfens `, takes
/// what follows `genfens ` as a FEN, and writes it as EPD with `hmvc`/`fmvn` from
/// its last two fields. It waits for exactly N per engine, 15 seconds at most
/// between two.
#[test]
fn genfens_prints_what_openbench_reads() {
    for command in
        ["genfens 12 seed 5 book None ", "genfens 12 seed 5 book None", "genfens 3 seed 9 book None chess960"]
    {
        let (ok, text) = merged(&[command, "quit"]);
        assert!(ok, "{command}: {text}");
        let fens: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("info string genfens "))
            .map(|l| l.split_once("genfens ").unwrap().1.trim_end())
            .collect();
        let n: usize = command.split(' ').nth(1).unwrap().parse().unwrap();
        assert_eq!(fens.len(), n, "{command}: {text}");
        for fen in &fens {
            let fields: Vec<&str> = fen.split_whitespace().collect();
            assert_eq!(fields.len(), 6, "{fen}");
            // convert_fen_to_epd: int(halfmove), int(fullmove)
            assert!(fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok(), "{fen}");
            assert!(["w", "b"].contains(&fields[1]), "{fen}");
        }
        // Nothing else in the stream starts like an opening line.
        assert!(
            !text.lines().any(|l| l.contains("info string genfens") && !l.starts_with("info string genfens ")),
            "{text}"
        );
    }
    // The same seed, with or without the trailing space, gives the same openings.
    let a = merged(&["genfens 12 seed 5 book None ", "quit"]).1;
    let b = merged(&["genfens 12 seed 5 book None", "quit"]).1;
    let openings =
        |t: &str| t.lines().filter(|l| l.starts_with("info string genfens ")).map(String::from).collect::<Vec<_>>();
    assert_eq!(openings(&a), openings(&b));
}

#[test]
fn the_bench_parse_reads_like_openbench() {
    // Ethereal's and Stockfish's forms, which the same regular expressions read.
    assert_eq!(openbench_bench_parse("Nodes searched  : 123456\nNodes/second    : 789\n"), (Some(123456), Some(789)));
    assert_eq!(openbench_bench_parse("x\n2035931 nodes 2143546 nps\n"), (Some(2035931), Some(2143546)));
    // The leftmost number of the last line that has one: `50 nodes`, not 4921.
    assert_eq!(openbench_bench_parse("1 nodes 2 nps\nposition 50 nodes 4921\n"), (Some(50), Some(2)));
}
