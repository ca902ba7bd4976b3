//! The network: colour symmetry, the cache against sums from scratch, the
//! float model against its quantised twin, and a trainer whose loss falls.

use std::sync::Arc;
use tetrad_eval::learn::dataset::{GameResult, Record};
use tetrad_eval::learn::train::{self, Checkpoint, Data, Model, Scratch, TrainConfig};
use tetrad_eval::nnue::{Arch, KingBuckets, Network};
use tetrad_eval::{evaluate_nnue_uncached, EvalConfig, EvalKind, Evaluator};
use tetrad_simd::{legal_moves, Position};

/// Positions of seeded random games, in game order.
fn walk(seed: u64, n: usize) -> Vec<Position> {
    let mut s = seed | 1;
    let mut out = Vec::new();
    let mut pos = Position::startpos();
    while out.len() < n {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let moves = legal_moves(&pos);
        if moves.is_empty() || pos.halfmove_clock() >= 100 {
            pos = Position::startpos();
            continue;
        }
        pos = pos.make_move(moves.as_slice()[(s % moves.len() as u64) as usize]);
        out.push(pos);
    }
    out
}

/// The shapes the tests run over: the plain 768 → 256, and a width done in
/// 128-neuron slices with mirrored king buckets.
const SHAPES: [Arch; 2] = [Arch::PLAIN_256, Arch { hidden: 384, kings: KingBuckets::FOUR }];

fn random_net(seed: u64) -> Arc<Network> {
    random_net_of(Arch::PLAIN_256, seed)
}

fn random_net_of(arch: Arch, seed: u64) -> Arc<Network> {
    let mut m = Model::random(arch, seed);
    // Larger biases and output weights than the initialisation, so that the
    // activations span the whole clamp range and every bucket matters.
    m.b1.iter_mut().enumerate().for_each(|(i, b)| *b = (i % 7) as f32 * 0.1);
    m.w2.iter_mut().enumerate().for_each(|(i, w)| *w = ((i * 37 % 101) as f32 / 50.0 - 1.0) * 1.9);
    m.b2.iter_mut().enumerate().for_each(|(i, b)| *b = i as f32 * 0.05 - 0.2);
    Arc::new(m.quantise())
}

#[test]
fn colour_mirror_evaluates_the_same() {
    for arch in SHAPES {
        let net = random_net_of(arch, 3);
        let mut nonzero = 0;
        for pos in walk(11, 3000) {
            let a = evaluate_nnue_uncached(&pos, &net);
            assert_eq!(a, evaluate_nnue_uncached(&pos.flip_colors(), &net), "{}", pos.to_fen());
            nonzero += usize::from(a != 0);
        }
        assert!(nonzero > 2500, "a random network should rarely give 0 ({nonzero})");
    }
}

#[test]
fn cache_matches_scratch() {
    // Unmirrored buckets too: a king crossing between the d- and e-files changes bucket without a reflection.
    for arch in SHAPES.into_iter().chain([Arch { hidden: 256, kings: KingBuckets::SIDES }]) {
        cache_matches_scratch_of(arch);
    }
}

fn cache_matches_scratch_of(arch: Arch) {
    let net = random_net_of(arch, 5);
    let mut ev = Evaluator::with_config(&EvalConfig { kind: EvalKind::Nnue, net: Arc::clone(&net) });
    let positions = walk(7, 4000);
    let mut s = 99u64;
    for (i, pos) in positions.iter().enumerate() {
        // Plies that go down the game (parent in the slot before), jump back
        // (siblings, cousins) and land anywhere, like a search tree.
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let ply = match (s >> 60) % 4 {
            0 => i % 120,
            1 => (s >> 20) as usize % 130,
            _ => (i / 3) % 40,
        };
        assert_eq!(ev.evaluate_at(pos, ply), evaluate_nnue_uncached(pos, &net), "ply {ply}: {}", pos.to_fen());
    }
    let st = ev.nnue_stats();
    // A sum from scratch is ~25 rows here: the slots and bucket entries
    // together should cost a few.
    let per = st.rows as f64 / (st.updates + st.refreshes) as f64;
    assert!(per < 6.0 && st.updates > 1000, "{}: {per:.1} rows a perspective: {st:?}", arch.describe());
}

