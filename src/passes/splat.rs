//! Splat pass (`shaders/splat.wgsl`): particles a few pixels across drawn by compute into
//! per-pixel accumulators, then resolved into the particle target (which the draw pass
//! then loads instead of clearing).

use super::{
    bind_buffers, compute_pipeline_with, dispatch_from_args, layout, storage, texture, uniform,
};
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::IndirectArgs;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// u32 accumulators per particle-target texel (`ACCUM_CHANNELS` in splat.wgsl).
pub const ACCUM_CHANNELS: u64 = 8;

/// A particle target's accumulators and the bind groups over them.
pub struct SplatTarget {
    size: (u32, u32),
    _accum: wgpu::Buffer,
    splat: wgpu::BindGroup,
    resolve: wgpu::BindGroup,
}

pub struct SplatPass {
    layout: wgpu::BindGroupLayout,
    target_layout: wgpu::BindGroupLayout,
    resolve_layout: wgpu::BindGroupLayout,
    splat: wgpu::ComputePipeline,
    resolve: wgpu::ComputePipeline,
}

impl SplatPass {
    pub fn new(device: &wgpu::Device) -> Self {
        let system_layout = layout(
            device,
            "splat",
            &[
                storage(0, true, C),
                storage(1, true, C),
                storage(2, false, C),
                uniform(3, C),
                uniform(4, C),
            ],
        );
        let depth = wgpu::TextureSampleType::Float { filterable: false };
        let [sprites, sampler] = crate::sprites::layout_entries(3, C);
        let target_layout = layout(
            device,
            "splat_target",
            &[texture(0, depth, C), storage(1, false, C), sprites, sampler],
        );
        let resolve_layout = layout(
            device,
            "splat_resolve",
            &[
                storage(1, false, C),
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: C,
                    ty: wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::WriteOnly,
                        format: super::draw::PARTICLE_FORMAT,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    count: None,
                },
            ],
        );
        let splat = compute_pipeline_with(
            device,
            Shader::Splat,
            "main",
            &[&system_layout, &target_layout],
            &[],
        );
        let resolve =
            super::compute_pipeline_at(device, Shader::Splat, "resolve", 1, &resolve_layout);
        SplatPass {
            layout: system_layout,
            target_layout,
            resolve_layout,
            splat,
            resolve,
        }
    }

    /// Bytes of accumulators for a particle target of `size` texels.
    pub fn accum_bytes((w, h): (u32, u32)) -> u64 {
        w as u64 * h as u64 * ACCUM_CHANNELS * 4
    }

    /// The target's accumulators ([`SplatPass::accum_bytes`], zeroed) with the bind groups
    /// of the splat (scene depth, accumulators, sprites) and the resolve (accumulators, the
    /// storage-writable particle colour target).
    pub fn target(
        &self,
        device: &wgpu::Device,
        size: (u32, u32),
        depth: &wgpu::TextureView,
        color: &wgpu::TextureView,
        sprites: &crate::sprites::Sprites,
    ) -> SplatTarget {
        let accum = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.splat_accum"),
            size: Self::accum_bytes(size),
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let entry = |binding, resource| wgpu::BindGroupEntry { binding, resource };
        let splat = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("splat_target"),
            layout: &self.target_layout,
            entries: &[
                entry(0, wgpu::BindingResource::TextureView(depth)),
                entry(1, accum.as_entire_binding()),
                entry(3, wgpu::BindingResource::TextureView(&sprites.view)),
                entry(4, wgpu::BindingResource::Sampler(&sprites.sampler)),
            ],
        });
        let resolve = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("splat_resolve"),
            layout: &self.resolve_layout,
            entries: &[
                entry(1, accum.as_entire_binding()),
                entry(2, wgpu::BindingResource::TextureView(color)),
            ],
        });
        SplatTarget {
            size,
            _accum: accum,
            splat,
            resolve,
        }
    }

    /// Bind group splatting the pool's splat list with its frame and effect constants.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        frame: &wgpu::Buffer,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "splat",
            &self.layout,
            &[&pool.particles, &pool.splat, &pool.counters, frame, effect],
        )
    }

    /// Splat one pool (dispatch sized on the GPU by cull).
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        target: &SplatTarget,
        pool: &ParticlePool,
    ) {
        let groups = [bind, &target.splat];
        dispatch_from_args(pass, &self.splat, &groups, pool, IndirectArgs::SPLAT_OFFSET);
    }

    /// Write every texel of the particle target from the accumulators and zero them.
    ///
    /// The resolve binds the accumulators through its own bind group: wgpu 30 inserts no
    /// barrier before a dispatch whose bind groups were all bound already, so re-binding
    /// the splat's group let the resolve read the sums before the splats had landed
    /// (seen on lavapipe: nothing drawn).
    pub fn record_resolve(&self, pass: &mut wgpu::ComputePass, target: &SplatTarget) {
        let (w, h) = target.size;
        pass.set_pipeline(&self.resolve);
        pass.set_bind_group(1, &target.resolve, &[]);
        pass.dispatch_workgroups(w.div_ceil(8), h.div_ceil(8), 1);
    }
}
