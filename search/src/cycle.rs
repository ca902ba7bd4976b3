//! Upcoming repetitions: whether the side to move has a move that brings
//! back a position of the line searched, found from key differences alone,
//! without generating moves (Marcel van Kervinck's cuckoo tables, as in
//! Stockfish). A node that can force such a draw scores at least a draw.
//!
//! The key of a reversible move by a piece between squares `a` and `b` is
//! `piece[a] ^ piece[b] ^ side`, the same in both directions. The tables
//! hold every such key (3,668 for the ten non-pawn pieces) in a cuckoo hash,
//! so a key difference is looked up in two probes.

use std::sync::OnceLock;
use tetrad_simd::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use tetrad_simd::tables::BETWEEN;
use tetrad_simd::zobrist::ZOBRIST;
use tetrad_simd::{Position, Square};

const SIZE: usize = 8192;

#[inline(always)]
fn h1(key: u64) -> usize {
    (key & (SIZE as u64 - 1)) as usize
}

#[inline(always)]
fn h2(key: u64) -> usize {
    ((key >> 16) & (SIZE as u64 - 1)) as usize
}

/// The move keys and their squares, each at one of its two slots.
struct Cuckoo {
    keys: Vec<u64>,
    squares: Vec<(u8, u8)>,
}

fn cuckoo() -> &'static Cuckoo {
    static TABLE: OnceLock<Cuckoo> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Cuckoo { keys: vec![0; SIZE], squares: vec![(0, 0); SIZE] };
        for code in (2u8..=6).chain(10..=14) {
            for a in 0..64u8 {
                let sq = Square::new(a);
                let reach = match code & 7 {
                    2 => knight_attacks(sq),
                    3 => bishop_attacks(sq, 0),
                    4 => rook_attacks(sq, 0),
                    5 => queen_attacks(sq, 0),
                    _ => king_attacks(sq),
                };
                for b in a + 1..64 {
                    if reach >> b & 1 == 0 {
                        continue;
                    }
                    let piece = &ZOBRIST.piece[code as usize];
                    let (mut key, mut squares) = (piece[a as usize] ^ piece[b as usize] ^ ZOBRIST.side, (a, b));
                    let mut slot = h1(key);
                    // Cuckoo insertion: take the slot, move its old key to that key's other slot.
                    loop {
                        std::mem::swap(&mut t.keys[slot], &mut key);
                        std::mem::swap(&mut t.squares[slot], &mut squares);
                        if key == 0 {
                            break;
                        }
                        slot = if slot == h1(key) { h2(key) } else { h1(key) };
                    }
                }
            }
        }
        t
    })
}

/// Builds the tables now (thread start), not inside the first search.
pub fn init() {
    cuckoo();
}

/// Whether the side to move at `pos` has a move back to a position `i` plies
/// up the line (odd `i` ≥ 3, at most `reach`), given the keys of the
/// positions before it (`history`, last = parent). Only positions within
/// `reach` count: the caller keeps that inside the search and after the
/// last null move and irreversible move.
pub fn upcoming_repetition(pos: &Position, history: &[u64], reach: usize) -> bool {
    if reach < 3 {
        return false;
    }
    let t = cuckoo();
    let key = pos.key();
    let n = history.len();
    let mut i = 3;
    while i <= reach.min(n) {
        let diff = key ^ history[n - i];
        let slot = if t.keys[h1(diff)] == diff {
            Some(h1(diff))
        } else if t.keys[h2(diff)] == diff {
            Some(h2(diff))
        } else {
            None
        };
        if let Some(slot) = slot {
            let (a, b) = t.squares[slot];
            let mut path = BETWEEN[a as usize][b as usize];
            let mut clear = true;
            while path != 0 {
                clear &= pos.ccr().code(Square::new(path.trailing_zeros() as u8)) == 0;
                path &= path - 1;
            }
            if clear {
                return true;
            }
        }
        i += 2;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_every_reversible_move_once() {
        let t = cuckoo();
        assert_eq!(t.keys.iter().filter(|&&k| k != 0).count(), 3668);
    }

    /// The keys of the positions before the last one, and the last one, after `moves` from `fen`.
    fn line(fen: &str, moves: &[&str]) -> (Vec<u64>, Position) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut keys = Vec::new();
        for m in moves {
            keys.push(pos.key());
            pos = pos.make_move(tetrad_simd::parse_uci_move(&pos, m).unwrap());
        }
        (keys, pos)
    }

    #[test]
    fn finds_a_knight_going_back() {
        let start = tetrad_simd::STARTPOS_FEN;
        // After Nf3 Nf6 Ng1, Black's Ng8 brings back the start position.
        let (keys, pos) = line(start, &["g1f3", "g8f6", "f3g1"]);
        assert!(upcoming_repetition(&pos, &keys, 3));
        assert!(!upcoming_repetition(&pos, &keys, 2), "out of reach");
        // After Nf3 Nf6 Nc3 no black move does.
        let (keys, pos) = line(start, &["g1f3", "g8f6", "b1c3"]);
        assert!(!upcoming_repetition(&pos, &keys, 3));
    }

    #[test]
    fn a_blocked_way_back_is_no_repetition() {
        // The rook goes a1-b1-b3-a3 while the black king steps away and back:
        // five plies up the rook stood on a1, one rook move from a3, unless a2 is occupied.
        let moves = ["a1b1", "d8e8", "b1b3", "e8d8", "b3a3"];
        let (keys, pos) = line("3k4/8/8/8/8/8/7P/R3K3 w - - 0 1", &moves);
        assert!(upcoming_repetition(&pos, &keys, 5));
        let (keys, pos) = line("3k4/8/8/8/8/8/P7/R3K3 w - - 0 1", &moves);
        assert!(!upcoming_repetition(&pos, &keys, 5));
    }
}
