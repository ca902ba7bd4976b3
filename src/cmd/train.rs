//! `tetrad train`: fit the evaluation network to `datagen` shards.

use super::train_log::LossLog;
use crate::progress::Progress;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use tetrad_eval::learn::train::{
    self, checkpoint_path, load_checkpoint, save_checkpoint, Checkpoint, Model, TrainConfig,
};
use tetrad_eval::nnue::{Arch, KingBuckets, Network};

/// Arguments of `tetrad train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// A directory of `datagen` shards (repeat for several, to pool
    /// generations); `DIR:A..B` reads only its shards A to B − 1.
    #[arg(long, required = true, value_parser = crate::parse::data_dir)]
    pub data: Vec<crate::parse::DataDir>,
    /// Read only shards A to B − 1 of each `--data` directory that names no
    /// range of its own (`A..B`; every one must be there), so that a network
    /// trained from a directory a `datagen` run is still filling can be
    /// remade from the same shards.
    #[arg(long, value_parser = crate::parse::parse_range)]
    pub shards: Option<std::ops::Range<usize>>,
    /// The network file to write (after every epoch); the checkpoint goes beside it as `OUT.ckpt`.
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the training positions; 0 trains nothing and prints the
    /// `--init` network's loss over every position read (held out or not).
    #[arg(long, default_value_t = 20, allow_negative_numbers = true)]
    pub epochs: usize,
    /// Positions per batch.
    #[arg(long, default_value_t = 16_384, value_parser = crate::parse::count::<usize>, allow_negative_numbers = true)]
    pub batch: usize,
    /// Initial learning rate (Adam).
    #[arg(long, default_value_t = 0.001, value_parser = |s: &str| crate::parse::positive(s).map(|v| v as f32), allow_negative_numbers = true)]
    pub lr: f32,
    /// Final learning rate as a fraction of the initial one (cosine schedule).
    #[arg(long, default_value_t = 0.02, value_parser = |s: &str| crate::parse::fraction(s).map(|v| v as f32), allow_negative_numbers = true)]
    pub final_lr: f32,
    /// Share of the run (0 to 1) over which the learning rate rises from
    /// zero to the cosine's value, so that a fine-tune's fresh optimiser
    /// fills its moments before it moves the weights much.
    #[arg(long, default_value_t = 0.0, value_parser = |s: &str| crate::parse::fraction(s).map(|v| v as f32), allow_negative_numbers = true)]
    pub warmup: f32,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.3, value_parser = |s: &str| crate::parse::fraction(s).map(|v| v as f32), allow_negative_numbers = true)]
    pub wdl: f32,
    /// Seed of initialisation and shuffling.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Do not mirror positions left to right at random (the mirror doubles the data).
    #[arg(long)]
    pub no_mirror: bool,
    /// Start from this network's weights instead of random ones (`builtin`:
    /// the network compiled in); the optimiser starts fresh.
    #[arg(long, conflicts_with = "resume")]
    pub init: Option<PathBuf>,
    /// First-layer width (a multiple of 128; default: the `--init` network's,
    /// or 256). Wider than the `--init` network grows it: its neurons are
    /// kept, the new ones start with zero output weights.
    #[arg(long, value_parser = crate::parse::count::<usize>, allow_negative_numbers = true)]
    pub hidden: Option<usize>,
    /// King buckets: `none`, `4` (mirrored: a1-b1, c1-d1, rank 2, the rest),
    /// `sides` (a-d, e-h, not mirrored), 64 digits (a1..h8, not mirrored),
    /// or 32 bucket digits for files a-d, rank 1 first, mirrored (default: the
    /// `--init` network's, or none). Each bucket starts as a copy of the
    /// `--init` network's bucket of its first king square (of its only one,
    /// for a network without buckets); mirrored buckets do not grow into
    /// unmirrored ones.
    #[arg(long, value_parser = tetrad_eval::nnue::KingBuckets::parse)]
    pub king_buckets: Option<tetrad_eval::nnue::KingBuckets>,
    /// Train king buckets with a factoriser: one shared row per piece feature,
    /// learnt from every position and added to that feature's row in each
    /// bucket (merged into the buckets in the file). Needs king buckets.
    #[arg(long)]
    pub factorise: bool,
    /// Centipawns per output unit of a network trained from scratch (the
    /// target is sigmoid(score / scale)); with `--init`, the network's own.
    #[arg(long, default_value_t = tetrad_eval::nnue::file::DEFAULT_SCALE, value_parser = crate::parse::count::<i32>, allow_negative_numbers = true)]
    pub scale: i32,
    /// Percentage of the network's centipawns the search sees, written into
    /// the file. Default with `--init`: the one under which the new network
    /// reaches the search at the scale the `--init` network did (median
    /// |score| over the validation positions, after every epoch); else 73.
    #[arg(long, value_parser = crate::parse::count::<i32>, allow_negative_numbers = true)]
    pub search_pct: Option<i32>,
    /// Text stored in the network file's header (64 bytes at most).
    #[arg(long)]
    pub description: Option<String>,
    /// Go on from `OUT.ckpt` (same data and arguments).
    #[arg(long)]
    pub resume: bool,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0, value_parser = crate::parse::threads, allow_negative_numbers = true)]
    pub threads: usize,
}

