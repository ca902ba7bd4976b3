//! Parsing of the `position` and `go` commands, kept apart from I/O so it can
//! be fuzzed, and of the command line's shard ranges.

use tetrad_search::Limits;
use tetrad_simd::{parse_uci_move, Color, Position};

/// A parsed `position` command. When a move in the list is bad, `position`
/// holds the position after the last legal move and `error` says why.
pub struct ParsedPosition {
    /// The resulting position.
    pub position: Position,
    /// Keys of the positions before it.
    pub history: Vec<u64>,
    /// A problem found in the move list, if any.
    pub error: Option<String>,
}

/// Parses the arguments of `position`. A bad FEN or keyword is an error and
/// changes nothing; a bad move keeps the moves before it.
pub fn parse_position(args: &str) -> Result<ParsedPosition, String> {
    let mut words = args.split_whitespace().peekable();
    let position = match words.next() {
        Some("startpos") => Position::startpos(),
        Some("fen") => {
            let mut fen = Vec::new();
            while let Some(&w) = words.peek() {
                if w == "moves" {
                    break;
                }
                fen.push(w);
                words.next();
            }
            Position::from_fen(&fen.join(" ")).map_err(|e| format!("bad FEN: {e}"))?
        }
        Some(other) => return Err(format!("position: expected 'startpos' or 'fen', got '{}'", clip(other))),
        None => return Err("position: missing 'startpos' or 'fen'".to_string()),
    };
    let mut parsed = ParsedPosition { position, history: Vec::new(), error: None };
    match words.next() {
        None => return Ok(parsed),
        Some("moves") => {}
        Some(other) => return Err(format!("position: expected 'moves', got '{}'", clip(other))),
    }
    for (i, text) in words.enumerate() {
        match parse_uci_move(&parsed.position, text) {
            Some(m) => {
                parsed.history.push(parsed.position.key());
                parsed.position = parsed.position.make_move(m);
            }
            None => {
                parsed.error = Some(format!(
                    "illegal or malformed move '{}' (move {}); position kept after the last legal move",
                    clip(text),
                    i + 1
                ));
                break;
            }
        }
    }
    Ok(parsed)
}

/// An integer as UCI sends it: decimal, optionally signed. One too large
/// for `i64` saturates (it is still a number, and every user clamps it to
/// its own range); anything else is not an integer.
pub fn parse_int(text: &str) -> Option<i64> {
    text.parse::<i64>().ok().or_else(|| {
        let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
        let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        all_digits.then(|| if text.starts_with('-') { i64::MIN } else { i64::MAX })
    })
}

/// The first 32 characters of a word, for an error message.
pub(crate) fn clip(s: &str) -> String {
    s.chars().take(32).collect()
}

/// The words of `go` that take no part in a `searchmoves` list.
pub(crate) const GO_KEYWORDS: [&str; 12] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// A `go` problem: the message and the limits parsed anyway (bad parts ignored).
pub struct GoError(pub String, pub Limits);

/// Parses the arguments of `go`.
#[allow(
    clippy::result_large_err,
    reason = "parsed once per go; the limits ride with the error so a bad token loses nothing"
)]
pub fn parse_go(args: &str, pos: &Position) -> Result<Limits, GoError> {
    let mut limits = Limits::default();
    let mut errors = Vec::new();
    let words: Vec<&str> = args.split_whitespace().collect();
    let mut i = 0;
    let number = |i: &mut usize, key: &str, errors: &mut Vec<String>| -> Option<i64> {
        *i += 1;
        let word = words.get(*i).copied().filter(|w| !GO_KEYWORDS.contains(w));
        let v = word.and_then(parse_int);
        match (word, v) {
            (None, _) => errors.push(format!("go: '{key}' needs a number")),
            (Some(w), None) => errors.push(format!("go: '{key}' needs a number, not '{}'", clip(w))),
            // Counts and depths below 1 mean nothing (a clock may run negative in some GUIs: 0).
            (Some(w), Some(n)) if n < 1 && matches!(key, "depth" | "nodes" | "mate" | "movestogo") => {
                errors.push(format!("go: '{key}' needs a positive number, not '{}'", clip(w)));
                return None;
            }
            _ => {}
        }
        if word.is_none() {
            // The next keyword is read as such.
            *i -= 1;
        }
        v
    };
    while i < words.len() {
        let key = words[i];
        match key {
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "movetime" | "mate" => {
                if let Some(v) = number(&mut i, key, &mut errors) {
                    let u = v.max(0) as u64;
                    match key {
                        "wtime" => limits.time[Color::White.index()] = Some(u),
                        "btime" => limits.time[Color::Black.index()] = Some(u),
                        "winc" => limits.inc[Color::White.index()] = u,
                        "binc" => limits.inc[Color::Black.index()] = u,
                        "movestogo" => limits.movestogo = Some(u.clamp(1, 10_000) as u32),
                        "depth" => limits.depth = Some(v.clamp(1, 120) as i32),
                        "nodes" => limits.nodes = Some(u.max(1)),
                        "movetime" => limits.movetime = Some(u),
                        _ => limits.mate = Some(v.clamp(1, 120) as i32),
                    }
                }
            }
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                // Every word up to the next keyword is meant as a move: one that
                // is not legal here is named and left out (no moves left: all).
                while let Some(&w) = words.get(i + 1).filter(|w| !GO_KEYWORDS.contains(w)) {
                    match parse_uci_move(pos, w) {
                        Some(m) => limits.searchmoves.push(m),
                        None => errors.push(format!("go searchmoves: '{}' is not a legal move here", clip(w))),
                    }
                    i += 1;
                }
            }
            other => errors.push(format!("go: unknown parameter '{}'", clip(other))),
        }
        i += 1;
    }
    if errors.is_empty() {
        return Ok(limits);
    }
    // What parsed may not end the search by itself: a GUI must still get a
    // move, so a malformed limit never becomes an endless search.
    let stm = pos.side_to_move();
    let bounded = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some()
        || limits.mate.is_some()
        || limits.clock(stm).is_some();
    let mut message = errors.join("; ");
    if !bounded && !limits.infinite && !limits.ponder {
        limits.depth = Some(1);
        message.push_str("; searching to depth 1 to answer at once");
    }
    Err(GoError(message, limits))
}

