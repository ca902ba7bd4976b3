//! Win/draw/loss from a score: the model behind `UCI_ShowWDL`.
//!
//! As in Stockfish's win-rate model, the chance that the side to move wins
//! at score `s` is `1 / (1 + exp((a - s) / b))` and that it loses is the same
//! at `-s`; the rest is the draw. `a` (the score of an even chance to win)
//! and `b` (its spread) depend on the material left, linearly:
//! `a = a0 + a1·m`, `b = b0 + b1·m`, with `m` the material of both sides in
//! pawns (queen 9, rook 5, minors 3, pawns 1; 78 at the start), capped at 78.
//! The parameters are fitted to Tetrad's own self-play ([`fit`], by maximum
//! likelihood on `datagen` records); `tetrad wdl-fit` prints them for
//! [`MODEL`].

use crate::learn::dataset::{GameResult, Record};
use crate::EvalConfig;
use rayon::prelude::*;
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

/// Largest step of [`fit`], in units of each parameter's scale (a 10 cp, b 5 cp).
const FIT_STEP: f64 = 0.3;

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

/// One observation: score and result from the side to move's view, material.
#[derive(Clone, Copy, Debug)]
pub struct Observation {
    /// Search score (cp), side to move.
    pub score: i32,
    /// Material in pawns.
    pub material: u32,
    /// 0 loss, 1 draw, 2 win, side to move.
    pub outcome: u8,
}

impl Observation {
    /// From a `datagen` record, its label (the evaluation's own units) turned
    /// into the scale the search of `eval` reports, which the model reads.
    pub fn from_record(r: &Record, eval: &EvalConfig) -> Observation {
        let bb = tetrad_simd::ccr_to_bitboards(&r.ccr());
        let black = r.side_to_move() == Color::Black;
        let white = eval.search_units(i32::from(r.score), u16::from(r.halfmove));
        let score = if black { -white } else { white };
        let white = match r.result() {
            GameResult::WhiteWin => 2,
            GameResult::Draw => 1,
            GameResult::BlackWin => 0,
        };
        Observation { score, material: material(&bb), outcome: if black { 2 - white } else { white } }
    }
}

/// Mean negative log-likelihood of the observations under `model`.
pub fn nll(model: &WdlModel, obs: &[Observation]) -> f64 {
    let sum: f64 = obs
        .par_iter()
        .map(|o| {
            let p = model.probabilities(o.score, o.material);
            -(p[2 - o.outcome as usize].max(1e-9)).ln()
        })
        .sum();
    sum / obs.len().max(1) as f64
}

