//! `flurry profile sort --keys N`: the bitonic sort, a naive global bitonic sort and the
//! CPU's `sort_unstable_by` on the same random pairs, alternating runs in one process.

use std::time::Instant;

use serde_json::json;

use flurry::bench::{random_pairs, SortBench, SortKind};
use flurry::GpuContext;

use super::args::ProfileArgs;
use crate::host::timing::median;
use crate::host::AppError;

/// The report (`--json`'s content) of one run.
pub fn report(a: &ProfileArgs) -> Result<serde_json::Value, AppError> {
    let gpu = GpuContext::new_headless()?;
    let max = flurry::bench::max_keys(&gpu.device.limits());
    let n = match u32::try_from(a.keys) {
        Ok(n) if (1..=max).contains(&(n as u64)) => n,
        _ => {
            let allowed = format!("1..={max} on {}", gpu.adapter_name());
            return Err(flurry::Invalid::new("--keys", a.keys, allowed).into());
        }
    };
    let mut bench = SortBench::new(&gpu, n)?;
    let data = random_pairs(n, a.common.pool.seed, u32::MAX);
    let mut expected = data.clone();
    let mut ms = [vec![], vec![], vec![]];
    for run in 0..a.runs {
        for kind in [SortKind::Bitonic, SortKind::Naive] {
            bench.upload(&gpu, &data)?;
            let t = bench.run(&gpu, kind)?;
            ms[kind as usize].push(t.as_secs_f64() * 1e3);
            if run == 0 {
                verify(&bench.read(&gpu)?, &data, kind)?;
            }
        }
        expected.clone_from(&data);
        let start = Instant::now();
        expected.sort_unstable_by(|x, y| x[0].cmp(&y[0]));
        ms[2].push(start.elapsed().as_secs_f64() * 1e3);
    }
    let [bitonic, naive, cpu] = ms.map(|v| median(&v));
    let dispatches = bench.dispatches(SortKind::Bitonic);
    let naive_dispatches = bench.dispatches(SortKind::Naive);
    out!(
        "sort of {n} (key, index) pairs on {}, {} alternating runs, medians:",
        gpu.adapter_name(),
        a.runs
    );
    out!("  bitonic (128-pair register groups){bitonic:>10.3} ms  {dispatches:>4} dispatches  {:.1} Mkeys/s", n as f64 / bitonic / 1e3);
    out!("  naive (every step global)        {naive:>10.3} ms  {naive_dispatches:>4} dispatches");
    out!("  CPU sort_unstable_by             {cpu:>10.3} ms");
    out!(
        "  bitonic is {:.2}x faster than naive; all three agree",
        naive / bitonic
    );
    let report = json!({"keys": n, "bitonic_ms": bitonic, "naive_ms": naive, "cpu_ms": cpu,
        "dispatches": dispatches, "naive_dispatches": naive_dispatches,
        "speedup_vs_naive": naive / bitonic, "adapter": gpu.adapter_name(), "runs": a.runs});
    Ok(report)
}

/// The GPU result must be ordered by key and hold the same pairs as the input.
fn verify(sorted: &[[u32; 2]], data: &[[u32; 2]], kind: SortKind) -> Result<(), AppError> {
    let ordered = sorted.windows(2).all(|w| w[0][0] <= w[1][0]);
    let mut a = sorted.to_vec();
    let mut b = data.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    if ordered && a == b {
        Ok(())
    } else {
        let e = format!("the {kind:?} sort disagrees with the CPU sort");
        Err(AppError::Profiler(e))
    }
}
