//! Draw pass (`shaders/draw.wgsl`): camera-facing billboards and ribbon pieces pulled
//! from the visible list by `draw_indirect` (instance count written on the GPU), into an
//! Rgba16Float target.

use super::Binding;
use super::{bind, buffer_resources, layout, read_only, render_pipeline};
use super::{texture, uniform};
use crate::compiler::Compiler;
use crate::effect::Blend;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::{EffectParams, FrameUniforms, Particle};
use wgpu::util::DeviceExt;

/// The members' table's binding in group 0 (after the buffers).
const MEMBERS_BINDING: u32 = 6;

/// Format of the particle colour target.
pub(crate) const PARTICLE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

pub(crate) struct DrawPass {
    layout: wgpu::BindGroupLayout,
    image_layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
    /// Two triangles over four vertices, (0, 1, 2) and (0, 2, 3): the instance of a draw
    /// with ribbons.
    quad: wgpu::Buffer,
    /// The members' table an effect's own draw binds (its variant never reads it).
    no_members: wgpu::TextureView,
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

/// Which sprite textures a draw samples: the snowflakes and the images' frames, each only
/// where some particle of its list shows one (a CPU driver samples every texture its
/// fragment shader names, for every pixel, whatever the particle shows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct DrawSprites {
    /// Some particle shows a snowflake.
    pub snowflakes: bool,
    /// Some particle shows an image.
    pub images: bool,
}

impl DrawSprites {
    /// How many there are ([`DrawSprites::index`] is below it).
    pub const COUNT: usize = 4;

    /// The sprites of the particles a splat of `variant` splats (the same emitters' looks).
    pub fn of(variant: super::splat::SplatVariant) -> Self {
        DrawSprites {
            snowflakes: variant.snowflakes,
            images: variant.images,
        }
    }

    /// A dense index below [`DrawSprites::COUNT`].
    pub fn index(self) -> usize {
        super::variant_bits(&[self.snowflakes, self.images])
    }

    /// draw.wgsl's constants for them.
    pub fn consts(self) -> [(&'static str, u32); 2] {
        [
            ("FLAKES", self.snowflakes as u32),
            ("IMAGES", self.images as u32),
        ]
    }
}

/// What one draw binds: its lists and uniforms (group 0) and its ribbons' image (group 2).
pub(crate) struct DrawBinding {
    buffers: wgpu::BindGroup,
    image: wgpu::BindGroup,
}

/// What a draw reads: its particles and the list naming them, in draw order; the effect's
/// constants (its own draw; the merged draw binds a member's, which it never reads); the
/// members' table of the merged draw ([`super::members`]; an effect's own draw binds one
/// of no members); the ribbon buffers of an effect's own draw (its ribbon points, its
/// pieces).
pub(crate) struct DrawSources<'a> {
    pub particles: &'a dyn Binding,
    pub list: &'a wgpu::Buffer,
    pub effect: &'a wgpu::Buffer,
    pub members: Option<&'a wgpu::TextureView>,
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
    /// The draw of `blend` of one effect's list or, `merged`, of a merged list,
    /// whose lists hold `kinds`, sampling the `sprites` some particle shows.
    pub fn new(
        device: &Compiler,
        blend: Blend,
        (merged, kinds, sprites): (bool, DrawKinds, DrawSprites),
    ) -> Self {
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let v = wgpu::ShaderStages::VERTEX;
        // the particles, the draw list, the frame, the effect, the ribbon points and
        // pieces, the merged members' table
        let entries = [
            read_only::<Particle>().entry(0, v),
            read_only::<[u32; 2]>().entry(1, v),
            uniform::<FrameUniforms>().entry(2, vf),
            uniform::<EffectParams>().entry(3, v),
            read_only::<super::ribbon::RibbonPointBytes>().entry(4, v),
            read_only::<[u32; 2]>().entry(5, v),
            super::members::entry(MEMBERS_BINDING, v),
        ];
        let layout = layout(device, "draw", &entries);
        let image_layout = image_layout(device);
        let layouts = [&layout, &target_layout(device), &image_layout];
        let target = (particle_target(blend), 1);
        let [billboards, ribbons] = kinds.consts();
        let [flakes, images] = sprites.consts();
        let consts = [
            ("MERGED", merged as u32),
            billboards,
            ribbons,
            flakes,
            images,
        ];
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
            no_members: super::members::no_members(device),
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
            particles: &pool.particles,
            list: &pool.visible,
            effect,
            members: None,
            ribbons: [&pool.ribbon_points, &pool.ribbon_pieces],
        };
        self.bind_sources(device, &sources, frame, image)
    }

    /// Bind groups drawing `sources.list`.
    pub fn bind_sources(
        &self,
        device: &wgpu::Device,
        sources: &DrawSources,
        frame: &dyn Binding,
        (view, sampler): (&wgpu::TextureView, &wgpu::Sampler),
    ) -> DrawBinding {
        let [points, pieces] = sources.ribbons;
        let buffers: [&dyn Binding; 6] = [
            sources.particles,
            sources.list,
            frame,
            sources.effect,
            points,
            pieces,
        ];
        let members = sources.members.unwrap_or(&self.no_members);
        let mut resources = buffer_resources(&buffers);
        resources.push((MEMBERS_BINDING, wgpu::BindingResource::TextureView(members)));
        let image = [
            (0, wgpu::BindingResource::TextureView(view)),
            (1, wgpu::BindingResource::Sampler(sampler)),
        ];
        DrawBinding {
            buffers: bind(device, "draw", &self.layout, &resources),
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
/// nearest), the sprite array and its sampler ([`crate::sprites`]), the images' frames
/// (sampled through the same sampler).
pub(crate) fn target_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let depth = wgpu::TextureSampleType::Float { filterable: false };
    let f = wgpu::ShaderStages::FRAGMENT;
    let [sprites, sampler] = crate::sprites::layout_entries(1, f);
    let [images, _] = crate::sprites::layout_entries(3, f);
    layout(
        device,
        "draw_target",
        &[texture(0, depth, f), sprites, sampler, images],
    )
}
