//! Win/draw/loss from a score: the model behind `UCI_ShowWDL`.
//!
//! As in Stockfish's win-rate model, the chance that the side to move wins
//! at score `s` is `1 / (1 + exp((a - s) / b))` and that it loses is the same
//! at `-s`; the rest is the draw. `a` (the score of an even chance to win)
//! and `b` (its spread) depend on the material left, linearly:
//! `a = a0 + a1·m`, `b = b0 + b1·m`, with `m` the material of both sides in
//! pawns (queen 9, rook 5, minors 3, pawns 1; 78 at the start), capped at 78.
//! The parameters are fitted to Tetrad's own self-play (`learn::wdl::fit`,
//! by maximum likelihood on `datagen` records); `tetrad wdl-fit` prints them
//! for [`MODEL`].

use crate::EvalConfig;
use tetrad_simd::{Bitboards, Color, PieceType};

/// Model parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a = a[0] + a[1]·m`.
    pub a: [f64; 2],
    /// `b = b[0] + b[1]·m`.
    pub b: [f64; 2],
}

/// The model fitted to the built-in network's self-play in the scale its
/// search reports (gen16f, search share 35%): `tetrad wdl-fit --data
/// ../data/gen17 --shards 0..87` on 1,732,402 positions (mean -log
/// likelihood 0.565; the hand-written evaluation's model before it, fitted
/// to gen1 and read in this scale, 0.648; see README). With this network a
/// small edge converts more often with much material on the board than in
/// an endgame, whose network scores run higher for the same chances.
pub const MODEL: WdlModel = WdlModel { a: [239.5, -2.353], b: [70.1, 0.213] };

/// The network's search share [`MODEL`] was fitted with (gen16f's).
pub const MODEL_SEARCH_PCT: i32 = 35;

/// The model fitted to the hand-written evaluation's self-play: `tetrad
/// wdl-fit --data ../data/gen1 --eval hce` on 954,175 positions of the first
/// 63 shards (mean -log likelihood 0.677). `UCI_ShowWDL`'s model under `Eval hce`.
pub const HCE_MODEL: WdlModel = WdlModel { a: [161.1, 0.769], b: [103.3, 0.766] };

/// The model for the scores of a search with `eval`: [`HCE_MODEL`], or
/// [`MODEL`] stretched to the network's search share (a network shown to
/// the search at 54% reports 54/35 of the score a 35% one would for the
/// same judgement, so a and b grow alike).
pub fn model_for(eval: &EvalConfig) -> WdlModel {
    match eval.kind {
        crate::EvalKind::Hce => HCE_MODEL,
        crate::EvalKind::Nnue => MODEL.stretched(f64::from(eval.net.search_pct.max(1)) / f64::from(MODEL_SEARCH_PCT)),
    }
}

/// Material of both sides at the start, in pawns: the model's cap.
pub const MAX_MATERIAL: u32 = 78;

/// Material of both sides in pawns (Q 9, R 5, B 3, N 3, P 1), capped at [`MAX_MATERIAL`].
pub fn material(bb: &Bitboards) -> u32 {
    let count = |k: PieceType| (bb.pieces(Color::White, k) | bb.pieces(Color::Black, k)).count_ones();
    let m = count(PieceType::Pawn)
        + 3 * (count(PieceType::Knight) + count(PieceType::Bishop))
        + 5 * count(PieceType::Rook)
        + 9 * count(PieceType::Queen);
    m.min(MAX_MATERIAL)
}

impl WdlModel {
    /// The same chances for scores `r` times as large (a and b grow alike).
    pub fn stretched(&self, r: f64) -> WdlModel {
        WdlModel { a: self.a.map(|x| x * r), b: self.b.map(|x| x * r) }
    }

    /// Win, draw and loss probabilities of the side to move at `score` (cp).
    pub fn probabilities(&self, score: i32, material: u32) -> [f64; 3] {
        let m = material.min(MAX_MATERIAL) as f64;
        let a = self.a[0] + self.a[1] * m;
        let b = (self.b[0] + self.b[1] * m).max(1.0);
        let s = score.clamp(-4000, 4000) as f64;
        let win = 1.0 / (1.0 + ((a - s) / b).exp());
        let loss = 1.0 / (1.0 + ((a + s) / b).exp());
        [win, (1.0 - win - loss).max(0.0), loss]
    }

    /// Per mille, summing to 1000 (the UCI `wdl` triple).
    pub fn per_mille(&self, score: i32, material: u32) -> [u32; 3] {
        let [w, _, l] = self.probabilities(score, material);
        let (w, l) = ((w * 1000.0).round() as u32, (l * 1000.0).round() as u32);
        let l = l.min(1000 - w);
        [w, 1000 - w - l, l]
    }
}
