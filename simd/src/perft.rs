//! Perft: counting the leaves of the legal move tree, the truth test for move generators.

use crate::movegen::{ccr, GenType};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use rayon::prelude::*;

/// A legal move generator as perft sees it: fill a list with every legal move.
pub trait Generator: Sync {
    /// Appends all legal moves of `pos` to `list`.
    fn legal(&self, pos: &Position, list: &mut MoveList);

    /// The number of legal moves (bulk counting at perft's last ply). The
    /// default fills a list; generators that can count set-wise override it.
    #[inline]
    fn count(&self, pos: &Position) -> u64 {
        let mut list = MoveList::new();
        self.legal(pos, &mut list);
        list.len() as u64
    }
}

/// The paper's CCR generator ([`crate::movegen::ccr`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct CcrGenerator;

impl Generator for CcrGenerator {
    #[inline]
    fn legal(&self, pos: &Position, list: &mut MoveList) {
        ccr::generate(pos, GenType::All, list);
    }
}

/// The bitboard generator ([`crate::movegen`]): converts the CCR, generates set-wise.
#[derive(Clone, Copy, Debug, Default)]
pub struct BitboardGenerator;

impl Generator for BitboardGenerator {
    #[inline]
    fn legal(&self, pos: &Position, list: &mut MoveList) {
        crate::movegen::generate(pos, GenType::All, list);
    }

    #[inline]
    fn count(&self, pos: &Position) -> u64 {
        crate::movegen::count_moves(pos)
    }
}

/// Leaf count at `depth`, counting the last ply in bulk (no make-move there).
pub fn perft<G: Generator>(gen: &G, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return gen.count(pos);
    }
    let mut list = MoveList::new();
    gen.legal(pos, &mut list);
    list.iter().map(|&m| perft(gen, &pos.make_move(m), depth - 1)).sum()
}

/// [`perft`] that gives up (returning `None`) soon after `stop` is set.
pub fn perft_until<G: Generator>(
    gen: &G,
    pos: &Position,
    depth: u32,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(gen, pos, depth));
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let mut list = MoveList::new();
    gen.legal(pos, &mut list);
    let mut total = 0;
    for &m in list.iter() {
        total += perft_until(gen, &pos.make_move(m), depth - 1, stop)?;
    }
    Some(total)
}

/// Per-root-move counts, in generation order. With `parallel`, rayon splits the root moves.
pub fn perft_divide<G: Generator>(gen: &G, pos: &Position, depth: u32, parallel: bool) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    gen.legal(pos, &mut list);
    let count = |&m: &Move| (m, if depth <= 1 { 1 } else { perft(gen, &pos.make_move(m), depth - 1) });
    if parallel {
        list.as_slice().par_iter().map(count).collect()
    } else {
        list.iter().map(count).collect()
    }
}

/// One line of an EPD perft suite: `FEN ;D1 n ;D2 n …`.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// The position's FEN.
    pub fen: String,
    /// `(depth, expected leaf count)` pairs in file order.
    pub depths: Vec<(u32, u64)>,
}

/// Parses a perft EPD suite; malformed lines are reported with their line number.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut depths = Vec::new();
        for p in parts {
            let p = p.trim();
            if p.is_empty() {
                continue;
            }
            let mut it = p.split_whitespace();
            let d = it.next().and_then(|d| d.strip_prefix('D')).and_then(|d| d.parse().ok());
            let c = it.next().and_then(|c| c.parse().ok());
            match (d, c) {
                (Some(d), Some(c)) => depths.push((d, c)),
                _ => return Err(format!("line {}: bad depth entry '{p}'", n + 1)),
            }
        }
        cases.push(PerftCase { fen, depths });
    }
    Ok(cases)
}
