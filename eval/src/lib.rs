//! Evaluation on bitboards for Tetrad.
//!
//! The search hands over a [`Position`]; the evaluator converts its CCR to
//! bitboards with the SIMD kernel (`tetrad_simd::ccr_to_bitboards`) and
//! scores them: a tapered (middlegame/endgame) sum of material, piece-square
//! tables, mobility, pawn structure (cached in a per-evaluator pawn hash),
//! passed pawns, king safety, threats and piece placement, with endgame
//! scaling. Every weight lives in one table, [`weights::PARAMS`]; the
//! [`tune`] module fits them to game results. Scores are centipawns from the
//! side to move's point of view and stay within ±[`trace::EVAL_LIMIT`].
#![deny(missing_docs)]

pub mod attack_map;
pub mod bits;
pub mod dataset;
pub mod endgame;
pub mod eval;
pub mod params;
pub mod pawns;
pub mod score;
pub mod trace;
pub mod tune;
pub mod weights;

pub use attack_map::{AttackMap, AttackPlanes};
pub use params::{Params, Term};
pub use score::{Score, S};
pub use trace::{Coeffs, Trace};

use pawns::PawnTable;
use tetrad_simd::Position;
use trace::NoTrace;
use weights::PARAMS;

/// A per-thread evaluator (owns the pawn hash table).
#[derive(Clone, Default)]
pub struct Evaluator {
    pawns: PawnTable,
}

impl Evaluator {
    /// A fresh evaluator with an empty pawn hash table.
    pub fn new() -> Evaluator {
        Evaluator { pawns: PawnTable::new() }
    }

    /// Clears caches (new game).
    pub fn clear(&mut self) {
        self.pawns.clear();
    }

    /// Static evaluation in centipawns from the side to move's view.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        eval::evaluate(pos, Some(&mut self.pawns), &PARAMS, &mut NoTrace)
    }
}

/// Evaluation without any cache (same result as [`Evaluator::evaluate`]).
pub fn evaluate_uncached(pos: &Position) -> i32 {
    eval::evaluate(pos, None, &PARAMS, &mut NoTrace)
}

/// The coefficients of every weight the evaluation of `pos` uses.
pub fn coefficients(pos: &Position) -> (Coeffs, i32) {
    let mut c = Coeffs::default();
    let score = eval::evaluate(pos, None, &PARAMS, &mut c);
    (c, score)
}

/// A term-by-term breakdown of the evaluation of `pos` (print it with `{}`).
pub fn trace(pos: &Position) -> Trace {
    let (coeffs, score) = coefficients(pos);
    Trace { coeffs, params: PARAMS, score }
}
