//! Mesh particle passes: `shaders/mesh_cull.wgsl` lists the mesh particles on screen,
//! `shaders/mesh.wgsl` draws them as instances of their effect's mesh, lit, into the
//! host's colour and depth ([`MeshPass::lit`]) and as distances into the particle target's
//! scene distances ([`MeshPass::distance`]), both depth-tested by the host's convention.

use super::Binding;
use super::{bind, bind_buffers, buffer_layout, compute_pipeline, dispatch_over_alive, layout};
use super::{buffer_entries, read_only, read_write, texture, uniform, BufferSlot};
use crate::compiler::Compiler;
use crate::mesh::Meshes;
use crate::passes::downsample::LOW_DEPTH_FORMAT;
use crate::pool::ParticlePool;
use crate::renderer::Targets;
use crate::shaders::Shader;
use crate::types::{Counters, EffectParams, FrameUniforms, Particle};

/// mesh_cull.wgsl's group 0, in binding order.
pub(super) fn cull_slots() -> [BufferSlot; 7] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<Counters>(),
        read_write::<u32>(),
        read_write::<Counters>(), // DrawCounters, of the same size
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
    ]
}

/// mesh.wgsl's group 0, in binding order.
pub(super) fn draw_slots() -> [BufferSlot; 4] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
    ]
}

/// Format of the depth buffer the distance pass keeps the nearest mesh with.
pub(crate) const MESH_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The listing of the mesh particles on screen (one per renderer).
pub(crate) struct MeshCull {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl MeshCull {
    pub fn new(device: &Compiler) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "mesh_cull", c, &cull_slots());
        let pipeline = compute_pipeline(device, Shader::MeshCull, "main", &[Some(&layout)], &[]);
        MeshCull { layout, pipeline }
    }

    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        frame: &dyn Binding,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let buffers: [&dyn Binding; _] = [
            &pool.particles,
            &pool.alive[0],
            &pool.counters,
            &pool.mesh_list,
            &pool.draw_counters,
            frame,
            effect,
        ];
        bind_buffers(device, "mesh_cull", &self.layout, &buffers)
    }

    /// One thread per alive particle, sized on the GPU.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        dispatch_over_alive(pass, &self.pipeline, bind, pool);
    }
}

/// One mesh draw: into the host's targets (lit) or into the particle target's distances.
pub(crate) struct MeshPass {
    pipeline: wgpu::RenderPipeline,
}

/// Group 0 of every mesh draw (one layout whatever the variant: wgpu takes layouts of the
/// same entries as one): the buffers, then the figure's poses.
fn draw_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
    let slots = draw_slots();
    let mut entries = buffer_entries(vf, &slots);
    let poses = wgpu::TextureSampleType::Float { filterable: false };
    entries.push(texture(
        slots.len() as u32,
        poses,
        wgpu::ShaderStages::VERTEX,
    ));
    layout(device, "mesh", &entries)
}

/// Bind group drawing the pool's listed mesh particles (either variant), walkers posed
/// by `poses` ([`Meshes::poses`]).
pub(crate) fn bind_draw(
    device: &wgpu::Device,
    pool: &ParticlePool,
    (frame, effect): (&dyn Binding, &wgpu::Buffer),
    poses: &wgpu::TextureView,
) -> wgpu::BindGroup {
    let buffers: [&dyn Binding; _] = [&pool.particles, &pool.mesh_list, frame, effect];
    let mut resources: Vec<_> = (0u32..)
        .zip(buffers)
        .map(|(b, buf)| (b, buf.resource()))
        .collect();
    resources.push((
        buffers.len() as u32,
        wgpu::BindingResource::TextureView(poses),
    ));
    bind(device, "mesh", &draw_layout(device), &resources)
}

/// A mesh vertex: position, normal and bone (`MeshSet::vertices`).
const VERTEX: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 28,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32],
};

/// What a mesh draw's pipeline depends on besides its targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MeshVariant {
    /// The host's depth is reversed (larger is nearer).
    pub reversed: bool,
    /// The mesh is closed ([`crate::Mesh::is_closed`]): back faces are culled.
    pub closed: bool,
}

