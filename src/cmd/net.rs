//! `tetrad net`: what a network file holds, and a copy with another header.

use clap::Args;
use std::path::PathBuf;
use tetrad_eval::nnue::{default_network, Network};

/// Arguments of `tetrad net`.
#[derive(Args, Debug)]
pub struct NetArgs {
    /// A network file, or `builtin` (the network compiled in).
    pub file: PathBuf,
    /// Write a copy (format version 2) with the changes below to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// In the copy: the percentage of the network's centipawns the search sees.
    #[arg(long, requires = "out", value_parser = clap::value_parser!(i32).range(1..=1000))]
    pub search_pct: Option<i32>,
    /// In the copy: the description (64 bytes at most).
    #[arg(long, requires = "out")]
    pub description: Option<String>,
}

/// Runs the command; returns the exit code.
pub fn run(args: &NetArgs) -> i32 {
    let net = if args.file.as_os_str() == "builtin" {
        Ok(default_network().as_ref().clone())
    } else {
        Network::load(&args.file)
    };
    let mut net = match net {
        Ok(n) => n,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let a = &net.arch;
    outln!("shape        {}x2 -> 1, {} output buckets", a.describe(), tetrad_eval::nnue::BUCKETS);
    outln!("king buckets {}{}", a.kings.count(), if a.kings.mirror { ", mirrored a-h" } else { "" });
    outln!("output scale {} cp per unit", net.scale);
    outln!("search sees  {}%", net.search_pct);
    outln!("description  {}", net.description);
    outln!(
        "weights      {} ({} bytes as a file)",
        net.w1.len() + net.b1.len() + net.w2.len() + net.b2.len(),
        net.to_bytes().len()
    );
    let Some(out) = &args.out else { return 0 };
    if let Some(p) = args.search_pct {
        net.search_pct = p;
    }
    if let Some(d) = &args.description {
        net.description.clone_from(d);
    }
    if let Err(e) = std::fs::write(out, net.to_bytes()) {
        errln!("error: cannot write {}: {e}", out.display());
        return 1;
    }
    outln!("written to {}", out.display());
    0
}
