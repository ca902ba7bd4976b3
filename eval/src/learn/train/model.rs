//! The float network the trainer fits, one position's forward and backward
//! pass, and quantisation into the engine's integer [`Network`].

use crate::learn::dataset::Record;
use crate::nnue::file::{DEFAULT_SCALE, V1_SEARCH_PCT};
use crate::nnue::{bucket, Arch, Network, BUCKETS, INPUTS, PIECE_CODES, QA, QB};
use tetrad_simd::{ccr_to_bitboards, Color};

/// Float weights are kept within ±this, so they quantise into the integer ranges.
pub const WEIGHT_CLIP: f32 = 1.98;

/// Float parameters: the same shapes as [`Network`].
#[derive(Clone, PartialEq, Debug)]
pub struct Model {
    /// Shape.
    pub arch: Arch,
    /// First layer, `w1[feature * hidden + neuron]`.
    pub w1: Vec<f32>,
    /// First-layer bias.
    pub b1: Vec<f32>,
    /// Output weights, `w2[bucket * 2 * hidden + i]` (side to move first).
    pub w2: Vec<f32>,
    /// Output bias per bucket.
    pub b2: Vec<f32>,
    /// Centipawns per output unit: the target is `sigmoid(score / scale)`.
    pub scale: i32,
    /// Share of the centipawns the search sees (written into the file).
    pub search_pct: i32,
    /// The factoriser of a king-bucketed first layer, `fact[piece feature *
    /// hidden + neuron]` (768 rows), added to that feature's row in every
    /// bucket: what the buckets share is learnt from every position, and a
    /// bucket's own rows only what differs there. Empty when not factorised;
    /// merged into the buckets' rows by [`Model::quantise`].
    pub fact: Vec<f32>,
}

/// One training position, decoded: the active features of both perspectives.
#[derive(Clone, Copy)]
pub struct Sample {
    /// Feature indices: `[0]` White's perspective, `[1]` Black's.
    pub feats: [[u16; 32]; 2],
    /// Number of features (pieces).
    pub n: u8,
    /// Side to move is Black.
    pub black: bool,
    /// Output bucket.
    pub bucket: u8,
    /// Target expected score for the side to move, 0..1.
    pub target: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Decodes a record for a network of shape `arch` whose output unit is
/// `scale` centipawns: bitboards from its CCR (the SIMD kernel), features
/// from the bitboards, read reflected a↔h when `mirror` (the features know
/// nothing of castling, so the reflection is an equally true sample: the
/// trainer uses it to double what the data shows; with mirrored king
/// buckets it changes nothing); target = `wdl`·result + (1 − `wdl`)·sigmoid(score / scale).
pub fn sample(rec: &Record, wdl: f32, arch: &Arch, scale: i32, mirror: bool) -> Sample {
    let bb = ccr_to_bitboards(&rec.ccr());
    let m = if mirror { 7 } else { 0 };
    let king = |code: u8| (bb.by_code[code as usize].trailing_zeros() as usize & 63) ^ m;
    let views = [arch.view(Color::White, king(6)), arch.view(Color::Black, king(14))];
    let mut s = Sample { feats: [[0; 32]; 2], n: 0, black: rec.side_to_move() == Color::Black, bucket: 0, target: 0.0 };
    let mut n = 0usize;
    for code in PIECE_CODES {
        let mut set = bb.by_code[code as usize];
        while set != 0 && n < 32 {
            let sq = set.trailing_zeros() as usize ^ m;
            set &= set - 1;
            s.feats[0][n] = views[0].feature_of_code(code, sq) as u16;
            s.feats[1][n] = views[1].feature_of_code(code, sq) as u16;
            n += 1;
        }
    }
    s.n = n as u8;
    s.bucket = bucket(n as u32) as u8;
    let white_result = rec.result().white_score();
    let white_score = sigmoid(rec.score as f32 / scale as f32);
    let white_target = wdl * white_result + (1.0 - wdl) * white_score;
    s.target = if s.black { 1.0 - white_target } else { white_target };
    s
}

/// Scratch space of one forward/backward pass.
pub struct Scratch {
    acc: [Vec<f32>; 2],
    grad: [Vec<f32>; 2],
}

impl Scratch {
    /// Scratch space for a first layer of width `hidden`.
    pub fn new(hidden: usize) -> Scratch {
        Scratch { acc: [vec![0.0; hidden], vec![0.0; hidden]], grad: [vec![0.0; hidden], vec![0.0; hidden]] }
    }
}

impl Model {
    /// All zeros (also the shape of a gradient).
    pub fn zeros(arch: Arch) -> Model {
        let h = arch.hidden;
        Model {
            arch,
            w1: vec![0.0; arch.inputs() * h],
            b1: vec![0.0; h],
            w2: vec![0.0; BUCKETS * 2 * h],
            b2: vec![0.0; BUCKETS],
            scale: DEFAULT_SCALE,
            search_pct: V1_SEARCH_PCT,
            fact: Vec::new(),
        }
    }

