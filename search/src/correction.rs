//! Correction history: how far searches have found the static evaluation
//! off, remembered per pawn structure, per material balance and per each
//! side's placement of pieces (the non-pawn keys, as in Stockfish), per
//! pair of last moves (continuation correction), and added to the static
//! evaluation of later nodes that share them.
//!
//! After a node's search, when its result is a trustworthy correction (not
//! in check, best move quiet, the bound on the right side of the
//! evaluation), `result - static eval` is folded into both tables with a
//! weight growing with depth.

use crate::history::PieceTo;
use crate::params::{corr_cont_pct, corr_max_cp, corr_non_pawn_pct, corr_weight_max, CORR_GRAIN, CORR_SIZE};
use tetrad_simd::{Color, NodeView, PieceType};

/// The keys of a node for the correction tables.
#[derive(Clone, Copy, Debug, Default)]
pub struct CorrKeys {
    /// Hash of both sides' pawn sets.
    pub pawns: u64,
    /// Hash of the piece counts of both sides.
    pub material: u64,
    /// Per colour, hash of where its pieces other than pawns stand.
    pub non_pawn: [u64; 2],
    /// The moves made two plies and one ply up, when both were real moves.
    pub moves: Option<[PieceTo; 2]>,
}

#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z = (z ^ (z >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    z ^ (z >> 32)
}

impl CorrKeys {
    /// The keys of a node, from its view's bitboards.
    #[inline]
    pub fn of(view: &NodeView) -> CorrKeys {
        let bb = &view.bb;
        let (wp, bp) = (bb.pieces(Color::White, PieceType::Pawn), bb.pieces(Color::Black, PieceType::Pawn));
        let mut counts = 0u64;
        for (i, code) in [1usize, 2, 3, 4, 5, 9, 10, 11, 12, 13].into_iter().enumerate() {
            counts |= (bb.by_code[code].count_ones() as u64 & 15) << (4 * i);
        }
        // Odd multipliers keep each bitboard's bits apart before the mix.
        const K: [u64; 5] = [
            0x9E37_79B9_7F4A_7C15,
            0xBF58_476D_1CE4_E5B9,
            0x94D0_49BB_1331_11EB,
            0xD6E8_FEB8_6659_FD93,
            0xA076_1D64_78BD_642F,
        ];
        let non_pawn = |first: usize| mix((0..5).fold(0, |h, i| h ^ bb.by_code[first + i].wrapping_mul(K[i])));
        CorrKeys {
            pawns: mix(wp ^ bp.rotate_left(29)),
            material: mix(counts),
            non_pawn: [non_pawn(2), non_pawn(10)],
            moves: None,
        }
    }

    /// The same keys with the moves two plies and one ply up (`[ply − 2, ply − 1]`).
    #[inline]
    pub fn after(self, moves: [PieceTo; 2]) -> CorrKeys {
        CorrKeys { moves: moves.iter().all(|m| m.piece != 0).then_some(moves), ..self }
    }
}

/// The tables, per side to move (the non-pawn ones also per colour of the pieces).
pub struct Correction {
    pawns: Box<[[i16; CORR_SIZE]; 2]>,
    material: Box<[[i16; CORR_SIZE]; 2]>,
    non_pawn: Box<[[[i16; CORR_SIZE]; 2]; 2]>,
    /// `[piece][to]` of the move two plies up, then of the last move (the colours are in the piece codes).
    cont: Box<[[[[i16; 64]; 16]; 64]; 16]>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

impl Correction {
    /// Empty tables.
    pub fn new() -> Correction {
        Correction {
            pawns: Box::new([[0; CORR_SIZE]; 2]),
            material: Box::new([[0; CORR_SIZE]; 2]),
            non_pawn: Box::new([[[0; CORR_SIZE]; 2]; 2]),
            cont: vec![[[[0i16; 64]; 16]; 64]; 16].into_boxed_slice().try_into().expect("16 rows"),
        }
    }

    /// Forgets everything (new game), zeroing the tables where they are
    /// (destructured, so a new table cannot be left out of it).
    pub fn clear(&mut self) {
        let Correction { pawns, material, non_pawn, cont } = self;
        pawns.iter_mut().chain(material.iter_mut()).for_each(|t| t.fill(0));
        non_pawn.iter_mut().flatten().for_each(|t| t.fill(0));
        cont.iter_mut().flatten().flatten().for_each(|row| row.fill(0));
    }

