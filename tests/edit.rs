//! `flurry edit` as a process: the whole editor drawn offscreen, its viewport compared
//! with `flurry demo --headless` of the same effect, camera and size.

mod common;
mod program;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use program::flurry;

/// A fresh path in the temporary folder.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("flurry-edit-{}-{name}", std::process::id()))
}

fn succeeded(o: &Output, what: &str) -> String {
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{what}: {stderr}{stdout}");
    stdout
}

/// The viewport's rectangle the editor printed: `viewport at (x, y) WxH px`.
fn viewport_rect(stdout: &str) -> (u32, u32, u32, u32) {
    let at = stdout
        .split("viewport at (")
        .nth(1)
        .expect("a viewport line");
    let numbers: Vec<u32> = at
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(4)
        .map(|s| s.parse().unwrap())
        .collect();
    (numbers[0], numbers[1], numbers[2], numbers[3])
}

fn read(path: &Path) -> image::RgbaImage {
    image::open(path).unwrap().to_rgba8()
}

/// The editor's viewport after 30 frames shows what `flurry demo snow --headless` of the
/// same file shows after 30 (same camera, size, pool and seed), within the golden images'
/// tolerance; the window around it is the editor's (it is not all viewport).
#[test]
fn the_viewport_shows_what_the_demo_renders() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/snow.ron");
    let (shot, demo) = (temp("shot.png"), temp("demo.png"));
    let pool = ["--particles", "16384"];
    let edit = flurry(
        &[
            &["edit", file, "--screenshot", shot.to_str().unwrap()][..],
            &["--frames", "30", "--size", "800x450"],
            &pool,
        ]
        .concat(),
    );
    let stdout = succeeded(&edit, "flurry edit --screenshot");
    let (x, y, w, h) = viewport_rect(&stdout);
    assert!(w >= 200 && h >= 200 && x > 0, "viewport {w}x{h} at {x}");
    let window = read(&shot);
    assert_eq!(window.dimensions(), (800, 450));
    let size = format!("{w}x{h}");
    let out = demo.to_str().unwrap();
    let headless = flurry(
        &[
            &[
                "demo",
                "snow",
                "--effect",
                file,
                "--headless",
                "--hdr",
                "off",
            ][..],
            &["--frames", "30", "--size", &size, "--out", out],
            &pool,
        ]
        .concat(),
    );
    succeeded(&headless, "flurry demo --headless");
    let expected = read(&demo);
    let viewport = image::imageops::crop_imm(&window, x, y, w, h).to_image();
    let err = common::mean_error(&viewport, &expected);
    assert!(
        err <= common::TOLERANCE,
        "viewport against the demo: mean error {err:.2} > {}",
        common::TOLERANCE
    );
    // flakes in both (a blank pair would match too)
    let flakes = |img: &image::RgbaImage| img.pixels().filter(|p| p.0[0] > 150).count();
    assert!(flakes(&expected) > 100, "the demo shows no flakes");
    assert!(flakes(&viewport) > 100, "the viewport shows no flakes");
    // the editor's panels around it
    let inspector = image::imageops::crop_imm(&window, 0, y, x, h).to_image();
    let beside = image::imageops::crop_imm(&viewport, 0, 0, x, h).to_image();
    assert!(common::mean_error(&inspector, &beside) > 5.0);
    for path in [shot, demo] {
        let _ = std::fs::remove_file(path);
    }
}

/// `--frames` only counts frames before a screenshot; a bad output path or size, a missing
/// file and a window without a display are refused, saying why, before anything is drawn.
#[test]
fn the_editor_refuses_what_does_not_apply() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/snow.ron");
    let cases: [(&[&str], &str); 4] = [
        (&["edit", file, "--frames", "5"], "--frames"),
        (&["edit", file, "--screenshot", "out.txt"], "--screenshot"),
        (
            &["edit", file, "--screenshot", "o.png", "--size", "0x10"],
            "--size",
        ),
        // (too small for the panels and a viewport: once a viewport hidden behind them)
        (
            &["edit", file, "--screenshot", "o.png", "--size", "320x240"],
            "--size = 320x240: allowed at least 640x400",
        ),
    ];
    for (args, flag) in cases {
        let o = flurry(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // a file that is not there is named; without a display the window is refused, saying
    // what would do instead
    let o = flurry(&["edit", "no/such/effect.ron"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no/such/effect.ron"), "{err}");
    let o = Command::new(env!("CARGO_BIN_EXE_flurry"))
        .args(["edit", file, "--particles", "64"])
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no display") && err.contains("--screenshot"),
        "{err}"
    );
}

/// A session as a user has it, scripted with xdotool in a window under Xvfb: open the
/// editor on a copy of snow.ron, drag the slider of its soft distance to the right, press
/// Save. The file then holds the edit and every other byte as its author wrote it, and
/// reads back.
#[test]
fn a_scripted_session_drags_a_slider_and_saves_the_file() {
    let original = concat!(env!("CARGO_MANIFEST_DIR"), "/effects/snow.ron");
    let file = temp("session.ron");
    std::fs::copy(original, &file).unwrap();
    let log = temp("session.log");
    // the inspector's row of `soft_distance`, the effect's first number: its slider's
    // handle at 0 sits at x 118, y 152 (8 s for the window's first frames: on a busy
    // machine, the other tests of this file running beside it, 4 s missed the drag)
    let script = format!(
        r#"
        "{bin}" edit "{file}" --particles 4096 --size 1280x720 > "{log}" 2>&1 & P=$!
        for i in $(seq 1 120); do
            xdotool search --name "flurry edit" >/dev/null 2>&1 && break; sleep 0.5
        done
        sleep 8
        xdotool mousemove 118 152; sleep 0.5
        xdotool mousedown 1; sleep 0.5
        for x in 125 135 145 155 165 175; do xdotool mousemove $x 152; sleep 0.3; done
        xdotool mouseup 1; sleep 2
        xdotool mousemove 28 12 click 1; sleep 3
        kill $P
        "#,
        bin = env!("CARGO_BIN_EXE_flurry"),
        file = file.display(),
        log = log.display(),
    );
    let o = program::under_xvfb("1280x720x24", &script);
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        o.status.success(),
        "{}{said}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!said.contains("panicked"), "{said}");
    // the author's file as written, its comments and lines, with the one number it left
    // at its default added on a line of its own beside its siblings
    let text = std::fs::read_to_string(&file).unwrap();
    let before = std::fs::read_to_string(original).unwrap();
    let (now, was): (Vec<&str>, Vec<&str>) = (text.lines().collect(), before.lines().collect());
    assert_eq!(
        now.len(),
        was.len() + 1,
        "the file was not saved: {said}\n{text}"
    );
    let at = (now.iter().zip(&was)).take_while(|(a, b)| a == b).count();
    assert!(now[at].starts_with("    soft_distance: "), "{}", now[at]);
    assert_eq!(now[..at], was[..at]);
    assert_eq!(now[at + 1..], was[at..]);
    let saved = flurry::EffectDesc::from_file(&file).unwrap();
    let mut expected = flurry::EffectDesc::from_file(Path::new(original)).unwrap();
    let soft = saved.soft_distance;
    assert!(soft > 0.01, "the slider went to {soft}");
    expected.soft_distance = soft;
    assert_eq!(saved, expected, "only the slider's number changed");
    for path in [file, log] {
        let _ = std::fs::remove_file(path);
    }
}
