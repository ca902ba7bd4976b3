//! The UCI options Tetrad declares.

use tetrad_search::skill::ELO_TABLE;

/// One UCI option.
pub enum EngineOption {
    /// Integer in a range.
    Spin {
        /// Option name.
        name: &'static str,
        /// Default value.
        default: i64,
        /// Smallest value (larger requests are clamped).
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// Boolean.
    Check {
        /// Option name.
        name: &'static str,
        /// Default value.
        default: bool,
    },
    /// An action.
    Button {
        /// Option name.
        name: &'static str,
    },
    /// One of a fixed set of words.
    Combo {
        /// Option name.
        name: &'static str,
        /// Default value.
        default: &'static str,
        /// The allowed values.
        values: &'static [&'static str],
    },
    /// Free text (a path).
    Text {
        /// Option name.
        name: &'static str,
        /// Default value.
        default: &'static str,
    },
}

impl EngineOption {
    /// The option's name.
    pub fn name(&self) -> &'static str {
        match self {
            EngineOption::Spin { name, .. }
            | EngineOption::Check { name, .. }
            | EngineOption::Button { name }
            | EngineOption::Combo { name, .. }
            | EngineOption::Text { name, .. } => name,
        }
    }

    /// The `option name … type …` line for `uci`.
    pub fn declaration(&self) -> String {
        match self {
            EngineOption::Spin { name, default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            EngineOption::Check { name, default } => format!("option name {name} type check default {default}"),
            EngineOption::Button { name } => format!("option name {name} type button"),
            EngineOption::Combo { name, default, values } => {
                let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
                format!("option name {name} type combo default {default} {}", vars.join(" "))
            }
            EngineOption::Text { name, default } => format!("option name {name} type string default {default}"),
        }
    }
}

/// The `UCI_Elo` range: the ends of the measured calibration table.
pub const ELO_MIN: i64 = ELO_TABLE[0].1 as i64;
/// See [`ELO_MIN`].
pub const ELO_MAX: i64 = ELO_TABLE[ELO_TABLE.len() - 1].1 as i64;

/// All options, in the order `uci` lists them.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption::Spin { name: "Hash", default: 16, min: 1, max: 65536 },
    EngineOption::Spin { name: "Threads", default: 1, min: 1, max: 256 },
    EngineOption::Button { name: "Clear Hash" },
    EngineOption::Spin { name: "Move Overhead", default: 30, min: 0, max: 5000 },
    EngineOption::Spin { name: "MultiPV", default: 1, min: 1, max: 256 },
    EngineOption::Check { name: "Ponder", default: false },
    EngineOption::Check { name: "UCI_Chess960", default: false },
    EngineOption::Check { name: "UCI_ShowWDL", default: false },
    EngineOption::Spin { name: "Skill Level", default: 20, min: 0, max: 20 },
    EngineOption::Check { name: "UCI_LimitStrength", default: false },
    EngineOption::Spin { name: "UCI_Elo", default: ELO_MAX, min: ELO_MIN, max: ELO_MAX },
    EngineOption::Combo { name: "Eval", default: DEFAULT_EVAL, values: &["hce", "nnue"] },
    EngineOption::Text { name: "EvalFile", default: BUILTIN_NET },
    EngineOption::Text { name: "SyzygyPath", default: "<empty>" },
    EngineOption::Spin {
        name: "SyzygyProbeDepth",
        default: tetrad_search::tb::DEFAULT_PROBE_DEPTH as i64,
        min: 1,
        max: 100,
    },
    EngineOption::Spin {
        name: "SyzygyProbeLimit",
        default: tetrad_search::tb::DEFAULT_PROBE_LIMIT as i64,
        min: 0,
        max: 7,
    },
    EngineOption::Check { name: "Syzygy50MoveRule", default: tetrad_search::tb::DEFAULT_RULE50 },
];

/// The `Eval` option's default: the engine's default evaluation.
pub const DEFAULT_EVAL: &str = match tetrad_eval::EvalKind::DEFAULT {
    tetrad_eval::EvalKind::Hce => "hce",
    tetrad_eval::EvalKind::Nnue => "nnue",
};

/// `EvalFile` value meaning the network compiled into the engine.
pub const BUILTIN_NET: &str = "<built-in>";
