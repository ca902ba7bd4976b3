//! `tetrad`: a UCI chess engine (no arguments) and a command-line tool.

mod cli;
mod perft_cmd;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    let code = match args.command.unwrap_or(cli::Command::Uci) {
        cli::Command::Uci => {
            eprintln!("UCI loop not built yet");
            0
        }
        cli::Command::Perft(p) => perft_cmd::run(&p),
    };
    std::process::exit(code);
}