/// Fits the model by maximum likelihood (Adam on numerical gradients,
/// `steps` steps from `start`, the step size falling from [`FIT_STEP`]
/// along a cosine, so that a model far from the data's (another scale) is
/// reached in a few hundred steps and then settled); returns it with its
/// mean negative log-likelihood.
pub fn fit(obs: &[Observation], start: &WdlModel, steps: usize) -> (WdlModel, f64) {
    // Optimised as a and b with no material and with all of it: unlike a
    // slope and an intercept these move independently, in centipawns.
    let full = f64::from(MAX_MATERIAL);
    let mut p = [start.a[0], start.a[0] + full * start.a[1], start.b[0], start.b[0] + full * start.b[1]];
    let scale = [10.0, 10.0, 5.0, 5.0];
    let model = |p: &[f64; 4]| WdlModel { a: [p[0], (p[1] - p[0]) / full], b: [p[2], (p[3] - p[2]) / full] };
    let (mut m, mut v) = ([0.0; 4], [0.0; 4]);
    for t in 1..=steps {
        let mut g = [0.0; 4];
        for i in 0..4 {
            let (mut hi, mut lo) = (p, p);
            hi[i] += scale[i] * 1e-3;
            lo[i] -= scale[i] * 1e-3;
            g[i] = (nll(&model(&hi), obs) - nll(&model(&lo), obs)) / (2e-3 * scale[i]);
        }
        for i in 0..4 {
            let gi = g[i] * scale[i];
            m[i] = 0.9 * m[i] + 0.1 * gi;
            v[i] = 0.999 * v[i] + 0.001 * gi * gi;
            let (mh, vh) = (m[i] / (1.0 - 0.9f64.powi(t as i32)), v[i] / (1.0 - 0.999f64.powi(t as i32)));
            let step = FIT_STEP * 0.5 * (1.0 + (std::f64::consts::PI * t as f64 / steps as f64).cos()) + 0.005;
            p[i] -= step * scale[i] * mh / (vh.sqrt() + 1e-12);
        }
        p[2] = p[2].max(5.0);
        p[3] = p[3].max(5.0);
    }
    let best = model(&p);
    (best, nll(&best, obs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_are_sane() {
        let [w, d, l] = MODEL.per_mille(0, 40);
        assert_eq!(w + d + l, 1000);
        assert_eq!(w, l);
        assert!(MODEL.per_mille(600, 40)[0] > 800);
        assert!(MODEL.per_mille(-600, 40)[2] > 800);
        // At any material, more score means more wins and fewer losses.
        for model in [MODEL, HCE_MODEL] {
            for m in [4, 20, 40, 60, 78] {
                let [w1, _, l1] = model.per_mille(100, m);
                let [w2, _, l2] = model.per_mille(200, m);
                assert!(w2 > w1 && l2 <= l1, "material {m}");
            }
        }
        // The hand-written evaluation's own model; a network shown at twice
        // the share gives the same chances to twice the score.
        let hce = EvalConfig { kind: crate::EvalKind::Hce, ..EvalConfig::default() };
        assert_eq!(model_for(&hce), HCE_MODEL);
        let mut net = crate::nnue::default_network().as_ref().clone();
        net.search_pct = 2 * MODEL_SEARCH_PCT;
        let doubled = model_for(&EvalConfig { kind: crate::EvalKind::Nnue, net: std::sync::Arc::new(net) });
        for (score, m) in [(0, 78), (80, 60), (-150, 30), (400, 10)] {
            assert_eq!(doubled.per_mille(2 * score, m), MODEL.per_mille(score, m), "{score} at {m}");
        }
    }

    /// A record's label reaches the model in the search's scale: the
    /// network's units scaled down by its search share and the fifty-move
    /// decay, the inverse of what `datagen` does to the search's score.
    #[test]
    fn observations_are_in_the_search_scale() {
        let pos = tetrad_simd::Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 40 60").unwrap();
        let nnue = EvalConfig::default();
        let hce = EvalConfig { kind: crate::EvalKind::Hce, ..EvalConfig::default() };
        for search in [-900, -150, -1, 0, 37, 250, 1200] {
            let units = nnue.network_units(search, &pos);
            assert!((nnue.search_units(units, 40) - search).abs() <= 1, "{search} -> {units}");
            assert_eq!(hce.search_units(search, 40), search);
            // Black to move: the record holds White's view, the observation the mover's.
            let rec = Record::new(&pos, -units, GameResult::WhiteWin);
            let o = Observation::from_record(&rec, &nnue);
            assert!((o.score - search).abs() <= 1 && o.outcome == 0, "{o:?}");
        }
    }

    #[test]
    fn fit_recovers_a_known_model() {
        let truth = WdlModel { a: [150.0, 2.0], b: [60.0, 0.8] };
        let mut s = 12345u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let obs: Vec<Observation> = (0..40_000)
            .map(|_| {
                let score = (next() * 1200.0 - 600.0) as i32;
                let material = (next() * 78.0) as u32;
                let [w, d, _] = truth.probabilities(score, material);
                let u = next();
                let outcome = if u < w {
                    2
                } else if u < w + d {
                    1
                } else {
                    0
                };
                Observation { score, material, outcome }
            })
            .collect();
        let (m, _) = fit(&obs, &MODEL, 300);
        assert!((m.a[0] - 150.0).abs() < 25.0 && (m.b[0] - 60.0).abs() < 15.0, "{m:?}");
        assert!(nll(&m, &obs) <= nll(&MODEL, &obs));
    }
}
