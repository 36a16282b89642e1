//! Sort pass (`shaders/sort.wgsl`): bitonic sort of the visible (key, index) pairs.
//!
//! A [`SortPlan`] is the list of dispatches for a capacity. [`SortPlan::bitonic`] keeps
//! groups of 2^[`MAX_STEPS`] = 128 pairs per thread in registers: one dispatch sorts every
//! run of 128 pairs, and each later dispatch runs up to seven steps of a stage, so a
//! 1M-pair sort makes 33 passes over memory instead of 210; its dispatches are indirect,
//! sized on the GPU from the visible count.
//!
//! Why registers and not workgroup memory: on lavapipe a pass costs about the same
//! whether it runs one step or seven (≈2.5 ms per pass over 1M pairs, measured with
//! `cargo run --release --example sort_dispatches`), and a first version that sorted
//! 2048-pair blocks in workgroup memory with barriers ran slower than the naive sort
//! (649 ms against 436 ms for 1M pairs). Fewer passes is what pays. [`SortPlan::naive`] dispatches every (k, j) step of the
//! network on its own over the whole padded buffer: the baseline `flurry profile sort`
//! measures.

use wgpu::util::DeviceExt;

use super::{compute_pipeline, compute_pipeline_with, layout, storage};
use crate::shaders::Shader;
use crate::types::SortStep;

/// Most network steps fused into one dispatch (`MAX_GROUP` = 2^MAX_STEPS in sort.wgsl).
pub const MAX_STEPS: u32 = 7;
/// Threads per sort workgroup (`SORT_THREADS`).
const THREADS: u32 = 64;
/// Shortest sorted length (`MIN_LEN`): one workgroup of full groups.
pub const MIN_LEN: u32 = (1 << MAX_STEPS) * THREADS;
/// Key of padding pairs; real keys are smaller (`SORT_SENTINEL`).
pub const SENTINEL: u32 = u32::MAX;

/// Pairs the sorted buffer must hold for `capacity` visible particles.
pub fn padded_len(capacity: u32) -> u32 {
    capacity.max(1).next_power_of_two().max(MIN_LEN)
}

/// The key cull writes for a distance (`sort_key` in common.wgsl): ascending keys are far
/// to near.
pub fn sort_key(distance: f32) -> u32 {
    0xffff_fffe - distance.max(0.0).to_bits()
}

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// The pipelines, shared by every plan.
pub struct SortPass {
    args_layout: wgpu::BindGroupLayout,
    sort_layout: wgpu::BindGroupLayout,
    args: wgpu::ComputePipeline,
    chunk_sort: wgpu::ComputePipeline,
    /// `fused[r - 1]` runs r steps.
    fused: Vec<wgpu::ComputePipeline>,
}

/// The dispatches that sort up to `len` pairs.
pub struct SortPlan {
    steps: Vec<SortStep>,
    /// Bitonic plans dispatch indirectly (sized from the count); naive plans directly.
    indirect: bool,
    len: u32,
    stride: u64,
    uniforms: wgpu::Buffer,
    table: wgpu::Buffer,
    dispatch: wgpu::Buffer,
}

fn step(k: u32, j: u32, kind: u32, steps: u32) -> SortStep {
    SortStep { k, j, kind, steps }
}

impl SortPlan {
    fn new(device: &wgpu::Device, steps: Vec<SortStep>, len: u32, indirect: bool) -> Self {
        let stride = device.limits().min_uniform_buffer_offset_alignment.max(16) as u64;
        let mut bytes = vec![0u8; (stride as usize) * steps.len()];
        for (i, s) in steps.iter().enumerate() {
            let at = i * stride as usize;
            bytes[at..at + 16].copy_from_slice(bytemuck::bytes_of(s));
        }
        let usage = wgpu::BufferUsages::STORAGE;
        let uniforms = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("flurry.sort_steps_uniform"),
            contents: &bytes,
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let table = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("flurry.sort_steps"),
            contents: bytemuck::cast_slice(&steps),
            usage,
        });
        let dispatch = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.sort_dispatch"),
            size: 12 * steps.len() as u64,
            usage: usage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        SortPlan {
            steps,
            indirect,
            len,
            stride,
            uniforms,
            table,
            dispatch,
        }
    }

    /// Runs of 2^MAX_STEPS sorted in registers, then every stage in dispatches of up to
    /// MAX_STEPS steps.
    pub fn bitonic(device: &wgpu::Device, capacity: u32) -> Self {
        let len = padded_len(capacity);
        let mut steps = vec![step(1 << MAX_STEPS, 0, 0, MAX_STEPS)];
        let mut k = 2 << MAX_STEPS;
        while k <= len {
            // steps j = k/2 .. 1 (log2 k of them), MAX_STEPS at a time from the top
            let mut left = k.trailing_zeros();
            while left > 0 {
                let r = left.min(MAX_STEPS);
                steps.push(step(k, 1 << (left - 1), 1, r));
                left -= r;
            }
            k *= 2;
        }
        Self::new(device, steps, len, true)
    }

    /// Every (k, j) step as its own global dispatch over all `len` pairs (padded by the
    /// caller).
    pub fn naive(device: &wgpu::Device, capacity: u32) -> Self {
        let len = padded_len(capacity);
        let mut steps = vec![];
        let mut k = 2;
        while k <= len {
            let mut j = k / 2;
            while j >= 1 {
                steps.push(step(k, j, 1, 1));
                j /= 2;
            }
            k *= 2;
        }
        Self::new(device, steps, len, false)
    }

    /// Pairs this plan sorts at most (a power of two).
    pub fn len(&self) -> u32 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Compute dispatches recorded per sort (the argument pass included).
    pub fn dispatches(&self) -> usize {
        self.steps.len() + self.indirect as usize
    }
}

