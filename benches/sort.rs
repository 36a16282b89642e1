//! Sort benchmarks: the bitonic sort, the naive global bitonic sort and the CPU sort on the
//! same random (key, index) pairs at 64K, 256K and 1M. Each GPU iteration re-uploads the
//! pairs (not timed: `iter_custom` times submit + wait only).
//!
//! `cargo bench --bench sort`

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use flurry::bench::{random_pairs, SortBench, SortKind};
use flurry::GpuContext;

fn sorts(c: &mut Criterion) {
    let gpu =
        GpuContext::new_headless().unwrap_or_else(|e| panic!("benchmarks need an adapter: {e}"));
    let mut group = c.benchmark_group("sort");
    group.sample_size(10);
    for n in [1u32 << 16, 1 << 18, 1 << 20] {
        let data = random_pairs(n, 1, u32::MAX);
        let mut bench = SortBench::new(&gpu, n).expect("sort bench");
        for (name, kind) in [("bitonic", SortKind::Bitonic), ("naive", SortKind::Naive)] {
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        bench.upload(&gpu, &data).expect("upload");
                        total += bench.run(&gpu, kind).expect("sort");
                    }
                    total
                })
            });
        }
        group.bench_function(BenchmarkId::new("cpu", n), |b| {
            b.iter_batched_ref(
                || data.clone(),
                |v| v.sort_unstable_by(|x, y| x[0].cmp(&y[0])),
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, sorts);
criterion_main!(benches);
