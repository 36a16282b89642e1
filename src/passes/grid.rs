//! The neighbour grid (`shaders/grid.wgsl`, with `shaders/scan.wgsl`'s prefix sum): every
//! alive particle binned by a counting sort into an unbounded uniform grid of cells one
//! neighbour radius wide (laid out in a table of buckets by the cells' Morton codes), rebuilt on the GPU each time it is recorded (no read-back), so a
//! particle finds its neighbours in the 27 cells around its own. Recorded after emit,
//! before simulate (which is where neighbours act), over the alive count the simulate
//! dispatch is sized from.

use super::Binding;
use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_over_pool};
use super::{read_only, read_write, uniform, BufferSlot};
use crate::compiler::Compiler;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::ScanParams;
use crate::types::{uniform_bytes, Counters, GridEntry, GridParams, IndirectArgs, Particle};
use crate::uploads::Uploads;

/// grid.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 9] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<Counters>(),
        read_write::<u32>(),
        read_write::<u32>(),
        read_write::<u32>(),
        read_write::<GridEntry>(),
        uniform::<GridParams>(),
        read_write::<[u32; 2]>(),
    ]
}

/// scan.wgsl's group 0, in binding order.
pub(super) fn scan_slots() -> [BufferSlot; 3] {
    [
        read_write::<u32>(),
        read_write::<u32>(),
        uniform::<ScanParams>(),
    ]
}

/// Values one scan workgroup sums (`SCAN_BLOCK` in scan.wgsl).
const SCAN_BLOCK: u32 = 512;

/// Buckets of the grid of a pool of `capacity`: a power of two, at least twice the pool
/// (so that few cells share one).
pub(crate) fn table_size(capacity: u32) -> u32 {
    (2 * capacity.max(32)).next_power_of_two()
}

/// The grid's pipelines (one set per renderer).
pub(crate) struct GridPasses {
    layout: wgpu::BindGroupLayout,
    scan_layout: wgpu::BindGroupLayout,
    clear: wgpu::ComputePipeline,
    count: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    /// The query as the tests check it.
    #[cfg(test)]
    count_neighbours: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    add: wgpu::ComputePipeline,
}

impl GridPasses {
    pub fn new(device: &Compiler) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "grid", c, &slots());
        let scan_layout = buffer_layout(device, "scan", c, &scan_slots());
        let grid = |entry| compute_pipeline(device, Shader::Grid, entry, &[Some(&layout)], &[]);
        let scan =
            |entry| compute_pipeline(device, Shader::Scan, entry, &[Some(&scan_layout)], &[]);
        GridPasses {
            clear: grid("clear"),
            count: grid("count"),
            scatter: grid("scatter"),
            #[cfg(test)]
            count_neighbours: grid("count_neighbours"),
            scan: scan("scan"),
            add: scan("add"),
            layout,
            scan_layout,
        }
    }
}

/// One level of the prefix sum: its bind group and how many blocks it scans.
struct ScanLevel {
    bind: wgpu::BindGroup,
    blocks: u32,
}

/// One pool's neighbour grid: its buffers and bind groups.
pub(crate) struct NeighbourGrid {
    table: u32,
    /// Two alike: consecutive passes over the same buffers bind different groups, so that
    /// each waits for the one before (a dispatch that rebinds nothing gets no barrier).
    binds: [wgpu::BindGroup; 2],
    /// Bottom level first: the buckets, then each level's block sums.
    levels: Vec<ScanLevel>,
    /// Kept alive for the bind groups: `found` (per particle slot (neighbours, sum of their
    /// indices), written by `count_neighbours`, which only the tests run: one entry
    /// elsewhere), the buckets, the entries, the params, then the rest.
    _buffers: Vec<wgpu::Buffer>,
}

