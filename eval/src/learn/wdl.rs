//! Fitting the win/draw/loss model ([`crate::wdl`]) to self-play: the
//! observations `datagen` records give, their likelihood, the fit.

use crate::learn::dataset::{GameResult, Record};
pub use crate::wdl::*;
use crate::EvalConfig;
use rayon::prelude::*;
use tetrad_simd::Color;

/// Largest step of [`fit`], in units of each parameter's scale (a 10 cp, b 5 cp).
const FIT_STEP: f64 = 0.3;

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
