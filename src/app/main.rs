//! `flurry demo|stats|profile|check`: the program built on the library, its first user.
//! Everything here goes through flurry's public API.

mod cli;
// shared with the integration tests, which use parts of it the program does not
#[allow(dead_code)]
mod host;
mod orbit;
mod progress;
mod window;

#[cfg(test)]
mod tests;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use cli::args::{Cli, Command};

fn main() -> ExitCode {
    // a write past a file-size limit (ulimit -f) then fails with an error the program
    // reports and cleans up after, instead of killing it with a partial file left behind
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to ignore, before any thread is started
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let Err(e) = cli::applies::refuse_inapplicable(&matches) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Check { file } => {
            let code = cli::check(&file);
            if let Some(e) = cli::stdout_error() {
                eprintln!("error: writing to standard output: {e}");
                return ExitCode::from(2);
            }
            return code;
        }
        Command::Demo(a) => cli::demo::run(a),
        Command::Stats(a) => cli::stats::run(a),
        Command::Profile(a) => cli::profile::run(a),
    };
    match (result, cli::stdout_error()) {
        (Ok(()), None) => ExitCode::SUCCESS,
        (Ok(()), Some(e)) => {
            eprintln!("error: writing to standard output: {e}");
            ExitCode::from(2)
        }
        (Err(e), _) => {
            eprintln!("error: {e}");
            // a broken invariant is a finding, exit 1; anything else stopped the run, 2
            match e {
                host::AppError::Violation { .. } => ExitCode::from(1),
                _ => ExitCode::from(2),
            }
        }
    }
}
