//! Walking distances to a destination over a map, computed on the GPU.

use wgpu::util::DeviceExt;

use super::{CityMap, DistanceField};
use crate::error::{Invalid, Result};
use crate::passes::flow::{tiles_size, FlowPass, TILE};
use crate::types::{uniform_bytes, FlowParams};

/// How much dearer a step against a wall is than one in the open, and over how many metres
/// the extra fades ([`FlowField`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallCost {
    /// Extra weight against a wall: 0 (none) ..= 100.
    pub extra: f32,
    /// Metres from the wall over which it fades: 0.01..=1000.
    pub range: f32,
}

impl Default for WallCost {
    /// Three times dearer against a wall, fading over 3 m.
    fn default() -> Self {
        WallCost {
            extra: 2.0,
            range: 3.0,
        }
    }
}

/// The walking distance (metres, weighted by [`WallCost`]) from every street cell of a
/// [`CityMap`] to the nearest of some destination cells, over each cell's eight neighbours
/// without cutting a building's corner: what walkers follow downhill. Built on the GPU by a
/// block fast iterative method (the map in tiles of 16 × 16 cells, each swept in workgroup
/// memory until it settles, and taken up again only when a tile beside it lowers its
/// cells), then the way to walk from every cell (the flow field proper): the same distances
/// as Dijkstra's, but for rounding. `new` uploads the destinations,
/// [`FlowField::record`] records the computation into the host's encoder, [`FlowField::read`]
/// reads the distances and directions back and says whether they settled.
pub struct FlowField {
    pass: std::sync::Arc<FlowPass>,
    binds: [wgpu::BindGroup; 4],
    cells: u32,
    tiles: u32,
    passes: u32,
    /// The list the last pass fills (its count first): empty once the field settled.
    last_list: wgpu::Buffer,
    /// From cell `base` on, per cell: the unit step (x, z) its shortest way takes and its
    /// distance (a buffer of its own, or the one a crowd's fields share).
    way: wgpu::Buffer,
    base: u32,
    /// The passes' indirect dispatch (emptied once the field settles), and its group.
    args: wgpu::Buffer,
    args_bind: wgpu::BindGroup,
    _buffers: Vec<wgpu::Buffer>,
}

/// What [`FlowField::read`] gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Distances {
    /// Metres per cell, row by row; [`Distances::UNREACHED`] where no way leads.
    pub metres: Vec<f32>,
    /// Per cell the way to walk: the unit step (x, z) towards the neighbour its shortest way
    /// leaves through; zero at a destination, in buildings and where no way leads.
    pub directions: Vec<[f32; 2]>,
    /// Tiles the last pass still listed for another (cells around them were lowered): 0
    /// when every distance is exact.
    pub unsettled: u32,
}

impl Distances {
    /// The distance of a cell no way leads from (blocked, or walled off).
    pub const UNREACHED: f32 = 3.0e38;
}

impl FlowField {
    /// The field towards `goals` (cells (x, z), each a street cell of `map`) over `field`,
    /// the map's [`DistanceField`] (recorded before this one), in at most `passes` passes
    /// (1..=65536). A pass carries the distances across a tile of 16 × 16 cells, so a way
    /// that crosses n tiles needs about n; the passes left once the field settles are
    /// dispatched empty. [`FlowField::passes_for`] is plenty for a city of streets.
    pub fn new(
        device: &wgpu::Device,
        map: &CityMap,
        field: &DistanceField,
        goals: &[(u32, u32)],
        cost: WallCost,
        passes: u32,
    ) -> Result<Self> {
        let pass = std::sync::Arc::new(FlowPass::new(&crate::compiler::Compiler::new(device)));
        let target = (goals, cost, passes);
        Self::build(device, (map, field), target, (&pass, None))
    }

    /// Passes enough for the ways of a city of streets on `map`: twice the tiles across and
    /// down, and at least 8. A maze may need more; [`Distances::unsettled`] says so.
    pub fn passes_for(map: &CityMap) -> u32 {
        let (width, height) = map.size();
        (2 * (width.div_ceil(TILE) + height.div_ceil(TILE))).max(8)
    }

