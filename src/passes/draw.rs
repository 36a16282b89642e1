//! Draw pass (`shaders/draw.wgsl`): camera-facing billboards and ribbon pieces pulled
//! from the visible list by `draw_indirect` (instance count written on the GPU), into an
//! Rgba16Float target.

use super::Binding;
use super::{bind, bind_buffers, layout, read_only, render_pipeline, texture, uniform};
use crate::effect::Blend;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::{EffectParams, FrameUniforms, Particle};
use wgpu::util::DeviceExt;

/// Effects one draw can take from (`particles0..3`, `effect0..3` in draw.wgsl).
pub(crate) const MAX_SLOTS: usize = 4;

/// Format of the particle colour target.
pub(crate) const PARTICLE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

pub(crate) struct DrawPass {
    layout: wgpu::BindGroupLayout,
    image_layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
    /// Two triangles over four vertices, (0, 1, 2) and (0, 2, 3): the instance of a draw
    /// with ribbons.
    quad: wgpu::Buffer,
}

/// Where a draw's indirect arguments are.
pub(crate) enum DrawArgs<'a> {
    /// `draw_indirect` arguments: three vertices an instance.
    Direct(&'a wgpu::Buffer, u64),
    /// `draw_indexed_indirect` arguments over the quad's six indices (draws with ribbons).
    Indexed(&'a wgpu::Buffer, u64),
}

/// What an effect's draw list holds: each a pipeline variant, since lavapipe runs every
/// branch of a vertex shader and a draw would pay for the kinds its list never holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DrawKinds {
    /// Particles only (billboards, streaks, quads): most effects, and the merged draw.
    Billboards,
    /// Ribbon pieces only.
    Ribbons,
    /// Both.
    Both,
}

impl DrawKinds {
    pub const ALL: [DrawKinds; 3] = [DrawKinds::Billboards, DrawKinds::Ribbons, DrawKinds::Both];

    /// What `desc`'s draw list holds (mesh particles are drawn by a pass of their own).
    pub fn of(desc: &crate::EffectDesc) -> Self {
        use crate::effect::RenderMode;
        let mut kinds = (false, false);
        for e in 0..desc.emitters.len() {
            match desc.emitters[e].render.unwrap_or(desc.render) {
                RenderMode::Ribbon { .. } => kinds.1 = true,
                RenderMode::Mesh { .. } => {}
                _ => kinds.0 = true,
            }
        }
        match kinds {
            (false, true) => DrawKinds::Ribbons,
            (true, true) => DrawKinds::Both,
            _ => DrawKinds::Billboards,
        }
    }

    /// The draw.wgsl constants that make this variant.
    fn consts(self) -> [(&'static str, u32); 2] {
        let (billboards, ribbons) = match self {
            DrawKinds::Billboards => (1, 0),
            DrawKinds::Ribbons => (0, 1),
            DrawKinds::Both => (1, 1),
        };
        [("BILLBOARDS", billboards), ("RIBBONS", ribbons)]
    }
}

/// What one draw binds: its lists and uniforms (group 0) and its ribbons' image (group 2).
pub(crate) struct DrawBinding {
    buffers: wgpu::BindGroup,
    image: wgpu::BindGroup,
}

/// The pools a draw reads: up to four (particles, effect) slots, the list it draws and the
/// ribbon buffers of slot 0 (its ribbon points, its pieces).
pub(crate) struct DrawSources<'a> {
    pub slots: &'a [(&'a wgpu::Buffer, &'a wgpu::Buffer)],
    pub list: &'a wgpu::Buffer,
    pub ribbons: [&'a wgpu::Buffer; 2],
}

/// Group 2 of the draw: the effect's ribbon image and its sampler.
fn image_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let f = wgpu::ShaderStages::FRAGMENT;
    let image = texture(0, wgpu::TextureSampleType::Float { filterable: true }, f);
    let sampler = wgpu::BindGroupLayoutEntry {
        binding: 1,
        visibility: f,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
        count: None,
    };
    layout(device, "draw_image", &[image, sampler])
}

/// The particle target as a draw of `blend` writes it.
fn particle_target(blend: Blend) -> wgpu::ColorTargetState {
    wgpu::ColorTargetState {
        format: PARTICLE_FORMAT,
        blend: Some(blend_state(blend)),
        write_mask: wgpu::ColorWrites::ALL,
    }
}

fn blend_state(blend: Blend) -> wgpu::BlendState {
    let color = match blend {
        // premultiplied colour: additive is (One, One), "over" is (One, OneMinusSrcAlpha)
        Blend::Additive => wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        },
        Blend::Alpha => wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        },
    };
    wgpu::BlendState {
        color,
        alpha: wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        },
    }
}

