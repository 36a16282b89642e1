//! The suite's picture (`flurry profile suite --plot PATH.svg`): on the left the roofline,
//! every pass of every demo run a point (flops per byte against achieved GFLOP/s, both
//! logarithmic) under the adapter's measured copy and FMA ceilings; on the right each demo
//! run's frame as a bar split into its passes' shares, its total time written beside it.

use std::fmt::Write as _;

use serde_json::Value;

/// A colour per pass name, the same in both panels.
fn color(pass: &str) -> &'static str {
    match pass {
        "emit" => "#8dd3c7",
        "gravity" => "#b15928",
        "grid" => "#ffed6f",
        "flock" => "#ccebc5",
        "navigation" => "#999999",
        "crowd" => "#bc80bd",
        "simulate" => "#e31a1c",
        "cull" => "#1f78b4",
        "sort" => "#33a02c",
        "merge" => "#b2df8a",
        "downsample" => "#fdbf6f",
        "meshes" => "#6a3d9a",
        "splat" => "#ff7f00",
        "draw" => "#fb9a99",
        "composite" => "#a6cee3",
        _ => "#cccccc",
    }
}

/// Text safe inside SVG.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The demo runs of a suite: (name, frame ms, per-pass (name, ms) in recording order,
/// roofline rows (pass, flops per byte, GFLOP/s)).
struct DemoRun {
    name: String,
    frame_ms: f64,
    passes: Vec<(String, f64)>,
    points: Vec<(String, f64, f64)>,
}

fn demo_runs(suite: &Value) -> Vec<DemoRun> {
    let runs = suite["runs"].as_array().cloned().unwrap_or_default();
    runs.iter()
        .filter_map(|run| {
            let report = &run["report"];
            let passes = report["passes"].as_object()?;
            let rows = report["roofline"]["passes"].as_object()?;
            let order = [
                "emit",
                "gravity",
                "grid",
                "flock",
                "navigation",
                "crowd",
                "simulate",
                "cull",
                "sort",
                "merge",
                "downsample",
                "meshes",
                "splat",
                "draw",
                "composite",
            ];
            let passes = order
                .iter()
                .filter_map(|&p| Some((p.to_string(), passes.get(p)?.as_f64()?)))
                .collect();
            let points = rows
                .iter()
                .filter_map(|(p, r)| {
                    let (bytes, flops) = (r["bytes"].as_f64()?, r["flops"].as_f64()?);
                    let gflop_s = r["gflop_s"].as_f64()?;
                    (bytes > 0.0 && flops > 0.0 && gflop_s > 0.0).then(|| {
                        let intensity = flops / bytes;
                        (p.clone(), intensity, gflop_s)
                    })
                })
                .collect();
            Some(DemoRun {
                name: run["name"].as_str().unwrap_or("?").to_string(),
                frame_ms: report["frame_ms"].as_f64().unwrap_or(0.0),
                passes,
                points,
            })
        })
        .collect()
}

/// A logarithmic axis from 10^lo to 10^hi onto pixels a..b.
struct LogAxis {
    lo: f64,
    hi: f64,
    a: f64,
    b: f64,
}

impl LogAxis {
    fn at(&self, v: f64) -> f64 {
        let t = (v.max(1e-300).log10() - self.lo) / (self.hi - self.lo);
        self.a + t.clamp(0.0, 1.0) * (self.b - self.a)
    }
}

