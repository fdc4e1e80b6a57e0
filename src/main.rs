//! The `quoridor-solver` binary, kept thin: parse the arguments (clap exits 2 on bad
//! usage), run the command, print a library error as one line and exit 2.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli.run(&mut std::io::stdout().lock()) {
        Ok(code) => code,
        // Whoever read the output stopped reading (e.g. `| head`): end quietly.
        Err(quoridor_solver::Error::BrokenPipe) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