/// Runs the command; returns the process exit code.
#[allow(clippy::neg_cmp_op_on_partial_ord, reason = "!(lr > 0) also refuses NaN")]
pub fn run(args: &TrainArgs) -> i32 {
    let unit = 0.0..=1.0;
    if !unit.contains(&args.wdl)
        || !(args.lr > 0.0)
        || !unit.contains(&args.final_lr)
        || !unit.contains(&args.warmup)
        || args.batch == 0
    {
        errln!("error: need --wdl, --final-lr and --warmup in [0, 1], --lr > 0 and --batch > 0");
        return 2;
    }
    if args.threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global();
    }
    let cfg = TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        final_lr_ratio: args.final_lr,
        wdl: args.wdl,
        seed: args.seed,
        mirror: !args.no_mirror,
        warmup: args.warmup,
    };
    let ckpt_path = checkpoint_path(&args.out);
    // The network whose scale the search's percentage is matched to.
    let mut reference = None;
    let mut ckpt = if args.resume {
        match load_checkpoint(&ckpt_path) {
            Ok(c) => {
                errln!("resuming from {} after epoch {}", ckpt_path.display(), c.epoch);
                c
            }
            Err(e) => {
                errln!("error: cannot resume: {e}");
                return 2;
            }
        }
    } else {
        match start_model(args) {
            Ok((model, init)) => {
                reference = init.filter(|_| args.search_pct.is_none());
                Checkpoint::from_model(model)
            }
            Err(e) => {
                errln!("error: {e}");
                return 2;
            }
        }
    };
    errln!(
        "network {} (output scale {}, search {}%)",
        ckpt.model.arch.describe(),
        ckpt.model.scale,
        ckpt.model.search_pct
    );
    let t0 = Instant::now();
    let sources: Vec<_> =
        args.data.iter().map(|d| (d.dir.clone(), d.shards.clone().or_else(|| args.shards.clone()))).collect();
    let data = match train::load_sources(&sources) {
        Ok(d) => d,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    errln!(
        "{} training and {} validation positions ({:.1} s to load), {} threads",
        data.train.len(),
        data.valid.len(),
        t0.elapsed().as_secs_f64(),
        rayon::current_num_threads()
    );
    if cfg.epochs > 0 {
        if let Err(e) = check_run(args, &ckpt_path, data.train.len() + data.valid.len()) {
            errln!("error: {e}");
            return 2;
        }
    }
    if cfg.epochs == 0 {
        // Nothing to train: measure the network on every position read, so
        // that networks trained on other shards compare on the same ones.
        let all: Vec<_> = data.train.iter().chain(&data.valid).copied().collect();
        println!("loss {:.6} over {} positions", train::validation_loss(&ckpt.model, &all, cfg.wdl), all.len());
        return 0;
    }
    if data.train.is_empty() {
        errln!("error: no training positions");
        return 2;
    }
    if data.valid.is_empty() {
        errln!("no validation positions: one shard holds them all (the last of two or more is held out)");
    } else if ckpt.epoch == 0 {
        errln!("epoch 0: validation loss {:.6}", train::validation_loss(&ckpt.model, &data.valid, cfg.wdl));
    }
    let mut failed = None;
    // Both callbacks report: the bar (made at the first batch, when the
    // batch count is known) and the loss log.
    let shared = std::cell::RefCell::new((None::<Progress>, LossLog::open(&args.out, args.resume), 0usize));
    let first_epoch = ckpt.epoch;
    train::train(
        &cfg,
        &data,
        &mut ckpt,
        |epoch, b, batches, loss, _pps| {
            let (progress, log, per_epoch) = &mut *shared.borrow_mut();
            *per_epoch = batches;
            let total = ((cfg.epochs - first_epoch) * batches) as u64;
            let bar = progress.get_or_insert_with(|| Progress::new("train", total, "batches"));
            bar.message(format!("epoch {epoch}/{} loss {loss:.6}", cfg.epochs));
            bar.set(((epoch - 1 - first_epoch) * batches + b) as u64);
            log.batch(epoch, b, batches, loss);
        },
        |r, ckpt| {
            let (progress, log, per_epoch) = &mut *shared.borrow_mut();
            log.epoch(r.epoch, *per_epoch, r.train_loss, r.valid_loss);
            // With no validation set its loss is NaN: said as "none", not a number.
            let valid = if data.valid.is_empty() { "none".to_string() } else { format!("{:.6}", r.valid_loss) };
            let line = format!(
                "epoch {}/{}: train loss {:.6} validation loss {valid} lr {:.2e} {:.0} pos/s",
                r.epoch, cfg.epochs, r.train_loss, r.lr, r.pos_per_sec
            );
            match progress {
                Some(p) => p.println(&line),
                None => errln!("{line}"),
            }
            let mut net = ckpt.model.quantise();
            if let Some(r) = &reference {
                let sample = if data.valid.is_empty() { &data.train } else { &data.valid };
                net.search_pct = train::matched_search_pct(r, &net, sample);
                errln!("search percentage {} (the --init network's scale in the search)", net.search_pct);
            }
            net.description = args.description.clone().unwrap_or_else(|| {
                format!(
                    "tetrad train {}: {} epochs on {} positions",
                    env!("CARGO_PKG_VERSION"),
                    r.epoch,
                    data.train.len()
                )
            });
            let bytes = net.to_bytes();
            if let Err(e) = std::fs::write(&args.out, bytes).and_then(|_| save_checkpoint(&ckpt_path, ckpt)) {
                failed = Some(e.to_string());
            }
        },
    );
    let (progress, log, _) = shared.into_inner();
    if let Some(p) = progress {
        p.finish();
    }
    if let Some(e) = failed {
        errln!("error: writing {} or its checkpoint failed: {e}", args.out.display());
        return 1;
    }
    outln!(
        "network written to {} ({:.0} s); loss log {}",
        args.out.display(),
        t0.elapsed().as_secs_f64(),
        log.path().display()
    );
    0
}