/// The bind groups of one plan over one pair buffer.
pub struct SortBinding {
    args: wgpu::BindGroup,
    sort: wgpu::BindGroup,
}

fn entry(binding: u32, resource: wgpu::BindingResource<'_>) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry { binding, resource }
}

impl SortPass {
    pub fn new(device: &wgpu::Device) -> Self {
        // the argument pass writes the dispatch buffer, which the others use as INDIRECT:
        // it gets a layout of its own
        let args_layout = layout(
            device,
            "sort_args",
            &[
                storage(1, false, C),
                storage(3, true, C),
                storage(4, false, C),
            ],
        );
        let sort_layout = layout(
            device,
            "sort",
            &[
                storage(0, false, C),
                storage(1, false, C),
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: C,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: true,
                        min_binding_size: wgpu::BufferSize::new(16),
                    },
                    count: None,
                },
            ],
        );
        let with_steps = |entry, r: u32| {
            compute_pipeline_with(
                device,
                Shader::Sort,
                entry,
                &[&sort_layout],
                &[("STEPS", r)],
            )
        };
        SortPass {
            args: compute_pipeline(device, Shader::Sort, "sort_args", &args_layout),
            chunk_sort: with_steps("chunk_sort", MAX_STEPS),
            fused: (1..=MAX_STEPS)
                .map(|r| with_steps("fused_steps", r))
                .collect(),
            args_layout,
            sort_layout,
        }
    }

    /// Bind `pairs` (at least `plan.len()` pairs) and the counters whose `visible` field
    /// holds the count to sort.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        plan: &SortPlan,
        pairs: &wgpu::Buffer,
        counters: &wgpu::Buffer,
    ) -> SortBinding {
        let args = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("sort_args"),
            layout: &self.args_layout,
            entries: &[
                entry(1, counters.as_entire_binding()),
                entry(3, plan.table.as_entire_binding()),
                entry(4, plan.dispatch.as_entire_binding()),
            ],
        });
        let step = wgpu::BufferBinding {
            buffer: &plan.uniforms,
            offset: 0,
            size: wgpu::BufferSize::new(16),
        };
        let sort = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("sort"),
            layout: &self.sort_layout,
            entries: &[
                entry(0, pairs.as_entire_binding()),
                entry(1, counters.as_entire_binding()),
                entry(2, wgpu::BindingResource::Buffer(step)),
            ],
        });
        SortBinding { args, sort }
    }

    /// Record every dispatch of `plan`.
    pub fn record(&self, pass: &mut wgpu::ComputePass, plan: &SortPlan, bind: &SortBinding) {
        for i in 0..plan.dispatches() {
            self.record_dispatch(pass, plan, bind, i);
        }
    }

    /// Record dispatch `i` of `plan` alone (the argument pass is dispatch 0 of an indirect
    /// plan; later ones read what it wrote).
    pub fn record_dispatch(
        &self,
        pass: &mut wgpu::ComputePass,
        plan: &SortPlan,
        bind: &SortBinding,
        i: usize,
    ) {
        if plan.indirect && i == 0 {
            pass.set_pipeline(&self.args);
            pass.set_bind_group(0, &bind.args, &[]);
            pass.dispatch_workgroups((plan.steps.len() as u32).div_ceil(64), 1, 1);
            return;
        }
        let i = i - plan.indirect as usize;
        let s = plan.steps[i];
        let pipeline = match s.kind {
            0 => &self.chunk_sort,
            _ => &self.fused[s.steps as usize - 1],
        };
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &bind.sort, &[(i as u64 * plan.stride) as u32]);
        if plan.indirect {
            pass.dispatch_workgroups_indirect(&plan.dispatch, 12 * i as u64);
        } else {
            pass.dispatch_workgroups((plan.len >> s.steps) / THREADS, 1, 1);
        }
    }

    /// (k, largest stride, steps) of dispatch `i` (None for the argument pass).
    pub fn describe(plan: &SortPlan, i: usize) -> Option<(u32, u32, u32)> {
        let i = i.checked_sub(plan.indirect as usize)?;
        plan.steps.get(i).map(|s| (s.k, s.j, s.steps))
    }
}
