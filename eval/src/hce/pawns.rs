//! Pawn structure, king shelter and pawn storm, cached per evaluator in a
//! pawn hash table keyed by the pawns and the two king squares.
//!
//! The cached part is everything that depends only on pawns and kings:
//! doubled, isolated, backward and connected pawns; passed pawns by rank and
//! their king distances; shelter, storm and open files at each king. Passed
//! pawn terms that depend on pieces are added outside (see `eval.rs`).

use crate::hce::bits::{
    adjacent_files, distance, file_bb, forward, front_span, rank_bb, rear_fill, relative_rank, squares, FILE_A,
};
use crate::hce::params::Params;
use crate::hce::score::Score;
use crate::hce::trace::Tracer;
use tetrad_simd::attacks::{pawn_attacks, pawn_attacks_bb};
use tetrad_simd::{Color, Square};

/// Number of entries of a pawn hash table (a power of two).
pub const PAWN_TABLE_SIZE: usize = 1 << 13;

/// What the pawn evaluation hands to the rest of the evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnEntry {
    /// Pawn key this entry belongs to (0 = empty).
    pub key: u64,
    /// White's pawn-and-king score minus Black's.
    pub score: Score,
    /// Passed pawns per colour.
    pub passed: [u64; 2],
    /// Per colour, every square its pawns attack now or could after advancing.
    pub attack_span: [u64; 2],
}

/// The pawn key: a multiply-mix of both pawn bitboards and the king squares.
/// Never 0, so 0 marks an empty entry.
#[inline(always)]
pub fn pawn_key(white_pawns: u64, black_pawns: u64, kings: [usize; 2]) -> u64 {
    let k = (kings[0] as u64) | ((kings[1] as u64) << 6);
    let mut h = white_pawns.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black_pawns.rotate_left(32).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (k + 1).wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 32;
    h | 1
}

/// A direct-mapped pawn hash table.
#[derive(Clone, Debug)]
pub struct PawnTable {
    entries: Vec<PawnEntry>,
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable::new()
    }
}

impl PawnTable {
    /// An empty table of [`PAWN_TABLE_SIZE`] entries.
    pub fn new() -> PawnTable {
        PawnTable { entries: vec![PawnEntry::default(); PAWN_TABLE_SIZE] }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = PawnEntry::default());
    }

    /// The entry for `key` if it is stored.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<&PawnEntry> {
        let e = &self.entries[(key as usize) & (PAWN_TABLE_SIZE - 1)];
        (e.key == key).then_some(e)
    }

    /// Stores an entry (replacing whatever shared its slot).
    #[inline(always)]
    pub fn store(&mut self, e: PawnEntry) {
        let i = (e.key as usize) & (PAWN_TABLE_SIZE - 1);
        self.entries[i] = e;
    }
}

#[inline(always)]
fn add<T: Tracer>(tr: &mut T, acc: &mut Score, p: &Params, w: &Score, c: Color, n: i32) {
    *acc += *w * n;
    if T::ON {
        tr.add(p.slot_of(w), c, n);
    }
}

/// Squares strictly in front of `sq` on its own and the adjacent files.
#[inline(always)]
fn passed_mask(c: Color, bit: u64) -> u64 {
    let span = front_span(c, bit);
    span | ((span << 1) & !FILE_A) | ((span >> 1) & !(FILE_A << 7))
}

/// The nearest pawn of `set` to `c`'s back rank, as a relative rank (0 = none).
#[inline(always)]
fn nearest_rank(c: Color, set: u64) -> usize {
    if set == 0 {
        return 0;
    }
    let sq = match c {
        Color::White => set.trailing_zeros() as usize,
        Color::Black => 63 - set.leading_zeros() as usize,
    };
    relative_rank(c, sq)
}

