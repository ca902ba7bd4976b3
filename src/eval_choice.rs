//! `--eval hce|nnue` and `--net FILE`: which evaluation a command runs with.
//! Its own module so that the subcommands whose arguments `cli` names can
//! read it without importing `cli` back.

use clap::ValueEnum;

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
