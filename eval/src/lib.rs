//! Evaluation on bitboards for Tetrad.
//!
//! The search hands over a [`Position`]; the evaluator converts its CCR to
//! bitboards with the SIMD kernel and scores them. Scores are centipawns from
//! the side to move's point of view.
//!
//! (Placeholder: material and simple centralisation until the full
//! evaluation lands.)
#![deny(missing_docs)]

use tetrad_simd::{ccr_to_bitboards, Color, PieceType, Position};

/// Material values, middlegame, by piece kind (pawn..king).
const VALUE: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// Bonus for being near the centre, by square distance from it (0..=3).
const CENTER: [i32; 4] = [12, 8, 3, 0];

/// A per-thread evaluator (owns caches such as the pawn hash table).
#[derive(Default, Clone)]
pub struct Evaluator {}

impl Evaluator {
    /// A fresh evaluator.
    pub fn new() -> Evaluator {
        Evaluator {}
    }

    /// Clears caches (new game).
    pub fn clear(&mut self) {}

    /// Static evaluation in centipawns from the side to move's view.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let bb = ccr_to_bitboards(pos.ccr());
        let mut score = 0;
        for c in Color::ALL {
            let sign = if c == Color::White { 1 } else { -1 };
            for k in PieceType::ALL {
                let mut s = bb.pieces(c, k);
                while s != 0 {
                    let sq = s.trailing_zeros() as i32;
                    s &= s - 1;
                    let (f, r) = (sq % 8, sq / 8);
                    let d = (f.min(7 - f).min(r.min(7 - r))) as usize;
                    let center = if k == PieceType::King { 0 } else { CENTER[3 - d] };
                    score += sign * (VALUE[k.index()] + center);
                }
            }
        }
        if pos.side_to_move() == Color::White { score } else { -score }
    }
}
