//! Fitting the sigmoid constant and minimising the error with Adam.
//!
//! Gradients are computed in parallel over fixed chunks of the training set
//! and summed in chunk order, so a run is repeatable for a given seed
//! whatever the number of threads.

use super::data::{tunable_slots, Sample};
use crate::hce::params::Params;
use crate::hce::score::{Score, S};
use rayon::prelude::*;

/// Positions per parallel work item (fixed: keeps sums in a fixed order).
const CHUNK: usize = 1024;

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Passes of Adam over the training set (one full-batch step each).
    pub epochs: usize,
    /// Adam step size in centipawns.
    pub learning_rate: f64,
    /// Seed of the train/validation split.
    pub seed: u64,
    /// Weight of the game result in the target; the rest goes to the
    /// recorded search score, `sigmoid(K · ce)` (1 = results only).
    pub lambda: f64,
    /// L2 pull of every weight towards its starting value, per cp² (the
    /// penalty is `reg / 2 · Σ (θ − θ₀)²`). It keeps weights that few
    /// positions see — most PSQT squares — from wandering on noise.
    pub reg: f64,
}

impl Default for TuneConfig {
    fn default() -> TuneConfig {
        TuneConfig { epochs: 200, learning_rate: 1.0, seed: 1, lambda: 1.0, reg: 0.0 }
    }
}

/// Consecutive samples that stay on the same side of the train/held-out
/// split: a data file holds whole games in order, and positions of one game
/// share its result, so a per-position split would leak the held-out games
/// into training and hide over-fitting.
fn split_block(n: usize) -> usize {
    (n / 100).clamp(1, 1024)
}

#[inline]
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e * std::f64::consts::LN_10 / 400.0).exp())
}

/// White's evaluation of a sample under weights `theta` (mg, eg interleaved per slot).
#[inline]
fn linear_eval(s: &Sample, theta: &[f64]) -> f64 {
    let (mut mg, mut eg) = (s.const_mg, s.const_eg);
    for &(slot, n) in &s.terms {
        let i = 2 * slot as usize;
        mg += theta[i] * n as f64;
        eg += theta[i + 1] * n as f64;
    }
    mg * s.mg_weight + eg * s.eg_weight
}

/// Mean squared error of `sigmoid(K · eval)` against the results.
pub fn error(samples: &[Sample], theta: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sums: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map(|c| c.iter().map(|s| (s.result - sigmoid(k, linear_eval(s, theta))).powi(2)).sum::<f64>())
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The `K` minimising the error at `theta` (golden-section search on [0.01, 10]).
pub fn fit_k(samples: &[Sample], theta: &[f64]) -> f64 {
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (error(samples, theta, c), error(samples, theta, d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = error(samples, theta, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = error(samples, theta, d);
        }
    }
    (a + b) / 2.0
}

/// Gradient of the error with respect to `theta`.
fn gradient(samples: &[Sample], theta: &[f64], k: f64) -> Vec<f64> {
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let parts: Vec<Vec<f64>> = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut g = vec![0.0; theta.len()];
            for s in chunk {
                let sg = sigmoid(k, linear_eval(s, theta));
                let d = -2.0 * (s.result - sg) * sg * (1.0 - sg) * scale;
                let (dm, de) = (d * s.mg_weight, d * s.eg_weight);
                for &(slot, n) in &s.terms {
                    let i = 2 * slot as usize;
                    g[i] += dm * n as f64;
                    g[i + 1] += de * n as f64;
                }
            }
            g
        })
        .collect();
    let mut g = vec![0.0; theta.len()];
    for p in parts {
        g.iter_mut().zip(p).for_each(|(a, b)| *a += b);
    }
    let n = samples.len().max(1) as f64;
    g.iter_mut().for_each(|x| *x /= n);
    g
}

