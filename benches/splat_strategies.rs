//! Ways to splat small particles, compared on the adapter at hand: the splat as flurry
//! builds it (a thread a particle, a global atomic add per covered pixel and channel), the
//! same work without the atomics (a floor: what they cost), and two binned by 16 × 16
//! screen tiles, a workgroup a tile either adding into workgroup memory or a thread a pixel
//! summing the particles its tile lists (`benches/splat_strategies.wgsl`). The particles are
//! soft additive discs, depth-tested, in a disc of the screen: 65,536 of 1.5 pixels' radius
//! in a disc of 125 pixels (as many as the side-by-side cloud, and as large as its
//! billboards, 2 to 3 pixels across at 960 × 540) and 262,144 of 0.4 in one of 300. The
//! tiles are binned on the CPU and not timed: the binned ways are timed as if binning were
//! free.
//!
//! Each iteration records, submits and waits for one dispatch.
//!
//! `cargo bench --bench splat_strategies`

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use flurry::wgpu;
use flurry::wgpu::util::DeviceExt;
use flurry::GpuContext;

const WIDTH: u32 = 960;
const HEIGHT: u32 = 540;
const TILE: u32 = 16;

/// A disc as the WGSL's `Disc`: centre (pixels), radius (pixels), distance, colour.
type Disc = [f32; 8];

/// `count` discs of `radius` pixels spread evenly over a disc of `spread` pixels round the
/// picture's centre (a fixed sequence: every run splats the same discs).
fn discs(count: usize, radius: f32, spread: f32) -> Vec<Disc> {
    let mut state = 12345u32;
    let mut next = || {
        state = state.wrapping_mul(1664525).wrapping_add(1013904223);
        (state >> 8) as f32 / 16_777_216.0 * 2.0 - 1.0
    };
    let mut discs = Vec::with_capacity(count);
    while discs.len() < count {
        let (x, y) = (next(), next());
        if x * x + y * y <= 1.0 {
            let centre = [
                WIDTH as f32 / 2.0 + x * spread,
                HEIGHT as f32 / 2.0 + y * spread,
            ];
            discs.push([centre[0], centre[1], radius, 10.0, 1.0, 0.6, 0.3, 0.3]);
        }
    }
    discs
}

/// Each tile's run of entries (start, count) and the entries: the discs whose box (a pixel
/// round the disc, as the WGSL's `box_of`) touches the tile.
fn binned(discs: &[Disc]) -> (Vec<[u32; 2]>, Vec<u32>) {
    let across = WIDTH.div_ceil(TILE);
    let mut tiles = vec![Vec::new(); (across * HEIGHT.div_ceil(TILE)) as usize];
    for (i, d) in discs.iter().enumerate() {
        let clamp = |v: f32, side: u32| v.clamp(0.0, side as f32 - 1.0) as u32 / TILE;
        let (x0, x1) = (
            clamp((d[0] - d[2] - 1.0).floor(), WIDTH),
            clamp((d[0] + d[2] + 1.0).ceil(), WIDTH),
        );
        let (y0, y1) = (
            clamp((d[1] - d[2] - 1.0).floor(), HEIGHT),
            clamp((d[1] + d[2] + 1.0).ceil(), HEIGHT),
        );
        for y in y0..=y1 {
            for x in x0..=x1 {
                tiles[(y * across + x) as usize].push(i as u32);
            }
        }
    }
    let mut runs = Vec::with_capacity(tiles.len());
    let mut entries = Vec::new();
    for tile in tiles {
        runs.push([entries.len() as u32, tile.len() as u32]);
        entries.extend(tile);
    }
    (runs, entries)
}

/// Record with `record`, submit and wait: the time it took.
fn timed(gpu: &GpuContext, record: impl Fn(&mut wgpu::CommandEncoder)) -> Duration {
    let start = Instant::now();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    record(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the GPU finished");
    start.elapsed()
}

fn splat_strategies(c: &mut Criterion) {
    let gpu =
        GpuContext::new_headless().unwrap_or_else(|e| panic!("benchmarks need an adapter: {e}"));
    let device = &gpu.device;
    let source = include_str!("splat_strategies.wgsl")
        .replace("WIDTH_PIXELS", &WIDTH.to_string())
        .replace("HEIGHT_PIXELS", &HEIGHT.to_string())
        .replace("TILE_SIDE", &TILE.to_string());
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("splat_strategies"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let mut group = c.benchmark_group("splat strategies");
    group.sample_size(10);
    for (count, radius, spread) in [(65_536, 1.5, 125.0), (262_144, 0.4, 300.0)] {
        let discs = discs(count, radius, spread);
        let (runs, entries) = binned(&discs);
        let storage = |label: &str, contents: &[u8]| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage: wgpu::BufferUsages::STORAGE,
            })
        };
        let pixels = (WIDTH * HEIGHT) as usize;
        let buffers = [
            storage("discs", bytemuck::cast_slice(&discs)),
            storage("depth", bytemuck::cast_slice(&vec![1e9f32; pixels])),
            storage("accum", &vec![0; pixels * 32]),
            storage("runs", bytemuck::cast_slice(&runs)),
            storage("entries", bytemuck::cast_slice(&entries)),
            storage("picture", &vec![0; pixels * 16]),
        ];
        let tiles = (WIDTH.div_ceil(TILE), HEIGHT.div_ceil(TILE));
        let ways: [(&str, &[u32], (u32, u32)); 4] = [
            ("scatter", &[0, 1, 2], ((count as u32).div_ceil(64), 1)),
            (
                "scatter_without_atomics",
                &[0, 1, 2],
                ((count as u32).div_ceil(64), 1),
            ),
            ("tile_accumulate", &[0, 1, 3, 4, 5], tiles),
            ("tile_gather", &[0, 1, 3, 4, 5], tiles),
        ];
        for (entry, bindings, (x, y)) in ways {
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            });
            let entries: Vec<_> = bindings
                .iter()
                .map(|&b| wgpu::BindGroupEntry {
                    binding: b,
                    resource: buffers[b as usize].as_entire_binding(),
                })
                .collect();
            let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(entry),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
            let dispatch = |encoder: &mut wgpu::CommandEncoder| {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind, &[]);
                pass.dispatch_workgroups(x, y, 1);
            };
            timed(&gpu, dispatch);
            let id = BenchmarkId::new(entry, format!("{count} discs of {radius} px"));
            group.bench_function(id, |b| {
                b.iter_custom(|iters| (0..iters).map(|_| timed(&gpu, dispatch)).sum())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, splat_strategies);
criterion_main!(benches);
