//! Frame benchmarks on whatever adapter exists: the compute steps (emit + simulate) of a
//! demo at 64K and 1M particles, each iteration submitted and waited for.
//!
//! `cargo bench --bench frame`. On lavapipe, compare ratios within one run, not absolute
//! times across machines.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use flurry::{Demo, GpuContext, ParticleSystem};

fn compute_frames(c: &mut Criterion) {
    let gpu = match GpuContext::new_headless() {
        Ok(gpu) => gpu,
        Err(e) => panic!("benchmarks need an adapter: {e}"),
    };
    let mut group = c.benchmark_group("compute_frame");
    group.sample_size(10);
    for demo in [Demo::Snow, Demo::Fireworks] {
        for capacity in [65_536u32, 1_048_576] {
            let desc = demo.effect(capacity);
            let mut system =
                ParticleSystem::new(&gpu.device, &gpu.queue, &desc, capacity, 1).expect("system");
            let camera = demo.camera(16.0 / 9.0);
            let id = BenchmarkId::new(demo.name(), capacity);
            group.bench_function(id, |b| {
                b.iter(|| {
                    system.update(&gpu.queue, 1.0 / 60.0, &camera);
                    let mut encoder = gpu.device.create_command_encoder(&Default::default());
                    system.encode_compute(&mut encoder, None);
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
