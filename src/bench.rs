//! flurry's GPU sort on its own, for measuring it on a device: upload (key, index) pairs,
//! sort them with the bitonic plan the renderer uses or with a naive one that dispatches
//! every network step over the whole buffer, time it, read the pairs back. `flurry profile
//! sort` is built on it.

use std::time::{Duration, Instant};

use crate::error::{Invalid, Result};
use crate::gpu::GpuContext;
use crate::passes::sort::{SortBinding, SortPass, SortPlan, SENTINEL};
use crate::readback::read_buffer;
use crate::types::Counters;

/// A sort dispatch, (k, j, steps) or None for the argument pass, and its milliseconds.
pub type DispatchTime = (Option<(u32, u32, u32)>, f64);

/// Which sort to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKind {
    /// The renderer's: runs of 128 pairs sorted in registers, then up to seven network
    /// steps a dispatch, every dispatch indirect (sized on the GPU from the count).
    Bitonic,
    /// Every (k, j) step as a global dispatch (the baseline).
    Naive,
}

/// (key, index) pairs in a GPU buffer with both sorts' plans over them.
pub struct SortBench {
    pass: SortPass,
    bitonic: SortPlan,
    naive: SortPlan,
    pairs: wgpu::Buffer,
    counters: wgpu::Buffer,
    bind_bitonic: SortBinding,
    bind_naive: SortBinding,
    capacity: u32,
    count: u32,
}

impl SortBench {
    /// Buffers and plans for up to `capacity` pairs.
    pub fn new(gpu: &GpuContext, capacity: u32) -> Result<Self> {
        let device = &gpu.device;
        let max = max_keys(&device.limits());
        if capacity == 0 || capacity as u64 > max {
            return Err(crate::error::Invalid::new(
                "--keys",
                capacity,
                format!("1..={max} on {}", gpu.adapter_name()),
            )
            .into());
        }
        let mut uploads = crate::uploads::Uploads::default();
        let bitonic = SortPlan::bitonic((device, &mut uploads), capacity);
        let naive = SortPlan::naive((device, &mut uploads), capacity);
        uploads.write_init(&gpu.queue);
        let bytes = bitonic.len() as u64 * 8;
        let pairs = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.sort_bench_pairs"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let counters = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.sort_bench_counters"),
            size: std::mem::size_of::<Counters>() as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let pass = SortPass::new(&crate::compiler::Compiler::new(device));
        let bind_bitonic = pass.bind(device, &bitonic, &pairs, &counters);
        let bind_naive = pass.bind(device, &naive, &pairs, &counters);
        Ok(SortBench {
            pass,
            bitonic,
            naive,
            pairs,
            counters,
            bind_bitonic,
            bind_naive,
            capacity,
            count: 0,
        })
    }

    /// Compute dispatches one sort of `kind` records.
    pub fn dispatches(&self, kind: SortKind) -> usize {
        match kind {
            SortKind::Bitonic => self.bitonic.dispatches(),
            SortKind::Naive => self.naive.dispatches(),
        }
    }

    /// Upload `data` (at most the capacity), padded with sentinel keys, as the pairs to sort.
    pub fn upload(&mut self, gpu: &GpuContext, data: &[[u32; 2]]) -> Result<()> {
        let len = self.bitonic.len() as usize;
        if data.len() > self.capacity as usize {
            let allowed = format!("at most {} pairs", self.capacity);
            return Err(Invalid::new("data", format!("{} pairs", data.len()), allowed).into());
        }
        let mut padded = data.to_vec();
        padded.resize(len, [SENTINEL, SENTINEL]);
        gpu.queue
            .write_buffer(&self.pairs, 0, bytemuck::cast_slice(&padded));
        let counters = Counters {
            visible: data.len() as u32,
            ..Default::default()
        };
        gpu.queue
            .write_buffer(&self.counters, 0, bytemuck::bytes_of(&counters));
        self.count = data.len() as u32;
        gpu.wait()
    }

    /// Sort the uploaded pairs in place; returns the wall time of submit + wait.
    pub fn run(&self, gpu: &GpuContext, kind: SortKind) -> Result<Duration> {
        let (plan, bind) = match kind {
            SortKind::Bitonic => (&self.bitonic, &self.bind_bitonic),
            SortKind::Naive => (&self.naive, &self.bind_naive),
        };
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.pass.record(&mut pass, plan, bind);
        }
        let start = Instant::now();
        gpu.queue.submit([encoder.finish()]);
        gpu.wait()?;
        Ok(start.elapsed())
    }

    /// Time every dispatch of the bitonic plan on its own (submit + wait each): (k, j,
    /// steps) and milliseconds, for finding where a sort spends its time.
    pub fn dispatch_times(&self, gpu: &GpuContext) -> Result<Vec<DispatchTime>> {
        let mut out = vec![];
        for i in 0..self.bitonic.dispatches() {
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                self.pass
                    .record_dispatch(&mut pass, &self.bitonic, &self.bind_bitonic, i);
            }
            let start = Instant::now();
            gpu.queue.submit([encoder.finish()]);
            gpu.wait()?;
            out.push((
                SortPass::describe(&self.bitonic, i),
                start.elapsed().as_secs_f64() * 1e3,
            ));
        }
        Ok(out)
    }

    /// The first `count` pairs (the uploaded count) as they are now.
    pub fn read(&self, gpu: &GpuContext) -> Result<Vec<[u32; 2]>> {
        let bytes = read_buffer(
            &gpu.device,
            &gpu.queue,
            &self.pairs,
            0,
            self.count as u64 * 8,
        )?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }
}

/// The most pairs one sort handles on a device: the padded buffer must fit one storage
/// binding (its dispatches go two-dimensional past the per-dimension limit), and the
/// padded length a u32 (2^31).
pub fn max_keys(limits: &wgpu::Limits) -> u64 {
    let by_bytes = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
        / 8;
    // dispatches past the per-dimension limit go two-dimensional: only the bytes bind
    let n = by_bytes.clamp(1, 1 << 31);
    1 << (63 - n.leading_zeros())
}

/// Random (key, index) pairs: keys from a PCG stream below `key_range`, index = position.
pub fn random_pairs(n: u32, seed: u32, key_range: u32) -> Vec<[u32; 2]> {
    let mut state = crate::hash::pcg_hash(seed);
    (0..n)
        .map(|i| {
            state = crate::hash::pcg_hash(state ^ i);
            [state % key_range.max(1), i]
        })
        .collect()
}
