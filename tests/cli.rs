//! The CLI as a process: its contract (JSON, dump) and its refusals of bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

mod program;

use program::flurry;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit code `code` and a message on stderr containing every piece of `needles`.
fn refused(args: &[&str], code: i32, needles: &[&str]) {
    let o = flurry(args);
    let err = stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(code),
        "{args:?}: exit code; stderr: {err}"
    );
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks {n:?}: {err}");
    }
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
}

fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    dir.join(name)
}

/// The JSON report `flurry` writes for `args` (a run that must succeed) into the temporary
/// file `name`.
fn report(args: &[&str], name: &str) -> serde_json::Value {
    let json = tmp(name);
    let args: Vec<&str> = args
        .iter()
        .copied()
        .chain(["--json", json.to_str().unwrap()])
        .collect();
    let o = flurry(&args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap()
}

#[test]
fn bad_particle_counts_are_refused_with_the_allowed_range() {
    refused(
        &["stats", "snow", "--particles", "-5"],
        2,
        &["--particles", "-5", "allowed 1..="],
    );
    refused(
        &["stats", "snow", "--particles", "0"],
        2,
        &["--particles", "0", "allowed 1..="],
    );
    // 4M particles × 64 B exceed lavapipe's 128 MiB storage binding (and any adapter's
    // limit at 2^40): the message names the limit and the largest pool allowed
    refused(
        &["stats", "snow", "--particles", "17179869184"],
        2,
        &["--particles 17179869184", "max_", "allowed 1..="],
    );
}

#[test]
fn bad_sizes_and_demos_are_refused() {
    refused(
        &["demo", "snow", "--headless", "--size", "0x0"],
        2,
        &["--size", "0x0", "allowed 1..="],
    );
    refused(
        &["demo", "snow", "--size", "wide"],
        2,
        &["--size", "WIDTHxHEIGHT"],
    );
    refused(
        &["demo", "volcano"],
        2,
        &["volcano", "possible values", "snow", "fireworks"],
    );
    refused(
        &["stats", "snow", "--dt", "NaN"],
        2,
        &["--dt", "NaN", "1e-6..=1"],
    );
    // a step an f32 clock cannot hold (1e-50 is 0 as an f32)
    refused(
        &["stats", "snow", "--dt", "1e-50"],
        2,
        &["--dt", "1e-50", "1e-6..=1"],
    );
    for r in ["-1", "17", "NaN"] {
        refused(
            &["demo", "snow", "--headless", "--splat", r],
            2,
            &["--splat", r, "0 <= pixels <= 16"],
        );
    }
}

fn bad_effect(name: &str, from: &str, to: &str) -> PathBuf {
    let src = include_str!("../effects/fountain.ron");
    assert!(src.contains(from), "fountain.ron lacks {from}");
    let path = tmp(name);
    std::fs::write(&path, src.replacen(from, to, 1)).unwrap();
    path
}

#[test]
fn bad_effect_files_are_refused_naming_the_field() {
    let cases = [
        (
            "negative-rate.ron",
            "rate: 4000.0",
            "rate: -5.0",
            "emitters[0].rate = -5",
        ),
        (
            "zero-life.ron",
            "lifetime: (mean: 1.8, variance: 0.3)",
            "lifetime: (mean: 0.0)",
            "emitters[0].lifetime",
        ),
        ("nan.ron", "drag: 0.2", "drag: NaN", "forces.drag = NaN"),
        (
            "unknown-field.ron",
            "blend: Alpha",
            "blend: Alpha, sparkle: 3",
            "sparkle",
        ),
        (
            "malformed.ron",
            "emitters: [",
            "emitters: [[",
            "effect file",
        ),
    ];
    for (file, from, to, needle) in cases {
        let path = bad_effect(file, from, to);
        let p = path.to_str().unwrap();
        refused(&["check", p], 1, &[needle]);
        refused(&["stats", "--effect", p, "--frames", "1"], 2, &[needle]);
    }
}

#[test]
fn effect_files_that_are_not_text_are_bad_files_and_a_byte_order_mark_is_read() {
    // not UTF-8: a bad effect file (exit 1), not an unreadable one (exit 2)
    let binary = tmp("binary.ron");
    std::fs::write(&binary, [0x28, 0xff, 0xfe, 0x29]).unwrap();
    refused(
        &["check", binary.to_str().unwrap()],
        1,
        &["not UTF-8", "offset 1"],
    );
    // a UTF-8 byte-order mark before the effect is skipped
    let bom = tmp("bom.ron");
    let src = include_str!("../effects/fountain.ron");
    std::fs::write(&bom, format!("\u{feff}{src}")).unwrap();
    let o = flurry(&["check", bom.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `check` opens the images an effect names, as a run does, and reads only regular files
/// of bounded size: a missing, empty, truncated or directory image, a FIFO or a device as
/// an import or an image, a flipbook of more frames than an image array holds, each once
/// "ok" (or a wait without end, or a read without end).
#[test]
fn check_opens_the_images_and_reads_only_regular_files_of_bounded_size() {
    let folder = tmp("check-files");
    std::fs::create_dir_all(folder.join("images")).unwrap();
    let png = folder.join("images/one.png");
    image::RgbaImage::from_pixel(4, 4, image::Rgba([255, 0, 0, 255]))
        .save(&png)
        .unwrap();
    let whole = std::fs::read(&png).unwrap();
    std::fs::write(
        folder.join("images/truncated.png"),
        &whole[..whole.len() / 2],
    )
    .unwrap();
    std::fs::write(folder.join("images/empty.png"), []).unwrap();
    std::fs::create_dir_all(folder.join("images/folder.png")).unwrap();
    let effect = |name: &str, sprite: &str| {
        let file = folder.join(format!("{name}.ron"));
        let src = format!("(sprite: Image((image: {sprite:?})), emitters: [(rate: 10.0)])");
        std::fs::write(&file, src).unwrap();
        file.to_str().unwrap().to_string()
    };
    let o = flurry(&["check", &effect("good", "images/one.png")]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (name, needle) in [
        ("missing", "No such file"),
        ("truncated", "images/truncated.png"),
        ("empty", "images/empty.png"),
        ("folder", "not a regular file (a directory)"),
    ] {
        let file = effect(name, &format!("images/{name}.png"));
        refused(&["check", &file], 1, &[needle]);
    }
    #[cfg(unix)]
    {
        let file = effect("device", "/dev/zero");
        refused(&["check", &file], 1, &["a FIFO, a socket or a device"]);
        let fifo = folder.join("module.fifo");
        let _ = std::fs::remove_file(&fifo);
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let file = folder.join("imports.ron");
        let src = r#"(imports: ["module.fifo"], emitters: [(rate: 10.0)])"#;
        std::fs::write(&file, src).unwrap();
        refused(
            &["check", file.to_str().unwrap()],
            1,
            &["module.fifo", "not a regular file"],
        );
    }
    let file = folder.join("sheet.ron");
    let src = r#"(sprite: Image((image: "images/one.png", flipbook: Some((columns: 64, rows: 64)))), emitters: [(rate: 10.0)])"#;
    std::fs::write(&file, src).unwrap();
    refused(
        &["check", file.to_str().unwrap()],
        1,
        &["64 × 64 = 4096 frames", "at most 256"],
    );
}

/// Refusals name what the user wrote: the flag (`--dt` with `--prewarm`, `--out` naming a
/// file), the image file of a bad image (each once named an argument of a call, or no file,
/// or the OS's "File exists").
#[test]
fn refusals_name_the_flag_or_the_file() {
    let fountain = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/fountain.ron");
    refused(
        &[
            "stats",
            "--effect",
            fountain,
            "--frames",
            "1",
            "--dt",
            "0.000001",
            "--prewarm",
            "1",
        ],
        2,
        &["--dt = 0.000001", "with --prewarm"],
    );
    let file = tmp("not-a-folder.png");
    std::fs::write(&file, b"x").unwrap();
    refused(
        &["images", "--out", file.to_str().unwrap()],
        2,
        &["--out = ", "a folder (this is a file)"],
    );
    let folder = tmp("wide-image");
    std::fs::create_dir_all(&folder).unwrap();
    image::RgbaImage::new(8193, 1)
        .save(folder.join("wide.png"))
        .unwrap();
    let effect = folder.join("wide.ron");
    let src = r#"(sprite: Image((image: "wide.png")), emitters: [(rate: 10.0)])"#;
    std::fs::write(&effect, src).unwrap();
    refused(
        &["check", effect.to_str().unwrap()],
        1,
        &["wide.png: image.width = 8193"],
    );
}

/// A run whose particles come to hold inf or NaN (a stack dividing by a parameter the host
/// left at zero) says so and counts them in its report: those whose motion or look it made
/// so were killed at that step (`non_finite_total`), those with such an attribute of the
/// effect's own live on, counted (`non_finite`); a sound run counts none (such a run once
/// ended with exit 0 and every particle NaN, said nowhere).
#[test]
fn stats_counts_and_says_particles_that_hold_no_finite_number() {
    let write = |src: &str, name: &str| {
        let file = tmp(name);
        std::fs::write(&file, src).unwrap();
        file.to_str().unwrap().to_string()
    };
    let run = |file: &str| {
        let o = flurry(&["stats", "--effect", file, "--frames", "5", "--dt", "0.016"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let n = |k: &str| report[k].as_u64().unwrap();
        let (killed, alive) = (n("non_finite_total"), n("alive"));
        (
            killed,
            n("non_finite"),
            alive,
            n("emitted_total"),
            stderr(&o),
        )
    };
    let motion = r#"(parameters: {"zero": (default: 0.0)}, emitters: [(rate: 1000.0, update: ["velocity = vec3(1.0 / zero, 0.0, 0.0)"])])"#;
    let (killed, holding, alive, emitted, said) = run(&write(motion, "run-time-nan.ron"));
    assert!(
        emitted > 0 && killed == emitted,
        "{killed} of {emitted} killed"
    );
    assert_eq!((alive, holding), (0, 0), "{said}");
    assert!(
        said.contains("killed for holding a number that is not finite"),
        "{said}"
    );
    let own = r#"(parameters: {"zero": (default: 0.0)}, attributes: {"heat": 1.0}, emitters: [(rate: 1000.0, update: ["heat = 1.0 / zero"])])"#;
    let (killed, holding, alive, _, said) = run(&write(own, "run-time-nan-attribute.ron"));
    assert!(
        alive > 0 && holding == alive && killed == 0,
        "{holding} of {alive}"
    );
    assert!(
        said.contains("attribute that is not finite (inf or NaN)"),
        "{said}"
    );
    let fountain = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/fountain.ron");
    let (killed, holding, alive, _, said) = run(fountain);
    assert!(alive > 0 && holding == 0 && killed == 0, "{said}");
}

/// `check --wgsl` shows what a stack generates and what was folded instead: a kill is
/// what the update returns, a gravity written as a force is the effect's gravity.
#[test]
fn check_wgsl_prints_the_generated_stacks_and_what_was_folded() {
    let file = tmp("stacks.ron");
    let effect = r#"(emitters: [(rate: 10.0, update: [
        "force += vec3(0.0, -2.0, 0.0)",
        "kill if age > 0.5",
    ])], forces: (gravity: (0.0, 0.0, 0.0)))"#;
    std::fs::write(&file, effect).unwrap();
    let o = flurry(&["check", "--wgsl", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(said.contains("gravity (0, 0, 0) → (0, -2, 0)"), "{said}");
    assert!(said.contains("// the emit pass: the shared one"), "{said}");
    let simulate = &said[said.find("// the simulate pass's block").expect("a block")..];
    assert!(simulate.contains("fn graph_update_0("), "{simulate}");
    assert!(simulate.contains("return !("), "{simulate}");
}

#[test]
fn shipped_effect_files_pass_check_and_run_or_say_what_their_host_adds() {
    // every shipped file runs with `stats --effect`, or `check` says what a host must add
    // (the sword's blade and afterimage), `stats --effect` alone refuses it saying so, and
    // the demo `check` names runs it
    let mut needing = 0;
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/effects")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            continue; // effects/modules: module files, which effects import
        }
        let file = path.to_str().unwrap();
        let o = flurry(&["check", file]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        let said = String::from_utf8_lossy(&o.stdout).into_owned();
        let run = ["--effect", file, "--particles", "1024", "--frames", "2"];
        let alone = flurry(&[&["stats"], &run[..]].concat());
        let Some(at) = said.find("`flurry demo|stats|profile ") else {
            assert!(alone.status.success(), "{file}: {}", stderr(&alone));
            continue;
        };
        needing += 1;
        assert!(said.contains("which a host adds"), "{file}: {said}");
        let err = stderr(&alone);
        assert_eq!(alone.status.code(), Some(2), "{file}: {err}");
        assert!(
            err.contains("--effect") && err.contains(file),
            "{file}: {err}"
        );
        let demo = said[at..].split_whitespace().nth(2).unwrap();
        let hosted = flurry(&[&["stats", demo], &run[..]].concat());
        assert!(
            hosted.status.success(),
            "{file} in {demo}: {}",
            stderr(&hosted)
        );
    }
    assert_eq!(
        needing, 1,
        "the sword alone needs its host's mesh and image"
    );
}

#[test]
fn help_and_version_that_cannot_be_written_are_errors() {
    for flag in ["--help", "--version"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_flurry"))
            .arg(flag)
            .stdout(full)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{flag}: {err}");
        assert!(err.contains("writing to standard output"), "{flag}: {err}");
        let o = flurry(&[flag]);
        assert!(o.status.success() && !o.stdout.is_empty(), "{flag}");
    }
}

#[test]
fn an_empty_wgpu_backend_is_unset_and_no_runtime_folder_is_no_warning() {
    // lavapipe warns "XDG_RUNTIME_DIR is invalid or not set" without one: the program
    // gives itself a private one, so a newcomer's first line is not an error
    let o = Command::new(env!("CARGO_BIN_EXE_flurry"))
        .args(["stats", "snow", "--particles", "1024", "--frames", "1"])
        .env_remove("XDG_RUNTIME_DIR")
        .env("WGPU_BACKEND", "")
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("XDG_RUNTIME_DIR"), "{err}");
}

#[test]
fn stats_dump_holds_every_index_once_and_recycles() {
    let dump = tmp("fireworks-dump.json");
    let o = flurry(&[
        "stats",
        "fireworks",
        "--particles",
        "16384",
        "--frames",
        "200",
        "--dt",
        "0.016",
        "--seed",
        "7",
        "--dump",
        dump.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let stdout = String::from_utf8(o.stdout).unwrap();
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    for key in [
        "demo",
        "capacity",
        "frames",
        "alive",
        "dead",
        "visible",
        "emitted_total",
        "dropped_total",
        "killed_total",
    ] {
        assert!(last.get(key).is_some(), "stats JSON lacks {key}: {last}");
    }
    assert_eq!(last["capacity"], 16384);
    assert!(
        last["emitted_total"].as_u64().unwrap() > 16384,
        "no recycling: {last}"
    );
    let d: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dump).unwrap()).unwrap();
    let mut seen = vec![0u32; 16384];
    for p in d["alive"].as_array().unwrap() {
        seen[p["index"].as_u64().unwrap() as usize] += 1;
        assert_eq!(p["pos"].as_array().unwrap().len(), 3);
        assert!(p["age"].as_f64().unwrap() < p["lifetime"].as_f64().unwrap());
    }
    for i in d["dead"].as_array().unwrap() {
        seen[i.as_u64().unwrap() as usize] += 1;
    }
    assert!(
        seen.iter().all(|&n| n == 1),
        "an index is missing or repeated"
    );
    assert_eq!(d["camera"]["view_proj"].as_array().unwrap().len(), 16);
    // the visible particles are the sorted, drawn ones and the splatted ones
    let splatted = last["splatted"].as_u64().unwrap();
    assert_eq!(
        d["visible_sorted"].as_array().unwrap().len() as u64 + splatted,
        last["visible"].as_u64().unwrap()
    );
}

#[test]
fn headless_demo_writes_a_png() {
    let out = tmp("snow.png");
    let o = flurry(&[
        "demo",
        "snow",
        "--headless",
        "--frames",
        "5",
        "--particles",
        "4096",
        "--size",
        "64x48",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(out.to_str().unwrap()),
        "does not say where the PNG went"
    );
    let img = image::open(&out).unwrap();
    assert_eq!((img.width(), img.height()), (64, 48));
}

#[test]
fn profile_reports_every_pass_with_a_positive_time_and_a_trace() {
    let json = tmp("profile.json");
    let trace = tmp("trace.json");
    let o = flurry(&[
        "profile",
        "snow",
        "--particles",
        "4096",
        "--frames",
        "4",
        "--size",
        "160x120",
        "--json",
        json.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let passes = report["passes"].as_object().unwrap();
    for pass in [
        "emit",
        "simulate",
        "cull",
        "sort",
        "downsample",
        "draw",
        "composite",
    ] {
        let ms = passes.get(pass).and_then(|v| v.as_f64()).unwrap_or(-1.0);
        assert!(ms > 0.0, "pass {pass}: {ms} ms in {report}");
    }
    assert!(report["frame_ms"].as_f64().unwrap() > 0.0);
    assert!(["cpu-sync", "gpu-timestamps"].contains(&report["timing"].as_str().unwrap()));
    // the adapter's own ceilings, and every pass of flurry's against them
    let roof = &report["roofline"];
    let copy = roof["copy_gb_s"].as_f64().unwrap();
    let fma = roof["fma_gflop_s"].as_f64().unwrap();
    assert!(copy > 0.0 && fma > 0.0, "{roof}");
    for (pass, ms) in passes.iter().filter(|(p, _)| *p != "host") {
        let r = &roof["passes"][pass];
        let f = |k: &str| {
            r[k].as_f64()
                .unwrap_or_else(|| panic!("{pass}.{k} in {roof}"))
        };
        assert_eq!(f("ms"), ms.as_f64().unwrap(), "{pass}");
        let gb_s = f("bytes") / f("ms") / 1e6;
        assert!((f("gb_s") - gb_s).abs() <= 1e-9 * gb_s, "{pass}: {r}");
        assert!((f("of_copy") - gb_s / copy).abs() <= 1e-9, "{pass}: {r}");
        let gflop_s = f("flops") / f("ms") / 1e6;
        assert!((f("of_fma") - gflop_s / fma).abs() <= 1e-9, "{pass}: {r}");
    }
    // lavapipe moves 64-byte cache lines: simulate reads and writes each particle's whole
    // line, its index in and out and relist's copy of it (and the snow's collision reads
    // five depth texels)
    assert_eq!(roof["line_bytes"], 64, "{roof}");
    let alive = report["alive"].as_f64().unwrap();
    let simulate = roof["passes"]["simulate"]["bytes"].as_f64().unwrap();
    assert_eq!(simulate, (64.0 + 64.0 + 16.0 + 40.0) * alive, "{roof}");
    assert!(roof["passes"]["cull"]["bytes"].as_f64().unwrap() >= 68.0 * alive);
    let events: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    for pass in passes.keys() {
        let n = events.iter().filter(|e| e["name"] == pass.as_str()).count();
        assert_eq!(n, 4, "trace: {n} events of {pass} for 4 frames");
    }
}

#[test]
fn profile_with_gpu_timestamps_says_so() {
    let json = tmp("profile-ts.json");
    let o = flurry(&[
        "profile",
        "fireworks",
        "--particles",
        "2048",
        "--frames",
        "4",
        "--size",
        "64x48",
        "--timing",
        "gpu-timestamps",
        "--json",
        json.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    if err.contains("no timestamp queries") {
        return; // an adapter without timestamps refuses the mode, as it should
    }
    assert!(o.status.success(), "{err}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["timing"], "gpu-timestamps");
    assert!(
        report["passes"]
            .as_object()
            .unwrap()
            .contains_key("simulate"),
        "{report}"
    );
}

#[test]
fn demo_shows_an_effect_file_in_its_scene() {
    let out = tmp("fountain.png");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/fountain.ron");
    let o = flurry(&[
        "demo",
        "snow",
        "--effect",
        file,
        "--scene",
        "plane",
        "--headless",
        "--frames",
        "20",
        "--particles",
        "4096",
        "--size",
        "64x48",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(image::open(&out).is_ok());
    let bad = bad_effect("demo-bad.ron", "rate: 4000.0", "rate: -1e30");
    refused(
        &[
            "demo",
            "snow",
            "--effect",
            bad.to_str().unwrap(),
            "--headless",
        ],
        2,
        &["emitters[0].rate"],
    );
}

/// A reader that goes away (`flurry ... | head -c 0`) is no failure: no panic, exit 0.
#[test]
fn a_closed_stdout_is_not_a_panic() {
    use std::process::Stdio;
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/fountain.ron");
    let mut child = Command::new(env!("CARGO_BIN_EXE_flurry"))
        .args(["check", file])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run flurry");
    drop(child.stdout.take()); // close the pipe's read end before it writes
    let o = child.wait_with_output().expect("wait for flurry");
    let err = stderr(&o);
    assert!(o.status.success(), "exit {:?}: {err}", o.status.code());
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn profile_effects_reports_what_adding_and_encoding_cost() {
    let json = tmp("effects.json");
    let o = flurry(&[
        "profile",
        "effects",
        "--effects",
        "3",
        "--particles",
        "512",
        "--frames",
        "3",
        "--size",
        "64x48",
        "--json",
        json.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    // stderr is not a terminal here: no progress line
    assert!(!err.contains("frame "), "progress in a pipe: {err}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(r["effects"], 3);
    assert_eq!(r["particles_per_effect"], 512);
    assert_eq!(r["blend"], "alpha");
    for key in ["add_first_ms", "add_rest_ms", "encode_cpu_us", "frame_ms"] {
        let v = r[key].as_f64().unwrap_or(-1.0);
        assert!(v > 0.0, "{key}: {v} in {r}");
    }
    // the GPU's time beside one effect as big, whole and pass by pass: the effects are
    // sorted together (the merge), the one effect alone
    for key in ["gpu_ms", "single_effect_gpu_ms", "gpu_ratio"] {
        let v = r[key].as_f64().unwrap_or(-1.0);
        assert!(v > 0.0, "{key}: {v} in {r}");
    }
    for pass in ["emit", "simulate", "cull", "splat"] {
        for side in ["passes", "single_effect_passes"] {
            let v = r[side][pass].as_f64().unwrap_or(-1.0);
            assert!(v > 0.0, "{side}.{pass}: {v} in {r}");
        }
    }
    assert!(r["passes"]["merge"].as_f64().is_some(), "{r}");
    assert!(r["single_effect_passes"]["merge"].is_null(), "{r}");
    // the first effect compiles the pipelines the others share
    let (first, rest) = (r["add_first_ms"].as_f64(), r["add_rest_ms"].as_f64());
    assert!(rest < first, "{r}");
    // the first of a kind four ways: warmed, its add and frames compile nothing; off the
    // thread, its add returns before the compile is done
    let f = &r["first_add"];
    let ms = |key: &str| f[key].as_f64().unwrap_or(-1.0);
    assert_eq!(f["compiled_after_warm"], 0, "{f}");
    assert!(
        f["warmed_pipelines"].as_u64() >= f["cold_pipelines"].as_u64(),
        "{f}"
    );
    assert!(
        ms("warmed_add_ms") >= 0.0 && ms("warmed_add_ms") < ms("cold_add_ms"),
        "{f}"
    );
    assert!(ms("background_add_ms") < ms("background_ready_ms"), "{f}");
    assert!(f["background_frames"].as_u64() > Some(0), "{f}");
    assert!(ms("seeded_add_ms") > 0.0, "{f}");
}

/// `--mix`: effects of both blends, sorted and not, share the merged lists, so no effect is
/// sorted on its own.
#[test]
fn profile_effects_mixes_effects_as_a_game_does() {
    let args = [
        "profile",
        "effects",
        "--effects",
        "12",
        "--mix",
        "--particles",
        "256",
    ];
    let r = report(
        &[&args[..], &["--frames", "2", "--size", "64x48"]].concat(),
        "mixed.json",
    );
    assert_eq!(r["blend"], "mixed");
    assert!(r["passes"]["merge"].as_f64().is_some(), "{r}");
    assert!(r["passes"]["sort"].is_null(), "{r}");
    for key in ["encode_cpu_us", "gpu_ratio"] {
        let v = r[key].as_f64().unwrap_or(-1.0);
        assert!(v > 0.0, "{key}: {v} in {r}");
    }
    refused(
        &[
            "profile",
            "effects",
            "--effects",
            "2",
            "--mix",
            "--blend",
            "alpha",
        ],
        2,
        &["--mix", "--blend"],
    );
    refused(
        &["profile", "instances", "--instances", "4", "--mix"],
        2,
        &["--mix", "profile effects"],
    );
}

#[test]
fn profile_effects_refuses_bad_counts_and_flags_of_other_targets() {
    for n in ["0", "-3", "4097"] {
        refused(
            &["profile", "effects", "--effects", n],
            2,
            &["--effects", n, "1..=4096"],
        );
    }
    refused(&["profile", "effects"], 2, &["--effects", "required"]);
    refused(
        &["profile", "snow", "--effects", "3"],
        2,
        &["--effects", "profile effects"],
    );
    refused(
        &[
            "profile",
            "instances",
            "--instances",
            "4",
            "--blend",
            "additive",
        ],
        2,
        &["--blend", "additive", "profile effects"],
    );
    refused(
        &["profile", "effects", "--effects", "2", "--blend", "screen"],
        2,
        &["--blend", "screen", "alpha", "additive"],
    );
    refused(
        &["profile", "effects", "--effects", "2", "--particles", "0"],
        2,
        &["--particles", "allowed 1..="],
    );
}

#[test]
fn profile_instances_reports_an_instanced_effect_against_one_as_big() {
    let args = [
        "profile",
        "instances",
        "--instances",
        "9",
        "--particles",
        "64",
    ];
    let r = report(
        &[&args[..], &["--frames", "3", "--size", "64x48"]].concat(),
        "instances.json",
    );
    assert_eq!(
        (
            r["instances"].as_u64(),
            r["particles_per_instance"].as_u64()
        ),
        (Some(9), Some(64))
    );
    for key in [
        "gpu_ms",
        "single_effect_gpu_ms",
        "moving_gpu_ms",
        "encode_cpu_us",
    ] {
        assert!(r[key].as_f64().unwrap() > 0.0, "{key} in {r}");
    }
    // the pools filled before the frames were timed: both hold about as many particles
    let (placed, one) = (
        r["alive"].as_f64().unwrap(),
        r["single_effect_alive"].as_f64().unwrap(),
    );
    assert!(
        placed > 0.5 * 9.0 * 64.0 && (placed - one).abs() < 0.2 * one,
        "{r}"
    );
    refused(&["profile", "instances"], 2, &["--instances", "required"]);
    refused(
        &["profile", "instances", "--instances", "0"],
        2,
        &["--instances", "0", "1..="],
    );
    refused(
        &["profile", "effects", "--effects", "2", "--instances", "3"],
        2,
        &["--instances", "profile instances"],
    );
}

#[test]
fn profile_suite_needs_its_json_and_takes_no_flags_of_one_run() {
    refused(&["profile", "suite"], 2, &["--json", "required"]);
    let json = tmp("suite.json");
    let json = json.to_str().unwrap();
    refused(
        &["profile", "suite", "--json", json, "--particles", "5"],
        2,
        &["--particles", "profile suite"],
    );
    refused(
        &["profile", "suite", "--json", json, "--plot", "x.png"],
        2,
        &["--plot", ".svg"],
    );
    refused(
        &["profile", "snow", "--quick"],
        2,
        &["--quick", "profile suite"],
    );
}

#[test]
fn output_files_are_checked_before_the_run() {
    // directories named like the files the flags write
    let dir = tmp("a-directory.png");
    std::fs::create_dir_all(&dir).unwrap();
    let json_dir = tmp("a-directory.json");
    std::fs::create_dir_all(&json_dir).unwrap();
    refused(
        &[
            "demo",
            "snow",
            "--headless",
            "--frames",
            "100000",
            "--out",
            dir.to_str().unwrap(),
        ],
        2,
        &["--out", "a file that can be written"],
    );
    refused(
        &["stats", "snow", "--dump", json_dir.to_str().unwrap()],
        2,
        &["--dump", "directory"],
    );
    refused(
        &["stats", "snow", "--dump", dir.to_str().unwrap()],
        2,
        &["--dump", "a path ending in .json"],
    );
    // a name of another format is refused before anything is written over it
    let jpg = tmp("old.jpg");
    std::fs::write(&jpg, b"an old picture").unwrap();
    let noext = tmp("no-extension");
    for out in [&jpg, &noext] {
        refused(
            &[
                "demo",
                "snow",
                "--headless",
                "--frames",
                "1",
                "--out",
                out.to_str().unwrap(),
            ],
            2,
            &["--out", "a path ending in .png"],
        );
    }
    assert_eq!(std::fs::read(&jpg).unwrap(), b"an old picture");
    assert!(!noext.exists());
}

#[test]
fn two_outputs_never_share_a_file() {
    let json = tmp("shared.json");
    let dotted = format!("{}/./shared.json", json.parent().unwrap().display());
    for trace in [json.to_str().unwrap(), dotted.as_str()] {
        refused(
            &[
                "profile",
                "snow",
                "--frames",
                "1",
                "--json",
                json.to_str().unwrap(),
                "--trace",
                trace,
            ],
            2,
            &["--trace", "a file other than --json's"],
        );
    }
    assert!(!json.exists());
}

#[test]
fn a_users_files_beside_an_output_are_never_touched() {
    // a file named as the old temporary files were, and one named as today's would be
    // were the process id the same: the output is written, both stay as they were
    let dir = tmp("beside");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("p.png");
    let partial = dir.join("p.png.partial");
    std::fs::write(&partial, b"mine").unwrap();
    let o = flurry(&[
        "demo",
        "snow",
        "--headless",
        "--frames",
        "1",
        "--particles",
        "1024",
        "--size",
        "32x24",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&partial).unwrap(), b"mine");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["p.png", "p.png.partial"]);
}

#[test]
fn a_read_only_output_is_refused_and_kept() {
    use std::os::unix::fs::PermissionsExt as _;
    let kept = tmp("read-only.json");
    let _ = std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o644));
    std::fs::write(&kept, b"kept").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o444)).unwrap();
    refused(
        &[
            "stats",
            "snow",
            "--particles",
            "1024",
            "--frames",
            "1",
            "--dump",
            kept.to_str().unwrap(),
        ],
        2,
        &["--dump", "read-only.json", "read-only"],
    );
    assert_eq!(std::fs::read(&kept).unwrap(), b"kept");
}

#[test]
fn a_run_that_fails_creates_no_folder_and_one_that_succeeds_makes_its_own() {
    let root = tmp("folders");
    let _ = std::fs::remove_dir_all(&root);
    let dump = root.join("a/b/x.json");
    refused(
        &[
            "stats",
            "--effect",
            "no-such-effect.ron",
            "--dump",
            dump.to_str().unwrap(),
        ],
        2,
        &["no-such-effect.ron"],
    );
    assert!(!root.exists(), "a failed run made {}", root.display());
    let o = flurry(&[
        "stats",
        "snow",
        "--particles",
        "1024",
        "--frames",
        "1",
        "--dump",
        dump.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dump.is_file());
    // a bare name: `.png` alone is no file name
    refused(
        &[
            "demo",
            "snow",
            "--headless",
            "--frames",
            "1",
            "--out",
            ".png",
        ],
        2,
        &["--out = .png", "a file name before .png"],
    );
}

#[test]
fn a_run_ended_by_a_signal_while_writing_leaves_no_temporary_file() {
    use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
    // the dump of 65,536 particles (15 MB, streamed into the temporary file as it is made)
    // is being written when the signal comes: the test watches the folder for the temporary
    // file and signals the moment it fills
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let dir = tmp(&format!("signalled-{signal}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let dump = dir.join("k.json");
        let mut caught = false;
        for _attempt in 0..5 {
            let mut command = Command::new(env!("CARGO_BIN_EXE_flurry"));
            // the signals as a shell in the foreground leaves them, whatever this test was
            // started from: a background job inherits SIGINT ignored, and the program keeps
            // a signal ignored that it was started ignoring
            // SAFETY: between fork and exec, only async-signal-safe calls
            unsafe {
                command.pre_exec(|| {
                    libc::signal(libc::SIGINT, libc::SIG_DFL);
                    libc::signal(libc::SIGTERM, libc::SIG_DFL);
                    Ok(())
                });
            }
            let mut child = command
                .args(["stats", "snow", "--particles", "65536", "--frames", "2"])
                .arg("--dump")
                .arg(&dump)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            while child.try_wait().unwrap().is_none() {
                // (the dump goes into a temporary file first, whatever its name; an empty
                // one may be the check before the run that a file can be made there)
                let writing = std::fs::read_dir(&dir).unwrap().any(|e| {
                    let e = e.unwrap();
                    let filled = e.metadata().is_ok_and(|m| m.len() > 0);
                    e.file_name() != "k.json" && filled
                });
                if writing {
                    // SAFETY: signalling our own child, which is still running
                    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
                    caught = true;
                    break;
                }
            }
            let status = child.wait().unwrap();
            if caught {
                assert_eq!(status.signal(), Some(signal), "{status:?}");
                break;
            }
            let _ = std::fs::remove_file(&dump);
        }
        assert!(
            caught,
            "signal {signal}: the write was never seen under way"
        );
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "signal {signal}: left {left:?}");
    }
}

#[test]
fn a_failed_write_to_standard_output_is_an_error_but_a_closed_pipe_is_not() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_flurry"))
        .args(["stats", "snow", "--particles", "1024", "--frames", "2"])
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .stdout(full)
        .output()
        .expect("run flurry");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("writing to standard output"), "{err}");
}

#[test]
fn a_machine_without_a_vulkan_driver_gets_the_install_hint_not_a_panic() {
    // without Vulkan, wgpu falls back to GL (llvmpipe's, where Mesa's GL is installed),
    // which cannot write the storage textures flurry's passes write: it is skipped and the
    // error says what it lacks and how to get a driver that has it
    for (key, value) in [("VK_ICD_FILENAMES", "/nonexistent"), ("WGPU_BACKEND", "gl")] {
        let o = Command::new(env!("CARGO_BIN_EXE_flurry"))
            .args(["stats", "fireworks"])
            .env("XDG_RUNTIME_DIR", std::env::temp_dir())
            .env(key, value)
            .output()
            .expect("run flurry");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{key}={value}: {err}");
        assert!(err.contains("mesa-vulkan-drivers"), "{key}={value}: {err}");
        assert!(!err.contains("panicked"), "{key}={value}: {err}");
    }
}

#[test]
fn flags_that_do_not_apply_are_refused_not_ignored() {
    let fountain = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/fountain.ron");
    refused(
        &[
            "profile",
            "sort",
            "--keys",
            "1000",
            "--particles",
            "-5",
            "--size",
            "0x0",
        ],
        2,
        &["--particles", "not with `flurry profile sort`"],
    );
    refused(
        &["profile", "sort", "--keys", "1000", "--scale", "7"],
        2,
        &["--scale = 7", "not with `flurry profile sort`"],
    );
    refused(
        &["profile", "snow", "--keys", "1000"],
        2,
        &["--keys = 1000", "not with `flurry profile snow`"],
    );
    refused(
        &[
            "demo",
            "galaxy",
            "--effect",
            fountain,
            "--bodies",
            "3",
            "--headless",
        ],
        2,
        &["--bodies = 3", "not with an effect file"],
    );
    refused(
        &["stats", "--effect", fountain, "--mode", "nbody"],
        2,
        &["--mode = nbody", "not with an effect file"],
    );
    refused(
        &["stats", "snow", "--bodies", "2"],
        2,
        &["--bodies = 2", "not with the snow demo"],
    );
    // a window's presentation; an effect file for a profile
    refused(
        &["demo", "snow", "--headless", "--vsync", "off"],
        2,
        &["--vsync = off", "only with a windowed demo"],
    );
    refused(
        &["demo", "snow", "--vsync", "sometimes"],
        2,
        &["--vsync", "on, off"],
    );
    refused(
        &["profile", "sort", "--effect", fountain],
        2,
        &[
            "--effect",
            "only with a demo",
            "not with `flurry profile sort`",
        ],
    );
}

#[test]
fn messages_name_the_flag_or_field_and_the_range() {
    // large counts in exponent form are read, then checked against the adapter
    refused(
        &["stats", "snow", "--particles", "1e9"],
        2,
        &["--particles 1000000000", "allowed 1..="],
    );
    refused(
        &["stats", "snow", "--particles", "abc"],
        2,
        &[
            "--particles",
            "abc",
            "not a whole number",
            "allowed 1 up to",
        ],
    );
    // a pool too large for any buffer: its bytes counted without overflow
    refused(
        &["stats", "snow", "--particles", "1e18"],
        2,
        &[
            "--particles 1000000000000000000",
            "64000000000000000000 byte",
            "allowed 1..=",
        ],
    );
    // a pool the effect itself limits (all-pairs gravity): the flag named, not the
    // renderer's argument
    refused(
        &["stats", "galaxy", "--mode", "nbody", "--particles", "65537"],
        2,
        &[
            "--particles = 65537",
            "allowed 1..=65536 for all-pairs gravity",
        ],
    );
    // numbers that are not: flag, value and range, not Rust's parse text
    for (args, range) in [
        (&["stats", "snow", "--dt", "soon"][..], "1e-6..=1 seconds"),
        (&["demo", "snow", "--scale", "half"], "1, 0.5 or 0.25"),
        (&["demo", "snow", "--splat", "big"], "0..=16 pixels"),
        (&["profile", "sort", "--keys", "many"], "allowed 1 up to"),
        (&["profile", "effects", "--effects", "ten"], "1..=4096"),
        (
            &["profile", "instances", "--instances", "x2"],
            "allowed 1 up to",
        ),
        (&["stats", "snow", "--seed", "-1"], "0..=4294967295"),
        (&["stats", "snow", "--substeps", "0"], "1..=64"),
    ] {
        let (flag, value) = (args[2], args[3]);
        refused(args, 2, &[flag, &format!("'{value}'"), range]);
        let o = flurry(args);
        assert!(!stderr(&o).contains("invalid float literal"), "{args:?}");
        assert!(!stderr(&o).contains("invalid digit"), "{args:?}");
    }
    // --keys in exponent form as --particles is, and its range the device's
    let o = flurry(&["profile", "sort", "--keys", "1e3", "--runs", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let refusal = stderr(&flurry(&["profile", "sort", "--keys", "0"]));
    assert!(
        refusal.contains("--keys = 0: allowed 1..=") && !refusal.contains("4294967295"),
        "{refusal}"
    );
    refused(
        &["stats", "snow", "--frames", "-1"],
        2,
        &["--frames", "1..=1000000"],
    );
    refused(&["stats"], 2, &["snow", "--effect FILE.ron"]);
    let huge = tmp("huge-count.ron");
    std::fs::write(&huge, "(emitters: [(bursts: [(time: 0.0, count: 1e30)])])").unwrap();
    refused(
        &["check", huge.to_str().unwrap()],
        1,
        &["count = 1e30", "0..=4294967295"],
    );
    // whole-number fields other than counts, and values of the wrong type: the field's
    // path, the value and what it takes, not only a position
    for (src, needles) in [
        (
            "(emitters: [(bursts: [(time: 0.0, count: 3, cycles: Some(-1))])])",
            &[
                "emitters[0].bursts[0].cycles = -1",
                "0..=4294967295",
                "line 1",
            ][..],
        ),
        (
            "(crowd: Some((destinations: 1e20)))",
            &["crowd.destinations = 1e20", "0..=4294967295"],
        ),
        (
            "(forces: (drag: \"strong\"))",
            &["forces.drag = \"strong\"", "allowed a number"],
        ),
    ] {
        let file = tmp("field-path.ron");
        std::fs::write(&file, src).unwrap();
        let mut all = vec![file.to_str().unwrap()];
        all.extend(needles);
        refused(&["check", file.to_str().unwrap()], 1, &all);
    }
}

#[test]
fn a_soak_run_checks_the_pool_every_k_frames() {
    let o = flurry(&[
        "stats",
        "fireworks",
        "--particles",
        "4096",
        "--frames",
        "60",
        "--dt",
        "0.016",
        "--check-every",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    refused(
        &["stats", "snow", "--check-every", "0"],
        2,
        &["--check-every", "0"],
    );
}

#[test]
fn a_write_cut_short_by_a_file_size_limit_is_an_error_and_leaves_nothing() {
    let dump = tmp("limited.json");
    let png = tmp("limited.png");
    for (args, out) in [
        (
            format!(
                "stats snow --particles 65536 --frames 2 --dump {}",
                dump.display()
            ),
            &dump,
        ),
        (
            format!(
                "demo snow --headless --frames 1 --size 640x480 --out {}",
                png.display()
            ),
            &png,
        ),
    ] {
        let _ = std::fs::remove_file(out);
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -f 16; exec {} {args}",
                env!("CARGO_BIN_EXE_flurry")
            ))
            .env("XDG_RUNTIME_DIR", std::env::temp_dir())
            .output()
            .expect("run flurry under a file-size limit");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args}: {err}");
        assert!(err.contains("too large"), "{args}: {err}");
        let dir = out.parent().unwrap();
        let name = out.file_name().unwrap().to_string_lossy().into_owned();
        let left: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(&name))
            .collect();
        assert!(left.is_empty(), "{args}: left {left:?}");
    }
}

#[test]
fn params_set_an_effects_parameters_and_refusals_name_the_flag() {
    let o = flurry(&[
        "stats",
        "spell",
        "--frames",
        "2",
        "--dt",
        "0.016",
        "--param",
        "radius=2",
        "--param",
        "tint=vec3(1.0, 0.5, 0.0)",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    refused(
        &["stats", "spell", "--frames", "1", "--param", "radius=9"],
        2,
        &["--param", "radius=9", "a value of type f32 in 0.1..=5"],
    );
    refused(
        &["stats", "spell", "--frames", "1", "--param", "radios=1"],
        2,
        &[
            "--param",
            "radios",
            "one of the effect's parameters: radius, tint",
        ],
    );
    refused(
        &["stats", "spell", "--frames", "1", "--param", "tint=true"],
        2,
        &[
            "--param",
            "tint=true",
            "expected a value of type vec3, found bool",
        ],
    );
    refused(
        &[
            "demo",
            "snow",
            "--headless",
            "--frames",
            "1",
            "--param",
            "x=1",
        ],
        2,
        &["--param", "x", "the effect declares no parameters"],
    );
    refused(
        &["profile", "snow", "--frames", "1", "--param", "=1"],
        2,
        &["--param", "NAME=VALUE"],
    );
    refused(
        &["profile", "sort", "--param", "x=1"],
        2,
        &[
            "--param",
            "only with a demo, not with `flurry profile sort`",
        ],
    );
}

#[test]
fn check_names_the_line_of_a_broken_expression_and_of_a_missing_module() {
    let campfire = include_str!("../effects/campfire.ron");
    let line = "heat *= exp(-0.5 * dt)";
    let at = campfire.lines().position(|l| l.contains(line)).unwrap() + 1;
    let column = campfire.lines().nth(at - 1).unwrap().find('"').unwrap() + 1;
    let file = tmp("broken-campfire.ron");
    std::fs::write(&file, campfire.replace(line, "heat *= exq(-0.5 * dt)")).unwrap();
    refused(
        &["check", file.to_str().unwrap()],
        1,
        &[
            format!("(line {at}, column {column})").as_str(),
            "emitters[2].update[0]",
            "column 9: unknown function `exq`; did you mean `exp`",
        ],
    );
    let dir = tmp("lonely-vortex");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("vortex.ron");
    std::fs::write(&file, include_str!("../effects/vortex.ron")).unwrap();
    refused(
        &["check", file.to_str().unwrap()],
        1,
        &[
            "(line 8, column 15)",
            "imports[0] `modules/vortex.ron`: cannot read",
        ],
    );
}

#[test]
fn the_dump_holds_the_effects_own_attributes_by_name() {
    let dump = tmp("campfire-dump.json");
    let o = flurry(&[
        "stats",
        "campfire",
        "--frames",
        "30",
        "--dt",
        "0.016",
        "--dump",
        dump.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&dump).unwrap()).unwrap();
    let alive = v["alive"].as_array().unwrap();
    assert!(alive.len() > 100);
    for p in alive {
        let heat = p["heat"].as_f64().unwrap_or_else(|| panic!("no heat: {p}"));
        assert!((0.0..=1.2).contains(&heat), "{p}");
    }
}

/// `stats --prewarm S` runs the effect S seconds first in steps of --dt, and says how long
/// it took: rain prewarmed 2 s then stepped one frame is rain stepped 2 s and one frame,
/// in the counts the stats print; lengths outside 0..=600 s are refused naming the flag.
#[test]
fn stats_prewarm_runs_the_seconds_first_and_refuses_lengths_out_of_range() {
    let last = |args: &[&str]| -> serde_json::Value {
        let o = flurry(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let stdout = String::from_utf8(o.stdout).unwrap();
        serde_json::from_str(stdout.lines().last().unwrap()).unwrap()
    };
    let common = ["stats", "rain", "--particles", "4096", "--dt", "0.0166667"];
    let warmed = last(&[&common[..], &["--frames", "1", "--prewarm", "2"]].concat());
    let framed = last(&[&common[..], &["--frames", "121"]].concat());
    assert!(warmed["prewarm_ms"].as_f64().unwrap() > 0.0, "{warmed}");
    assert!(framed["prewarm_ms"].is_null(), "{framed}");
    let (a, b) = (
        warmed["alive"].as_f64().unwrap(),
        framed["alive"].as_f64().unwrap(),
    );
    assert!(
        b > 1000.0 && (a - b).abs() <= 0.02 * b,
        "alive: {a} prewarmed, {b} framed"
    );
    for bad in ["-1", "601", "nan"] {
        refused(
            &[&common[..], &["--prewarm", bad]].concat(),
            2,
            &["--prewarm", "0..=600"],
        );
    }
}

/// `stats --events FILE` listens to the effect's hits and deaths and writes every event
/// drained: as many hits as the GPU counted and a death for every particle killed (the
/// last frames' read-backs waited for at the end), each hit with the surface's normal.
#[test]
fn stats_events_writes_every_hit_and_death_the_gpu_counted() {
    let path = tmp("snow-events.json");
    // (a fixed step: in real time a faster build simulates less in 200 frames, and once the
    // splat got faster a run on lavapipe saw 88 hits)
    let args = [
        "stats",
        "snow",
        "--particles",
        "8192",
        "--frames",
        "200",
        "--dt",
        "0.0166667",
        "--events",
        path.to_str().unwrap(),
    ];
    let o = flurry(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let stdout = String::from_utf8(o.stdout).unwrap();
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let summary = &last["events"];
    assert_eq!(&file["summary"], summary);
    assert_eq!(summary["lost"], 0, "{last}");
    assert!(summary["hits"].as_u64().unwrap() > 100, "{last}");
    assert_eq!(summary["hits"], last["hits_total"], "{last}");
    assert_eq!(summary["deaths"], last["killed_total"], "{last}");
    let events = file["events"].as_array().unwrap();
    let count = |kind: &str| events.iter().filter(|e| e["kind"] == kind).count() as u64;
    assert_eq!(count("hit"), summary["hits"].as_u64().unwrap());
    assert_eq!(count("death"), summary["deaths"].as_u64().unwrap());
    for e in events {
        // a hit has the surface's unit normal, a death none
        let n: Vec<f64> = (0..3).map(|k| e["normal"][k].as_f64().unwrap()).collect();
        let length = n.iter().map(|c| c * c).sum::<f64>().sqrt();
        let expected = if e["kind"] == "hit" { 1.0 } else { 0.0 };
        assert!((length - expected).abs() < 1e-3, "{e}");
    }
}

/// With a demo or with an effect file (where it was once ignored, exit 0).
#[test]
fn mesh_lods_outside_0_to_64_pixels_are_refused() {
    let fountain = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/fountain.ron");
    for bad in ["-1", "65", "nan"] {
        refused(
            &["stats", "crowd", "--frames", "1", "--mesh-lod", bad],
            2,
            &["--mesh-lod", "64"],
        );
        refused(
            &[
                "stats",
                "--effect",
                fountain,
                "--frames",
                "1",
                "--mesh-lod",
                bad,
            ],
            2,
            &["--mesh-lod", "64"],
        );
    }
}

#[test]
fn demo_time_scales_outside_0_to_100_are_refused() {
    for bad in ["-0.5", "101", "nan"] {
        refused(
            &[
                "demo",
                "snow",
                "--headless",
                "--frames",
                "1",
                "--time-scale",
                bad,
            ],
            2,
            &["--time-scale", "0..=100"],
        );
    }
}
