//! Evaluation on bitboards for Tetrad, in three parts:
//!
//! - [`hce`]: the hand-written evaluation (tapered terms, every weight in
//!   [`hce::weights::PARAMS`], a pawn hash);
//! - [`nnue`]: the network (its file, shapes, SIMD kernels and per-thread cache);
//! - [`learn`]: learning from games (data set, network trainer, Texel tuner,
//!   win/draw/loss fit, `bulletformat` export).
//!
//! The search hands over a [`Position`]; an [`Evaluator`] converts its CCR to
//! bitboards with the SIMD kernel (`tetrad_simd::ccr_to_bitboards`) and
//! scores them with the evaluation its [`EvalConfig`] names. Scores are
//! centipawns from the side to move's point of view and stay within
//! ±[`hce::trace::EVAL_LIMIT`].
#![deny(missing_docs)]

pub mod hce;
pub mod learn;
pub mod nnue;
pub mod wdl;

pub use hce::attack_planes::AttackPlanes;
pub use hce::params::{Params, Term};
pub use hce::score::{Score, S};
pub use hce::trace::{Coeffs, Trace};

use hce::pawns::PawnTable;
use hce::trace::{NoTrace, EVAL_LIMIT};
use hce::weights::PARAMS;
use hce::{endgame, eval};
use nnue::{Network, NnueCache};
use std::sync::Arc;
use tetrad_simd::{ccr_to_bitboards, Bitboards, Position};

/// Which evaluation the engine uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EvalKind {
    /// The hand-written evaluation ([`hce`]).
    Hce,
    /// The network ([`nnue`]).
    Nnue,
}

impl EvalKind {
    /// The engine's default.
    pub const DEFAULT: EvalKind = EvalKind::Nnue;

    /// Parses `hce` or `nnue` (any case).
    pub fn parse(s: &str) -> Option<EvalKind> {
        match s.to_ascii_lowercase().as_str() {
            "hce" => Some(EvalKind::Hce),
            "nnue" => Some(EvalKind::Nnue),
            _ => None,
        }
    }

    /// The option value: `hce` or `nnue`.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Hce => "hce",
            EvalKind::Nnue => "nnue",
        }
    }
}

/// The evaluation choice shared by every search thread.
#[derive(Clone, Debug)]
pub struct EvalConfig {
    /// Hand-written or network.
    pub kind: EvalKind,
    /// The network (used when `kind` is [`EvalKind::Nnue`]).
    pub net: Arc<Network>,
}

impl EvalConfig {
    /// A score of the search at `pos` turned back into the evaluation's own
    /// units: for the network, the search-time share (its file's search
    /// percentage) and the fifty-move decay at `pos` undone, so training data
    /// teaches the network its own scale (the hand-written evaluation's
    /// scores are its own).
    pub fn network_units(&self, score: i32, pos: &Position) -> i32 {
        match self.kind {
            EvalKind::Hce => score,
            EvalKind::Nnue => {
                let decay = i64::from(fifty_move_decay(pos.halfmove_clock()));
                let den = i64::from(FIFTY_MOVE_DECAY_DEN);
                (score as i64 * 100 * den / (self.net.search_pct.max(1) as i64 * decay)) as i32
            }
        }
    }

    /// The inverse of [`network_units`](Self::network_units): a score in the
    /// evaluation's own units (a `datagen` label) as the search reports it at
    /// a position whose fifty-move counter is `halfmove` (`UCI_ShowWDL`'s
    /// model is fitted to what the search reports).
    pub fn search_units(&self, units: i32, halfmove: u16) -> i32 {
        match self.kind {
            EvalKind::Hce => units,
            EvalKind::Nnue => {
                let decay = i64::from(fifty_move_decay(halfmove));
                let den = i64::from(FIFTY_MOVE_DECAY_DEN);
                (units as i64 * self.net.search_pct.max(1) as i64 * decay / (100 * den)) as i32
            }
        }
    }
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig { kind: EvalKind::DEFAULT, net: Arc::clone(nnue::default_network()) }
    }
}

/// Plies of first-layer cache slots a search thread keeps (the deepest ply the search reaches and some).
const NNUE_CACHE_PLIES: usize = 136;

