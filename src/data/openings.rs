//! Opening positions made by the engine itself: book lines or random walks
//! from a base position, kept only when a short search finds them balanced.
//!
//! `datagen` starts its games here and `genfens` prints them for OpenBench.
//! Everything depends only on the seed and the arguments: the check search is
//! single-threaded, node-limited, on a fresh table and cleared histories.

use crate::data::pgn::PgnReader;
use std::path::Path;
use std::sync::Arc;
use tetrad_eval::EvalConfig;
use tetrad_search::worker::{SearchJob, Worker};
use tetrad_search::{Limits, ThreadResult, TranspositionTable};
use tetrad_simd::{legal_moves, PieceType, Position, Square};

/// splitmix64: small, seedable, the same on every platform.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// A generator for item `index` of a run seeded `seed` (independent streams).
    pub fn for_item(seed: u64, index: u64) -> Rng {
        Rng(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407))
    }
}

/// `plies` random legal moves from `pos`; `None` if the game ends on the way.
pub fn random_walk(mut pos: Position, plies: usize, rng: &mut Rng) -> Option<Position> {
    for _ in 0..plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        pos = pos.make_move(moves.as_slice()[rng.below(moves.len())]);
    }
    (!legal_moves(&pos).is_empty()).then_some(pos)
}

/// One node-limited search of `pos` as a fresh game would see it: the
/// worker's histories cleared, a fresh table of `tt`'s size emptied.
pub fn quick_search(
    pos: &Position,
    nodes: u64,
    eval: &EvalConfig,
    chess960: bool,
    worker: &mut Worker,
    tt: &mut Arc<TranspositionTable>,
) -> ThreadResult {
    worker.clear();
    TranspositionTable::clear(tt);
    search_move(pos, Vec::new(), nodes, eval, chess960, worker, tt)
}

/// One node-limited single-thread search of `pos` after the game `history`
/// (position keys), keeping what the worker and table learned so far.
pub fn search_move(
    pos: &Position,
    history: Vec<u64>,
    nodes: u64,
    eval: &EvalConfig,
    chess960: bool,
    worker: &mut Worker,
    tt: &Arc<TranspositionTable>,
) -> ThreadResult {
    let job = SearchJob::quiet(*pos, history, Limits { nodes: Some(nodes), ..Default::default() }, tt, eval, chess960);
    tt.new_search();
    worker.search(&job)
}

/// A random-walk opening is this many plies from the start position, or one more.
pub const WALK_PLIES: usize = 8;
/// An opening is balanced when its check search scores within ±this (cp, the search's scale).
pub const BALANCED_WINDOW: i32 = 150;
/// Walks tried for one opening before giving up on it.
pub const WALK_ATTEMPTS: usize = 32;

/// How openings are checked for balance.
#[derive(Clone, Debug)]
pub struct BalanceCheck {
    /// Nodes of the check search.
    pub nodes: u64,
    /// Largest |score| (centipawns, the search's scale) kept as balanced.
    pub window: i32,
    /// Walks tried before giving up on one opening.
    pub attempts: usize,
    /// The evaluation of the check search.
    pub eval: EvalConfig,
    /// Castling written and searched as in Chess960.
    pub chess960: bool,
}

/// A random walk of `plies` from `base` that the check search finds
/// balanced, trying up to `check.attempts` walks; with the check's score.
pub fn balanced_walk(
    base: &Position,
    plies: usize,
    rng: &mut Rng,
    check: &BalanceCheck,
    worker: &mut Worker,
    tt: &mut Arc<TranspositionTable>,
) -> Option<(Position, i32)> {
    for _ in 0..check.attempts.max(1) {
        let Some(pos) = random_walk(*base, plies, rng) else { continue };
        let r = quick_search(&pos, check.nodes, &check.eval, check.chess960, worker, tt);
        if r.score.abs() <= check.window {
            return Some((pos, r.score));
        }
    }
    None
}

/// Whether the game is over at `pos` before anyone moves: no legal move, the
/// fifty-move rule, or too little material for either side to mate (bare
/// kings, or one minor piece beside them).
pub fn is_over(pos: &Position) -> bool {
    let minors_or_more = Square::all()
        .filter_map(|s| pos.piece_at(s))
        .filter(|p| p.kind() != PieceType::King)
        .map(|p| if matches!(p.kind(), PieceType::Knight | PieceType::Bishop) { 1 } else { 2 })
        .sum::<u32>();
    legal_moves(pos).is_empty() || pos.halfmove_clock() >= 100 || minors_or_more <= 1
}

/// The positions of a book file: the end of each game of a PGN book (bad
/// games left out), or for any other file [`parse_book`]'s FEN/EPD lines.
pub fn load_book(path: &Path) -> Result<Vec<Position>, String> {
    let is_pgn = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let book = if is_pgn {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        PgnReader::new(std::io::BufReader::new(file)).flatten().map(|g| g.end()).collect()
    } else {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        parse_book(&String::from_utf8_lossy(&bytes))
    };
    if book.is_empty() {
        return Err(format!("the book {} has no positions", path.display()));
    }
    Ok(book)
}

/// The book's positions: one FEN (or EPD: its first four fields) a line; lines
/// that do not parse are left out.
pub fn parse_book(text: &str) -> Vec<Position> {
    text.lines()
        .filter_map(|line| {
            let fen = line.split(';').next().unwrap_or("").trim();
            if fen.is_empty() {
                return None;
            }
            Position::from_fen(fen).or_else(|_| Position::from_fen(&epd_to_fen(fen))).ok()
        })
        .collect()
}

/// The first four FEN fields of an EPD line with clocks `0 1` added.
fn epd_to_fen(epd: &str) -> String {
    let fields: Vec<&str> = epd.split_whitespace().take(4).collect();
    format!("{} 0 1", fields.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_are_reproducible_and_legal() {
        let start = Position::startpos();
        let a = random_walk(start, 9, &mut Rng::for_item(5, 3)).unwrap();
        let b = random_walk(start, 9, &mut Rng::for_item(5, 3)).unwrap();
        assert_eq!(a.key(), b.key());
        assert_eq!(a.fullmove_number(), 5);
        assert!(!legal_moves(&a).is_empty());
    }

    #[test]
    fn games_that_are_over() {
        assert!(!is_over(&Position::startpos()));
        for fen in
            ["7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "4k3/8/8/8/8/8/8/R3K3 w - - 100 80"]
        {
            assert!(is_over(&Position::from_fen(fen).unwrap()), "{fen}");
        }
        assert!(!is_over(&Position::from_fen("4k3/8/8/8/8/8/8/3NKB2 w - - 0 1").unwrap()));
    }

    #[test]
    fn books_read_fen_and_epd() {
        let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"x\";\n\
                    garbage\n\n";
        assert_eq!(parse_book(text).len(), 2);
    }
}