/// A count of at least one (games, nodes, threads, MiB, a depth), for clap:
/// zero and negative numbers are refused by name, not read as flags.
pub fn count<T: TryFrom<i64>>(s: &str) -> Result<T, String> {
    let v: i64 = s.trim().parse().map_err(|_| format!("'{}' is not a whole number", clip(s)))?;
    if v < 1 {
        return Err(format!("needs at least 1, not {v}"));
    }
    T::try_from(v).map_err(|_| format!("{v} is too large"))
}

/// A thread count where 0 means every core.
pub fn threads(s: &str) -> Result<usize, String> {
    if s.trim() == "0" {
        Ok(0)
    } else {
        count(s)
    }
}

/// A number above zero (a learning rate).
pub fn positive(s: &str) -> Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("'{}' is not a number", clip(s)))?;
    if v > 0.0 && v.is_finite() {
        Ok(v)
    } else {
        Err(format!("needs a number above 0, not {v}"))
    }
}

/// A fraction from 0 to 1 (a share, a weight).
pub fn fraction(s: &str) -> Result<f64, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("'{}' is not a number", clip(s)))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("needs a number from 0 to 1, not {v}"))
    }
}

/// Parses `A..B` (B > A) into a range.
pub fn parse_range(s: &str) -> Result<std::ops::Range<usize>, String> {
    let (a, b) = s.split_once("..").ok_or_else(|| format!("expected A..B, got '{s}'"))?;
    let a: usize = a.trim().parse().map_err(|_| format!("bad start '{a}' in '{s}'"))?;
    let b: usize = b.trim().parse().map_err(|_| format!("bad end '{b}' in '{s}'"))?;
    if b <= a {
        return Err(format!("empty range '{s}': the end must be above the start"));
    }
    Ok(a..b)
}

/// A `--data` directory, with the shards to read from it when it names
/// them (`DIR:A..B`); a path whose text after its last `:` is no range is
/// taken whole.
#[derive(Clone, Debug, PartialEq)]
pub struct DataDir {
    /// The directory of shards.
    pub dir: std::path::PathBuf,
    /// Its own shard range, in place of `--shards`.
    pub shards: Option<std::ops::Range<usize>>,
}

