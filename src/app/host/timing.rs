//! Per-pass timings of the program's profiler: how they were measured, their samples and
//! medians, a chrome trace, and the host's memory bandwidth.

use std::collections::BTreeMap;

use flurry::wgpu;
use wgpu_profiler::{GpuProfiler, GpuProfilerSettings, GpuTimerQueryResult};

/// A profiler for [`Timing::GpuTimestamps`] (none when the device cannot make one).
pub fn gpu_profiler(device: &wgpu::Device) -> Option<GpuProfiler> {
    let settings = GpuProfilerSettings {
        enable_timer_queries: true,
        // lavapipe crashes in vkCmdBeginDebugUtilsLabelEXT when debug builds of wgpu
        // enable the debug-utils extension
        enable_debug_groups: false,
        max_num_pending_frames: 4,
    };
    GpuProfiler::new(device, settings).ok()
}

/// How per-pass times were measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// GPU timestamp queries around every pass.
    GpuTimestamps,
    /// Each pass submitted on its own and waited for; wall-clock time.
    CpuSync,
}

impl Timing {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Timing::GpuTimestamps => "gpu-timestamps",
            Timing::CpuSync => "cpu-sync",
        }
    }

    /// The default for an adapter: CPU adapters misattribute timestamps.
    pub fn default_for(is_cpu: bool, has_timestamps: bool) -> Self {
        if is_cpu || !has_timestamps {
            Timing::CpuSync
        } else {
            Timing::GpuTimestamps
        }
    }
}

/// Per-pass samples in milliseconds, in first-seen order.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    order: Vec<String>,
    ms: BTreeMap<String, Vec<f64>>,
    spans: Vec<Span>,
    epoch: Option<std::time::Instant>,
}

/// One timed pass on a common clock, for the chrome trace.
#[derive(Clone, Debug)]
pub struct Span {
    pub name: String,
    pub start_s: f64,
    pub dur_s: f64,
}

impl Samples {
    pub fn add(&mut self, pass: &str, ms: f64) {
        if !self.ms.contains_key(pass) {
            self.order.push(pass.to_string());
        }
        self.ms.entry(pass.to_string()).or_default().push(ms);
    }

    /// Add the passes of one finished profiler frame: the top-level scopes, and the scopes
    /// nested in a "frame" scope in its place.
    pub fn add_gpu_frame(&mut self, results: &[GpuTimerQueryResult]) {
        for r in results {
            if r.label == "frame" && !r.nested_queries.is_empty() {
                self.add_gpu_frame(&r.nested_queries);
                continue;
            }
            if let Some(t) = &r.time {
                self.add(&r.label, (t.end - t.start) * 1e3);
                self.spans.push(Span {
                    name: r.label.clone(),
                    start_s: t.start,
                    dur_s: t.end - t.start,
                });
            }
        }
    }

    /// Add a pass timed on the CPU clock from `start` for `dur`.
    pub fn add_timed(&mut self, pass: &str, start: std::time::Instant, dur: std::time::Duration) {
        let epoch = *self.epoch.get_or_insert(start);
        self.add(pass, dur.as_secs_f64() * 1e3);
        self.spans.push(Span {
            name: pass.to_string(),
            start_s: start.duration_since(epoch).as_secs_f64(),
            dur_s: dur.as_secs_f64(),
        });
    }

    /// Every span as a chrome://tracing (Perfetto) JSON array.
    pub fn chrome_trace(&self) -> String {
        let events: Vec<_> = self
            .spans
            .iter()
            .map(|s| {
                serde_json::json!({"name": s.name, "ph": "X", "pid": 0, "tid": 0,
                    "ts": s.start_s * 1e6, "dur": s.dur_s * 1e6})
            })
            .collect();
        serde_json::Value::Array(events).to_string()
    }

    /// (pass, median, min, max) in first-seen order.
    pub fn summary(&self) -> Vec<(String, f64, f64, f64)> {
        self.order
            .iter()
            .map(|name| {
                let v = &self.ms[name];
                (name.clone(), median(v), min(v), max(v))
            })
            .collect()
    }
}

pub fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        0.5 * (s[n / 2 - 1] + s[n / 2])
    }
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

/// Host memory bandwidth: best of a few copies of a 256 MiB buffer, GB/s counted as bytes
/// read plus bytes written (the figure a pass's traffic is compared with).
pub fn memcpy_gb_s() -> f64 {
    let n = 256 << 20;
    let src = vec![1u8; n];
    let mut dst = vec![0u8; n];
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        dst.copy_from_slice(std::hint::black_box(&src));
        std::hint::black_box(&mut dst);
        best = best.min(t.elapsed().as_secs_f64());
    }
    2.0 * n as f64 / best / 1e9
}
