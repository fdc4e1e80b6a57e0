//! The `quoridor-solver` binary, kept thin: parse the arguments, run the command, print a
//! usage or library error as one line (in the command line's words: `cli::error_text`)
//! and exit 2.

mod cli;

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

fn main() -> ExitCode {
    quoridor_solver::support::memory::return_freed_buffers();
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version are what was asked for: clap prints them as it should.
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            e.exit()
        }
        Err(e) => {
            eprintln!("error: {}", cli::usage_error_line(&e));
            return ExitCode::from(2);
        }
    };
    match cli.run(&mut std::io::stdout().lock()) {
        Ok(code) => code,
        // Whoever read the output stopped reading (e.g. `| head`): end quietly.
        Err(quoridor_solver::Error::BrokenPipe) => ExitCode::SUCCESS,
        // Stopped by a signal (its command said what is kept): 128 + SIGINT.
        Err(quoridor_solver::Error::Interrupted) => ExitCode::from(130),
        Err(e) => {
            eprintln!("error: {}", cli::error_text(&e));
            ExitCode::from(2)
        }
    }
}
