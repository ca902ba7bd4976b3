//! `genfens N seed S book B [extra…]`: opening positions for OpenBench's
//! DATAGEN workloads, which run `./engine "genfens N seed S book B" quit`
//! once per worker thread and read the `info string genfens <FEN>` lines
//! into their opening book (`Client/genfens.py`).
//!
//! Each position is a random walk, kept when it is legal, not already over,
//! not printed before, and balanced: a single-threaded search of
//! [`CHECK_NODES`] nodes on a fresh table scores it within
//! ±[`BALANCED_WINDOW`] centipawns. Without a book the walk is 8 or 9 random
//! plies from the start position (with Chess960, 4 or 5 from a random one of
//! the 960 start positions, which vary the game already); with a book it is
//! 2 or 3 random plies after a random book position (EPD/FEN lines, or the
//! end of each game of a `.pgn` book). Everything comes from one random
//! stream seeded by S and from searches limited by nodes, never time, so
//! the same arguments print the same positions on every machine.

use crate::data::openings::{self, quick_search, Rng, BALANCED_WINDOW};
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use tetrad_eval::EvalConfig;
use tetrad_search::worker::Worker;
use tetrad_search::TranspositionTable;
use tetrad_simd::chess960::chess960_start;
use tetrad_simd::Position;

/// Nodes of the search that checks a candidate's balance.
pub const CHECK_NODES: u64 = 5000;
/// Random plies after a book position: this many or one more.
const BOOK_PLIES: usize = 2;
/// Random plies after a Chess960 start position: this many or one more.
const CHESS960_PLIES: usize = 4;
/// Candidates tried per requested position before giving up (a book of lopsided positions).
const TRIES_PER_POSITION: usize = 200;
/// The most positions one command makes.
pub const MAX_COUNT: usize = 1_000_000;
/// Table size of the check search, MiB.
const TABLE_MB: usize = 4;

/// A parsed `genfens` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Positions to print.
    pub count: usize,
    /// Seed of the random stream.
    pub seed: u64,
    /// Book file, or `None` (the word `None` on the command).
    pub book: Option<String>,
    /// Chess960 start positions and castling.
    pub chess960: bool,
}

/// Reads `N seed S book B [extra…]`. The only extra understood is
/// `chess960` (or `frc`), the same as `UCI_Chess960` on; any other is an error,
/// so that a mistyped argument is not silently ignored.
pub fn parse(args: &str, chess960: bool) -> Result<Request, String> {
    const USAGE: &str = "genfens needs 'N seed S book <file|None> [chess960]'";
    let words: Vec<&str> = args.split_whitespace().collect();
    let [n, "seed", s, "book", b, extra @ ..] = words.as_slice() else {
        return Err(USAGE.to_string());
    };
    let count = n
        .parse::<usize>()
        .ok()
        .filter(|&c| c <= MAX_COUNT)
        .ok_or_else(|| format!("genfens: N must be 0..={MAX_COUNT}, got '{}'", clip(n)))?;
    let seed = s.parse::<u64>().map_err(|_| format!("genfens: seed must be a whole number, got '{}'", clip(s)))?;
    let book = (!b.eq_ignore_ascii_case("none")).then(|| b.to_string());
    let mut req = Request { count, seed, book, chess960 };
    for w in extra {
        match w.to_ascii_lowercase().as_str() {
            "chess960" | "frc" => req.chess960 = true,
            _ => return Err(format!("genfens: unknown extra argument '{}' ({USAGE})", clip(w))),
        }
    }
    Ok(req)
}

fn clip(s: &str) -> String {
    s.chars().take(64).collect()
}

