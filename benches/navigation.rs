//! Navigation benchmarks: a procedural city's signed distance field (jump flooding) and one
//! destination's flow field (the block fast iterative method, `FlowField::passes_for` passes
//! at most, then the directions) on the GPU, at 128², 256² and 512² cells. Each
//! iteration records, submits and waits for one computation (the map is uploaded once).
//!
//! `cargo bench --bench navigation`

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use flurry::nav::{CityMap, DistanceField, FlowField, WallCost};
use flurry::GpuContext;

/// Record with `record`, submit and wait: the time it took.
fn timed(gpu: &GpuContext, record: impl Fn(&mut flurry::wgpu::CommandEncoder)) -> Duration {
    let start = Instant::now();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    record(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
    gpu.device
        .poll(flurry::wgpu::PollType::wait_indefinitely())
        .expect("the GPU finished");
    start.elapsed()
}

fn navigation(c: &mut Criterion) {
    let gpu =
        GpuContext::new_headless().unwrap_or_else(|e| panic!("benchmarks need an adapter: {e}"));
    let mut group = c.benchmark_group("navigation");
    group.sample_size(10);
    for side in [128u32, 256, 512] {
        let map = CityMap::city(2.0, (side, side), (6, 2), 1).expect("a city");
        let field = DistanceField::new(&gpu.device, &map).expect("a distance field");
        let passes = FlowField::passes_for(&map);
        let flow = FlowField::new(
            &gpu.device,
            &map,
            &field,
            &[(0, 0)],
            WallCost::default(),
            passes,
        )
        .expect("a flow field");
        timed(&gpu, |e| field.record(e));
        group.bench_function(BenchmarkId::new("distance field", side), |b| {
            b.iter_custom(|iters| (0..iters).map(|_| timed(&gpu, |e| field.record(e))).sum())
        });
        group.bench_function(BenchmarkId::new("flow field", side), |b| {
            b.iter_custom(|iters| (0..iters).map(|_| timed(&gpu, |e| flow.record(e))).sum())
        });
    }
    group.finish();
}

criterion_group!(benches, navigation);
criterion_main!(benches);
