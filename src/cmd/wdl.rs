//! `tetrad wdl-fit`: fits the win/draw/loss model of `UCI_ShowWDL` to self-play.

use clap::Args;
use rayon::prelude::*;
use std::path::PathBuf;
use tetrad_eval::learn::wdl::{fit, model_for, nll, Observation, MODEL_SEARCH_PCT};
use tetrad_eval::EvalKind;

/// Arguments of `tetrad wdl-fit`.
#[derive(Args, Debug)]
pub struct WdlFitArgs {
    /// A directory of `datagen` shards (repeat for several).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Read only shards A to B − 1 of each `--data` directory (`A..B`), so a
    /// fit can be remade while `datagen` adds shards.
    #[arg(long, value_parser = crate::parse::parse_range)]
    pub shards: Option<std::ops::Range<usize>>,
    /// Optimiser steps.
    #[arg(long, default_value_t = 300, value_parser = crate::parse::count::<usize>, allow_negative_numbers = true)]
    pub steps: usize,
    /// The evaluation whose search scale the model is fitted in.
    #[command(flatten)]
    pub eval: crate::eval_choice::EvalSelection,
}

/// Runs the command; returns the exit code.
pub fn run(args: &WdlFitArgs) -> i32 {
    let eval = match args.eval.config() {
        Ok(e) => e,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    for dir in &args.data {
        if let Some(made_by) = crate::data::manifest::labelling_eval(dir) {
            if made_by != eval.kind.name() {
                errln!(
                    "error: {} was labelled by the {made_by} evaluation (its manifest); its scores mean nothing \
                     in the {} evaluation's scale: fit it with --eval {made_by}",
                    dir.display(),
                    eval.kind.name()
                );
                return 2;
            }
        }
    }
    let data = match tetrad_eval::learn::train::load_data(&args.data, args.shards.clone()) {
        Ok(d) => d,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let obs: Vec<Observation> =
        data.train.par_iter().chain(data.valid.par_iter()).map(|r| Observation::from_record(r, &eval)).collect();
    if obs.is_empty() {
        errln!("error: no positions");
        return 2;
    }
    errln!("{} positions; fitting ({} steps)", obs.len(), args.steps);
    let compiled = model_for(&eval);
    let before = nll(&compiled, &obs);
    let (m, after) = fit(&obs, &compiled, args.steps);
    outln!("mean -log likelihood: compiled-in model {before:.5}, fitted {after:.5}");
    // The constant to paste: the network's model at the share `MODEL` is kept in.
    let (name, m) = match eval.kind {
        EvalKind::Hce => ("HCE_MODEL", m),
        EvalKind::Nnue => ("MODEL", m.stretched(f64::from(MODEL_SEARCH_PCT) / f64::from(eval.net.search_pct.max(1)))),
    };
    outln!(
        "pub const {name}: WdlModel = WdlModel {{ a: [{:.1}, {:.3}], b: [{:.1}, {:.3}] }};",
        m.a[0],
        m.a[1],
        m.b[0],
        m.b[1]
    );
    0
}
