//! Cull pass (`shaders/cull.wgsl`): frustum test of every alive particle; visible ones go
//! to the pool's visible list as (distance key, index), or to its splat list when they are
//! small enough on screen for the compute splat (`shaders/splat.wgsl`); ribbon points go
//! to its ribbon list.

use super::Binding;
use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_over_alive};
use super::{read_only, read_write, uniform, BufferSlot};
use crate::compiler::Compiler;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::*;

/// cull.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 10] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<[u32; 2]>(),
        read_write::<Counters>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        read_write::<u32>(),
        read_write::<[u32; 2]>(),
        read_write::<Counters>(), // DrawCounters, of the same size
        read_only::<InstanceGpu>(),
    ]
}

/// The render modes one effect's cull compiles in (CPU drivers run every branch under a
/// mask, so a mode no emitter uses would cost its work for every particle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct CullVariant {
    /// Some emitter's particles are ribbon points.
    pub ribbons: bool,
    /// Some emitter's particles are meshes.
    pub meshes: bool,
    /// Some emitter's particles are streaks.
    pub stretched: bool,
    /// The effect is placed as instances (each culled as a whole by its bounds).
    pub instanced: bool,
    /// Its pool lists its dots apart (one with buffers of its own, culled into its own
    /// lists): cull_test.wgsl `DOTS`. A merged list's cull never does.
    pub dots: bool,
}

impl CullVariant {
    /// How many variants there are ([`CullVariant::index`] is below it).
    pub const COUNT: usize = 32;

    /// The variant for an effect's encoded looks (every emitter slot's, the unused ones
    /// carrying the effect's own render mode).
    pub fn of(params: &EffectParams) -> Self {
        let any = |mode| params.looks.iter().any(|l| l.render_mode == mode);
        CullVariant {
            ribbons: any(RENDER_RIBBON),
            meshes: any(RENDER_MESH),
            stretched: any(RENDER_STRETCHED),
            instanced: false,
            dots: false,
        }
    }

    /// The variant culling the particles of effects of `variants` together: every render
    /// mode any of them shows, placed as instances if any is.
    pub fn merged(variants: impl Iterator<Item = CullVariant>) -> Self {
        variants.fold(CullVariant::default(), |a, v| CullVariant {
            ribbons: a.ribbons | v.ribbons,
            meshes: a.meshes | v.meshes,
            stretched: a.stretched | v.stretched,
            instanced: a.instanced | v.instanced,
            dots: a.dots | v.dots,
        })
    }

    /// A dense index below [`CullVariant::COUNT`].
    pub fn index(self) -> usize {
        let bits = [
            self.ribbons,
            self.meshes,
            self.stretched,
            self.instanced,
            self.dots,
        ];
        super::variant_bits(&bits)
    }

    /// Every variant (tests validate each).
    #[cfg(test)]
    pub fn all() -> impl Iterator<Item = CullVariant> {
        (0..Self::COUNT).map(|i| CullVariant {
            ribbons: i & 1 == 1,
            meshes: i & 2 == 2,
            stretched: i & 4 == 4,
            instanced: i & 8 == 8,
            dots: i & 16 == 16,
        })
    }

    /// cull.wgsl's constants for it.
    pub fn consts(self) -> [(&'static str, u32); 5] {
        [
            ("RIBBONS", self.ribbons as u32),
            ("MESHES", self.meshes as u32),
            ("STRETCHED", self.stretched as u32),
            ("INSTANCED", self.instanced as u32),
            ("DOTS", self.dots as u32),
        ]
    }
}

pub(crate) struct CullPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl CullPass {
    /// `variant`'s pipeline over `layout` (cull.wgsl's group 0, shared by every variant).
    pub fn new(device: &Compiler, variant: CullVariant, layout: &wgpu::BindGroupLayout) -> Self {
        let consts = variant.consts();
        let layouts = [Some(layout)];
        let pipeline = compute_pipeline(device, Shader::Cull, "main", &layouts, &consts);
        let layout = layout.clone();
        CullPass { layout, pipeline }
    }

    /// cull.wgsl's group 0.
    pub fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
        buffer_layout(device, "cull", wgpu::ShaderStages::COMPUTE, &slots())
    }

    /// Bind group testing the particles of alive list `live`.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        live: usize,
        (frame, effect, instances): (&dyn Binding, &wgpu::Buffer, &wgpu::Buffer),
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "cull",
            &self.layout,
            &[
                &pool.particles,
                &pool.alive[live],
                &pool.visible,
                &pool.counters,
                frame,
                effect,
                &pool.splat,
                &pool.ribbon_list,
                &pool.draw_counters,
                instances,
            ],
        )
    }

    /// Indirect dispatch sized on the GPU from the alive count.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        dispatch_over_alive(pass, &self.pipeline, bind, pool);
    }
}