/// Evaluates pawns and king shelter from scratch (`key` is stored in the result).
pub fn evaluate_pawns<T: Tracer>(pawns: [u64; 2], kings: [usize; 2], key: u64, p: &Params, tr: &mut T) -> PawnEntry {
    let mut s = [Score::ZERO; 2];
    let mut e = PawnEntry { key, ..PawnEntry::default() };
    for c in Color::ALL {
        let (ci, ti) = (c.index(), c.flip().index());
        let them = c.flip();
        let (us, theirs) = (pawns[ci], pawns[ti]);
        let their_attacks = pawn_attacks_bb(them, theirs);
        e.attack_span[ci] = pawn_attacks_bb(c, us | front_span(c, us));
        let acc = &mut s[ci];
        for sq in squares(us) {
            let bit = 1u64 << sq;
            let r = relative_rank(c, sq);
            let adj = adjacent_files(sq & 7);
            let rank = rank_bb(sq >> 3);
            let doubled = front_span(c, bit) & us != 0;
            let isolated = us & adj == 0;
            let supported = pawn_attacks(them, Square::new(sq as u8)) & us != 0;
            let phalanx = us & adj & rank != 0;
            if doubled {
                add(tr, acc, p, &p.pawn_doubled, c, 1);
            }
            if isolated {
                add(tr, acc, p, &p.pawn_isolated, c, 1);
            } else if us & adj & rear_fill(c, rank) == 0 && forward(c, bit) & their_attacks != 0 {
                add(tr, acc, p, &p.pawn_backward, c, 1);
            }
            if supported || phalanx {
                add(tr, acc, p, &p.pawn_connected[r], c, 1);
            }
            if !doubled && passed_mask(c, bit) & theirs == 0 && r < 7 {
                e.passed[ci] |= bit;
                let stop = if c == Color::White { sq + 8 } else { sq - 8 };
                add(tr, acc, p, &p.passed_rank[r], c, 1);
                add(tr, acc, p, &p.passed_own_king_dist[r], c, distance(kings[ci], stop));
                add(tr, acc, p, &p.passed_enemy_king_dist[r], c, distance(kings[ti], stop));
            }
        }
        // Shelter, storm and open files on the three files at the king.
        let ksq = kings[ci];
        let center = (ksq & 7).clamp(1, 6);
        let ahead = front_span(c, rank_bb(ksq >> 3)) | rank_bb(ksq >> 3);
        for f in center - 1..=center + 1 {
            let file = file_bb(f);
            let own = us & file & ahead;
            let enemy = theirs & file & ahead;
            add(tr, acc, p, &p.king_shelter[nearest_rank(c, own)], c, 1);
            let er = nearest_rank(c, enemy);
            if er != 0 {
                let esq = match c {
                    Color::White => enemy.trailing_zeros(),
                    Color::Black => 63 - enemy.leading_zeros(),
                };
                if forward(them, 1u64 << esq) & us != 0 {
                    add(tr, acc, p, &p.king_storm_blocked[er], c, 1);
                } else {
                    add(tr, acc, p, &p.king_storm[er], c, 1);
                }
            } else {
                add(tr, acc, p, &p.king_storm[0], c, 1);
            }
            if (us | theirs) & file == 0 {
                add(tr, acc, p, &p.king_open_file, c, 1);
            } else if us & file == 0 {
                add(tr, acc, p, &p.king_semi_open_file, c, 1);
            }
        }
    }
    e.score = s[0] - s[1];
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hce::weights::PARAMS;
    use tetrad_simd::{ccr_to_bitboards, PieceType, Position};

    fn entry(fen: &str) -> PawnEntry {
        let pos = Position::from_fen(fen).unwrap();
        let bb = ccr_to_bitboards(pos.ccr());
        let pawns = [bb.pieces(Color::White, PieceType::Pawn), bb.pieces(Color::Black, PieceType::Pawn)];
        let kings = [pos.king(Color::White).index(), pos.king(Color::Black).index()];
        evaluate_pawns(pawns, kings, 1, &PARAMS, &mut crate::hce::trace::NoTrace)
    }

    #[test]
    fn passed_pawns_found() {
        let e = entry("4k3/8/8/3P4/8/1p6/P7/4K3 w - - 0 1");
        assert_eq!(e.passed[0], 1 << 35); // d5 passed; a2 is stopped by b3's span
        assert_eq!(e.passed[1], 0); // b3 faces a2
        let e = entry("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1");
        assert_eq!(e.passed[0], 0b11 << 8);
    }

    #[test]
    fn keys_differ() {
        assert_ne!(pawn_key(1 << 8, 0, [4, 60]), pawn_key(0, 1 << 8, [4, 60]));
        assert_ne!(pawn_key(1 << 8, 0, [4, 60]), pawn_key(1 << 8, 0, [5, 60]));
        assert_ne!(pawn_key(0, 0, [0, 0]), 0);
    }
}
