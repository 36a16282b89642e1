//! Self-shadowing (`shaders/shadow.wgsl`): each frame an effect's particles gathered into a
//! coarse density grid around them, the light marched through it, and each particle given
//! the light that reaches it, in its flags (so the draw and the splat need nothing more
//! bound). Recorded after simulate, before cull, for effects lit with shadows.

use super::{bind_buffers, buffer_layout, compute_pipeline, dispatch_over_alive, dispatch_threads};
use super::{read_only, read_write, uniform, Binding, BufferSlot};
use crate::compiler::Compiler;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::{Counters, EffectParams, FrameUniforms, Particle};

/// shadow.wgsl's group 0, in binding order.
pub(super) fn slots() -> [BufferSlot; 6] {
    [
        read_write::<Particle>(),
        read_only::<u32>(),
        read_write::<Counters>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        read_write::<u32>(),
    ]
}

/// Words before the cells in the grid buffer (`HEADER` in shadow.wgsl): the box.
const HEADER: u32 = 8;

/// The passes (one set per renderer).
pub(crate) struct ShadowPass {
    layout: wgpu::BindGroupLayout,
    clear: wgpu::ComputePipeline,
    bounds: wgpu::ComputePipeline,
    deposit: wgpu::ComputePipeline,
    march: wgpu::ComputePipeline,
    apply: wgpu::ComputePipeline,
}

impl ShadowPass {
    pub fn new(device: &Compiler) -> Self {
        let layout = buffer_layout(device, "shadow", wgpu::ShaderStages::COMPUTE, &slots());
        let pipeline =
            |entry| compute_pipeline(device, Shader::Shadow, entry, &[Some(&layout)], &[]);
        ShadowPass {
            clear: pipeline("clear"),
            bounds: pipeline("bounds"),
            deposit: pipeline("deposit"),
            march: pipeline("march"),
            apply: pipeline("apply"),
            layout,
        }
    }
}

/// One effect's grid and the bind groups over it.
pub(crate) struct ShadowGrid {
    cells: u32,
    /// Two alike: each dispatch reads what the one before wrote, so consecutive ones bind
    /// different groups (a dispatch that rebinds nothing gets no barrier before it).
    binds: [wgpu::BindGroup; 2],
    _grid: wgpu::Buffer,
}

impl ShadowGrid {
    /// The grid of `cells`³ cells over `pool`'s alive particles (the live list `cull`
    /// reads), lit through `frame` with `effect`'s constants.
    pub fn new(
        device: &wgpu::Device,
        p: &ShadowPass,
        pool: &ParticlePool,
        cells: u32,
        (frame, effect): (&dyn Binding, &wgpu::Buffer),
    ) -> Self {
        let words = HEADER + 2 * cells.pow(3);
        let grid = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.shadow_grid"),
            size: words as u64 * 4,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let buffers: [&dyn Binding; 6] = [
            &pool.particles,
            &pool.alive[0],
            &pool.counters,
            frame,
            effect,
            &grid,
        ];
        let binds = [0, 1].map(|_| bind_buffers(device, "shadow", &p.layout, &buffers));
        ShadowGrid {
            cells,
            binds,
            _grid: grid,
        }
    }

    /// Build the grid from the alive particles and shade each of them.
    pub fn record(&self, p: &ShadowPass, pass: &mut wgpu::ComputePass, pool: &ParticlePool) {
        let [a, b] = &self.binds;
        pass.set_pipeline(&p.clear);
        pass.set_bind_group(0, a, &[]);
        dispatch_threads(pass, HEADER + 2 * self.cells.pow(3));
        dispatch_over_alive(pass, &p.bounds, b, pool);
        dispatch_over_alive(pass, &p.deposit, a, pool);
        pass.set_pipeline(&p.march);
        pass.set_bind_group(0, b, &[]);
        dispatch_threads(pass, self.cells.pow(3));
        dispatch_over_alive(pass, &p.apply, a, pool);
    }

    /// Cells along each side.
    pub fn cells(&self) -> u32 {
        self.cells
    }
}
