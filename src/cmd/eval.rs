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
    /// Which evaluation to print (default: both), and a network file
    /// instead of the built-in one.
    #[command(flatten)]
    pub eval: crate::eval_choice::EvalSelection,
    /// Instead of one position: compare the scales of both evaluations over
    /// an EPD/FEN file and print the search percentage that would match them.
    #[arg(long, value_name = "EPD")]
    pub compare: Option<std::path::PathBuf>,
}

/// Median of the absolute values (0 for none).
fn median_abs(v: &mut [i32]) -> i32 {
    v.iter_mut().for_each(|x| *x = x.abs());
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

/// `--compare`: both evaluations over a file of positions; the search's
/// margins were tuned on the hand-written scale, so a network should reach
/// the search at about the same scale.
fn compare(path: &std::path::Path, net: &tetrad_eval::nnue::Network) -> i32 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            errln!("error: cannot read {}: {e}", path.display());
            return 2;
        }
    };
    let (mut hce, mut nnue) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let Ok(pos) = Position::from_fen(&format!("{} 0 1", fields.join(" "))) else { continue };
        let (h, n) = (tetrad_eval::evaluate_uncached(&pos), tetrad_eval::evaluate_nnue_uncached(&pos, net));
        // Decided positions say little about the scale of the middle range.
        if h.abs() < 1500 && n.abs() < 1500 {
            hce.push(h);
            nnue.push(n);
        }
    }
    let count = hce.len();
    let (h, n) = (median_abs(&mut hce), median_abs(&mut nnue));
    if n == 0 {
        errln!("error: no usable positions in {}", path.display());
        return 2;
    }
    let pct = net.search_pct * h / n;
    outln!(
        "{count} positions: median |score| hand-written {h} cp, network {n} cp (at its search percentage {}; {} cp in its own units); matching search percentage {pct}",
        net.search_pct,
        n * 100 / net.search_pct.max(1)
    );
    0
}

/// Runs the command; returns the process exit code.
pub fn run(args: &EvalArgs) -> i32 {
    if args.print_weights {
        out!("{}", tetrad_eval::hce::weights::PARAMS.to_rust_source());
        return 0;
    }
    let cfg = match args.eval.config() {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let net = std::sync::Arc::clone(&cfg.net);
    let only = args.eval.eval.map(|_| cfg.kind);
    if let Some(path) = &args.compare {
        return compare(path, &net);
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
    if only == Some(tetrad_eval::EvalKind::Nnue) {
        let nnue = tetrad_eval::evaluate_nnue_uncached(&pos, &net);
        outln!("network: {nnue} cp   (side to move's view)");
        return 0;
    }
    let traced = tetrad_eval::trace(&pos);
    outln!("{traced}");
    let hce = traced.score;
    let fast = tetrad_eval::Evaluator::hce().evaluate(&pos);
    if fast != hce {
        errln!("warning: cached evaluation {fast} differs from the trace");
    }
    if only == Some(tetrad_eval::EvalKind::Hce) {
        outln!();
        outln!("hand-written: {hce} cp   (side to move's view)");
        return 0;
    }
    let nnue = tetrad_eval::evaluate_nnue_uncached(&pos, &net);
    outln!();
    outln!(
        "hand-written: {hce} cp   network: {nnue} cp   (side to move's view; default: {})",
        tetrad_eval::EvalKind::DEFAULT.name()
    );
    0
}
