//! The program's HDR host finishing its image (`post.wgsl`): the scene and the particles
//! are drawn in half floats, unclamped, then a bloom spreads the light above white round
//! its source (sparks and embers glow) and a filmic tonemap (ACES) maps the light into the
//! LDR output. A host's own post-processing, as any HDR host has; flurry composites into
//! the HDR target as it is.

use encase::ShaderType;
use flurry::wgpu;
use wgpu::util::DeviceExt;

/// Format of the HDR image the scene and the particles are drawn into.
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// Most levels of the bloom (each half the one above, from half the image's size).
const LEVELS: u32 = 6;

/// Light above which a pixel blooms (linear; 1 is white): only what is brighter than white
/// glows.
const THRESHOLD: f32 = 1.0;
/// How much of the bloom is added.
const STRENGTH: f32 = 0.6;

/// The passes' source.
pub const POST_WGSL: &str = concat!(include_str!("fullscreen.wgsl"), include_str!("post.wgsl"));

/// A pass's parameters (`PostParams` in post.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub struct PostParams {
    /// One texel of the pass's source, in its coordinates.
    pub texel: flurry::glam::Vec2,
    /// Light above which a pixel blooms.
    pub threshold: f32,
    /// How much of the bloom is added.
    pub strength: f32,
    /// Multiplies the light before the tonemap.
    pub exposure: f32,
}

/// The bloom's and the tonemap's pipelines, and the textures of one image size.
pub struct Post {
    levels: Vec<wgpu::TextureView>,
    /// Each pass in order: what it does, its bind group and the level it draws into (None:
    /// the output).
    passes: Vec<(Stage, wgpu::BindGroup, Option<usize>)>,
    prefilter: wgpu::RenderPipeline,
    down: wgpu::RenderPipeline,
    up: wgpu::RenderPipeline,
    finish: wgpu::RenderPipeline,
}

/// A pass of the bloom and tonemap (post.wgsl's fragment entry points).
#[derive(Clone, Copy, PartialEq)]
enum Stage {
    Prefilter,
    Down,
    Up,
    Finish,
}

fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

impl Post {
    /// The bloom and tonemap of an HDR image `hdr` of `size`, finished into targets of
    /// `output` format.
    pub fn new(
        device: &wgpu::Device,
        hdr: &wgpu::TextureView,
        size: (u32, u32),
        output: wgpu::TextureFormat,
    ) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("host post"),
            source: wgpu::ShaderSource::Wgsl(POST_WGSL.into()),
        });
        let f = wgpu::ShaderStages::FRAGMENT;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("host post"),
            entries: &[
                texture_entry(0),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: f,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: f,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                texture_entry(3),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("host post"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |entry: &str, format, blend| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    buffers: &[],
                    compilation_options: Default::default(),
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(entry),
                    targets: &[Some(wgpu::ColorTargetState {
                        format,
                        blend,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                    compilation_options: Default::default(),
                }),
                primitive: Default::default(),
                depth_stencil: None,
                multisample: Default::default(),
                multiview_mask: None,
                cache: None,
            })
        };
        let add = wgpu::BlendState {
            color: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::One,
                dst_factor: wgpu::BlendFactor::One,
                operation: wgpu::BlendOperation::Add,
            },
            alpha: wgpu::BlendComponent::REPLACE,
        };
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("host post"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        // the levels: half the image, a quarter, … while at least 4 texels a side
        let mut sides = Vec::new();
        let mut side = (size.0.div_ceil(2), size.1.div_ceil(2));
        while sides.len() < LEVELS as usize && side.0.min(side.1) >= 4 {
            sides.push(side);
            side = (side.0.div_ceil(2), side.1.div_ceil(2));
        }
        if sides.is_empty() {
            sides.push((size.0.div_ceil(2).max(1), size.1.div_ceil(2).max(1)));
        }
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let levels: Vec<wgpu::TextureView> = (sides.iter())
            .map(|&s| {
                super::headless::texture(device, "host bloom", s, HDR_FORMAT, usage)
                    .create_view(&Default::default())
            })
            .collect();
        let bind = |source: &wgpu::TextureView, source_size: (u32, u32)| {
            let params = PostParams {
                texel: flurry::glam::Vec2::new(
                    1.0 / source_size.0 as f32,
                    1.0 / source_size.1 as f32,
                ),
                threshold: THRESHOLD,
                strength: STRENGTH,
                exposure: 1.0,
            };
            let mut bytes = encase::UniformBuffer::new(Vec::new());
            bytes.write(&params).expect("post params encode");
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("host post"),
                contents: &bytes.into_inner(),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("host post"),
                layout: &layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(source),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::Sampler(&sampler),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: buffer.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 3,
                        resource: wgpu::BindingResource::TextureView(hdr),
                    },
                ],
            })
        };
        let mut passes = vec![(Stage::Prefilter, bind(hdr, size), Some(0))];
        for k in 1..levels.len() {
            passes.push((Stage::Down, bind(&levels[k - 1], sides[k - 1]), Some(k)));
        }
        for k in (0..levels.len() - 1).rev() {
            passes.push((Stage::Up, bind(&levels[k + 1], sides[k + 1]), Some(k)));
        }
        // the finish reads the largest level (and the image)
        passes.push((Stage::Finish, bind(&levels[0], sides[0]), None));
        Post {
            prefilter: pipeline("prefilter", HDR_FORMAT, None),
            down: pipeline("down", HDR_FORMAT, None),
            up: pipeline("up", HDR_FORMAT, Some(add)),
            finish: pipeline("finish", output, None),
            levels,
            passes,
        }
    }

    /// Bloom the HDR image and tonemap it into `output`.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder, output: &wgpu::TextureView) {
        let clear = wgpu::LoadOp::Clear(wgpu::Color::BLACK);
        for (stage, bind, level) in &self.passes {
            let view = level.map_or(output, |k| &self.levels[k]);
            let (pipeline, load) = match stage {
                Stage::Prefilter => (&self.prefilter, clear),
                Stage::Down => (&self.down, clear),
                // added onto what the level holds
                Stage::Up => (&self.up, wgpu::LoadOp::Load),
                Stage::Finish => (&self.finish, clear),
            };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("host post"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load,
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind, &[]);
            pass.draw(0..3, 0..1);
        }
    }
}