    /// All zeros in this model's shape, factoriser included (a gradient, Adam's moments).
    pub fn zeros_like(&self) -> Model {
        Model { fact: vec![0.0; self.fact.len()], ..Model::zeros(self.arch) }
    }

    /// Whether the first layer has a factoriser.
    pub fn factorised(&self) -> bool {
        !self.fact.is_empty()
    }

    /// The same function with a factoriser: each piece feature's mean row
    /// over the king buckets moves into the factoriser, the buckets keep
    /// their differences from it. Unchanged when already factorised.
    pub fn factorise(mut self) -> Model {
        if self.factorised() {
            return self;
        }
        let (h, kings) = (self.hidden(), self.arch.kings.count());
        self.fact = vec![0.0; INPUTS * h];
        for f in 0..INPUTS {
            let shared = &mut self.fact[shared_row(f, h)];
            for k in 0..kings {
                let row = &self.w1[(k * INPUTS + f) * h..(k * INPUTS + f + 1) * h];
                shared.iter_mut().zip(row).for_each(|(s, w)| *s += w / kings as f32);
            }
            for k in 0..kings {
                let row = &mut self.w1[(k * INPUTS + f) * h..(k * INPUTS + f + 1) * h];
                row.iter_mut().zip(&*shared).for_each(|(w, s)| *w -= s);
            }
        }
        self
    }

    /// The first-layer row of feature `f` with its factoriser row added, if any.
    fn row(&self, f: usize, out: &mut [f32]) {
        let h = self.hidden();
        out.copy_from_slice(&self.w1[f * h..(f + 1) * h]);
        if self.factorised() {
            out.iter_mut().zip(&self.fact[shared_row(f, h)]).for_each(|(o, s)| *o += s);
        }
    }

    /// Seeded uniform initialisation (±1/√fan-in).
    pub fn random(arch: Arch, seed: u64) -> Model {
        let mut uniform = uniform(seed);
        let mut m = Model::zeros(arch);
        let s1 = 1.0 / (INPUTS as f32).sqrt();
        m.w1.iter_mut().for_each(|w| *w = uniform(s1));
        let s2 = 1.0 / (2.0 * arch.hidden as f32).sqrt();
        m.w2.iter_mut().for_each(|w| *w = uniform(s2));
        m
    }

    /// Width of the first layer.
    pub fn hidden(&self) -> usize {
        self.arch.hidden
    }