#[test]
fn quantised_network_follows_the_float_model() {
    for arch in SHAPES {
        let mut m = Model::random(arch, 9);
        m.w2.iter_mut().for_each(|w| *w *= 8.0);
        let net = m.quantise();
        let mut scratch = Scratch::new(arch.hidden);
        for pos in walk(13, 500) {
            let rec = Record::new(&pos, 0, GameResult::Draw);
            let float = m.evaluate(&train::sample(&rec, 0.0, &arch, m.scale, false), &mut scratch);
            let bb = tetrad_simd::ccr_to_bitboards(pos.ccr());
            let int = net.evaluate(&bb, pos.side_to_move()) as f32;
            assert!((float - int).abs() <= 8.0 + float.abs() * 0.05, "float {float} int {int}");
        }
    }
}

/// A network grown wider, or into king buckets that are not mirrored (from
/// none, or each new bucket inside an old one), keeps its function exactly;
/// grown into mirrored king buckets it keeps it exactly wherever no king
/// stands on files e-h (there the board is read reflected), and changes
/// nothing once trained neurons are added.
#[test]
fn grown_networks_compute_the_same_function() {
    let old = Model::from_network(&random_net(31));
    let wide = old.grow(Arch { hidden: 512, kings: KingBuckets::NONE }, 7).unwrap();
    let kings = old.grow(Arch { hidden: 384, kings: KingBuckets::FOUR }, 7).unwrap();
    let sides = old.grow(Arch { hidden: 256, kings: KingBuckets::SIDES }, 7).unwrap().quantise();
    let (n_old, n_wide, n_kings) = (old.quantise(), wide.quantise(), kings.quantise());
    let mut queenside = 0;
    for pos in walk(41, 2000) {
        let bb = tetrad_simd::ccr_to_bitboards(pos.ccr());
        let stm = pos.side_to_move();
        let want = n_old.evaluate(&bb, stm);
        assert_eq!(n_wide.evaluate(&bb, stm), want, "{}", pos.to_fen());
        assert_eq!(sides.evaluate(&bb, stm), want, "not mirrored: exact everywhere; {}", pos.to_fen());
        let kings_on_left = [6usize, 14].iter().all(|&c| bb.by_code[c].trailing_zeros() % 8 < 4);
        if kings_on_left {
            assert_eq!(n_kings.evaluate(&bb, stm), want, "{}", pos.to_fen());
            queenside += 1;
        }
    }
    assert!(queenside > 100, "the walk should often keep both kings on files a-d ({queenside})");
    assert!(old.grow(Arch { hidden: 128, kings: KingBuckets::NONE }, 1).is_err(), "no shrinking");

    // Bucketed networks grow into finer buckets: each side split by ranks
    // 1-4 and 5-8 (each new bucket inside an old one), exact everywhere.
    let sides = old.grow(Arch { hidden: 256, kings: KingBuckets::SIDES }, 7).unwrap();
    let quarters = KingBuckets { map: std::array::from_fn(|sq| (2 * (sq % 8 / 4) + sq / 32) as u8), mirror: false };
    let (n_sides, n_quarters) =
        (sides.quantise(), sides.grow(Arch { hidden: 384, kings: quarters }, 7).unwrap().quantise());
    for pos in walk(43, 500) {
        let bb = tetrad_simd::ccr_to_bitboards(pos.ccr());
        let stm = pos.side_to_move();
        assert_eq!(n_quarters.evaluate(&bb, stm), n_sides.evaluate(&bb, stm), "{}", pos.to_fen());
    }
    // Into mirrored buckets: exact wherever both kings stand on files a-d.
    let n_four = sides.grow(Arch { hidden: 256, kings: KingBuckets::FOUR }, 7).unwrap().quantise();
    let mut left = 0;
    for pos in walk(47, 1000) {
        let bb = tetrad_simd::ccr_to_bitboards(pos.ccr());
        if [6usize, 14].iter().all(|&c| bb.by_code[c].trailing_zeros() % 8 < 4) {
            let stm = pos.side_to_move();
            assert_eq!(n_four.evaluate(&bb, stm), n_sides.evaluate(&bb, stm), "{}", pos.to_fen());
            left += 1;
        }
    }
    assert!(left > 50, "{left}");
    let mirrored = old.grow(Arch { hidden: 256, kings: KingBuckets::FOUR }, 7).unwrap();
    assert!(mirrored.grow(Arch { hidden: 256, kings: KingBuckets::SIDES }, 7).is_err(), "mirrored to unmirrored");
}

