//! Command-line interface (clap).

pub use crate::eval_choice::EvalSelection;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

/// Tetrad: a chess engine on the compact 4-bit chessboard with SIMD bitboards.
#[derive(Parser, Debug)]
#[command(name = "tetrad", version, about)]
pub struct Cli {
    /// What to do; with none, Tetrad speaks UCI on stdin/stdout.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The arguments to run as UCI lines, when the first one is not a
/// subcommand or an option: `tetrad "genfens 16 seed 7 book None" quit`.
/// Subcommands keep their meaning (`tetrad bench` is the subcommand, which
/// prints what the UCI `bench` does). Exits with clap's usage error (status
/// 2) when an argument starts with neither a subcommand nor a UCI command.
pub fn uci_lines(argv: &[String]) -> Option<&[String]> {
    let first = argv.get(1)?;
    let cmd = Cli::command();
    let subcommand = |name: &str| {
        name == "help" || cmd.get_subcommands().any(|s| s.get_name() == name || s.get_all_aliases().any(|a| a == name))
    };
    if first.starts_with('-') || subcommand(first) {
        return None;
    }
    let lines = &argv[1..];
    // One unknown word is a mistyped subcommand more likely than a UCI
    // line: clap's error names the nearest one ("did you mean").
    let first_word = first.split_whitespace().next().unwrap_or("");
    if !first.contains(char::is_whitespace) && !crate::uci::COMMANDS.contains(&first_word) {
        return None;
    }
    for line in lines {
        let word = line.split_whitespace().next().unwrap_or("");
        if !word.is_empty() && !crate::uci::COMMANDS.contains(&word) {
            let shown: String = line.chars().take(64).collect();
            Cli::command()
                .error(
                    clap::error::ErrorKind::InvalidSubcommand,
                    format!(
                        "'{shown}' is neither a subcommand nor a UCI command (UCI commands: {})",
                        crate::uci::COMMANDS.join(", ")
                    ),
                )
                .exit();
        }
    }
    Some(lines)
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the UCI protocol on stdin/stdout (the default).
    Uci,
    /// Search a fixed set of positions to a fixed depth; last line `N nodes M nps`.
    Bench {
        /// Search depth (default 12).
        #[arg(value_parser = crate::parse::count::<i32>, allow_negative_numbers = true)]
        depth: Option<i32>,
        /// Search through the lazy-SMP pool with this many threads (prints
        /// time to depth; node counts then vary from run to run); a list such
        /// as `1,2,4,8,16` runs each and ends with a scaling table. Without
        /// it, one thread searches directly: the node-count signature.
        #[arg(long, value_delimiter = ',', value_parser = crate::parse::count::<usize>, allow_negative_numbers = true)]
        threads: Option<Vec<usize>>,
        /// Hash table size in MiB (default 16).
        #[arg(long, value_parser = crate::parse::count::<usize>, allow_negative_numbers = true)]
        hash: Option<usize>,
        /// The evaluation searched with.
        #[command(flatten)]
        eval: EvalSelection,
    },
    /// Self-play games at a fixed node budget (or scored PGNs: --from-pgn), writing labelled quiet positions for `train` and `tune`.
    Datagen(DatagenArgs),
    /// Count leaf nodes of the legal move tree (move generator test and speed).
    Perft(PerftArgs),
    /// Print the evaluation of a position term by term.
    Eval(crate::cmd::eval::EvalArgs),
    /// Fit the evaluation weights to game results (Texel tuning).
    Tune(crate::cmd::tune::TuneArgs),
    /// Train the evaluation network on `datagen` shards.
    Train(crate::cmd::train::TrainArgs),
    /// Show what a network file holds; write a copy with another header.
    Net(crate::cmd::net::NetArgs),
    /// Fit the win/draw/loss model (UCI_ShowWDL) to `datagen` shards.
    WdlFit(crate::cmd::wdl::WdlFitArgs),
    /// Label `datagen` shards again with a deeper search (new shards beside the old).
    Rescore(crate::cmd::rescore::RescoreArgs),
    /// Print the search's tunables in OpenBench's SPSA input form, one per
    /// line: `NAME, int, value, min, max, c_end, r_end` (a build with
    /// `--features tune` takes each as a UCI spin option of that name;
    /// `tools/openbench/run.sh spsa --params NAME,NAME` tunes them).
    TuneParams,
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
    #[arg(long, default_value_t = 1, value_parser = crate::parse::count::<usize>, allow_negative_numbers = true)]
    pub threads: usize,
    /// Run an EPD perft suite (`FEN ;D1 n ;D2 n …`) instead of one position.
    #[arg(long)]
    pub suite: Option<String>,
    /// With --suite: skip depth entries whose expected count exceeds this.
    #[arg(long, value_parser = crate::parse::count::<u64>, allow_negative_numbers = true)]
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
    /// One file of 32-byte `bulletformat` chess records (for the bullet GPU trainer).
    Bullet,
}

/// How `datagen --from-pgn` reads a player's centipawns.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreUnits {
    /// A player whose name contains "tetrad" (any case) is Tetrad: its scores
    /// are the search's and are turned into the network's units; any other
    /// player's are kept as they are.
    Auto,
    /// Every score is Tetrad's search score (turned into the network's units).
    Tetrad,
    /// Every score is kept as the PGN has it (another engine's centipawns).
    AsIs,
}