    /// This network grown into the wider or king-bucketed shape `arch`,
    /// computing the same function: every new king bucket starts as a copy
    /// of the old first layer of the bucket its first king square (a1 first)
    /// had, the old neurons keep their weights, and the new neurons get small
    /// random input weights (seeded) but zero output weights, so they change
    /// nothing yet and can still learn (with zero input weights too their
    /// gradients would stay zero). The function is the same exactly where
    /// every new bucket lies inside one old bucket under the same mirroring
    /// (a network without buckets counts as unmirrored); otherwise only
    /// nearly: with mirrored buckets grown from unmirrored ones, positions
    /// whose king stands on files e–h are read reflected, the same function
    /// only as far as the old network was left-right symmetric, and a new
    /// bucket spanning old ones starts from one of them. Mirrored buckets do
    /// not grow into unmirrored ones, nor any network into a narrower one.
    pub fn grow(&self, arch: Arch, seed: u64) -> Result<Model, String> {
        let (old_h, h) = (self.hidden(), arch.hidden);
        if self.factorised() {
            return Err("cannot grow a factorised model (train grows before it factorises)".into());
        }
        // (Mirrored buckets read the king's e-h half reflected; unmirrored
        // ones would read the same weights unreflected: another function.)
        if h < old_h || self.arch.kings.mirror && !arch.kings.mirror {
            return Err(format!("cannot grow {} into {}", self.arch.describe(), arch.describe()));
        }
        arch.check()?;
        let source: Vec<usize> = (0..arch.kings.count())
            .map(|b| {
                let first = (0..64).find(|&sq| usize::from(arch.kings.map[sq]) == b).unwrap_or(0);
                usize::from(self.arch.kings.map[first])
            })
            .collect();
        let mut uniform = uniform(seed);
        let s1 = 1.0 / (INPUTS as f32).sqrt();
        let mut m = Model::zeros(arch);
        for (f, row) in m.w1.chunks_exact_mut(h).enumerate() {
            let old_f = source[f / INPUTS] * INPUTS + f % INPUTS;
            row[..old_h].copy_from_slice(&self.w1[old_f * old_h..(old_f + 1) * old_h]);
            row[old_h..].iter_mut().for_each(|w| *w = uniform(s1));
        }
        m.b1[..old_h].copy_from_slice(&self.b1);
        for b in 0..BUCKETS {
            for half in 0..2 {
                let new = &mut m.w2[(2 * b + half) * h..(2 * b + half) * h + old_h];
                new.copy_from_slice(&self.w2[(2 * b + half) * old_h..(2 * b + half + 1) * old_h]);
            }
        }
        m.b2.copy_from_slice(&self.b2);
        (m.scale, m.search_pct) = (self.scale, self.search_pct);
        Ok(m)
    }

    /// The parameter arrays in a fixed order (the factoriser last, empty when there is none).
    pub fn parts(&self) -> [&[f32]; 5] {
        [&self.w1, &self.b1, &self.w2, &self.b2, &self.fact]
    }