/// Factorising moves each feature's mean row over the buckets into the
/// shared row: the network written is the same (to a rounding of the
/// floats), and stays within the weight clip after a training step's clip.
#[test]
fn a_factorised_model_computes_the_same_network() {
    let arch = Arch { hidden: 384, kings: KingBuckets::FOUR };
    let plain = Model::random(arch, 29);
    let mut fact = plain.clone().factorise();
    assert!(fact.factorised() && !plain.factorised());
    let (a, b) = (plain.quantise(), fact.quantise());
    assert!(a.w1.iter().zip(b.w1.iter()).all(|(x, y)| (x - y).abs() <= 1), "first layers differ");
    assert!(a.b1 == b.b1 && a.w2 == b.w2 && a.b2 == b.b2);
    // Pushed past the clip, the merged weights are brought back within it.
    fact.fact.iter_mut().for_each(|w| *w += 1.5);
    fact.w1.iter_mut().for_each(|w| *w += 1.5);
    fact.clip();
    let h = arch.hidden;
    for (f, row) in fact.w1.chunks_exact(h).enumerate() {
        let shared = &fact.fact[(f % tetrad_eval::nnue::INPUTS) * h..][..h];
        assert!(row.iter().zip(shared).all(|(w, s)| (w + s).abs() <= train::WEIGHT_CLIP + 1e-5));
    }
    // It survives a checkpoint.
    let ckpt = Checkpoint::from_model(fact);
    let path = std::env::temp_dir().join(format!("tetrad-fact-ckpt-{}", std::process::id()));
    train::save_checkpoint(&path, &ckpt).unwrap();
    let back = train::load_checkpoint(&path).unwrap();
    let _ = std::fs::remove_file(path);
    assert!(back.model == ckpt.model && back.model.factorised());
}

#[test]
fn a_network_read_back_as_floats_quantises_to_itself() {
    // `train --init` starts from a network's float reading; quantising that
    // must give back the very same integers, the built-in network included.
    for net in [random_net(21), tetrad_eval::nnue::default_network().clone()] {
        let mut back = Model::from_network(&net).quantise();
        back.description.clone_from(&net.description);
        assert!(back == *net);
    }
}

#[test]
fn training_lowers_the_loss() {
    // Labels from the hand-written evaluation: a learnable target.
    let records: Vec<Record> = walk(17, 6000)
        .iter()
        .map(|p| {
            let v = tetrad_eval::evaluate_uncached(p);
            let white = if p.side_to_move() == tetrad_simd::Color::White { v } else { -v };
            let result = match white {
                v if v > 150 => GameResult::WhiteWin,
                v if v < -150 => GameResult::BlackWin,
                _ => GameResult::Draw,
            };
            Record::new(p, white, result)
        })
        .collect();
    // Interleaved split: a few long random games, so a split by game would
    // measure generalisation across games, not whether training works.
    let data = Data {
        train: records.iter().enumerate().filter(|(i, _)| i % 6 != 0).map(|(_, r)| *r).collect(),
        valid: records.iter().step_by(6).copied().collect(),
    };
    let cfg = TrainConfig { epochs: 4, batch: 64, lr: 0.001, ..TrainConfig::default() };
    let mut ckpt = Checkpoint::new(Arch::PLAIN_256, 1);
    let before = train::validation_loss(&ckpt.model, &data.valid, cfg.wdl);
    let mut losses = Vec::new();
    train::train(&cfg, &data, &mut ckpt, |_, _, _, _, _| {}, |r, _| losses.push((r.train_loss, r.valid_loss)));
    let (train_after, valid_after) = *losses.last().unwrap();
    assert!(valid_after < before * 0.8, "validation loss {before} -> {losses:?}");
    assert!(train_after < losses[0].0 * 0.8, "training loss {losses:?}");
    assert_eq!(ckpt.epoch, 4);
    // A checkpoint round-trips.
    let path = std::env::temp_dir().join(format!("tetrad-ckpt-{}", std::process::id()));
    train::save_checkpoint(&path, &ckpt).unwrap();
    let back = train::load_checkpoint(&path).unwrap();
    assert_eq!((back.epoch, back.adam.t), (ckpt.epoch, ckpt.adam.t));
    assert!(back.model == ckpt.model);
    let _ = std::fs::remove_file(path);
}

