//! `tetrad`: a UCI chess engine (no arguments) and a command-line tool.

mod cli;
mod eval_cmd;
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
        cli::Command::Eval(a) => eval_cmd::run(&a),
    };
    std::process::exit(code);
}
