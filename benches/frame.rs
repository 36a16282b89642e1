//! Frame benchmarks on whatever adapter exists: the compute steps (emit, simulate, cull,
//! sort) of a demo at 64K and 1M particles, each iteration submitted and waited for.
//!
//! `cargo bench --bench frame`. On lavapipe, compare ratios within one run, not absolute
//! times across machines.

#[path = "../src/app/host/mod.rs"]
#[allow(dead_code, unused_imports)]
mod host;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use flurry::{GpuContext, Pass};
use host::demos::Demo;
use host::Scene;

fn compute_frames(c: &mut Criterion) {
    let gpu = match GpuContext::new_headless() {
        Ok(gpu) => gpu,
        Err(e) => panic!("benchmarks need an adapter: {e}"),
    };
    let mut group = c.benchmark_group("compute_frame");
    group.sample_size(10);
    for demo in [Demo::Snow, Demo::Fireworks] {
        for capacity in [65_536u32, 1_048_576] {
            let size = (640, 360);
            let mut scene = Scene::for_demo(&gpu, demo, capacity, 1, size).expect("scene");
            let id = BenchmarkId::new(demo.name(), capacity);
            group.bench_function(id, |b| {
                b.iter(|| {
                    let dt = 1.0 / 60.0;
                    let size = scene.target.size();
                    scene
                        .renderer
                        .update(&gpu.device, &gpu.queue, dt, scene.view(), size)
                        .expect("update");
                    let mut encoder = gpu.device.create_command_encoder(&Default::default());
                    let frame = scene.target.frame();
                    for pass in [Pass::Emit, Pass::Simulate, Pass::Cull, Pass::Sort] {
                        scene
                            .renderer
                            .encode_pass(&gpu.device, &mut encoder, &frame, pass)
                            .expect("encode");
                    }
                    gpu.queue.submit([encoder.finish()]);
                    gpu.wait().expect("wait");
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, compute_frames);
criterion_main!(benches);
