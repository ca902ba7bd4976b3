//! Command-line interface (clap).

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Tetrad: a chess engine on the compact 4-bit chessboard with SIMD bitboards.
#[derive(Parser, Debug)]
#[command(name = "tetrad", version, about)]
pub struct Cli {
    /// What to do; with none, Tetrad speaks UCI on stdin/stdout.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the UCI protocol on stdin/stdout (the default).
    Uci,
    /// Search a fixed set of positions to a fixed depth; last line `N nodes M nps`.
    Bench {
        /// Search depth (default 12).
        depth: Option<i32>,
        /// Search through the lazy-SMP pool with this many threads (prints
        /// time to depth; node counts then vary from run to run); a list such
        /// as `1,2,4,8,16` runs each and ends with a scaling table. Without
        /// it, one thread searches directly: the node-count signature.
        #[arg(long, value_delimiter = ',')]
        threads: Option<Vec<usize>>,
        /// Hash table size in MiB (default 16).
        #[arg(long)]
        hash: Option<usize>,
        /// Evaluation (default: the engine's default).
        #[arg(long, value_enum)]
        eval: Option<EvalChoice>,
    },
    /// Self-play games at a fixed node budget, writing labelled quiet positions for `tune`.
    Datagen(DatagenArgs),
    /// Count leaf nodes of the legal move tree (move generator test and speed).
    Perft(PerftArgs),
    /// Print the evaluation of a position term by term.
    Eval(crate::eval_cmd::EvalArgs),
    /// Fit the evaluation weights to game results (Texel tuning).
    Tune(crate::tune_cmd::TuneArgs),
    /// Train the evaluation network on `datagen` shards.
    Train(crate::train_cmd::TrainArgs),
    /// Fit the win/draw/loss model (UCI_ShowWDL) to `datagen` shards.
    WdlFit(crate::wdl_cmd::WdlFitArgs),
    /// Print the search's tunables in OpenBench's SPSA input form, one per
    /// line: `NAME, int, value, min, max, c_end, r_end` (a build with
    /// `--features tune` takes each as a UCI spin option of that name).
    TuneParams,
}

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
}

/// Which legal move generator perft uses.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenChoice {
    /// The generator that walks the 4-bit CCR directly.
    Ccr,
    /// The generator on bitboards converted from the CCR (PEXT or magic sliders).
    Bitboard,
}

/// Arguments of `tetrad perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies (not needed with --suite).
    pub depth: Option<u32>,
    /// Position as FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Threads for splitting the root moves (1 = sequential).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Run an EPD perft suite (`FEN ;D1 n ;D2 n …`) instead of one position.
    #[arg(long)]
    pub suite: Option<String>,
    /// With --suite: skip depth entries whose expected count exceeds this.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Move generator (bitboard: the faster one).
    #[arg(long, value_enum, default_value_t = GenChoice::Bitboard)]
    pub r#gen: GenChoice,
}

/// Output format of `tetrad datagen`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    /// Binary 40-byte records in numbered shards inside the `--out` directory (for `train`).
    Bin,
    /// One text file of `FEN c9 "1-0"; ce 34;` lines (for `tune`).
    Epd,
}

/// Arguments of `tetrad datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Output: a directory of shards (`--format bin`) or a file (`--format epd`).
    #[arg(long)]
    pub out: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DataFormat::Bin)]
    pub format: DataFormat,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Seed: the output depends only on the arguments.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Opening book (EPD/FEN lines); default: the start position.
    #[arg(long)]
    pub book: Option<String>,
    /// Random legal plies played after the book position.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Percentage of games that start from a random walk of 8 or 9 plies out
    /// of the start position (kept when a search finds it balanced) instead of the book.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub walks: u8,
    /// Make only shards A to B − 1 of the run (`A..B`), so several machines
    /// can share one run by taking disjoint ranges.
    #[arg(long, value_parser = parse_range)]
    pub shards: Option<std::ops::Range<usize>>,
    /// Games per shard (`--format bin`).
    #[arg(long, default_value_t = 250)]
    pub shard_games: usize,
    /// Go on with an interrupted run in `--out`: make only the missing shards
    /// (the other arguments must match the run's `datagen.txt`; `--games` may grow).
    #[arg(long)]
    pub resume: bool,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Evaluation of the players (default: the engine's default).
    #[arg(long, value_enum)]
    pub eval: Option<EvalChoice>,
}

/// Parses `A..B` (B > A) into a range.
pub fn parse_range(s: &str) -> Result<std::ops::Range<usize>, String> {
    let (a, b) = s.split_once("..").ok_or_else(|| format!("expected A..B, got '{s}'"))?;
    let a: usize = a.trim().parse().map_err(|_| format!("bad start '{a}' in '{s}'"))?;
    let b: usize = b.trim().parse().map_err(|_| format!("bad end '{b}' in '{s}'"))?;
    if b <= a {
        return Err(format!("empty range '{s}': the end must be above the start"));
    }
    Ok(a..b)
}