impl NeighbourGrid {
    /// The grid of `pool`'s alive particles with neighbours within `radius` metres.
    /// (its parameters written as the next frame is recorded: [`Uploads::buffer_init`])
    pub fn new(
        (device, uploads): (&wgpu::Device, &mut Uploads),
        p: &GridPasses,
        pool: &ParticlePool,
        radius: f32,
    ) -> Self {
        let n = pool.capacity as u64;
        let table = table_size(pool.capacity);
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let buffer = |label: &str, size: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: storage,
                mapped_at_creation: false,
            })
        };
        let mut uniform_init = |label: &str, bytes: &[u8]| {
            uploads.buffer_init(device, label, bytes, wgpu::BufferUsages::UNIFORM)
        };
        let buckets = buffer("flurry.grid_buckets", (table as u64 + 1) * 4);
        let entry_bucket = buffer("flurry.grid_entry_bucket", n * 4);
        let entry_rank = buffer("flurry.grid_entry_rank", n * 4);
        let entries = buffer("flurry.grid_entries", n * size_of::<GridEntry>() as u64);
        let found_entries = if cfg!(test) { n } else { 1 };
        let found = buffer("flurry.grid_found", found_entries * 8);
        let params = GridParams {
            cell: radius,
            radius,
            mask: table - 1,
            table,
        };
        let params = uniform_init("flurry.grid", &uniform_bytes(&params));
        let buffers: [&dyn Binding; _] = [
            &pool.particles,
            &pool.alive[0],
            &pool.counters,
            &buckets,
            &entry_bucket,
            &entry_rank,
            &entries,
            &params,
            &found,
        ];
        let binds = [0, 1].map(|_| bind_buffers(device, "grid", &p.layout, &buffers));
        // the scan's levels: the buckets (and the total after them), then each level's
        // block sums, until one block holds a level
        let mut levels = Vec::new();
        let mut kept = vec![found, buckets, entries, params, entry_bucket, entry_rank];
        let mut data_index = 1;
        let mut count = table + 1;
        loop {
            let blocks = count.div_ceil(SCAN_BLOCK);
            let sums = buffer("flurry.scan_sums", blocks as u64 * 4);
            let level = ScanParams {
                count,
                ..Default::default()
            };
            let level = uniform_init("flurry.scan", &uniform_bytes(&level));
            let bind = bind_buffers(
                device,
                "scan",
                &p.scan_layout,
                &[&kept[data_index], &sums, &level],
            );
            levels.push(ScanLevel { bind, blocks });
            kept.push(level);
            kept.push(sums);
            data_index = kept.len() - 1;
            if blocks == 1 {
                break;
            }
            count = blocks;
        }
        NeighbourGrid {
            table,
            binds,
            levels,
            _buffers: kept,
        }
    }

    /// Bin the pool's alive particles (sized from its alive count on the GPU).
    pub fn record(&self, p: &GridPasses, pass: &mut wgpu::ComputePass, pool: &ParticlePool) {
        pass.set_pipeline(&p.clear);
        pass.set_bind_group(0, &self.binds[0], &[]);
        super::dispatch_threads(pass, self.table + 1);
        over_alive(pass, &p.count, &self.binds[1], pool);
        // the prefix sum, level by level up, then its totals added back down
        pass.set_pipeline(&p.scan);
        for level in &self.levels {
            pass.set_bind_group(0, &level.bind, &[]);
            dispatch_blocks(pass, level.blocks);
        }
        pass.set_pipeline(&p.add);
        for level in self.levels.iter().rev().skip(1) {
            pass.set_bind_group(0, &level.bind, &[]);
            dispatch_blocks(pass, level.blocks);
        }
        over_alive(pass, &p.scatter, &self.binds[0], pool);
    }

    /// Per bucket its first entry (after [`NeighbourGrid::record`]), then the total.
    /// Buckets in its table.
    pub fn table(&self) -> u32 {
        self.table
    }

    pub fn buckets(&self) -> &wgpu::Buffer {
        &self._buffers[1]
    }

    /// The alive particles bucket by bucket ([`GridEntry`]).
    pub fn entries(&self) -> &wgpu::Buffer {
        &self._buffers[2]
    }

    /// The grid's [`GridParams`] uniform.
    pub fn params(&self) -> &wgpu::Buffer {
        &self._buffers[3]
    }

    /// Per particle slot: (neighbours, sum of their indices), after
    /// [`NeighbourGrid::record_count_neighbours`].
    #[cfg(test)]
    pub fn found(&self) -> &wgpu::Buffer {
        &self._buffers[0]
    }

    /// For every alive particle, count its neighbours within the radius and sum their
    /// indices into [`NeighbourGrid::found`] (the query the tests check); after
    /// [`NeighbourGrid::record`].
    #[cfg(test)]
    pub fn record_count_neighbours(
        &self,
        p: &GridPasses,
        pass: &mut wgpu::ComputePass,
        pool: &ParticlePool,
    ) {
        over_alive(pass, &p.count_neighbours, &self.binds[1], pool);
    }
}

/// One thread per alive particle, sized as simulate is (the grid is built before it).
fn over_alive(
    pass: &mut wgpu::ComputePass,
    pipeline: &wgpu::ComputePipeline,
    bind: &wgpu::BindGroup,
    pool: &ParticlePool,
) {
    dispatch_over_pool(pass, pipeline, &[bind], pool, IndirectArgs::SIM_OFFSET);
}

/// One scan workgroup per block (in rows past the dispatch limit, as `linear_index`).
fn dispatch_blocks(pass: &mut wgpu::ComputePass, blocks: u32) {
    let [x, y, z] = crate::types::dispatch_size(blocks * crate::types::WORKGROUP);
    pass.dispatch_workgroups(x, y, z);
}