/// What a checkpoint's weights and optimiser state depend on, one argument
/// a line: a resumed run must give the same (threads, `--description` and
/// `--out` may change; the data is known by its directories' count, the
/// shard range and the positions read).
fn run_manifest(args: &TrainArgs, positions: usize) -> String {
    let range = |r: &Option<std::ops::Range<usize>>| {
        r.as_ref().map_or("all".to_string(), |r| format!("{}..{}", r.start, r.end))
    };
    let shards = range(&args.shards);
    // Directories that name their own shards add a line (absent from older runs' manifests).
    let own: Vec<String> = args
        .data
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.shards.as_ref().map(|_| format!("{}:{}", i + 1, range(&d.shards))))
        .collect();
    let own = if own.is_empty() { String::new() } else { format!("dir-shards {}\n", own.join(" ")) };
    format!(
        "tetrad train v1\ndata-dirs {}\nshards {shards}\n{own}positions {positions}\nepochs {}\nbatch {}\nlr {}\n\
         final-lr {}\nwarmup {}\nwdl {}\nseed {}\nmirror {}\n",
        args.data.len(),
        args.epochs,
        args.batch,
        args.lr,
        args.final_lr,
        args.warmup,
        args.wdl,
        args.seed,
        !args.no_mirror,
    )
}

