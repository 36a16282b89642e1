//! Sort pass (`shaders/sort.wgsl`): bitonic sort of the visible (key, index) pairs.
//!
//! A [`SortPlan`] is the list of dispatches for a capacity. [`SortPlan::bitonic`] keeps
//! groups of 2^[`MAX_SORT_STEPS`] = 128 pairs per thread in registers: one dispatch sorts every
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

use crate::compiler::Compiler;
use crate::uploads::Uploads;

use super::{bind, compute_pipeline, layout, read_only, read_write, BufferSlot};
use crate::shaders::Shader;
use crate::types::{sort_len, Counters, SortStep, MAX_SORT_STEPS};

/// Key of padding pairs; real keys are smaller (`SORT_SENTINEL`).
pub(crate) const SENTINEL: u32 = u32::MAX;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// The pipelines, shared by every plan.
pub(crate) struct SortPass {
    args_layout: wgpu::BindGroupLayout,
    sort_layout: wgpu::BindGroupLayout,
    args: wgpu::ComputePipeline,
    chunk_sort: wgpu::ComputePipeline,
    /// `fused[r - 1]` runs r steps.
    fused: Vec<wgpu::ComputePipeline>,
}

/// The dispatches that sort up to `len` pairs.
pub(crate) struct SortPlan {
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
    /// The indirect dispatch arguments, three words per dispatch (for tests).
    #[cfg(test)]
    pub fn dispatch_buffer(&self) -> &wgpu::Buffer {
        &self.dispatch
    }

    /// (its step tables written as the next frame is recorded: [`Uploads::buffer_init`])
    fn new(
        (device, uploads): (&wgpu::Device, &mut Uploads),
        steps: Vec<SortStep>,
        len: u32,
        indirect: bool,
    ) -> Self {
        let stride = device.limits().min_uniform_buffer_offset_alignment.max(16) as u64;
        let mut bytes = vec![0u8; (stride as usize) * steps.len()];
        for (i, s) in steps.iter().enumerate() {
            let at = i * stride as usize;
            bytes[at..at + 16].copy_from_slice(bytemuck::bytes_of(s));
        }
        let usage = wgpu::BufferUsages::STORAGE;
        let uniforms = uploads.buffer_init(
            device,
            "flurry.sort_steps_uniform",
            &bytes,
            wgpu::BufferUsages::UNIFORM,
        );
        let table = uploads.buffer_init(
            device,
            "flurry.sort_steps",
            bytemuck::cast_slice(&steps),
            usage,
        );
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

    /// The passes over memory this plan makes for `count` pairs, and the pairs each covers
    /// (as sort.wgsl's `sort_args` sizes them: the count rounded up to a power of two, at
    /// least `MIN_LEN`; a dispatch runs when its stage fits in that).
    pub fn passes_for(&self, count: u64) -> (u64, u64) {
        if count == 0 {
            return (0, 0);
        }
        let n = count.next_power_of_two().max(crate::types::MIN_LEN as u64);
        let passes = self.steps.iter().filter(|s| s.k as u64 <= n).count() as u64;
        (passes, n)
    }

    /// Runs of 2^MAX_SORT_STEPS sorted in registers, then every stage in dispatches of up to
    /// MAX_SORT_STEPS steps.
    pub fn bitonic(gpu: (&wgpu::Device, &mut Uploads), capacity: u32) -> Self {
        let len = sort_len(capacity);
        let mut steps = vec![step(1 << MAX_SORT_STEPS, 0, 0, MAX_SORT_STEPS)];
        // stages k = 2^stage up to len (a power of two): bounded by its exponent, never by
        // doubling k (which wraps to 0 past 2^31)
        for stage in MAX_SORT_STEPS + 1..=len.trailing_zeros() {
            let k = 1u32 << stage;
            // steps j = k/2 .. 1 (log2 k of them), MAX_SORT_STEPS at a time from the top
            let mut left = stage;
            while left > 0 {
                let r = left.min(MAX_SORT_STEPS);
                steps.push(step(k, 1 << (left - 1), 1, r));
                left -= r;
            }
        }
        Self::new(gpu, steps, len, true)
    }

    /// Every (k, j) step as its own global dispatch over all `len` pairs (padded by the
    /// caller).
    pub fn naive(gpu: (&wgpu::Device, &mut Uploads), capacity: u32) -> Self {
        let len = sort_len(capacity);
        let mut steps = vec![];
        for stage in 1..=len.trailing_zeros() {
            for j in (0..stage).rev() {
                steps.push(step(1 << stage, 1 << j, 1, 1));
            }
        }
        Self::new(gpu, steps, len, false)
    }

    /// Pairs this plan sorts at most (a power of two).
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Compute dispatches recorded per sort (the argument pass included).
    pub fn dispatches(&self) -> usize {
        self.steps.len() + self.indirect as usize
    }
}

/// The bind groups of one plan over one pair buffer.
pub(crate) struct SortBinding {
    args: wgpu::BindGroup,
    sort: wgpu::BindGroup,
}

impl SortPass {
    pub fn new(device: &Compiler) -> Self {
        // the argument pass writes the dispatch buffer, which the others use as INDIRECT:
        // it gets a layout of its own (bindings 1, 3 and 4 of sort.wgsl)
        let args_slots: [(u32, BufferSlot); 3] = [
            (1, read_write::<Counters>()),
            (3, read_only::<SortStep>()),
            (4, read_write::<[u32; 3]>()),
        ];
        let args_entries: Vec<_> = args_slots.iter().map(|(b, s)| s.entry(*b, C)).collect();
        let args_layout = layout(device, "sort_args", &args_entries);
        let step = wgpu::BindGroupLayoutEntry {
            binding: 2,
            visibility: C,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<SortStep>() as u64),
            },
            count: None,
        };
        let pairs = read_write::<[u32; 2]>().entry(0, C);
        let counters = read_write::<Counters>().entry(1, C);
        let sort_layout = layout(device, "sort", &[pairs, counters, step]);
        let with_steps = |entry, r: u32| {
            let consts = [("STEPS", r)];
            compute_pipeline(device, Shader::Sort, entry, &[Some(&sort_layout)], &consts)
        };
        SortPass {
            args: compute_pipeline(
                device,
                Shader::Sort,
                "sort_args",
                &[Some(&args_layout)],
                &[],
            ),
            chunk_sort: with_steps("chunk_sort", MAX_SORT_STEPS),
            fused: (1..=MAX_SORT_STEPS)
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
        counters: &dyn super::Binding,
    ) -> SortBinding {
        let args = [
            (1, counters.resource()),
            (3, plan.table.as_entire_binding()),
            (4, plan.dispatch.as_entire_binding()),
        ];
        let step = wgpu::BufferBinding {
            buffer: &plan.uniforms,
            offset: 0,
            size: wgpu::BufferSize::new(std::mem::size_of::<SortStep>() as u64),
        };
        let sort = [
            (0, pairs.as_entire_binding()),
            (1, counters.resource()),
            (2, wgpu::BindingResource::Buffer(step)),
        ];
        SortBinding {
            args: bind(device, "sort_args", &self.args_layout, &args),
            sort: bind(device, "sort", &self.sort_layout, &sort),
        }
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
            super::dispatch_threads(pass, plan.len >> s.steps);
        }
    }

    /// (k, largest stride, steps) of dispatch `i` (None for the argument pass).
    pub fn describe(plan: &SortPlan, i: usize) -> Option<(u32, u32, u32)> {
        let i = i.checked_sub(plan.indirect as usize)?;
        plan.steps.get(i).map(|s| (s.k, s.j, s.steps))
    }
}