impl DrawPass {
    /// The draw of `blend` reading `slots` effects (1: an effect's own draw; up to
    /// [`MAX_SLOTS`]: the merged draw) whose lists hold `kinds`.
    pub fn new(device: &wgpu::Device, blend: Blend, slots: u32, kinds: DrawKinds) -> Self {
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let v = wgpu::ShaderStages::VERTEX;
        // particles0..3, the draw list, the frame, effect0..3, the ribbon points and pieces
        let particles = (0..4).map(|b| read_only::<Particle>().entry(b, v));
        let list = read_only::<[u32; 2]>().entry(4, v);
        let frame = uniform::<FrameUniforms>().entry(5, vf);
        let effects = (6..10).map(|b| uniform::<EffectParams>().entry(b, v));
        let ribbons = [
            read_only::<super::ribbon::RibbonPointBytes>().entry(10, v),
            read_only::<[u32; 2]>().entry(11, v),
        ];
        let entries: Vec<_> = particles
            .chain([list, frame])
            .chain(effects)
            .chain(ribbons)
            .collect();
        let layout = layout(device, "draw", &entries);
        let image_layout = image_layout(device);
        let layouts = [&layout, &target_layout(device), &image_layout];
        let target = (particle_target(blend), 1);
        let [billboards, ribbons] = kinds.consts();
        let consts = [("SLOTS", slots), billboards, ribbons];
        let shader = (Shader::Draw, &consts[..]);
        let pipeline = render_pipeline(device, shader, &layouts, target, None);
        let quad = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("flurry.draw_quad"),
            contents: bytemuck::cast_slice(&[0u32, 1, 2, 0, 2, 3]),
            usage: wgpu::BufferUsages::INDEX,
        });
        DrawPass {
            layout,
            image_layout,
            pipeline,
            quad,
        }
    }

    /// Bind groups drawing the pool's visible list in order, its ribbons showing `image`
    /// (a view and its sampler).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        (frame, effect): (&dyn Binding, &wgpu::Buffer),
        image: (&wgpu::TextureView, &wgpu::Sampler),
    ) -> DrawBinding {
        let sources = DrawSources {
            slots: &[(&pool.particles, effect)],
            list: &pool.visible,
            ribbons: [&pool.ribbon_points, &pool.ribbon_pieces],
        };
        self.bind_sources(device, &sources, frame, image)
    }

    /// Bind groups drawing `sources.list`, whose entries' top 8 bits pick one of up to four
    /// (particles, effect) slots (unused slots repeat the first).
    pub fn bind_sources(
        &self,
        device: &wgpu::Device,
        sources: &DrawSources,
        frame: &dyn Binding,
        (view, sampler): (&wgpu::TextureView, &wgpu::Sampler),
    ) -> DrawBinding {
        let slots = sources.slots;
        let slot = |k: usize| slots.get(k).unwrap_or(&slots[0]);
        let (p, e): (Vec<_>, Vec<_>) = (0..MAX_SLOTS).map(slot).map(|&(p, e)| (p, e)).unzip();
        let [points, pieces] = sources.ribbons;
        let buffers = [
            p[0],
            p[1],
            p[2],
            p[3],
            sources.list,
            frame,
            e[0],
            e[1],
            e[2],
            e[3],
            points,
            pieces,
        ];
        let image = [
            (0, wgpu::BindingResource::TextureView(view)),
            (1, wgpu::BindingResource::Sampler(sampler)),
        ];
        DrawBinding {
            buffers: bind_buffers(device, "draw", &self.layout, &buffers),
            image: bind(device, "draw_image", &self.image_layout, &image),
        }
    }

    /// Draw from a pass that already set bind group 1 ([`target_layout`]).
    pub fn record(&self, pass: &mut wgpu::RenderPass, binding: &DrawBinding, args: DrawArgs) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &binding.buffers, &[]);
        pass.set_bind_group(2, &binding.image, &[]);
        match args {
            DrawArgs::Direct(buffer, offset) => pass.draw_indirect(buffer, offset),
            DrawArgs::Indexed(buffer, offset) => {
                pass.set_index_buffer(self.quad.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed_indirect(buffer, offset);
            }
        }
    }
}

/// Bind group 1 of the draw: the particle target's scene depth (Rg32Float: farthest,
/// nearest), the sprite array and its sampler ([`crate::sprites`]).
pub(crate) fn target_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let depth = wgpu::TextureSampleType::Float { filterable: false };
    let f = wgpu::ShaderStages::FRAGMENT;
    let [sprites, sampler] = crate::sprites::layout_entries(1, f);
    layout(
        device,
        "draw_target",
        &[texture(0, depth, f), sprites, sampler],
    )
}
