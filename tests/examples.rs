//! Every example runs, as a user would run it, and draws what it says: `cargo test` builds
//! them, and these run the binaries it built (headless where one opens a window), each in
//! a folder of its own. `minimal` asks its adapter for the default device, WebGPU's
//! default limits: what most hosts have.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The example `name` that `cargo test` built beside this test's binary.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    // target/<profile>/deps/examples-<hash> → target/<profile>/examples/<name>
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("in target/<profile>/deps");
    let path = profile
        .join("examples")
        .join(name)
        .with_extension(std::env::consts::EXE_EXTENSION);
    assert!(
        path.exists(),
        "{} not built (cargo test builds the examples)",
        path.display()
    );
    path
}

/// A fresh folder for one example's outputs.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flurry-example-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run `name` with `args` in `dir`; its standard output, or a failure with what it said.
fn run(name: &str, args: &[&str], dir: &Path) -> String {
    let out = Command::new(example(name))
        .args(args)
        .current_dir(dir)
        // no window: the examples that open one render headless instead
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the example starts");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(
        out.status.success(),
        "{name} {args:?}: {}\n{}\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// The share of a picture's pixels brighter than its background could be.
fn lit_share(path: &Path) -> f64 {
    common::lit_fraction(&image::open(path).unwrap().to_rgba8())
}

#[test]
fn minimal_draws_snow_on_the_default_device() {
    let dir = folder("minimal");
    run("minimal", &[], &dir);
    let share = lit_share(&dir.join("minimal.png"));
    assert!(share > 0.002, "snow covers {share} of the picture");
}

#[test]
fn embed_renders_its_scene_and_snow_headless() {
    let dir = folder("embed");
    run(
        "embed",
        &["--headless", "--frames", "20", "--out", "embed.png"],
        &dir,
    );
    let share = lit_share(&dir.join("embed.png"));
    assert!(
        share > 0.01,
        "the scene and the snow cover {share} of the picture"
    );
}

#[test]
fn sort_dispatches_times_every_dispatch() {
    let dir = folder("sort");
    let out = run("sort_dispatches", &["4096"], &dir);
    assert!(out.contains("dispatches,"), "{out}");
}