/// Arguments of `tetrad datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// Output: a directory of shards (`--format bin`) or a file (`--format epd|bullet`).
    #[arg(long)]
    pub out: String,
    /// Instead of playing games, read these PGN files (cutechess-cli,
    /// fastchess, OpenBench, tools/match.py) and keep the quiet positions
    /// with the score of each move's comment.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with_all = ["book", "walks", "shards", "resume", "games", "nodes", "seed", "random_plies"])]
    pub from_pgn: Vec<String>,
    /// With --from-pgn: keep only the scores of this player (White/Black tag).
    #[arg(long, requires = "from_pgn")]
    pub player: Option<String>,
    /// With --from-pgn: whose units the scores are in.
    #[arg(long, value_enum, default_value_t = ScoreUnits::Auto, requires = "from_pgn")]
    pub units: ScoreUnits,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DataFormat::Bin)]
    pub format: DataFormat,
    /// Number of games.
    #[arg(long, default_value_t = 1000, value_parser = crate::parse::count::<usize>, allow_negative_numbers = true)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = crate::parse::count::<u64>, allow_negative_numbers = true)]
    pub nodes: u64,
    /// Seed: the output depends only on the arguments.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Opening book (EPD/FEN lines); default: the start position.
    #[arg(long)]
    pub book: Option<String>,
    /// Random legal plies played after the book position.
    #[arg(long, default_value_t = 4, allow_negative_numbers = true)]
    pub random_plies: usize,
    /// Percentage of games that start from a random walk of 8 or 9 plies out
    /// of the start position (kept when a search finds it balanced) instead of the book.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100), allow_negative_numbers = true)]
    pub walks: u8,
    /// Make only shards A to B − 1 of the run (`A..B`), so several machines
    /// can share one run by taking disjoint ranges.
    #[arg(long, value_parser = crate::parse::parse_range)]
    pub shards: Option<std::ops::Range<usize>>,
    /// Games per shard (`--format bin`).
    #[arg(long, default_value_t = 250, value_parser = crate::parse::count::<usize>, allow_negative_numbers = true)]
    pub shard_games: usize,
    /// Go on with an interrupted run in `--out`: make only the missing shards
    /// (the other arguments must match the run's `datagen.txt`; `--games` may grow).
    #[arg(long)]
    pub resume: bool,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0, value_parser = crate::parse::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// The players' evaluation (`--net`: a candidate network can make the
    /// next generation's data before it is built in; the run's `datagen.txt`
    /// names the network by its content).
    #[command(flatten)]
    pub eval: EvalSelection,
}