    /// The parameter arrays, mutable, in the order of [`Model::parts`].
    pub fn parts_mut(&mut self) -> [&mut [f32]; 5] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2, &mut self.fact]
    }

    /// Sets every value to zero (reusing the memory).
    pub fn clear(&mut self) {
        for p in self.parts_mut() {
            p.fill(0.0);
        }
    }

    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Model) {
        for (a, b) in self.parts_mut().into_iter().zip(other.parts()) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
    }

    /// First-layer sums of both perspectives into `scratch.acc`.
    fn accumulate(&self, s: &Sample, scratch: &mut Scratch) {
        for p in 0..2 {
            let h = self.hidden();
            let acc = &mut scratch.acc[p];
            acc.copy_from_slice(&self.b1);
            for &f in &s.feats[p][..s.n as usize] {
                let row = &self.w1[f as usize * h..(f as usize + 1) * h];
                acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
                if self.factorised() {
                    acc.iter_mut().zip(&self.fact[shared_row(f as usize, h)]).for_each(|(a, w)| *a += w);
                }
            }
        }
    }

    /// The raw output (win-probability logit) for the side to move.
    fn output(&self, s: &Sample, scratch: &Scratch) -> f32 {
        let (us, h) = (usize::from(s.black), self.hidden());
        let w2 = &self.w2[s.bucket as usize * 2 * h..(s.bucket as usize + 1) * 2 * h];
        let mut out = self.b2[s.bucket as usize];
        for (half, p) in [us, 1 - us].into_iter().enumerate() {
            let w = &w2[half * h..(half + 1) * h];
            out += scratch.acc[p]
                .iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let c = a.clamp(0.0, 1.0);
                    c * c * w
                })
                .sum::<f32>();
        }
        out
    }

    /// Loss of one sample, without gradients.
    pub fn loss(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        self.accumulate(s, scratch);
        let e = sigmoid(self.output(s, scratch)) - s.target;
        e * e
    }

    /// Centipawns the float model gives the side to move.
    pub fn evaluate(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        self.accumulate(s, scratch);
        self.output(s, scratch) * self.scale as f32
    }

    /// One sample's loss; adds its gradient into `grad`.
    pub fn backward(&self, s: &Sample, grad: &mut Model, scratch: &mut Scratch) -> f32 {
        self.accumulate(s, scratch);
        let pred = sigmoid(self.output(s, scratch));
        let err = pred - s.target;
        let d = 2.0 * err * pred * (1.0 - pred);
        let (b, h) = (s.bucket as usize, self.hidden());
        let us = usize::from(s.black);
        let w2 = &self.w2[b * 2 * h..(b + 1) * 2 * h];
        let g2 = &mut grad.w2[b * 2 * h..(b + 1) * 2 * h];
        grad.b2[b] += d;
        for (half, p) in [us, 1 - us].into_iter().enumerate() {
            let (acc, dacc) = (&scratch.acc[p], &mut scratch.grad[p]);
            let w = &w2[half * h..(half + 1) * h];
            let g = &mut g2[half * h..(half + 1) * h];
            for i in 0..h {
                let a = acc[i];
                let c = a.clamp(0.0, 1.0);
                g[i] += d * c * c;
                dacc[i] = if a > 0.0 && a < 1.0 { d * w[i] * 2.0 * a } else { 0.0 };
            }
        }
        for p in 0..2 {
            let dacc = &scratch.grad[p];
            grad.b1.iter_mut().zip(dacc).for_each(|(g, d)| *g += d);
            for &f in &s.feats[p][..s.n as usize] {
                let row = &mut grad.w1[f as usize * h..(f as usize + 1) * h];
                row.iter_mut().zip(dacc).for_each(|(g, d)| *g += d);
                if self.factorised() {
                    grad.fact[shared_row(f as usize, h)].iter_mut().zip(dacc).for_each(|(g, d)| *g += d);
                }
            }
        }
        err * err
    }

    /// Keeps every weight within ±[`WEIGHT_CLIP`] (biases of the output are
    /// free); with a factoriser, every merged first-layer weight too, by
    /// clamping the bucket's part, so the quantised network is the one trained.
    pub fn clip(&mut self) {
        for part in [&mut self.w1[..], &mut self.b1[..], &mut self.w2[..], &mut self.fact[..]] {
            part.iter_mut().for_each(|w| *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP));
        }
        if self.factorised() {
            let h = self.hidden();
            for (f, row) in self.w1.chunks_exact_mut(h).enumerate() {
                let shared = &self.fact[shared_row(f, h)];
                row.iter_mut().zip(shared).for_each(|(w, s)| *w = w.clamp(-WEIGHT_CLIP - s, WEIGHT_CLIP - s));
            }
        }
    }

    /// The float weights an integer network stands for (each value over its
    /// scale): a run can start from a network already trained (`train --init`),
    /// so what it learned from earlier data carries into the next run.
    pub fn from_network(net: &Network) -> Model {
        let mut m = Model::zeros(net.arch);
        m.w1.iter_mut().zip(net.w1.iter()).for_each(|(w, &n)| *w = f32::from(n) / QA as f32);
        m.b1.iter_mut().zip(net.b1.iter()).for_each(|(w, &n)| *w = f32::from(n) / QA as f32);
        m.w2.iter_mut().zip(net.w2.iter()).for_each(|(w, &n)| *w = f32::from(n) / QB as f32);
        m.b2.iter_mut().zip(&net.b2).for_each(|(w, &n)| *w = n as f32 / (QA * QB) as f32);
        (m.scale, m.search_pct) = (net.scale, net.search_pct);
        m
    }

    /// The integer network of these weights.
    pub fn quantise(&self) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round() as i32;
        let mut net = Network::zeroed(self.arch);
        let h = self.hidden();
        let mut row = vec![0.0; h];
        for (f, out) in net.w1.chunks_exact_mut(h).enumerate() {
            self.row(f, &mut row);
            out.iter_mut().zip(&row).for_each(|(n, &w)| *n = q(w, QA).clamp(-32767, 32767) as i16);
        }
        net.b1.iter_mut().zip(&self.b1).for_each(|(n, &w)| *n = q(w, QA).clamp(-32767, 32767) as i16);
        net.w2.iter_mut().zip(&self.w2).for_each(|(n, &w)| *n = q(w, QB).clamp(-127, 127) as i16);
        net.b2.iter_mut().zip(&self.b2).for_each(|(n, &w)| *n = q(w, QA * QB));
        (net.scale, net.search_pct) = (self.scale, self.search_pct);
        net
    }
}

/// Where the factoriser's row for first-layer feature `f` (of any king
/// bucket) lies in [`Model::fact`], for a first layer of width `h`.
fn shared_row(f: usize, h: usize) -> std::ops::Range<usize> {
    let base = f % INPUTS * h;
    base..base + h
}

/// A seeded uniform generator: `uniform(s)` is in `[-s, s)`.
fn uniform(seed: u64) -> impl FnMut(f32) -> f32 {
    let mut state = seed | 1;
    move |scale: f32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
    }
}
