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
    let fast = tetrad_eval::Evaluator::new().evaluate(&pos);
    if fast != tetrad_eval::trace(&pos).score {
        errln!("warning: cached evaluation {fast} differs from the trace");
    }
    0
}
