//! The network trainer: mini-batch gradient descent (Adam) on all cores.
//!
//! Data are `datagen` shards. Whole shards (whole games) are held out for
//! validation, so no game is on both sides of the split. Each epoch shuffles
//! the training positions (seeded), splits every batch across the rayon
//! threads (each sums its share's gradient into its own buffer), adds the
//! buffers and takes one Adam step. The learning rate follows a cosine from
//! `lr` down to `lr · final_lr_ratio`, optionally ramped up from zero over
//! the run's first `warmup` share. After each epoch the trainer writes the
//! quantised network and a checkpoint (float weights, Adam moments, epoch)
//! that `resume` continues from.

mod checkpoint;
pub mod model;

pub use checkpoint::{load_checkpoint, save_checkpoint, Checkpoint};
pub use model::{sample, Model, Sample, Scratch, WEIGHT_CLIP};

use crate::learn::dataset::{self, Record};
use crate::nnue::Network;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// What to train and how.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Epochs (passes over the training positions).
    pub epochs: usize,
    /// Positions per batch.
    pub batch: usize,
    /// Initial learning rate.
    pub lr: f32,
    /// Final learning rate as a fraction of `lr` (cosine schedule).
    pub final_lr_ratio: f32,
    /// Weight of the game result in the target (the rest is the search score).
    pub wdl: f32,
    /// Seed for initialisation and shuffling.
    pub seed: u64,
    /// Train on each position or its left-right mirror, at random (seeded).
    pub mirror: bool,
    /// Share of the run (0..1) over which the learning rate rises linearly
    /// from zero to the cosine's value. A fine-tune's Adam starts with empty
    /// moments, so its first steps move every weight by about `lr` whatever
    /// the gradient's size; a ramp lets the moments fill first.
    pub warmup: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            batch: 16_384,
            lr: 0.001,
            final_lr_ratio: 0.02,
            wdl: 0.3,
            seed: 1,
            mirror: true,
            warmup: 0.0,
        }
    }
}

/// Training and validation positions.
pub struct Data {
    /// Positions to train on.
    pub train: Vec<Record>,
    /// Held-out positions (whole shards).
    pub valid: Vec<Record>,
}

/// Reads every shard of the directories, or only the shards `range` of
/// each ([`dataset::select_shards`]); of the shards read, in order, those
/// whose place is `≡ 31 (mod 32)` — or the last one, if there are fewer than
/// 32 — are the validation set.
pub fn load_data(dirs: &[PathBuf], range: Option<std::ops::Range<usize>>) -> Result<Data, String> {
    let sources: Vec<_> = dirs.iter().map(|d| (d.clone(), range.clone())).collect();
    load_sources(&sources)
}

/// [`load_data`] with a shard range of its own for each directory (`None`:
/// all its shards), so that one run pools whole older generations with
/// part of the newest.
pub fn load_sources(sources: &[(PathBuf, Option<std::ops::Range<usize>>)]) -> Result<Data, String> {
    let mut shards: Vec<PathBuf> = Vec::new();
    for (d, range) in sources {
        shards.extend(dataset::select_shards(d, range.clone()).map_err(|e| format!("{}: {e}", d.display()))?);
    }
    if shards.is_empty() {
        return Err("no shard-*.bin files found".into());
    }
    let held: Vec<bool> = if shards.len() < 32 {
        (0..shards.len()).map(|i| i + 1 == shards.len() && shards.len() > 1).collect()
    } else {
        (0..shards.len()).map(|i| i % 32 == 31).collect()
    };
    let loaded: Vec<Result<Vec<Record>, String>> =
        shards.par_iter().map(|p| dataset::read_shard(p).map(|(_, r)| r).map_err(|e| e.to_string())).collect();
    let mut data = Data { train: Vec::new(), valid: Vec::new() };
    for (records, held) in loaded.into_iter().zip(held) {
        let records = records?;
        if held {
            data.valid.extend(records);
        } else {
            data.train.extend(records);
        }
    }
    Ok(data)
}

/// Adam state.
#[derive(Clone)]
pub struct Adam {
    /// First moments.
    pub m: Model,
    /// Second moments.
    pub v: Model,
    /// Steps taken.
    pub t: u64,
}

impl Adam {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    const EPS: f32 = 1e-8;