#[test]
fn gradient_matches_finite_differences() {
    for arch in SHAPES {
        gradient_matches_finite_differences_of(arch);
    }
}

fn gradient_matches_finite_differences_of(arch: Arch) {
    gradient_check(Model::random(arch, 21));
}

/// The factoriser's gradient too: the shared row of a feature the sample has.
#[test]
fn factorised_gradient_matches_finite_differences() {
    let mut m = Model::random(Arch { hidden: 384, kings: KingBuckets::FOUR }, 23).factorise();
    // Shared rows of their own, so the check sees both parts at work.
    m.fact.iter_mut().enumerate().for_each(|(i, w)| *w = ((i * 13 % 29) as f32 / 29.0 - 0.5) * 0.05);
    gradient_check(m);
}

fn gradient_check(mut m: Model) {
    let (arch, h) = (m.arch, m.hidden());
    m.b1.iter_mut().for_each(|b| *b = 0.3);
    let pos = walk(5, 40)[37];
    let rec = Record::new(&pos, 120, GameResult::WhiteWin);
    let s = train::sample(&rec, 0.5, &arch, m.scale, false);
    let mut scratch = Scratch::new(h);
    let mut grad = m.zeros_like();
    m.backward(&s, &mut grad, &mut scratch);
    let f = s.feats[usize::from(s.black)][0] as usize;
    let mut checks = vec![
        (0usize, f * h + 3),
        (1, 5),
        (2, s.bucket as usize * 2 * h + 7),
        (2, s.bucket as usize * 2 * h + h + 9),
        (3, s.bucket as usize),
    ];
    if m.factorised() {
        checks.push((4, (f % tetrad_eval::nnue::INPUTS) * h + 3));
    }
    for (part, i) in checks {
        let eps = 1e-3;
        let mut plus = m.clone();
        plus.parts_mut()[part][i] += eps;
        let mut minus = m.clone();
        minus.parts_mut()[part][i] -= eps;
        let num = (plus.loss(&s, &mut scratch) - minus.loss(&s, &mut scratch)) / (2.0 * eps);
        let ana = grad.parts()[part][i];
        assert!((num - ana).abs() <= 1e-4 + 0.05 * ana.abs(), "part {part} index {i}: numeric {num} analytic {ana}");
    }
}

/// The schedule: a cosine from `lr` to `lr · final_lr_ratio`; with a warm-up,
/// zero at the start, rising linearly to meet the cosine at `warmup`, and the
/// cosine's own values after it.
#[test]
fn learning_rate_schedule_and_warmup() {
    let plain = TrainConfig { lr: 0.001, final_lr_ratio: 0.1, ..TrainConfig::default() };
    let close = |a: f32, b: f64| (a as f64 - b).abs() < 1e-9;
    assert!(close(train::learning_rate(&plain, 0.0), 0.001));
    assert!(close(train::learning_rate(&plain, 0.5), 0.001 * (0.1 + 0.9 * 0.5)));
    assert!(close(train::learning_rate(&plain, 1.0), 0.0001));
    let warm = TrainConfig { warmup: 0.2, ..plain.clone() };
    assert_eq!(train::learning_rate(&warm, 0.0), 0.0);
    let at = |p: f64| train::learning_rate(&plain, p) as f64;
    assert!(close(train::learning_rate(&warm, 0.1), 0.5 * at(0.1)));
    for p in [0.2, 0.5, 0.9, 1.0] {
        assert!(close(train::learning_rate(&warm, p), at(p)), "{p}");
    }
    let mut last = 0.0;
    for i in 0..=20 {
        let lr = train::learning_rate(&warm, i as f64 / 100.0);
        assert!(lr >= last, "rises through the warm-up");
        last = lr;
    }
}
