//! The `flurry` program run as a process, for the tests of its command line and its editor.

use std::process::{Command, Output};

/// Run `flurry args…` to its end (its runtime folder the temporary one).
pub fn flurry(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flurry"))
        .args(args)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .expect("run flurry")
}