    /// Fresh state for `model`'s parameters.
    pub fn new(model: &Model) -> Adam {
        Adam { m: model.zeros_like(), v: model.zeros_like(), t: 0 }
    }

    /// One step on `model` with the batch-mean gradient `grad`.
    pub fn step(&mut self, model: &mut Model, grad: &Model, lr: f32) {
        self.t += 1;
        let c1 = 1.0 - Self::B1.powi(self.t as i32);
        let c2 = 1.0 - Self::B2.powi(self.t as i32);
        let step = lr * c2.sqrt() / c1;
        for (((p, g), m), v) in
            model.parts_mut().into_iter().zip(grad.parts()).zip(self.m.parts_mut()).zip(self.v.parts_mut())
        {
            p.par_chunks_mut(4096)
                .zip(g.par_chunks(4096))
                .zip(m.par_chunks_mut(4096))
                .zip(v.par_chunks_mut(4096))
                .for_each(|(((p, g), m), v)| {
                    for i in 0..p.len() {
                        m[i] = Self::B1 * m[i] + (1.0 - Self::B1) * g[i];
                        v[i] = Self::B2 * v[i] + (1.0 - Self::B2) * g[i] * g[i];
                        p[i] -= step * m[i] / (v[i].sqrt() + Self::EPS);
                    }
                });
        }
        model.clip();
    }
}

/// Learning rate at `progress` (0..1) of the run.
pub fn learning_rate(cfg: &TrainConfig, progress: f64) -> f32 {
    let progress = progress.clamp(0.0, 1.0);
    let cos = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
    let ramp = if cfg.warmup > 0.0 { (progress / cfg.warmup as f64).min(1.0) } else { 1.0 };
    (ramp * cfg.lr as f64 * (cfg.final_lr_ratio as f64 + (1.0 - cfg.final_lr_ratio as f64) * cos)) as f32
}

/// A score at or beyond this (the network's own units) calls a position
/// decided: the scale matching below leaves such positions out.
pub const UNDECIDED_MAX: i32 = 1500;

/// The search percentage under which `net` reaches the search at the scale
/// `reference` does (at its own percentage) over `records`: training with
/// game results in the target moves a network's scale (decided games pull
/// scores outwards), and the search's margins were tuned on the scale the
/// reference network showed it. Median |score| of each over the first 20,000
/// positions both call undecided (within ±[`UNDECIDED_MAX`] of their own units).
pub fn matched_search_pct(reference: &Network, net: &Network, records: &[Record]) -> i32 {
    let (mut a, mut b): (Vec<i32>, Vec<i32>) = records
        .par_iter()
        .take(20_000)
        .map(|r| {
            let bb = tetrad_simd::ccr_to_bitboards(&r.ccr());
            (reference.evaluate(&bb, r.side_to_move()).abs(), net.evaluate(&bb, r.side_to_move()).abs())
        })
        .filter(|&(x, y)| x < UNDECIDED_MAX && y < UNDECIDED_MAX)
        .unzip();
    if a.is_empty() {
        return reference.search_pct;
    }
    a.sort_unstable();
    b.sort_unstable();
    let (ma, mb) = (a[a.len() / 2].max(1), b[b.len() / 2].max(1));
    (reference.search_pct as i64 * ma as i64 / mb as i64).clamp(1, 1000) as i32
}

/// Mean loss of `model` over `records`.
pub fn validation_loss(model: &Model, records: &[Record], wdl: f32) -> f64 {
    if records.is_empty() {
        return f64::NAN;
    }
    let total: f64 = records
        .par_chunks(4096)
        .map(|chunk| {
            let mut scratch = Scratch::new(model.hidden());
            chunk
                .iter()
                .map(|r| model.loss(&sample(r, wdl, &model.arch, model.scale, false), &mut scratch) as f64)
                .sum::<f64>()
        })
        .sum();
    total / records.len() as f64
}

/// Gradient buffers, one per worker, reused across batches.
pub struct Workers {
    grads: Vec<Model>,
}

impl Workers {
    /// One buffer per rayon thread, for `model`'s parameters.
    pub fn new(model: &Model) -> Workers {
        Workers { grads: (0..rayon::current_num_threads().max(1)).map(|_| model.zeros_like()).collect() }
    }