/// Writes the run's manifest beside its checkpoint (`OUT.run`) when it
/// starts; on `--resume`, refuses other arguments or data than the run's,
/// naming each difference (as `datagen --resume` does).
fn check_run(args: &TrainArgs, ckpt_path: &std::path::Path, positions: usize) -> Result<(), String> {
    let path = ckpt_path.with_extension("run");
    let want = run_manifest(args, positions);
    if args.resume {
        match std::fs::read_to_string(&path) {
            Ok(have) => {
                let differences = manifest_differences(&have, &want);
                if !differences.is_empty() {
                    return Err(format!(
                        "--resume needs the run's own data and arguments ({}): {}",
                        path.display(),
                        differences.join("; ")
                    ));
                }
                return Ok(());
            }
            Err(_) => errln!("warning: {} is missing; resuming without checking the arguments", path.display()),
        }
    }
    std::fs::write(&path, want).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The lines of two manifests that differ, as `KEY: the run had A, now B`.
fn manifest_differences(have: &str, want: &str) -> Vec<String> {
    let pairs = |t: &str| -> Vec<(String, String)> {
        t.lines()
            .map(|l| l.split_once(' ').map_or((l.to_string(), String::new()), |(k, v)| (k.into(), v.into())))
            .collect()
    };
    let (have, want) = (pairs(have), pairs(want));
    let value = |list: &[(String, String)], key: &str| list.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let mut keys: Vec<&String> = have.iter().map(|(k, _)| k).collect();
    keys.extend(want.iter().map(|(k, _)| k).filter(|k| !have.iter().any(|(h, _)| h == *k)));
    keys.into_iter()
        .filter_map(|k| {
            let (a, b) = (value(&have, k), value(&want, k));
            (a != b).then(|| {
                let show = |v: Option<String>| v.unwrap_or_else(|| "nothing".into());
                format!("{k}: the run had {}, now {}", show(a), show(b))
            })
        })
        .collect()
}

/// The weights a run starts from: `--init`'s network (grown to `--hidden`
/// and `--king-buckets` where they ask for more), or seeded random ones.
fn start_model(args: &TrainArgs) -> Result<(Model, Option<Network>), String> {
    let mut init = None;
    let mut model = match &args.init {
        Some(path) => {
            let net = if path.as_os_str() == "builtin" {
                Ok(tetrad_eval::nnue::default_network().as_ref().clone())
            } else {
                Network::load(path)
            };
            let net = net.map_err(|e| format!("cannot start from {}: {e}", path.display()))?;
            let model = Model::from_network(&net);
            init = Some(net);
            let arch = Arch {
                hidden: args.hidden.unwrap_or(model.arch.hidden),
                kings: args.king_buckets.unwrap_or(model.arch.kings),
            };
            if arch == model.arch {
                model
            } else {
                model.grow(arch, args.seed)?
            }
        }
        None => {
            let arch =
                Arch { hidden: args.hidden.unwrap_or(256), kings: args.king_buckets.unwrap_or(KingBuckets::NONE) };
            arch.check()?;
            if !(1..=100_000).contains(&args.scale) {
                return Err(format!("--scale {} out of range", args.scale));
            }
            let mut m = Model::random(arch, args.seed);
            m.scale = args.scale;
            m
        }
    };
    if args.factorise {
        if model.arch.kings.count() < 2 {
            return Err("--factorise needs king buckets (--king-buckets, or an --init network with them)".into());
        }
        model = model.factorise();
    }
    if let Some(pct) = args.search_pct {
        if !(1..=1000).contains(&pct) {
            return Err(format!("--search-pct {pct} out of range"));
        }
        model.search_pct = pct;
    }
    Ok((model, init))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_run_names_each_difference() {
        let have = "tetrad train v1\nepochs 20\nlr 0.001\nseed 1\n";
        assert!(manifest_differences(have, have).is_empty());
        let want = "tetrad train v1\nepochs 30\nlr 0.001\nseed 2\nwarmup 0.1\n";
        assert_eq!(
            manifest_differences(have, want),
            ["epochs: the run had 20, now 30", "seed: the run had 1, now 2", "warmup: the run had nothing, now 0.1"]
        );
    }
}
