//! A map's signed distance field, computed on the GPU by jump flooding.

use wgpu::util::DeviceExt;

use super::CityMap;
use crate::error::{Invalid, Result};
use crate::passes::sdf::{jump_steps, SdfPass, Stage};
use crate::types::{uniform_bytes, SdfParams};

/// The signed distance field of a [`CityMap`]: per cell, metres from its centre to the
/// nearest wall, positive in the streets, negative inside buildings (the map's edge is a
/// wall). Built on the GPU by jump flooding, within a cell of the exact distance: `new`
/// uploads the map, [`DistanceField::record`] records the computation into the host's
/// encoder, [`DistanceField::read`] reads the result back (tools and tests).
pub struct DistanceField {
    pass: std::sync::Arc<SdfPass>,
    cells: u32,
    /// (stage, bind group) in order.
    stages: Vec<(Stage, wgpu::BindGroup)>,
    field: wgpu::Buffer,
    _buffers: Vec<wgpu::Buffer>,
}

impl DistanceField {
    /// The field of `map`, its buffers on `device` (nothing computed until recorded).
    pub fn new(device: &wgpu::Device, map: &CityMap) -> Result<Self> {
        Self::build(
            &std::sync::Arc::new(SdfPass::new(&crate::compiler::Compiler::new(device))),
            device,
            map,
        )
    }

    /// [`DistanceField::new`] through a renderer's shared pipelines.
    pub(crate) fn build(
        pass: &std::sync::Arc<SdfPass>,
        device: &wgpu::Device,
        map: &CityMap,
    ) -> Result<Self> {
        let (width, height) = map.size();
        let cells = width * height;
        // the seeds, two cell indices a cell, are the largest binding
        let limit = device.limits().max_storage_buffer_binding_size;
        if cells as u64 * 8 > limit {
            let allowed = format!(
                "at most {} cells on this device (8 bytes a cell)",
                limit / 8
            );
            return Err(Invalid::new("map", format!("{width} × {height} cells"), allowed).into());
        }
        let pass = pass.clone();
        let storage = wgpu::BufferUsages::STORAGE;
        let blocked: Vec<u32> = map.blocked().iter().map(|&b| b as u32).collect();
        let blocked = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("flurry.map_blocked"),
            contents: bytemuck::cast_slice(&blocked),
            usage: storage,
        });
        let buffer = |label: &str, size: u64, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let seeds = [0, 1].map(|_| buffer("flurry.sdf_seeds", cells as u64 * 8, storage));
        let field = buffer(
            "flurry.sdf",
            cells as u64 * 4,
            storage | wgpu::BufferUsages::COPY_SRC,
        );
        let params = |step: u32| {
            let p = SdfParams {
                width,
                height,
                step,
                cell: map.cell(),
            };
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("flurry.sdf_params"),
                contents: &uniform_bytes(&p),
                usage: wgpu::BufferUsages::UNIFORM,
            })
        };
        // init writes seeds[0]; each jump reads the last one written and writes the other
        let mut kept = Vec::new();
        let mut stages = Vec::new();
        let mut written = 0;
        let init = params(0);
        let bind = pass.bind(device, [&blocked, &seeds[1], &seeds[0], &init, &field]);
        stages.push((Stage::Init, bind));
        kept.push(init);
        for step in jump_steps(width, height) {
            let p = params(step);
            let (read, write) = (&seeds[written], &seeds[1 - written]);
            stages.push((
                Stage::Jump,
                pass.bind(device, [&blocked, read, write, &p, &field]),
            ));
            kept.push(p);
            written = 1 - written;
        }
        let p = params(0);
        let (read, write) = (&seeds[written], &seeds[1 - written]);
        stages.push((
            Stage::Distance,
            pass.bind(device, [&blocked, read, write, &p, &field]),
        ));
        kept.push(p);
        kept.push(blocked);
        kept.extend(seeds);
        Ok(DistanceField {
            pass,
            cells,
            stages,
            field,
            _buffers: kept,
        })
    }

    /// Record the flooding (a few dispatches per doubling of the map's side).
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder) {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("flurry.sdf"),
            timestamp_writes: None,
        });
        self.dispatch(&mut pass);
    }

    /// Record the flooding into an open compute pass (a crowd's first frame).
    pub(crate) fn dispatch(&self, pass: &mut wgpu::ComputePass) {
        for (stage, bind) in &self.stages {
            self.pass.record(pass, stage, bind, self.cells);
        }
    }

    /// The field, metres per cell row by row, after a recorded computation was submitted.
    /// Blocks.
    pub fn read(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Vec<f32>> {
        let size = self.cells as u64 * 4;
        let bytes = crate::readback::read_buffer(device, queue, &self.field, 0, size)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    /// The field's buffer (an f32 per cell, row by row), for passes that read it.
    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.field
    }
}