    /// Starts loading the entries [`Correction::get`] will read for `k`: the
    /// tables (2.3 MiB) do not stay in L2, and the loads can overlap the
    /// network's evaluation that comes first.
    #[inline(always)]
    pub fn prefetch(&self, stm: Color, k: &CorrKeys) {
        let (s, at) = (stm.index(), Slots::of(k));
        crate::prefetch::prefetch(&self.pawns[s][at.pawns]);
        crate::prefetch::prefetch(&self.material[s][at.material]);
        crate::prefetch::prefetch(&self.non_pawn[s][0][at.non_pawn[0]]);
        crate::prefetch::prefetch(&self.non_pawn[s][1][at.non_pawn[1]]);
        if let Some([a, b, c, d]) = at.cont {
            crate::prefetch::prefetch(&self.cont[a][b][c][d]);
        }
    }

    /// The correction in centipawns for the side to move.
    #[inline]
    pub fn get(&self, stm: Color, k: &CorrKeys) -> i32 {
        let (s, at) = (stm.index(), Slots::of(k));
        let np = &self.non_pawn[s];
        let non_pawn = np[0][at.non_pawn[0]] as i32 + np[1][at.non_pawn[1]] as i32;
        let cont = at.cont.map_or(0, |[a, b, c, d]| self.cont[a][b][c][d] as i32);
        (self.pawns[s][at.pawns] as i32
            + self.material[s][at.material] as i32
            + non_pawn * corr_non_pawn_pct() / 100
            + cont * corr_cont_pct() / 100)
            / CORR_GRAIN
    }

    /// The static evaluation both searches prune with: the raw one corrected,
    /// kept inside the evaluations (never a tablebase or mate score).
    #[inline]
    pub fn corrected(&self, stm: Color, k: &CorrKeys, raw_eval: i32) -> i32 {
        use crate::score::TB_WIN_IN_MAX;
        (raw_eval + self.get(stm, k)).clamp(-TB_WIN_IN_MAX + 1, TB_WIN_IN_MAX - 1)
    }

    /// Folds `diff` (search result minus static eval, cp) in with a depth-based weight.
    pub fn update(&mut self, stm: Color, k: &CorrKeys, diff: i32, depth: i32) {
        let (s, at) = (stm.index(), Slots::of(k));
        let w = (depth + 1).clamp(1, corr_weight_max());
        let max = corr_max_cp() * CORR_GRAIN;
        let target = (diff * CORR_GRAIN).clamp(-max, max);
        let [np_white, np_black] = &mut self.non_pawn[s];
        let mut spare = 0;
        let cont = match at.cont {
            Some([a, b, c, d]) => &mut self.cont[a][b][c][d],
            None => &mut spare,
        };
        for e in [
            &mut self.pawns[s][at.pawns],
            &mut self.material[s][at.material],
            &mut np_white[at.non_pawn[0]],
            &mut np_black[at.non_pawn[1]],
            cont,
        ] {
            let v = *e as i32;
            *e = ((v * (256 - w) + target * w) / 256).clamp(-max, max) as i16;
        }
    }
}

/// Where a node's entries sit in each table (the side to move picks the
/// table): worked out once, so reading, learning and prefetching cannot
/// disagree.
struct Slots {
    pawns: usize,
    material: usize,
    /// White's pieces, then Black's.
    non_pawn: [usize; 2],
    /// `[piece][to]` two plies up, then one ply up, when both were real moves.
    cont: Option<[usize; 4]>,
}

impl Slots {
    #[inline(always)]
    fn of(k: &CorrKeys) -> Slots {
        let index = |key: u64| (key as usize) & (CORR_SIZE - 1);
        Slots {
            pawns: index(k.pawns),
            material: index(k.material),
            non_pawn: k.non_pawn.map(index),
            cont: k.moves.map(|[two, one]| {
                let ((a, b), (c, d)) = (two.index(), one.index());
                [a, b, c, d]
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `clear` (in place) leaves every table as `new` builds it.
    #[test]
    fn clear_zeroes_every_table() {
        let mut c = Correction::new();
        let moves = [PieceTo { piece: 2, to: 18 }, PieceTo { piece: 12, to: 45 }];
        let k = CorrKeys { pawns: 7, material: 11, non_pawn: [13, 17], moves: Some(moves) };
        for stm in [Color::White, Color::Black] {
            c.update(stm, &k, 300, 8);
            assert_ne!(c.get(stm, &k), 0);
        }
        c.clear();
        let zero = |t: &[i16]| t.iter().all(|&v| v == 0);
        assert!(c.pawns.iter().chain(c.material.iter()).all(|t| zero(t)));
        assert!(c.non_pawn.iter().flatten().all(|t| zero(t)));
        assert!(c.cont.iter().flatten().flatten().all(|t| zero(t)));
    }
}
