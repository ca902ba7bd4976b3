//! `tetrad eval`: the evaluation of a position, term by term.

use clap::Args;
use tetrad_simd::Position;

/// Arguments of `tetrad eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Position as FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the compiled-in weight table as Rust source instead.
    #[arg(long)]
    pub print_weights: bool,
    /// A network file to use instead of the built-in one.
    #[arg(long)]
    pub net: Option<std::path::PathBuf>,
}

/// Runs the command; returns the process exit code.
pub fn run(args: &EvalArgs) -> i32 {
    if args.print_weights {
        out!("{}", tetrad_eval::weights::PARAMS.to_rust_source());
        return 0;
    }
    let pos = match args.fen.as_deref().map_or(Ok(Position::startpos()), Position::from_fen) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: bad FEN: {e}");
            return 2;
        }
    };
    outln!("{}", pos.to_fen());
    outln!();
    outln!("{}", tetrad_eval::trace(&pos));
    let hce = tetrad_eval::trace(&pos).score;
    let fast = tetrad_eval::Evaluator::new().evaluate(&pos);
    if fast != hce {
        errln!("warning: cached evaluation {fast} differs from the trace");
    }
    let net = match &args.net {
        Some(path) => match tetrad_eval::nnue::Network::load(path) {
            Ok(n) => std::sync::Arc::new(n),
            Err(e) => {
                errln!("error: {e}");
                return 2;
            }
        },
        None => std::sync::Arc::clone(tetrad_eval::nnue::default_network()),
    };
    let nnue = tetrad_eval::evaluate_nnue_uncached(&pos, &net);
    outln!();
    outln!("hand-written: {hce} cp   network: {nnue} cp   (side to move's view; default: {})", tetrad_eval::EvalKind::DEFAULT.name());
    0
}