impl MeshVariant {
    /// Its slot among the four variants.
    pub fn slot(self) -> usize {
        self.reversed as usize * 2 + self.closed as usize
    }
}

/// Nearer passes under the host's depth convention.
fn nearer(reversed: bool) -> wgpu::CompareFunction {
    if reversed {
        wgpu::CompareFunction::Greater
    } else {
        wgpu::CompareFunction::Less
    }
}

impl MeshPass {
    /// The lit draw into the host's colour and depth (`targets`' formats and samples; a
    /// host without depth gets a depth buffer of the renderer's, of [`MESH_DEPTH_FORMAT`]),
    /// for `variant`.
    pub fn lit(device: &Compiler, targets: &Targets, variant: MeshVariant) -> Self {
        let depth = targets.depth_format.unwrap_or(MESH_DEPTH_FORMAT);
        let target = (targets.color_format, targets.sample_count);
        let gamma = targets.gamma_encoded() as u32;
        Self::new(device, ("fs_lit", gamma), target, (depth, variant), None)
    }

    /// The distances into the particle target (its scene distances, [`LOW_DEPTH_FORMAT`]),
    /// with a depth buffer of [`MESH_DEPTH_FORMAT`] of its own, for `variant`.
    pub fn distance(device: &Compiler, variant: MeshVariant) -> Self {
        let f = wgpu::ShaderStages::FRAGMENT;
        let host = texture(0, wgpu::TextureSampleType::Float { filterable: false }, f);
        let group1 = layout(device, "mesh_host_distance", &[host]);
        let depth = (MESH_DEPTH_FORMAT, variant);
        let target = (LOW_DEPTH_FORMAT, 1);
        Self::new(device, ("fs_distance", 0), target, depth, Some(&group1))
    }

    fn new(
        device: &Compiler,
        (fragment, gamma): (&str, u32),
        (format, samples): (wgpu::TextureFormat, u32),
        (depth, variant): (wgpu::TextureFormat, MeshVariant),
        group1: Option<&wgpu::BindGroupLayout>,
    ) -> Self {
        let MeshVariant { reversed, closed } = variant;
        let layout = draw_layout(device);
        let layouts: Vec<_> = std::iter::once(Some(&layout))
            .chain(group1.map(Some))
            .collect();
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("mesh"),
            bind_group_layouts: &layouts,
            immediate_size: 0,
        });
        let module = Shader::Mesh.module(device, &[("GAMMA_TARGET", gamma)]);
        let pipeline = device.render(&wgpu::RenderPipelineDescriptor {
            label: Some(fragment),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(VERTEX)],
            },
            // a closed mesh's faces turned away are hidden behind its others: skipped (on
            // lavapipe 64K cubes took 25 % less time so); an open one (a leaf) shows both
            primitive: wgpu::PrimitiveState {
                cull_mode: closed.then_some(wgpu::Face::Back),
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: depth,
                depth_write_enabled: Some(true),
                depth_compare: Some(nearer(reversed)),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: samples,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some(fragment),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        MeshPass { pipeline }
    }

    /// Draw the listed instances of the pool's mesh (its draw arguments are in the pool's
    /// draw counters) into a pass that set bind group 1 where the pipeline has one.
    pub fn record(
        &self,
        pass: &mut wgpu::RenderPass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
        meshes: &Meshes,
    ) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.set_vertex_buffer(0, meshes.vertices().slice(..));
        pass.set_index_buffer(meshes.indices().slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed_indirect(&pool.draw_counters, 0);
    }
}

/// Bind group 1 of the distance pass: the host's own distances (read where the meshes are
/// drawn, never written).
pub(crate) fn host_distance_bind(
    device: &wgpu::Device,
    host_distance: &wgpu::TextureView,
) -> wgpu::BindGroup {
    let f = wgpu::ShaderStages::FRAGMENT;
    let entry = texture(0, wgpu::TextureSampleType::Float { filterable: false }, f);
    let group1 = layout(device, "mesh_host_distance", &[entry]);
    let resources = [(0, wgpu::BindingResource::TextureView(host_distance))];
    bind(device, "mesh_host_distance", &group1, &resources)
}