/// A tuning run: the split data set, the weights being fitted and Adam's state.
pub struct Tuner {
    /// Training samples.
    pub train: Vec<Sample>,
    /// Held-out samples (a tenth of the blocks, chosen by the seed).
    pub valid: Vec<Sample>,
    /// Current weights, (mg, eg) per slot of [`Params`]; only tunable slots change.
    pub theta: Vec<f64>,
    /// Fitted sigmoid constant.
    pub k: f64,
    config: TuneConfig,
    theta0: Vec<f64>,
    tunable: Vec<bool>,
    m: Vec<f64>,
    v: Vec<f64>,
    step: i32,
}

impl Tuner {
    /// Splits the samples (a seeded tenth of the blocks of consecutive
    /// positions is held out), starts from `start`, fits `K` on the game
    /// results and then blends the targets with the search scores.
    pub fn new(samples: Vec<Sample>, start: &Params, config: TuneConfig) -> Tuner {
        let block = split_block(samples.len());
        let n_blocks = samples.len().div_ceil(block);
        let mut order: Vec<usize> = (0..n_blocks).collect();
        let mut seed = config.seed ^ 0x9E37_79B9_7F4A_7C15;
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let n_valid_blocks = if samples.len() >= 2 { n_blocks.div_ceil(10).min(n_blocks - 1) } else { 0 };
        let mut held = vec![false; n_blocks];
        order[..n_valid_blocks].iter().for_each(|&b| held[b] = true);
        let (mut train, mut valid) = (Vec::new(), Vec::new());
        for (i, s) in samples.into_iter().enumerate() {
            if held[i / block] {
                valid.push(s)
            } else {
                train.push(s)
            }
        }
        let theta: Vec<f64> = start
            .to_slots()
            .iter()
            .flat_map(|&raw| {
                let s = Score::from_raw(raw);
                [s.mg() as f64, s.eg() as f64]
            })
            .collect();
        let k = fit_k(&train, &theta);
        if config.lambda < 1.0 {
            for s in train.iter_mut().chain(valid.iter_mut()) {
                if let Some(ce) = s.search_score {
                    s.result = config.lambda * s.result + (1.0 - config.lambda) * sigmoid(k, ce);
                }
            }
        }
        let n = theta.len();
        Tuner {
            train,
            valid,
            theta0: theta.clone(),
            theta,
            k,
            config,
            tunable: tunable_slots(),
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
        }
    }

    /// Training error at the current weights.
    pub fn train_error(&self) -> f64 {
        error(&self.train, &self.theta, self.k)
    }

    /// Validation error at the current weights.
    pub fn valid_error(&self) -> f64 {
        error(&self.valid, &self.theta, self.k)
    }

    /// One full-batch Adam step.
    #[allow(clippy::needless_range_loop)]
    pub fn epoch(&mut self) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        let g = gradient(&self.train, &self.theta, self.k);
        self.step += 1;
        let (c1, c2) = (1.0 - B1.powi(self.step), 1.0 - B2.powi(self.step));
        for i in 0..self.theta.len() {
            if !self.tunable[i / 2] {
                continue;
            }
            let g = g[i] + self.config.reg * (self.theta[i] - self.theta0[i]);
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            let step = self.config.learning_rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-12);
            self.theta[i] = (self.theta[i] - step).clamp(-4000.0, 4000.0);
        }
    }

    /// The current weights rounded into a [`Params`] (untuned slots from `base`).
    pub fn params(&self, base: &Params) -> Params {
        self.params_of(&self.theta, base)
    }

    /// Weights `theta` (same layout as [`Tuner::theta`]) rounded into a [`Params`].
    pub fn params_of(&self, theta: &[f64], base: &Params) -> Params {
        let mut slots = base.to_slots();
        for (slot, raw) in slots.iter_mut().enumerate() {
            if self.tunable[slot] && 2 * slot + 1 < theta.len() {
                let (mg, eg) = (theta[2 * slot].round() as i32, theta[2 * slot + 1].round() as i32);
                *raw = S(mg.clamp(-16000, 16000), eg.clamp(-16000, 16000)).raw();
            }
        }
        base.from_slots(&slots)
    }

    /// Number of epochs configured.
    pub fn epochs(&self) -> usize {
        self.config.epochs
    }
}
