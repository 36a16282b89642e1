//! `flurry demo|stats|profile|check` — the CLI contract of DESIGN.md.

mod cli;

use std::process::ExitCode;

use clap::Parser;

use cli::args::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { file } => return cli::check(&file),
        Command::Demo(a) => cli::demo::run(a),
        Command::Stats(a) => cli::stats::run(a),
        Command::Profile(a) => cli::profile::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
