//! The `flurry` program run as a process, for the tests of its command line, its editor and
//! its windows (each test mounts this and uses a part of it).
#![allow(dead_code)]

use std::process::{Command, Output};

/// Run `flurry args…` to its end (its runtime folder the temporary one).
pub fn flurry(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flurry"))
        .args(args)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .expect("run flurry")
}

/// Run the bash `script` (which starts the program and drives its window with xdotool) in a
/// display of Xvfb of `screen` (`1280x720x24`), to its end. Xvfb or xdotool missing is a
/// failure that says how to install them.
pub fn under_xvfb(screen: &str, script: &str) -> Output {
    for program in ["xvfb-run", "xdotool"] {
        let installed = Command::new(program).arg("-h").output().is_ok();
        assert!(
            installed,
            "{program} is missing: `apt-get install -y xvfb xdotool` (the window sessions \
             run under Xvfb)"
        );
    }
    Command::new("xvfb-run")
        .args([
            "-a",
            "-s",
            &format!("-screen 0 {screen}"),
            "bash",
            "-c",
            script,
        ])
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .expect("run xvfb-run")
}
