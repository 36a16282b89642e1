//! A crowd's GPU side: its map's distance field and a flow field per destination (computed
//! at the effect's first frame), a walker per particle slot, the state table, and the crowd
//! pass's bind group.

use std::sync::atomic::{AtomicBool, Ordering};
use wgpu::util::DeviceExt;

use super::{CityMap, DistanceField, FlowField, WallCost};
use crate::effect::{Crowd, STATE_TEXELS};
use crate::error::{Invalid, Result};
use crate::passes::crowd::CrowdInputs;
use crate::passes::grid::NeighbourGrid;
use crate::pipelines::Pipelines;
use crate::pool::ParticlePool;
use crate::types::{uniform_bytes, Walker};

pub(crate) struct Walkers {
    field: DistanceField,
    flows: Vec<FlowField>,
    /// A [`Walker`] per particle slot.
    walkers: wgpu::Buffer,
    bind: wgpu::BindGroup,
    /// The fields were recorded (they are computed once).
    navigated: AtomicBool,
    _kept: (wgpu::Buffer, wgpu::Buffer, wgpu::TextureView),
}

/// What [`Walkers::new`] builds on.
pub(crate) struct WalkerInputs<'a> {
    pub pool: &'a ParticlePool,
    pub grid: &'a NeighbourGrid,
    /// The system's frame uniforms.
    pub frame: &'a dyn crate::passes::Binding,
    /// The effect's random seed.
    pub seed: u32,
}

impl Walkers {
    /// The crowd's map, fields and walkers (nothing computed until recorded).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        p: &Pipelines,
        crowd: &Crowd,
        inputs: WalkerInputs<'_>,
    ) -> Result<Self> {
        let map: CityMap = crowd.map()?;
        let goals = crowd.destinations_on(&map);
        if goals.is_empty() {
            let allowed = "a city with street cells beside its buildings";
            return Err(Invalid::new("crowd.city", "no doors to walk to", allowed).into());
        }
        let field = DistanceField::build(p.sdf(), device, &map)?;
        let (width, height) = map.size();
        let cells = width as u64 * height as u64;
        let size = cells * 16 * goals.len() as u64;
        let limit = device.limits().max_storage_buffer_binding_size;
        if size > limit {
            let allowed = format!("at most {limit} bytes of flow fields on this device");
            let value = format!("{} destinations × {width} × {height} cells", goals.len());
            return Err(Invalid::new("crowd", value, allowed).into());
        }
        let way = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.crowd_way"),
            size,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        // the passes past the settling run empty
        let passes = FlowField::passes_for(&map);
        let flows = (0u32..)
            .zip(&goals)
            .map(|(k, &goal)| {
                let output = Some((&way, k * cells as u32));
                let cost = WallCost::default();
                let target = (&[goal][..], cost, passes);
                FlowField::build(device, (&map, &field), target, (p.flow(), output))
            })
            .collect::<Result<Vec<_>>>()?;
        let pool = inputs.pool;
        let walkers = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.walkers"),
            size: pool.capacity as u64 * std::mem::size_of::<Walker>() as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let params = crowd.params(&map, &goals, inputs.seed);
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("flurry.crowd"),
            contents: &uniform_bytes(&params),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let table = crowd.state_table();
        let size = (STATE_TEXELS as u32, crowd.states.len() as u32);
        let view = crate::passes::table_texture(device, queue, "flurry.crowd_states", size, &table);
        let bind = p.crowd().bind(
            device,
            pool,
            inputs.grid,
            CrowdInputs {
                params: &params,
                frame: inputs.frame,
                walkers: &walkers,
                way: &way,
                sdf: field.buffer(),
                states: &view,
            },
        );
        Ok(Walkers {
            field,
            flows,
            walkers,
            bind,
            navigated: AtomicBool::new(false),
            _kept: (params, way, view),
        })
    }

    /// Whether the navigation fields are still to be recorded.
    pub fn needs_navigation(&self) -> bool {
        !self.navigated.load(Ordering::Relaxed)
    }

    /// Record the distance field and the flow fields (once: the first frame).
    pub fn record_navigation(&self, pass: &mut wgpu::ComputePass) {
        if self.navigated.swap(true, Ordering::Relaxed) {
            return;
        }
        self.field.dispatch(pass);
        for flow in &self.flows {
            flow.dispatch(pass);
        }
    }

    /// Record the crowd pass.
    pub fn record(&self, p: &Pipelines, pass: &mut wgpu::ComputePass, pool: &ParticlePool) {
        p.crowd().record(pass, &self.bind, pool);
    }

    /// Every slot's walker. Blocks.
    pub fn read(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Vec<Walker>> {
        let size = self.walkers.size();
        let bytes = crate::readback::read_buffer(device, queue, &self.walkers, 0, size)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }
}