/// Parses `DIR` or `DIR:A..B` ([`DataDir`]).
pub fn data_dir(s: &str) -> Result<DataDir, String> {
    if s.is_empty() {
        return Err("an empty directory name".into());
    }
    if let Some((dir, range)) = s.rsplit_once(':') {
        if range.contains("..") {
            if dir.is_empty() {
                return Err(format!("no directory before ':{range}'"));
            }
            return Ok(DataDir { dir: dir.into(), shards: Some(parse_range(range)?) });
        }
    }
    Ok(DataDir { dir: s.into(), shards: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_dirs_name_their_own_shards_or_not() {
        let plain = data_dir("../data/gen16").unwrap();
        assert_eq!((plain.dir.to_str(), plain.shards), (Some("../data/gen16"), None));
        let part = data_dir("../data/gen17:0..800").unwrap();
        assert_eq!((part.dir.to_str(), part.shards), (Some("../data/gen17"), Some(0..800)));
        let colon = data_dir("a:b/gen1").unwrap();
        assert_eq!((colon.dir.to_str(), colon.shards), (Some("a:b/gen1"), None));
        assert!(data_dir("gen17:5..2").unwrap_err().contains("empty range"));
        assert!(data_dir("gen17:x..2").unwrap_err().contains("bad start"));
        assert!(data_dir(":0..3").is_err());
        assert!(data_dir("").is_err());
    }

    #[test]
    fn searchmoves_names_each_move_it_leaves_out() {
        let pos = Position::startpos();
        let Err(GoError(msg, limits)) = parse_go("searchmoves e2e4 e2e5 zz99 g1f3 depth 3", &pos) else {
            panic!("bad moves must be reported");
        };
        assert_eq!(
            msg,
            "go searchmoves: 'e2e5' is not a legal move here; go searchmoves: 'zz99' is not a legal move here"
        );
        let kept: Vec<String> = limits.searchmoves.iter().map(|m| m.to_string()).collect();
        assert_eq!(kept, ["e2e4", "g1f3"]);
        assert_eq!(limits.depth, Some(3));
    }

    #[test]
    fn integers_saturate_and_words_are_refused() {
        assert_eq!(parse_int("42"), Some(42));
        assert_eq!(parse_int("-7"), Some(-7));
        assert_eq!(parse_int("+7"), Some(7));
        assert_eq!(parse_int("99999999999999999999"), Some(i64::MAX));
        assert_eq!(parse_int("-99999999999999999999"), Some(i64::MIN));
        for bad in ["", "-", "+", "12a", "1.5", "banana", "--3", "0x10"] {
            assert_eq!(parse_int(bad), None, "{bad:?}");
        }
        // A clock too large for 64 bits is still a clock, not an error.
        let limits = parse_go("wtime 99999999999999999999999 depth 99999999999", &Position::startpos())
            .ok()
            .expect("huge numbers are numbers");
        assert_eq!(limits.time[Color::White.index()], Some(i64::MAX as u64));
        assert_eq!(limits.depth, Some(120));
    }

    #[test]
    fn searchmoves_stops_at_the_next_keyword() {
        let pos = Position::startpos();
        let limits = parse_go("searchmoves d2d4 infinite", &pos).ok().expect("all good");
        assert_eq!(limits.searchmoves.len(), 1);
        assert!(limits.infinite);
        assert!(parse_go("searchmoves", &pos).ok().expect("empty list is fine").searchmoves.is_empty());
    }

    /// A malformed limit is named, and what parsed still ends the search:
    /// with nothing else bounding it, a depth-1 search answers at once.
    #[test]
    fn a_malformed_go_never_searches_for_ever() {
        let pos = Position::startpos();
        for (go, named) in [
            ("depth abc", "'depth' needs a number, not 'abc'"),
            ("wtime x", "'wtime' needs a number, not 'x'"),
            ("nodes -5", "'nodes' needs a positive number, not '-5'"),
            ("depth 0", "'depth' needs a positive number, not '0'"),
            ("mate", "'mate' needs a number"),
            ("banana", "unknown parameter 'banana'"),
        ] {
            let Err(GoError(msg, limits)) = parse_go(go, &pos) else { panic!("{go}: no error") };
            assert!(msg.contains(named) && msg.ends_with("searching to depth 1 to answer at once"), "{go}: {msg}");
            assert_eq!(limits.depth, Some(1), "{go}");
        }
        // What parsed is kept: the clock after a bad word, the keyword after a missing number.
        let Err(GoError(msg, limits)) = parse_go("wtime x btime 5000 winc 10", &pos) else { panic!() };
        assert!(!msg.contains("depth 1"), "{msg}");
        assert_eq!((limits.time[1], limits.depth), (Some(5000), None));
        let Err(GoError(_, limits)) = parse_go("depth movetime 300", &pos) else { panic!() };
        assert_eq!((limits.movetime, limits.depth), (Some(300), None));
        // Asked for an endless search: it stays one (`stop` ends it).
        let Err(GoError(_, limits)) = parse_go("infinite depth x", &pos) else { panic!() };
        assert!(limits.infinite && limits.depth.is_none());
        // A clock a GUI let run below zero is an empty clock, not an error.
        assert_eq!(parse_go("wtime -20 btime 100", &pos).ok().expect("a clock").time[0], Some(0));
    }

    /// `--shards A..B`: a non-empty range of shard numbers, anything else a message naming the text.
    #[test]
    fn shard_ranges() {
        assert_eq!(parse_range("0..560"), Ok(0..560));
        assert_eq!(parse_range(" 3 .. 4 "), Ok(3..4));
        for bad in ["", "5", "5..5", "9..2", "a..3", "1..b", "-1..3", "1...3"] {
            let err = parse_range(bad).expect_err(bad);
            assert!(err.contains(bad.trim()) || bad.is_empty(), "{bad:?}: {err}");
        }
    }
}
