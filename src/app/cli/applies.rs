//! Flags that do not apply to what was asked are refused, naming where they do apply: a
//! flag silently ignored is a flag the user believes took effect.

use clap::parser::ValueSource;
use clap::ArgMatches;
use flurry::Invalid;

use super::args::ProfileTarget;
use crate::host::demos::Demo;

/// Flags of every profile target but the demos'.
const DEMO_ONLY: [&str; 13] = [
    "particles",
    "param",
    "effect",
    "dt",
    "scene",
    "bodies",
    "substeps",
    "mode",
    "size",
    "scale",
    "upsample",
    "splat",
    "no_collision",
];

/// The flags given on the command line that `matches` (the whole command line) does not
/// use, each as the error naming it.
pub fn refuse_inapplicable(matches: &ArgMatches) -> Result<(), Invalid> {
    let Some((command, sub)) = matches.subcommand() else {
        return Ok(());
    };
    let given = |id: &str| sub.value_source(id) == Some(ValueSource::CommandLine);
    if command == "demo" && sub.get_flag("headless") && given("vsync") {
        let value = sub.get_one::<String>("vsync").cloned().unwrap_or_default();
        let allowed = "only with a windowed demo, not with `--headless`";
        return Err(Invalid::new("--vsync", value, allowed));
    }
    if command == "edit" && given("frames") && !given("screenshot") {
        let value = sub.get_one::<u32>("frames").copied().unwrap_or_default();
        let allowed = "only with --screenshot (a window runs until it is closed)";
        return Err(Invalid::new("--frames", value, allowed));
    }
    let (unused, what): (Vec<&str>, String) = match command {
        "profile" => {
            let target = *sub
                .get_one::<ProfileTarget>("target")
                .expect("profile has a target");
            let mut unused = match target {
                ProfileTarget::Sort => {
                    let mut u = DEMO_ONLY.to_vec();
                    u.extend([
                        "effects",
                        "blend",
                        "mix",
                        "host",
                        "instances",
                        "frames",
                        "timing",
                        "trace",
                    ]);
                    u
                }
                ProfileTarget::Suite => {
                    let mut u = DEMO_ONLY.to_vec();
                    u.extend([
                        "keys",
                        "runs",
                        "effects",
                        "blend",
                        "mix",
                        "instances",
                        "frames",
                    ]);
                    u.extend(["timing", "trace"]);
                    u
                }
                ProfileTarget::Effects | ProfileTarget::Instances => vec![
                    "effect",
                    "param",
                    "keys",
                    "runs",
                    "scene",
                    "bodies",
                    "substeps",
                    "mode",
                    "no_collision",
                    "timing",
                    "trace",
                ],
                _ => vec![
                    "keys",
                    "runs",
                    "effects",
                    "blend",
                    "mix",
                    "host",
                    "instances",
                ],
            };
            match target {
                ProfileTarget::Effects => unused.push("instances"),
                ProfileTarget::Instances => unused.extend(["effects", "blend", "mix", "host"]),
                _ => {}
            }
            if target != ProfileTarget::Suite {
                unused.extend(["quick", "plot"]);
            }
            let effect = sub.value_source("effect") == Some(ValueSource::CommandLine);
            if (effect || target != ProfileTarget::Galaxy) && target.demo().is_some() {
                unused.extend(["bodies", "mode"]);
            }
            let name = format!("{target:?}").to_lowercase();
            (unused, format!("`flurry profile {name}`"))
        }
        "demo" | "stats" => {
            let demo = sub.get_one::<Demo>("demo").copied();
            let effect = sub.value_source("effect") == Some(ValueSource::CommandLine);
            // the galaxy's own bodies and gravity, not an effect file's
            if effect || demo != Some(Demo::Galaxy) {
                let shown = if effect {
                    "an effect file".to_string()
                } else {
                    format!("the {} demo", demo.map_or("", |d| d.name()))
                };
                (vec!["bodies", "mode"], shown)
            } else {
                (vec![], String::new())
            }
        }
        _ => (vec![], String::new()),
    };
    for id in unused {
        if sub.value_source(id) == Some(ValueSource::CommandLine) {
            let flag = format!("--{}", id.replace('_', "-"));
            let value = sub
                .get_raw(id)
                .map(|v| {
                    v.map(|s| s.to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| "given".into());
            let allowed = format!("only with {}, not with {what}", applies_to(id));
            return Err(Invalid::new(flag, value, allowed));
        }
    }
    Ok(())
}

/// Where flag `id` applies, in words.
fn applies_to(id: &str) -> &'static str {
    match id {
        "keys" | "runs" => "`flurry profile sort`",
        "effects" | "blend" | "mix" | "host" => "`flurry profile effects`",
        "instances" => "`flurry profile instances`",
        "quick" | "plot" => "`flurry profile suite`",
        "bodies" | "mode" => "the galaxy demo",
        "timing" | "trace" | "no_collision" | "scene" | "substeps" | "effect" | "param" => "a demo",
        _ => "a demo, `flurry profile effects` or `flurry profile instances`",
    }
}
