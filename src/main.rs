//! `tetrad`: a UCI chess engine (no arguments) and a command-line tool.

#[macro_use]
mod out;
mod cli;
mod cmd;
mod cpu;
mod data;
mod eval_choice;
#[cfg(test)]
mod fuzz_tests;
mod options;
mod parse;
mod progress;
mod uci;

use clap::Parser;

fn main() {
    // First, before any code that may use the build's newer instructions.
    cpu::ensure_supported();
    std::process::exit(run());
}

/// Everything after the CPU check; returns the exit code.
#[inline(never)]
fn run() -> i32 {
    // `tetrad "cmd 1" "cmd 2" …`: UCI lines, the way OpenBench calls engines.
    let argv: Vec<String> = std::env::args().collect();
    if let Some(lines) = cli::uci_lines(&argv) {
        return uci::Uci::new().run_lines(lines);
    }
    let args = cli::Cli::parse();
    let code = match args.command.unwrap_or(cli::Command::Uci) {
        cli::Command::Uci => {
            uci::Uci::new().run();
            0
        }
        cli::Command::Bench { depth, threads, hash, eval } => match eval.config() {
            Ok(cfg) => cmd::bench::run(depth, threads, hash, &cfg),
            Err(e) => {
                errln!("error: {e}");
                2
            }
        },
        cli::Command::Perft(p) => cmd::perft::run(&p),
        cli::Command::Datagen(a) => cmd::datagen::run(&a),
        cli::Command::Eval(a) => cmd::eval::run(&a),
        cli::Command::Tune(a) => cmd::tune::run(&a),
        cli::Command::Train(a) => cmd::train::run(&a),
        cli::Command::Net(a) => cmd::net::run(&a),
        cli::Command::WdlFit(a) => cmd::wdl::run(&a),
        cli::Command::Rescore(a) => cmd::rescore::run(&a),
        cli::Command::TuneParams => {
            // The list goes to stdout either way (it is an SPSA run's input).
            if !cfg!(feature = "tune") {
                errln!(
                    "note: in this build the tunables are constants, not UCI options; an SPSA run needs \
                     the tune build (make FEATURES=tune, or cargo build --release --features tune)"
                );
            }
            for t in tetrad_search::params::TUNABLES {
                outln!("{}", t.spsa_line(tetrad_search::params::value(t.name).unwrap_or(t.default)));
            }
            0
        }
    };
    code
}
