//! `tetrad tune`: Texel tuning of the evaluation weights on labelled positions.

use clap::Args;
use std::time::Instant;
use tetrad_eval::hce::weights::PARAMS;
use tetrad_eval::learn::tune::{load_samples, TuneConfig, Tuner};

/// Arguments of `tetrad tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Training positions: `FEN c9 "1-0";` lines (also `[1.0]`/`[0.5]`/`[0.0]`).
    #[arg(long)]
    pub data: String,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 200, value_parser = crate::parse::count::<usize>, allow_negative_numbers = true)]
    pub epochs: usize,
    /// Seed of the train/validation split.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Adam step size in centipawns.
    #[arg(long, default_value_t = 1.0, value_parser = crate::parse::positive, allow_negative_numbers = true)]
    pub lr: f64,
    /// Where to write the tuned weights (Rust source for eval/src/weights.rs).
    #[arg(long, default_value = "tuned_weights.rs")]
    pub out: String,
    /// Weight of the game result in the target, the rest going to the
    /// recorded search score `ce` (1 = results only).
    #[arg(long, default_value_t = 1.0, value_parser = crate::parse::fraction, allow_negative_numbers = true)]
    pub lambda: f64,
    /// L2 pull towards the starting weights, per cp² (0 = none).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub reg: f64,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0, value_parser = crate::parse::threads, allow_negative_numbers = true)]
    pub threads: usize,
}

/// Runs the command; returns the process exit code.
#[allow(clippy::neg_cmp_op_on_partial_ord, reason = "!(reg >= 0) also refuses NaN")]
pub fn run(args: &TuneArgs) -> i32 {
    if args.threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global();
    }
    if !(0.0..=1.0).contains(&args.lambda) || !(args.reg >= 0.0) {
        errln!("error: --lambda must be in [0, 1] and --reg at least 0");
        return 2;
    }
    let text = match std::fs::read_to_string(&args.data) {
        Ok(t) => t,
        Err(e) => {
            errln!("error: cannot read {}: {e}", args.data);
            return 2;
        }
    };
    let start = Instant::now();
    let (samples, skipped) = load_samples(&text);
    if samples.len() < 2 {
        errln!("error: {} has fewer than two usable positions ({skipped} lines skipped)", args.data);
        return 2;
    }
    let config =
        TuneConfig { epochs: args.epochs, learning_rate: args.lr, seed: args.seed, lambda: args.lambda, reg: args.reg };
    let mut tuner = Tuner::new(samples, &PARAMS, config);
    errln!(
        "{} training + {} held-out positions ({skipped} lines skipped), K = {:.4}, loaded in {:.1} s",
        tuner.train.len(),
        tuner.valid.len(),
        tuner.k,
        start.elapsed().as_secs_f64()
    );
    let (e0, v0) = (tuner.train_error(), tuner.valid_error());
    errln!("start: train error {e0:.6}, held-out error {v0:.6}");
    // Keep the weights with the lowest held-out error (early stopping).
    let (mut best, mut best_epoch, mut best_theta) = (v0, 0, tuner.theta.clone());
    let mut progress = crate::progress::Progress::new("tune", tuner.epochs() as u64, "epochs");
    for epoch in 1..=tuner.epochs() {
        tuner.epoch();
        let v = tuner.valid_error();
        if v < best {
            (best, best_epoch, best_theta) = (v, epoch, tuner.theta.clone());
        }
        if epoch % 10 == 0 || epoch == tuner.epochs() {
            progress.message(format!("train {:.6} held-out {v:.6} best {best:.6} @ {best_epoch}", tuner.train_error()));
        }
        progress.set(epoch as u64);
    }
    progress.finish();
    let tuned = tuner.params_of(&best_theta, &PARAMS);
    if let Err(e) = std::fs::write(&args.out, tuned.to_rust_source()) {
        errln!("error: cannot write {}: {e}", args.out);
        return 1;
    }
    errln!(
        "done in {:.1} s: train {e0:.6} -> {:.6}, held-out {v0:.6} -> {:.6} (lowest {best:.6} at epoch {best_epoch}, written); weights written to {} (copy to eval/src/weights.rs and rebuild)",
        start.elapsed().as_secs_f64(),
        tuner.train_error(),
        tuner.valid_error(),
        args.out
    );
    0
}