/// A per-thread evaluator: the pawn hash of the hand-written evaluation and
/// the first-layer cache of the network.
#[derive(Clone)]
pub struct Evaluator {
    pawns: PawnTable,
    kind: EvalKind,
    nnue: NnueCache,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::with_config(&EvalConfig::default())
    }
}

impl Evaluator {
    /// A fresh evaluator with the default configuration.
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// A fresh evaluator of the hand-written evaluation, whatever the default.
    pub fn hce() -> Evaluator {
        Evaluator::with_config(&EvalConfig { kind: EvalKind::Hce, ..EvalConfig::default() })
    }

    /// A fresh evaluator with the given configuration.
    pub fn with_config(cfg: &EvalConfig) -> Evaluator {
        Evaluator {
            pawns: PawnTable::new(),
            kind: cfg.kind,
            nnue: NnueCache::new(Arc::clone(&cfg.net), NNUE_CACHE_PLIES),
        }
    }

    /// Adopts a configuration (keeps the caches when nothing changes).
    pub fn configure(&mut self, cfg: &EvalConfig) {
        self.kind = cfg.kind;
        if !Arc::ptr_eq(self.nnue.network(), &cfg.net) {
            self.nnue.set_network(Arc::clone(&cfg.net));
        }
    }

    /// The evaluation in use.
    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    /// Clears caches (new game).
    pub fn clear(&mut self) {
        self.pawns.clear();
        self.nnue.clear();
    }

    /// Static evaluation in centipawns from the side to move's view.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        self.evaluate_at(pos, 0)
    }

    /// Static evaluation of a node at `ply` (the network's cache keeps one slot per ply).
    #[inline]
    pub fn evaluate_at(&mut self, pos: &Position, ply: usize) -> i32 {
        self.evaluate_bitboards(pos, &ccr_to_bitboards(pos.ccr()), ply)
    }

    /// Static evaluation of a node at `ply` from its bitboards (the search's node view).
    #[inline]
    pub fn evaluate_bitboards(&mut self, pos: &Position, bb: &Bitboards, ply: usize) -> i32 {
        match self.kind {
            EvalKind::Hce => eval::evaluate_bitboards(pos, bb, Some(&mut self.pawns), &PARAMS, &mut NoTrace),
            EvalKind::Nnue => self.evaluate_nnue(pos, bb, ply),
        }
    }

    /// The network's evaluation of a node from its bitboards.
    #[inline]
    pub fn evaluate_nnue(&mut self, pos: &Position, bb: &Bitboards, ply: usize) -> i32 {
        if endgame::insufficient_material(bb) {
            return 0;
        }
        let net = self.nnue.network().search_pct;
        nnue_finish(self.nnue.evaluate(bb, pos.side_to_move(), ply), net, pos)
    }

    /// How the network's evaluations were made since the last [`Evaluator::clear`].
    pub fn nnue_stats(&self) -> nnue::cache::CacheStats {
        self.nnue.stats
    }
}

/// The network's evaluation of `pos` without any cache (same result as [`Evaluator::evaluate`] with the network).
pub fn evaluate_nnue_uncached(pos: &Position, net: &Network) -> i32 {
    let bb = ccr_to_bitboards(pos.ccr());
    if endgame::insufficient_material(&bb) {
        return 0;
    }
    nnue_finish(net.evaluate(&bb, pos.side_to_move()), net.search_pct, pos)
}

/// The network's output made into the engine's score: `search_pct`% of it
/// (the share its file asks for: the search's margins were tuned on the
/// hand-written evaluation's scale), drifting towards a draw as the
/// fifty-move counter runs, and within ±[`EVAL_LIMIT`].
#[inline]
fn nnue_finish(v: i32, search_pct: i32, pos: &Position) -> i32 {
    let v = v * search_pct / 100;
    (v * fifty_move_decay(pos.halfmove_clock()) / FIFTY_MOVE_DECAY_DEN).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The network's score is multiplied by `fifty_move_decay(halfmove) /
/// FIFTY_MOVE_DECAY_DEN`: 1 at a fresh counter, ½ at 100 plies and after
/// (the search's drift towards a draw; undone in training labels).
const FIFTY_MOVE_DECAY_DEN: i32 = 200;

#[inline]
fn fifty_move_decay(halfmove: u16) -> i32 {
    FIFTY_MOVE_DECAY_DEN - i32::from(halfmove.min(100))
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