/// The whole picture.
pub fn svg(suite: &Value) -> String {
    let copy = suite["roofline"]["copy_gb_s"].as_f64().unwrap_or(1.0);
    let fma = suite["roofline"]["fma_gflop_s"].as_f64().unwrap_or(1.0);
    let runs = demo_runs(suite);
    let (w, h) = (1240.0, 80.0 + 24.0 * runs.len().max(16) as f64);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let title = format!(
        "flurry profile suite on {}{}",
        suite["adapter"].as_str().unwrap_or("?"),
        if suite["quick"] == true {
            " (quick)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="22" font-size="14">{}</text>"#,
        escape(&title)
    );
    roofline(&mut s, &runs, (copy, fma), h);
    bars(&mut s, &runs);
    s.push_str("</svg>\n");
    s
}

/// The left panel.
fn roofline(s: &mut String, runs: &[DemoRun], (copy, fma): (f64, f64), h: f64) {
    let (left, right, top, bottom) = (70.0, 560.0, 50.0, (h - 60.0).min(520.0));
    let x = LogAxis {
        lo: -3.0,
        hi: 3.0,
        a: left,
        b: right,
    };
    let ys = runs.iter().flat_map(|r| r.points.iter().map(|p| p.2));
    let lowest = ys.fold(copy * 1e-3, f64::min);
    let y = LogAxis {
        lo: lowest.log10().floor(),
        hi: (fma * 2.0).log10().ceil(),
        a: bottom,
        b: top,
    };
    let _ = writeln!(
        s,
        r##"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke="#444"/>"##,
        right - left,
        bottom - top
    );
    for d in x.lo as i32..=x.hi as i32 {
        let px = x.at(10f64.powi(d));
        let _ = writeln!(
            s,
            r##"<line x1="{px}" y1="{top}" x2="{px}" y2="{bottom}" stroke="#eee"/><text x="{px}" y="{}" text-anchor="middle">1e{d}</text>"##,
            bottom + 14.0
        );
    }
    for d in y.lo as i32..=y.hi as i32 {
        let py = y.at(10f64.powi(d));
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{py}" x2="{right}" y2="{py}" stroke="#eee"/><text x="{}" y="{}" text-anchor="end">1e{d}</text>"##,
            left - 4.0,
            py + 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">flops per byte</text>"#,
        (left + right) / 2.0,
        bottom + 30.0
    );
    let _ = writeln!(
        s,
        r#"<text x="18" y="{}" transform="rotate(-90 18 {})" text-anchor="middle">achieved GFLOP/s</text>"#,
        (top + bottom) / 2.0,
        (top + bottom) / 2.0
    );
    // the ceilings: bandwidth × intensity up to the ridge, then the FMA kernel's rate
    let ridge = fma / copy;
    let (x0, x1) = (10f64.powf(x.lo), 10f64.powf(x.hi));
    let _ = writeln!(
        s,
        r##"<polyline points="{},{} {},{} {},{}" fill="none" stroke="#222" stroke-width="2"/>"##,
        x.at(x0),
        y.at(copy * x0),
        x.at(ridge),
        y.at(fma),
        x.at(x1),
        y.at(fma)
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}">copy {copy:.1} GB/s</text><text x="{}" y="{}" text-anchor="end">FMA {fma:.1} GFLOP/s</text>"#,
        x.at(x0) + 6.0,
        y.at(copy * x0) - 6.0,
        right - 4.0,
        y.at(fma) - 6.0
    );
    for run in runs {
        for (pass, intensity, gflop_s) in &run.points {
            let _ = writeln!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{}" stroke="#333" stroke-width="0.5"><title>{} {pass}: {intensity:.3} flops/byte, {gflop_s:.3} GFLOP/s</title></circle>"##,
                x.at(*intensity),
                y.at(*gflop_s),
                color(pass),
                escape(&run.name)
            );
        }
    }
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="{}">passes without floating point (sort, merge) are not points</text>"#,
        bottom + 46.0
    );
}

/// The right panel.
fn bars(s: &mut String, runs: &[DemoRun]) {
    let (label, left, right, top) = (620.0, 760.0, 1120.0, 50.0);
    let _ = writeln!(
        s,
        r#"<text x="{label}" y="{}">each demo run's frame by pass (shares), median ms</text>"#,
        top - 8.0
    );
    let mut seen: Vec<&str> = vec![];
    for (i, run) in runs.iter().enumerate() {
        let y = top + 24.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<text x="{label}" y="{}">{}</text>"#,
            y + 13.0,
            escape(&run.name)
        );
        let total: f64 = run.passes.iter().map(|p| p.1).sum();
        let mut at = left;
        for (pass, ms) in &run.passes {
            let width = if total > 0.0 {
                ms / total * (right - left)
            } else {
                0.0
            };
            let _ = writeln!(
                s,
                r#"<rect x="{at:.1}" y="{y}" width="{width:.2}" height="18" fill="{}"><title>{} {pass}: {ms:.3} ms</title></rect>"#,
                color(pass),
                escape(&run.name)
            );
            at += width;
            if !seen.contains(&pass.as_str()) {
                seen.push(pass);
            }
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{:.1} ms</text>"#,
            right + 6.0,
            y + 13.0,
            run.frame_ms
        );
    }
    let legend_y = top + 24.0 * runs.len() as f64 + 10.0;
    for (i, pass) in seen.iter().enumerate() {
        let (col, row) = (i % 5, i / 5);
        let (x, y) = (label + 120.0 * col as f64, legend_y + 16.0 * row as f64);
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="{y}" width="10" height="10" fill="{}"/><text x="{}" y="{}">{pass}</text>"#,
            color(pass),
            x + 14.0,
            y + 9.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_has_a_point_per_pass_with_flops_and_a_bar_per_demo_run() {
        let report = |sim_ms: f64| {
            serde_json::json!({"frame_ms": sim_ms + 1.0, "passes": {"simulate": sim_ms, "sort": 1.0},
                "roofline": {"passes": {
                    "simulate": {"bytes": 1e6, "flops": 5e5, "gflop_s": 0.5 / sim_ms},
                    "sort": {"bytes": 1e6, "flops": 0.0, "gflop_s": 0.0}}}})
        };
        let suite = serde_json::json!({"adapter": "a <b>", "quick": true,
            "roofline": {"copy_gb_s": 10.0, "fma_gflop_s": 100.0},
            "runs": [{"name": "snow-65536", "report": report(2.0)},
                     {"name": "galaxy-1048576", "report": report(8.0)},
                     {"name": "sort-1048576", "report": {"bitonic_ms": 3.0}}]});
        let svg = svg(&suite);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(
            svg.matches("<circle").count(),
            2,
            "simulate of each demo run"
        );
        assert_eq!(
            svg.matches("snow-65536 simulate").count(),
            2,
            "a point and a bar"
        );
        assert!(svg.contains("a &lt;b&gt;"), "the adapter's name escaped");
        assert!(svg.contains("9.0 ms"), "galaxy's frame");
    }
}