/// Makes the positions of `req` and hands each to `out` as it is found;
/// the book is read first. An error (unreadable book, too few balanced
/// candidates) comes after the positions found until then.
pub fn generate(req: &Request, eval: &EvalConfig, mut out: impl FnMut(&Position)) -> Result<(), String> {
    let book = match &req.book {
        Some(path) => openings::load_book(Path::new(path))?,
        None => Vec::new(),
    };
    let mut rng = Rng::for_item(req.seed, 0);
    let mut worker = Worker::new(0);
    let mut tt = Arc::new(TranspositionTable::new(TABLE_MB));
    let mut seen = HashSet::new();
    let (mut found, mut tries) = (0, 0);
    let max_tries = req.count.saturating_mul(TRIES_PER_POSITION).max(1000);
    while found < req.count {
        if tries == max_tries {
            return Err(format!("genfens: only {found} of {} balanced openings after {tries} tries", req.count));
        }
        tries += 1;
        let Some(pos) = candidate(req, &book, &mut rng) else { continue };
        if openings::is_over(&pos) || seen.contains(&pos.key()) {
            continue;
        }
        let r = quick_search(&pos, CHECK_NODES, eval, req.chess960, &mut worker, &mut tt);
        if r.score.abs() <= BALANCED_WINDOW {
            seen.insert(pos.key());
            out(&pos);
            found += 1;
        }
    }
    Ok(())
}

/// One random walk: from the start position, a Chess960 start or a book position.
fn candidate(req: &Request, book: &[Position], rng: &mut Rng) -> Option<Position> {
    let (base, plies) = if !book.is_empty() {
        (book[rng.below(book.len())], BOOK_PLIES)
    } else if req.chess960 {
        (chess960_start(rng.below(960) as u16), CHESS960_PLIES)
    } else {
        (Position::startpos(), openings::WALK_PLIES)
    };
    openings::random_walk(base, plies + rng.below(2), rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let r = parse("16 seed 7 book None", false).unwrap();
        assert_eq!(r, Request { count: 16, seed: 7, book: None, chess960: false });
        let r = parse("2 seed 0 book Books/x.epd chess960", false).unwrap();
        assert_eq!((r.book.as_deref(), r.chess960), (Some("Books/x.epd"), true));
        assert!(parse("", false).is_err());
        assert!(parse("16 seed 7", false).is_err());
        assert!(parse("x seed 7 book None", false).unwrap_err().contains("N must be"));
        assert!(parse("16 seed -1 book None", false).unwrap_err().contains("seed"));
        assert!(parse("16 seed 7 book None fast", false).unwrap_err().contains("unknown extra"));
        assert!(parse("2000000 seed 7 book None", false).is_err());
    }

    #[test]
    fn openings_are_balanced_distinct_and_reproducible() {
        let req = parse("64 seed 1 book None", false).unwrap();
        let eval = EvalConfig::default();
        let mut first = Vec::new();
        generate(&req, &eval, |p| first.push(*p)).unwrap();
        let mut again = Vec::new();
        generate(&req, &eval, |p| again.push(*p)).unwrap();
        assert_eq!(first.len(), 64);
        assert_eq!(first, again);
        let (mut worker, mut tt) = (Worker::new(0), Arc::new(TranspositionTable::new(TABLE_MB)));
        let mut keys = HashSet::new();
        for p in &first {
            assert!(keys.insert(p.key()) && !openings::is_over(p));
            // The check search is deterministic: searching again gives the score that kept it.
            let r = quick_search(p, CHECK_NODES, &eval, false, &mut worker, &mut tt);
            assert!(r.score.abs() <= BALANCED_WINDOW, "{} scores {}", p.to_fen(), r.score);
        }
    }

    #[test]
    fn chess960_openings_are_legal_and_balanced() {
        let req = Request { count: 6, seed: 3, book: None, chess960: true };
        let mut fens = Vec::new();
        generate(&req, &EvalConfig::default(), |p| fens.push(p.to_fen())).unwrap();
        assert_eq!(fens.len(), 6);
        for fen in &fens {
            let p = Position::from_fen(fen).unwrap();
            assert!(!openings::is_over(&p));
            // Four or five plies from the start: full-move 3.
            assert_eq!(p.fullmove_number(), 3, "{fen}");
        }
    }

    #[test]
    fn a_missing_book_is_an_error() {
        let req = Request { count: 2, seed: 3, book: Some("/nonexistent/book.epd".into()), chess960: false };
        assert!(generate(&req, &EvalConfig::default(), |_| {}).unwrap_err().contains("cannot read"));
    }
}
