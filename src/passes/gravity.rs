//! Gravity pass: all-pairs accelerations of an effect's particles (N-body mode). Each step
//! first stages the alive particles' positions and masses as the texels of a bodies
//! texture (`shaders/gravity_stage.wgsl`); then every particle sums the pull of all bodies,
//! tiled through workgroup memory (`shaders/gravity.wgsl`) or, where the device has
//! subgroup operations, shared through the subgroups' registers
//! (`shaders/gravity_subgroups.wgsl`); simulate adds the accelerations.

use super::{bind, buffer_entries, dispatch_over_pool, layout, storage_texture, texture};
use super::{compute_pipeline, read_only, read_write, uniform};
use super::{Binding, BufferSlot};
use crate::compiler::Compiler;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::*;

/// Texels a row of the bodies texture (`BODY_ROW` in WGSL): its 256 rows hold
/// [`MAX_NBODY`](crate::effect::MAX_NBODY) bodies.
pub(crate) const BODY_ROW: u32 = 256;

/// Bodies a batch of the subgroup kernel shares by broadcast (`SHARED` in
/// gravity_subgroups.wgsl): it needs subgroups of at least as many lanes.
pub(crate) const SHARED_LANES: u32 = 8;

/// Format of the bodies texture: xyz position, w mass.
const BODY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// gravity_stage.wgsl's group 0 buffers, in binding order (the bodies texture follows).
pub(super) fn stage_slots() -> [BufferSlot; 4] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<Counters>(),
        uniform::<EffectParams>(),
    ]
}

/// gravity.wgsl's (and gravity_subgroups.wgsl's) group 0 buffers, in binding order (the
/// bodies texture follows).
pub(super) fn slots() -> [BufferSlot; 4] {
    [
        read_only::<u32>(),
        read_write::<Counters>(),
        uniform::<EffectParams>(),
        read_write::<[f32; 4]>(),
    ]
}

/// The layout entries of `buffers` and then the bodies texture, as `texture` makes it at
/// the binding after them.
fn entries(
    buffers: &[BufferSlot],
    texture: impl Fn(u32) -> wgpu::BindGroupLayoutEntry,
) -> Vec<wgpu::BindGroupLayoutEntry> {
    let mut entries = buffer_entries(C, buffers);
    entries.push(texture(buffers.len() as u32));
    entries
}

/// An effect's bind groups for the gravity step: staging into its bodies texture, and the
/// all-pairs kernel reading it (two groups, so the kernel's dispatch waits for the stage).
pub(crate) struct GravityGroups {
    stage: wgpu::BindGroup,
    pairs: wgpu::BindGroup,
}

pub(crate) struct GravityPass {
    stage_layout: wgpu::BindGroupLayout,
    stage: wgpu::ComputePipeline,
    pairs_layout: wgpu::BindGroupLayout,
    pairs: wgpu::ComputePipeline,
}

impl GravityPass {
    /// The subgroup kernel where `device` has the `SUBGROUP` feature and its subgroups
    /// hold at least [`SHARED_LANES`] lanes, else the tiled one.
    pub fn new(device: &Compiler) -> Self {
        let written = |b| storage_texture(b, BODY_FORMAT, C);
        let stage_layout = layout(device, "gravity stage", &entries(&stage_slots(), written));
        let unfilterable = wgpu::TextureSampleType::Float { filterable: false };
        let read = |b| texture(b, unfilterable, C);
        let pairs_layout = layout(device, "gravity", &entries(&slots(), read));
        let subgroups = device.features().contains(wgpu::Features::SUBGROUP)
            && device.adapter_info().subgroup_min_size >= SHARED_LANES;
        let shader = match subgroups {
            true => Shader::GravitySubgroups,
            false => Shader::Gravity,
        };
        let stage_shader = Shader::GravityStage;
        GravityPass {
            stage: compute_pipeline(device, stage_shader, "main", &[Some(&stage_layout)], &[]),
            pairs: compute_pipeline(device, shader, "main", &[Some(&pairs_layout)], &[]),
            stage_layout,
            pairs_layout,
        }
    }

    /// Bind groups over alive list `current` (the particles simulate will move), with a
    /// bodies texture of `pool`'s capacity.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        current: usize,
        effect: &wgpu::Buffer,
    ) -> GravityGroups {
        let rows = pool.capacity.div_ceil(BODY_ROW).max(1);
        let usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING;
        let size = (BODY_ROW, rows);
        let bodies =
            crate::gpu::texture_2d(device, "flurry.gravity_bodies", size, BODY_FORMAT, usage);
        let view = bodies.create_view(&Default::default());
        let texel = || wgpu::BindingResource::TextureView(&view);
        let stage = [
            (0, pool.particles.resource()),
            (1, pool.alive[current].resource()),
            (2, pool.counters.resource()),
            (3, effect.as_entire_binding()),
            (4, texel()),
        ];
        let pairs = [
            (0, pool.alive[current].resource()),
            (1, pool.counters.resource()),
            (2, effect.as_entire_binding()),
            (3, pool.accel.as_entire_binding()),
            (4, texel()),
        ];
        GravityGroups {
            stage: bind(device, "gravity stage", &self.stage_layout, &stage),
            pairs: bind(device, "gravity", &self.pairs_layout, &pairs),
        }
    }

    /// The stage, then the kernel: one thread per alive particle each (the simulate
    /// dispatch, sized on the GPU).
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        groups: &GravityGroups,
        pool: &ParticlePool,
    ) {
        let offset = IndirectArgs::SIM_OFFSET;
        dispatch_over_pool(pass, &self.stage, &[&groups.stage], pool, offset);
        dispatch_over_pool(pass, &self.pairs, &[&groups.pairs], pool, offset);
    }
}