    /// The batch-mean gradient and loss of `batch` (indices into `records`) on
    /// `model`; with `mirror`, a position is mirrored when bit 0 of
    /// `hash(flip_seed, index)` is set.
    pub fn gradient(
        &mut self,
        model: &Model,
        records: &[Record],
        batch: &[u32],
        wdl: f32,
        flip_seed: Option<u64>,
    ) -> (&Model, f64) {
        let per = batch.len().div_ceil(self.grads.len()).max(1);
        let losses: Vec<f64> = self
            .grads
            .par_iter_mut()
            .zip(batch.par_chunks(per))
            .map(|(grad, idx)| {
                grad.clear();
                let mut scratch = Scratch::new(model.hidden());
                idx.iter()
                    .map(|&i| {
                        let flip = flip_seed
                            .is_some_and(|seed| (seed ^ i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1);
                        let s = sample(&records[i as usize], wdl, &model.arch, model.scale, flip);
                        model.backward(&s, grad, &mut scratch) as f64
                    })
                    .sum()
            })
            .collect();
        let used = batch.len().div_ceil(per);
        let (first, rest) = self.grads.split_at_mut(1);
        for g in &rest[..used.saturating_sub(1)] {
            first[0].add(g);
        }
        let scale = 1.0 / batch.len().max(1) as f32;
        for p in first[0].parts_mut() {
            p.iter_mut().for_each(|x| *x *= scale);
        }
        (&self.grads[0], losses.iter().sum::<f64>() / batch.len().max(1) as f64)
    }
}

/// A seeded Fisher-Yates shuffle.
pub fn shuffle(v: &mut [u32], seed: u64) {
    let mut s = seed | 1;
    for i in (1..v.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.swap(i, (s % (i as u64 + 1)) as usize);
    }
}

/// What an epoch reports.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// Epoch number (1-based).
    pub epoch: usize,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Validation loss after the epoch.
    pub valid_loss: f64,
    /// Learning rate at the epoch's end.
    pub lr: f32,
    /// Positions per second.
    pub pos_per_sec: f64,
}

/// Runs epochs `ckpt.epoch + 1 ..= cfg.epochs`, calling `progress(epoch,
/// batch, batches, loss, pos/s)` during and `done(report, &ckpt)` after each.
pub fn train(
    cfg: &TrainConfig,
    data: &Data,
    ckpt: &mut Checkpoint,
    mut progress: impl FnMut(usize, usize, usize, f64, f64),
    mut done: impl FnMut(&EpochReport, &Checkpoint),
) {
    let n = data.train.len();
    let batches = n.div_ceil(cfg.batch.max(1)).max(1);
    let mut workers = Workers::new(&ckpt.model);
    let mut order: Vec<u32> = (0..n as u32).collect();
    for epoch in ckpt.epoch + 1..=cfg.epochs {
        let start = std::time::Instant::now();
        order.iter_mut().enumerate().for_each(|(i, o)| *o = i as u32);
        shuffle(&mut order, cfg.seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut loss_sum = 0.0;
        let mut lr = cfg.lr;
        for (b, batch) in order.chunks(cfg.batch.max(1)).enumerate() {
            let progress_frac = ((epoch - 1) as f64 + b as f64 / batches as f64) / cfg.epochs as f64;
            lr = learning_rate(cfg, progress_frac);
            let flip_seed = cfg.mirror.then(|| cfg.seed.wrapping_add(epoch as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
            let (grad, loss) = workers.gradient(&ckpt.model, &data.train, batch, cfg.wdl, flip_seed);
            loss_sum += loss * batch.len() as f64;
            ckpt.adam.step(&mut ckpt.model, grad, lr);
            if b % 16 == 0 || b + 1 == batches {
                let done_pos = (b * cfg.batch + batch.len()) as f64;
                progress(
                    epoch,
                    b + 1,
                    batches,
                    loss_sum / done_pos,
                    done_pos / start.elapsed().as_secs_f64().max(1e-9),
                );
            }
        }
        ckpt.epoch = epoch;
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / n.max(1) as f64,
            valid_loss: validation_loss(&ckpt.model, &data.valid, cfg.wdl),
            lr,
            pos_per_sec: n as f64 / start.elapsed().as_secs_f64().max(1e-9),
        };
        done(&report, ckpt);
    }
}

/// Default checkpoint path for an output network path.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".ckpt");
    PathBuf::from(p)
}
