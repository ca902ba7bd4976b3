//! `--eval hce|nnue` and `--net FILE`: which evaluation a command runs with.
//! Its own module so that the subcommands whose arguments `cli` names can
//! read it without importing `cli` back.

use clap::{Args, ValueEnum};

/// Which evaluation a command uses.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// The hand-written evaluation.
    Hce,
    /// The built-in network.
    Nnue,
}

impl EvalChoice {
    /// The evaluation configuration: the built-in network either way; `None` is the engine's default.
    pub fn config(choice: Option<EvalChoice>) -> tetrad_eval::EvalConfig {
        let mut cfg = tetrad_eval::EvalConfig::default();
        match choice {
            Some(EvalChoice::Hce) => cfg.kind = tetrad_eval::EvalKind::Hce,
            Some(EvalChoice::Nnue) => cfg.kind = tetrad_eval::EvalKind::Nnue,
            None => {}
        }
        cfg
    }

    /// As [`EvalChoice::config`], with the network of the file `net` when
    /// given (refused with the hand-written evaluation; errors name the file).
    pub fn config_with_net(choice: Option<EvalChoice>, net: Option<&str>) -> Result<tetrad_eval::EvalConfig, String> {
        let mut cfg = EvalChoice::config(choice);
        if let Some(path) = net {
            if cfg.kind == tetrad_eval::EvalKind::Hce {
                return Err("--net needs the network (not --eval hce)".into());
            }
            let net = tetrad_eval::nnue::Network::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
            cfg.kind = tetrad_eval::EvalKind::Nnue;
            cfg.net = std::sync::Arc::new(net);
        }
        Ok(cfg)
    }
}

/// `--eval hce|nnue` and `--net FILE`, one group that the commands which
/// search or fit in an evaluation's scale (`bench`, `datagen`, `rescore`,
/// `wdl-fit`) flatten into their arguments.
#[derive(Args, Clone, Debug, Default)]
pub struct EvalSelection {
    /// Evaluation (default: the engine's default, the network).
    #[arg(long, value_enum)]
    pub eval: Option<EvalChoice>,
    /// A network file instead of the built-in one (refused with `--eval
    /// hce`): a candidate's node count, its self-play, its labels or its fit.
    #[arg(long, value_name = "FILE")]
    pub net: Option<String>,
}

impl EvalSelection {
    /// The evaluation configuration ([`EvalChoice::config_with_net`]).
    pub fn config(&self) -> Result<tetrad_eval::EvalConfig, String> {
        EvalChoice::config_with_net(self.eval, self.net.as_deref())
    }
}
