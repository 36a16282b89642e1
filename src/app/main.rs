//! `flurry demo|edit|stats|profile|check`: the program built on the library, its first user.
//! Everything here goes through flurry's public API.

#[macro_use]
mod cli;
mod edit;
// shared with the integration tests, which use parts of it the program does not
#[allow(dead_code)]
mod host;
mod images;
mod orbit;
mod pipeline_cache_file;
mod progress;
mod runtime_dir;
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
    // a run ended by a signal leaves no temporary file behind
    cli::temp_files::install();
    runtime_dir::ensure();
    let matches = match Cli::command().try_get_matches() {
        Ok(m) => m,
        Err(e) => return clap_exit(e),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(e),
    };
    if let Err(e) = cli::applies::refuse_inapplicable(&matches) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Check { file, wgsl } => {
            let code = cli::check(&file, wgsl);
            if let Some(e) = cli::stdout_error() {
                eprintln!("error: writing to standard output: {e}");
                return ExitCode::from(2);
            }
            return code;
        }
        Command::Demo(a) => cli::demo::run(a),
        Command::Edit(a) => edit::run(a),
        Command::Stats(a) => cli::stats::run(a),
        Command::Profile(a) => cli::profile::run(a),
        Command::Images { out } => images::run(&out),
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

/// What clap stopped at: `--help` and `--version` printed to standard output (a failed
/// write is an error, as for any output: `flurry --help > /dev/full` exits 2), anything
/// else a usage error on standard error.
fn clap_exit(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    use std::io::Write as _;
    cli::note_stdout(write!(std::io::stdout(), "{}", e.render()));
    match cli::stdout_error() {
        None => ExitCode::SUCCESS,
        Some(err) => {
            eprintln!("error: writing to standard output: {err}");
            ExitCode::from(2)
        }
    }
}
