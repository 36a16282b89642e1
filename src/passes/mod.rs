//! One file per pass, named like its WGSL file: each builds its pipeline and bind group
//! layout once and records itself into a pass the caller opens.

pub mod args;
pub mod bodies;
pub mod composite;
pub mod cull;
pub mod downsample;
pub mod draw;
pub mod emit;
pub mod gravity;
pub mod merge;
pub mod simulate;
pub mod sort;
pub mod splat;

/// A storage-buffer layout entry.
pub fn storage(
    binding: u32,
    read_only: bool,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A uniform-buffer layout entry.
pub fn uniform(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A bind group over whole buffers: binding `i` is `buffers[i]`.
pub fn bind_buffers(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    buffers: &[&wgpu::Buffer],
) -> wgpu::BindGroup {
    let entries: Vec<_> = buffers
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: b.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

/// Dispatch `pipeline` with bind groups 0.. set to `groups`, its workgroup count read by
/// the GPU from `pool`'s indirect arguments at `offset` (the counts follow the particles
/// without a read-back).
pub fn dispatch_from_args(
    pass: &mut wgpu::ComputePass,
    pipeline: &wgpu::ComputePipeline,
    groups: &[&wgpu::BindGroup],
    pool: &crate::pool::ParticlePool,
    offset: u64,
) {
    pass.set_pipeline(pipeline);
    for (i, group) in groups.iter().enumerate() {
        pass.set_bind_group(i as u32, *group, &[]);
    }
    pass.dispatch_workgroups_indirect(&pool.args, offset);
}

/// A compute pipeline for `entry` of `shader` with one bind group layout.
pub fn compute_pipeline(
    device: &wgpu::Device,
    shader: crate::shaders::Shader,
    entry: &str,
    layout: &wgpu::BindGroupLayout,
) -> wgpu::ComputePipeline {
    compute_pipeline_with(device, shader, entry, &[layout], &[])
}

/// As [`compute_pipeline`], with bind groups 0.. laid out by `layouts` and the module
/// specialised by [`Shader::source_with`].
///
/// [`Shader::source_with`]: crate::shaders::Shader::source_with
pub fn compute_pipeline_with(
    device: &wgpu::Device,
    shader: crate::shaders::Shader,
    entry: &str,
    layouts: &[&wgpu::BindGroupLayout],
    consts: &[(&str, u32)],
) -> wgpu::ComputePipeline {
    let layouts: Vec<_> = layouts.iter().map(|&l| Some(l)).collect();
    pipeline_over(device, shader, entry, &layouts, consts)
}

/// A compute pipeline for `entry` of `shader` whose only bind group is `group`, laid out
/// by `layout` (the groups before it are empty).
pub fn compute_pipeline_at(
    device: &wgpu::Device,
    shader: crate::shaders::Shader,
    entry: &str,
    group: usize,
    layout: &wgpu::BindGroupLayout,
) -> wgpu::ComputePipeline {
    let mut layouts = vec![None; group + 1];
    layouts[group] = Some(layout);
    pipeline_over(device, shader, entry, &layouts, &[])
}

fn pipeline_over(
    device: &wgpu::Device,
    shader: crate::shaders::Shader,
    entry: &str,
    layouts: &[Option<&wgpu::BindGroupLayout>],
    consts: &[(&str, u32)],
) -> wgpu::ComputePipeline {
    let module = shader.module_with(device, consts);
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(shader.name()),
        bind_group_layouts: layouts,
        immediate_size: 0,
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(shader.name()),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        cache: None,
    })
}

/// A render pipeline for `vs_main`/`fs_main` of `shader`, no vertex buffers, one colour
/// target, bind groups 0.. from `layouts`, optional depth.
pub fn render_pipeline(
    device: &wgpu::Device,
    shader: crate::shaders::Shader,
    layouts: &[&wgpu::BindGroupLayout],
    topology: wgpu::PrimitiveTopology,
    target: wgpu::ColorTargetState,
    depth_stencil: Option<wgpu::DepthStencilState>,
) -> wgpu::RenderPipeline {
    let vertex = "vs_main";
    render_pipeline_from(
        device,
        shader,
        vertex,
        layouts,
        topology,
        target,
        depth_stencil,
    )
}

/// As [`render_pipeline`] with the vertex entry point `vertex`.
pub fn render_pipeline_from(
    device: &wgpu::Device,
    shader: crate::shaders::Shader,
    vertex: &str,
    layouts: &[&wgpu::BindGroupLayout],
    topology: wgpu::PrimitiveTopology,
    target: wgpu::ColorTargetState,
    depth_stencil: Option<wgpu::DepthStencilState>,
) -> wgpu::RenderPipeline {
    let module = shader.module(device);
    let layouts: Vec<_> = layouts.iter().map(|l| Some(*l)).collect();
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(shader.name()),
        bind_group_layouts: &layouts,
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(shader.name()),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some(vertex),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState {
            topology,
            ..Default::default()
        },
        depth_stencil,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_main"),
            compilation_options: Default::default(),
            targets: &[Some(target)],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// A sampled-texture layout entry (2D, float).
pub fn texture(
    binding: u32,
    sample_type: wgpu::TextureSampleType,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Texture {
            sample_type,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

/// A bind group layout from entries.
pub fn layout(
    device: &wgpu::Device,
    label: &str,
    entries: &[wgpu::BindGroupLayoutEntry],
) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries,
    })
}
