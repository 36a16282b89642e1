//! The windowed demo as a user has it, scripted with xdotool under Xvfb: an effect file of a
//! new kind, reloaded, compiles beside the frames (the title says so, and no frame between
//! waits for it), and the driver's pipeline cache is kept in the cache folder at the end.

use std::path::PathBuf;

mod common;
mod program;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("flurry-window-{}-{name}", std::process::id()))
}

/// The longest frame a title reports (`longest frame N ms`).
fn longest_ms(title: &str) -> Option<f64> {
    let at = title.find("longest frame ")? + "longest frame ".len();
    title[at..].split(' ').next()?.parse().ok()
}

#[test]
fn a_reloaded_effect_of_a_new_kind_compiles_without_stalling_the_window() {
    let path = format!("{}/effects/snow.ron", env!("CARGO_MANIFEST_DIR"));
    let snow = flurry::EffectDesc::from_file(path.as_ref()).unwrap();
    // another kind: additive, unsorted, without turbulence
    let mut sparks = snow.clone();
    sparks.blend = flurry::effect::Blend::Additive;
    sparks.forces.turbulence = None;
    let file = temp("effect.ron");
    let next = temp("next.ron");
    std::fs::write(&file, snow.to_ron()).unwrap();
    std::fs::write(&next, sparks.to_ron()).unwrap();
    let (log, cache) = (temp("log"), temp("cache"));
    let _ = std::fs::remove_dir_all(&cache);
    let script = format!(
        r#"
        FLURRY_CACHE_DIR="{cache}" "{bin}" demo snow --effect "{file}" --particles 4096 --size 320x200 > "{log}" 2>&1 & P=$!
        W=""
        for i in $(seq 1 240); do
            W=$(xdotool search --name "flurry" 2>/dev/null | head -1); [ -n "$W" ] && break; sleep 0.5
        done
        # the titles until its first kind runs (a title a second), then those from the reload
        # until the new kind runs
        titles() {{
            for i in $(seq 1 240); do
                T=$(xdotool getwindowname $W); echo "$1: $T"
                case "$T" in *compiling*) ;; *) [ $i -gt 6 ] && break ;; esac
                sleep 0.5
            done
        }}
        titles before
        cp "{next}" "{file}"
        titles after
        xdotool windowfocus $W 2>/dev/null; xdotool key --window $W Escape; sleep 3
        kill $P 2>/dev/null; true
        "#,
        bin = env!("CARGO_BIN_EXE_flurry"),
        file = file.display(),
        next = next.display(),
        log = log.display(),
        cache = cache.display(),
    );
    let o = program::under_xvfb("640x480x24", &script);
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{}{said}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!said.contains("panicked"), "{said}");
    let titles = |phase: &str| -> Vec<String> {
        let prefix = format!("{phase}: ");
        out.lines()
            .filter_map(|l| l.strip_prefix(&prefix))
            .map(str::to_string)
            .collect()
    };
    let (before, after) = (titles("before"), titles("after"));
    // its first kind compiled in the background, then ran
    assert!(
        before.iter().any(|t| t.contains("compiling its pipelines")),
        "{before:#?}"
    );
    assert!(
        before.last().is_some_and(|t| !t.contains("compiling")),
        "{before:#?}"
    );
    // the reload: the new kind compiles while the frames go on, then runs
    assert!(said.contains("reloaded"), "{said}");
    let compiling: Vec<&String> = after
        .iter()
        .filter(|t| t.contains("compiling its pipelines"))
        .collect();
    assert!(!compiling.is_empty(), "{after:#?}");
    assert!(
        after.last().is_some_and(|t| !t.contains("compiling")),
        "{after:#?}"
    );
    // (compiled on the window's thread, the new kind took 500 ms and more on lavapipe)
    for title in &compiling {
        let longest = longest_ms(title).expect("the longest frame in the title");
        assert!(
            longest < 400.0,
            "a frame of {longest} ms while compiling: {title}"
        );
    }
    // the driver's pipeline cache kept for the next run, where the device has one
    let gpu = common::gpu();
    let offered = gpu
        .device
        .features()
        .contains(flurry::wgpu::Features::PIPELINE_CACHE);
    let kept = std::fs::read_dir(&cache).map(|d| d.count()).unwrap_or(0);
    assert_eq!(kept, offered as usize, "{said}");
    for path in [file, next, log] {
        let _ = std::fs::remove_file(path);
    }
    let _ = std::fs::remove_dir_all(&cache);
}