    /// [`FlowField::new`] through a renderer's shared `pass`, writing its way into `way`
    /// from cell `base` on (`None`: a buffer of its own): a crowd's fields share one
    /// buffer, one field after another.
    pub(crate) fn build(
        device: &wgpu::Device,
        (map, field): (&CityMap, &DistanceField),
        (goals, cost, passes): (&[(u32, u32)], WallCost, u32),
        (pass, way): (&std::sync::Arc<FlowPass>, Option<(&wgpu::Buffer, u32)>),
    ) -> Result<Self> {
        let (width, height) = map.size();
        if goals.is_empty() {
            return Err(Invalid::new("goals", "none", "at least one street cell").into());
        }
        for (i, &(x, z)) in goals.iter().enumerate() {
            if map.is_blocked(x as i64, z as i64) {
                let allowed = format!("a street cell within {width} × {height}");
                return Err(
                    Invalid::new(format!("goals[{i}]"), format!("({x}, {z})"), allowed).into(),
                );
            }
        }
        if !(0.0..=100.0).contains(&cost.extra) {
            return Err(Invalid::new("cost.extra", cost.extra, "0..=100").into());
        }
        if !(0.01..=1000.0).contains(&cost.range) {
            return Err(Invalid::new("cost.range", cost.range, "0.01..=1000 m").into());
        }
        if !(1..=65536).contains(&passes) {
            return Err(Invalid::new("passes", passes, "1..=65536").into());
        }
        let cells = width * height;
        let mut codes: Vec<u32> = map.blocked().iter().map(|&b| b as u32).collect();
        for &(x, z) in goals {
            codes[(z * width + x) as usize] = 2;
        }
        let storage = wgpu::BufferUsages::STORAGE;
        let codes = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("flurry.flow_cells"),
            contents: bytemuck::cast_slice(&codes),
            usage: storage,
        });
        let (tiles_x, tiles_y) = (width.div_ceil(TILE), height.div_ceil(TILE));
        let params = FlowParams {
            width,
            height,
            cell: map.cell(),
            wall: cost.extra,
            range: cost.range,
            tiles_x,
            tiles_y,
            base: way.map_or(0, |w| w.1),
        };
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("flurry.flow_params"),
            contents: &uniform_bytes(&params),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let readable = storage | wgpu::BufferUsages::COPY_SRC;
        let buffer = |label: &str, size: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: readable,
                mapped_at_creation: false,
            })
        };
        let dist = buffer("flurry.flow_distance", cells as u64 * 4);
        let tiles = tiles_x * tiles_y;
        let lists = [0, 1].map(|_| buffer("flurry.flow_tiles", tiles_size(tiles)));
        let (way, base) = match way {
            Some((buffer, base)) => (buffer.clone(), base),
            None => (buffer("flurry.flow_way", cells as u64 * 16), 0),
        };
        let args = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.flow_args"),
            size: 12,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT,
            mapped_at_creation: false,
        });
        let pass = pass.clone();
        let sdf = field.buffer();
        let bind = |from: usize| {
            let (tiles_in, tiles_out) = (&lists[from], &lists[1 - from]);
            let buffers = [&codes, sdf, &dist, &params, &way, tiles_in, tiles_out];
            pass.bind(device, buffers)
        };
        let args_bind = pass.bind_args(device, &args);
        // the last two, alike, are the gates' (see FlowPass::record)
        let binds = [bind(0), bind(1), bind(0), bind(1)];
        // pass p fills list 1 - p % 2
        let last_list = lists[1 - (passes as usize - 1) % 2].clone();
        Ok(FlowField {
            pass,
            binds,
            cells,
            tiles,
            passes,
            last_list,
            way,
            base,
            args,
            args_bind,
            _buffers: [codes, params, dist].into_iter().chain(lists).collect(),
        })
    }

    /// Record the computation (after the [`DistanceField`]'s).
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder) {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("flurry.flow"),
            timestamp_writes: None,
        });
        self.dispatch(&mut pass);
    }

    /// Record the computation into an open compute pass (a crowd's first frame).
    pub(crate) fn dispatch(&self, pass: &mut wgpu::ComputePass) {
        let work = (self.cells, self.tiles, self.passes);
        self.pass
            .record(pass, &self.binds, work, (&self.args, &self.args_bind));
    }

    /// The distances and directions after a recorded computation was submitted. Blocks.
    pub fn read(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Distances> {
        let (size, from) = (self.cells as u64 * 16, self.base as u64 * 16);
        let way = crate::readback::read_buffer(device, queue, &self.way, from, size)?;
        let way: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(&way);
        let changed = crate::readback::read_buffer(device, queue, &self.last_list, 0, 4)?;
        Ok(Distances {
            metres: way.iter().map(|w| w[2]).collect(),
            directions: way.iter().map(|w| [w[0], w[1]]).collect(),
            unsettled: u32::from_le_bytes([changed[0], changed[1], changed[2], changed[3]]),
        })
    }
}
