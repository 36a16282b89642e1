//! One file per pass, named like its WGSL file: each builds its bind group layouts and
//! pipelines once (the renderer's [`crate::pipelines::Pipelines`] keeps them), makes the bind
//! groups an effect or a target needs, and records itself into a pass the caller opens.
//!
//! A pass declares its buffer bindings once, as a list of [`BufferSlot`]s in binding order
//! whose minimum sizes come from the Rust mirrors of the WGSL types; the bind groups take
//! the buffers in the same order.

pub(crate) mod args;
pub(crate) mod batch_emit;
pub(crate) mod batch_merge;
pub(crate) mod batch_relist;
pub(crate) mod batch_simulate;
pub(crate) mod bodies;
pub(crate) mod composite;
pub(crate) mod crowd;
pub(crate) mod cull;
pub(crate) mod downsample;
pub(crate) mod draw;
pub(crate) mod emit;
pub(crate) mod flock;
pub(crate) mod flow;
pub(crate) mod gravity;
pub(crate) mod grid;
pub(crate) mod members;
pub(crate) mod merge;
pub(crate) mod mesh;
pub(crate) mod relist;
pub(crate) mod ribbon;
pub(crate) mod sdf;
pub(crate) mod shadow;
pub(crate) mod simulate;
pub(crate) mod sort;
pub(crate) mod splat;

use crate::compiler::Compiler;
use crate::shaders::Shader;
pub(crate) use crate::uniform_pages::Binding;

/// What an effect's stacks read and write in emit and simulate: its parameters' uniform
/// block, its baked curves and gradients (a float texture's rows), its particles' own
/// attributes.
pub(crate) type GraphInputs<'a> = (&'a dyn Binding, &'a wgpu::TextureView, &'a wgpu::Buffer);

/// The layout entry of an effect's baked table (emit and simulate read it at `binding`,
/// after their buffers): a float texture read texel by texel.
pub(crate) fn graph_table_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    let sample_type = wgpu::TextureSampleType::Float { filterable: false };
    texture(binding, sample_type, wgpu::ShaderStages::COMPUTE)
}

/// One buffer binding: how the shader uses it and the least bytes it must hold.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BufferSlot {
    ty: wgpu::BufferBindingType,
    min: u64,
}

/// A storage buffer the shader writes, holding at least one `T` (an array's element, or
/// the whole struct).
pub(crate) fn read_write<T>() -> BufferSlot {
    storage::<T>(false)
}

/// A storage buffer the shader only reads, holding at least one `T`.
pub(crate) fn read_only<T>() -> BufferSlot {
    storage::<T>(true)
}

fn storage<T>(read_only: bool) -> BufferSlot {
    BufferSlot {
        ty: wgpu::BufferBindingType::Storage { read_only },
        min: std::mem::size_of::<T>() as u64,
    }
}

/// A storage buffer the shader only reads, an array of at least one `T` (its WGSL layout
/// size, by encase): a table of what is otherwise a uniform.
pub(crate) fn read_only_table<T: encase::ShaderType>() -> BufferSlot {
    BufferSlot {
        ty: wgpu::BufferBindingType::Storage { read_only: true },
        min: T::min_size().get(),
    }
}

/// A uniform buffer of a fixed array of `rows` `T`s, each of its WGSL layout size (by
/// encase, a multiple of 16 bytes for an array in a uniform).
pub(crate) fn uniform_rows<T: encase::ShaderType>(rows: usize) -> BufferSlot {
    BufferSlot {
        ty: wgpu::BufferBindingType::Uniform,
        min: T::min_size().get() * rows as u64,
    }
}

/// A uniform buffer of `T` (its WGSL layout size, by encase).
pub(crate) fn uniform<T: encase::ShaderType>() -> BufferSlot {
    BufferSlot {
        ty: wgpu::BufferBindingType::Uniform,
        min: T::min_size().get(),
    }
}

/// A pipeline variant's dense index from its on/off features: feature `k` is bit `k`.
pub(crate) fn variant_bits(flags: &[bool]) -> usize {
    flags.iter().rev().fold(0, |acc, &f| acc << 1 | f as usize)
}

/// A uniform buffer of a fixed array of `n` `T`s (T's size a multiple of 16 bytes, so that
/// the WGSL array's stride is its size).
pub(crate) fn uniform_array<T>(n: usize) -> BufferSlot {
    BufferSlot {
        ty: wgpu::BufferBindingType::Uniform,
        min: (std::mem::size_of::<T>() * n) as u64,
    }
}

impl BufferSlot {
    /// Its layout entry at `binding`.
    pub(crate) fn entry(
        self,
        binding: u32,
        visibility: wgpu::ShaderStages,
    ) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Buffer {
                ty: self.ty,
                has_dynamic_offset: false,
                min_binding_size: wgpu::BufferSize::new(self.min),
            },
            count: None,
        }
    }
}

/// The layout entries of `slots` at bindings 0, 1, … (a pass's textures follow them).
pub(crate) fn buffer_entries(
    visibility: wgpu::ShaderStages,
    slots: &[BufferSlot],
) -> Vec<wgpu::BindGroupLayoutEntry> {
    (0u32..)
        .zip(slots)
        .map(|(binding, slot)| slot.entry(binding, visibility))
        .collect()
}

/// A bind group layout of `slots` at bindings 0, 1, …
pub(crate) fn buffer_layout(
    device: &wgpu::Device,
    label: &str,
    visibility: wgpu::ShaderStages,
    slots: &[BufferSlot],
) -> wgpu::BindGroupLayout {
    layout(device, label, &buffer_entries(visibility, slots))
}

/// A bind group over buffers (whole, or an effect's range of the uniform pages): binding
/// `i` is `buffers[i]`, in the order of the pass's [`BufferSlot`]s.
pub(crate) fn bind_buffers(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    buffers: &[&dyn Binding],
) -> wgpu::BindGroup {
    bind(device, label, layout, &buffer_resources(buffers))
}

/// `buffers` at bindings 0, 1, … (a pass's textures follow them).
pub(crate) fn buffer_resources<'a>(
    buffers: &[&'a dyn Binding],
) -> Vec<(u32, wgpu::BindingResource<'a>)> {
    (0u32..)
        .zip(buffers)
        .map(|(i, b)| (i, b.resource()))
        .collect()
}

/// Dispatch `pipeline` with bind group 0 set to `bind`, one thread per particle of the
/// live list: the cull's arguments, which args.wgsl keeps at the alive count after simulate
/// and after every spawn that joins the list (one thread per slot for a pool sized so).
pub(crate) fn dispatch_over_alive(
    pass: &mut wgpu::ComputePass,
    pipeline: &wgpu::ComputePipeline,
    bind: &wgpu::BindGroup,
    pool: &crate::pool::ParticlePool,
) {
    let offset = crate::types::IndirectArgs::CULL_OFFSET;
    dispatch_over_pool(pass, pipeline, &[bind], pool, offset);
}

/// Dispatch `pipeline` with bind groups 0.. set to `groups` over `pool`'s alive list as
/// its [`Sizing`](crate::pool::Sizing) says: from its indirect arguments at `offset`
/// (counted), or one thread per slot.
pub(crate) fn dispatch_over_pool(
    pass: &mut wgpu::ComputePass,
    pipeline: &wgpu::ComputePipeline,
    groups: &[&wgpu::BindGroup],
    pool: &crate::pool::ParticlePool,
    offset: u64,
) {
    match pool.sizing {
        crate::pool::Sizing::Counted => {
            dispatch_from_args(pass, pipeline, groups, &pool.args, offset);
        }
        crate::pool::Sizing::PerSlot => {
            set_pipeline(pass, pipeline, groups);
            dispatch_threads(pass, pool.capacity);
        }
    }
}

/// Set `pipeline` and its bind groups 0.. to `groups`.
fn set_pipeline(
    pass: &mut wgpu::ComputePass,
    pipeline: &wgpu::ComputePipeline,
    groups: &[&wgpu::BindGroup],
) {
    pass.set_pipeline(pipeline);
    for (i, group) in (0u32..).zip(groups) {
        pass.set_bind_group(i, *group, &[]);
    }
}

/// Dispatch `pipeline` with bind groups 0.. set to `groups`, its workgroup count read by
/// the GPU from the indirect arguments in `args` at `offset` (a pool's, or the merged
/// sort's: the counts follow the particles without a read-back).
pub(crate) fn dispatch_from_args(
    pass: &mut wgpu::ComputePass,
    pipeline: &wgpu::ComputePipeline,
    groups: &[&wgpu::BindGroup],
    args: &wgpu::Buffer,
    offset: u64,
) {
    set_pipeline(pass, pipeline, groups);
    pass.dispatch_workgroups_indirect(args, offset);
}

/// Dispatch enough workgroups for `threads` threads of a pass that finds its index with
/// `linear_index` (two-dimensional past [`crate::types::MAX_GROUPS_X`] workgroups).
pub(crate) fn dispatch_threads(pass: &mut wgpu::ComputePass, threads: u32) {
    let [x, y, z] = crate::types::dispatch_size(threads);
    pass.dispatch_workgroups(x, y, z);
}

/// Dispatch `pipeline` once with bind group 0 set to `bind` (the one-thread argument
/// passes, a few bodies).
pub(crate) fn dispatch_one(
    pass: &mut wgpu::ComputePass,
    pipeline: &wgpu::ComputePipeline,
    bind: &wgpu::BindGroup,
) {
    pass.set_pipeline(pipeline);
    pass.set_bind_group(0, bind, &[]);
    pass.dispatch_workgroups(1, 1, 1);
}

/// A compute pipeline for `entry` of `shader` whose bind groups are laid out by `layouts`
/// (None: a group the entry point does not use), the module specialised by
/// [`Shader::specialised`]`(consts)`.
pub(crate) fn compute_pipeline(
    device: &Compiler,
    shader: Shader,
    entry: &str,
    layouts: &[Option<&wgpu::BindGroupLayout>],
    consts: &[(&str, u32)],
) -> wgpu::ComputePipeline {
    let module = shader.module(device, consts);
    module_pipeline(device, (&module, shader.name()), entry, layouts)
}

/// A compute pipeline for `entry` of `module` (labelled `label`), bind groups 0.. from
/// `layouts`.
pub(crate) fn module_pipeline(
    device: &Compiler,
    (module, label): (&wgpu::ShaderModule, &str),
    entry: &str,
    layouts: &[Option<&wgpu::BindGroupLayout>],
) -> wgpu::ComputePipeline {
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: layouts,
        immediate_size: 0,
    });
    device.compute(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout: Some(&pipeline_layout),
        module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        cache: None,
    })
}

/// A render pipeline for `vs_main`/`fs_main` of `shader` (specialised by `consts`), no
/// vertex buffers, triangles, one colour target of `samples` samples, bind groups 0.. from
/// `layouts`, in passes with `depth_stencil`.
pub(crate) fn render_pipeline(
    device: &Compiler,
    (shader, consts): (Shader, &[(&str, u32)]),
    layouts: &[&wgpu::BindGroupLayout],
    (target, samples): (wgpu::ColorTargetState, u32),
    depth_stencil: Option<wgpu::DepthStencilState>,
) -> wgpu::RenderPipeline {
    let module = shader.module(device, consts);
    let layouts: Vec<_> = layouts.iter().map(|l| Some(*l)).collect();
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(shader.name()),
        bind_group_layouts: &layouts,
        immediate_size: 0,
    });
    device.render(&wgpu::RenderPipelineDescriptor {
        label: Some(shader.name()),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil,
        multisample: wgpu::MultisampleState {
            count: samples,
            ..Default::default()
        },
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

/// A sampled-texture layout entry (2D).
pub(crate) fn texture(
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

/// The host's depth as a texture: a `texture_depth_2d`, or a
/// `texture_depth_multisampled_2d` for a host of more than one sample.
pub(crate) fn host_depth_texture(
    binding: u32,
    samples: u32,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    let mut entry = texture(binding, wgpu::TextureSampleType::Depth, visibility);
    if let wgpu::BindingType::Texture { multisampled, .. } = &mut entry.ty {
        *multisampled = samples > 1;
    }
    entry
}

/// A write-only 2D storage-texture layout entry of `format`.
pub(crate) fn storage_texture(
    binding: u32,
    format: wgpu::TextureFormat,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::StorageTexture {
            access: wgpu::StorageTextureAccess::WriteOnly,
            format,
            view_dimension: wgpu::TextureViewDimension::D2,
        },
        count: None,
    }
}

/// A small table for a shader to look up (`textureLoad`): `width` × `height` texels of
/// rgba32float, row by row, uploaded through `queue`.
pub(crate) fn table_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    (width, height): (u32, u32),
    texels: &[[f32; 4]],
) -> wgpu::TextureView {
    use wgpu::util::DeviceExt;
    let texture = device.create_texture_with_data(
        queue,
        &wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba32Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        },
        wgpu::util::TextureDataOrder::LayerMajor,
        bytemuck::cast_slice(texels),
    );
    texture.create_view(&Default::default())
}

/// A bind group layout from entries.
pub(crate) fn layout(
    device: &wgpu::Device,
    label: &str,
    entries: &[wgpu::BindGroupLayoutEntry],
) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries,
    })
}

/// A bind group of `resources` at their bindings.
pub(crate) fn bind(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    resources: &[(u32, wgpu::BindingResource<'_>)],
) -> wgpu::BindGroup {
    let entries: Vec<_> = resources
        .iter()
        .map(|(binding, resource)| wgpu::BindGroupEntry {
            binding: *binding,
            resource: resource.clone(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pass's group 0 as declared in Rust, with its shader.
    fn declared() -> Vec<(Shader, Vec<BufferSlot>)> {
        vec![
            (Shader::Emit, emit::slots().to_vec()),
            (Shader::Args, args::slots().to_vec()),
            (Shader::Simulate, simulate::slots().to_vec()),
            (Shader::GravityStage, gravity::stage_slots().to_vec()),
            (Shader::Gravity, gravity::slots().to_vec()),
            (Shader::GravitySubgroups, gravity::slots().to_vec()),
            (Shader::Bodies, bodies::slots().to_vec()),
            (Shader::Cull, cull::slots().to_vec()),
            (Shader::Merge, merge::slots().to_vec()),
            (Shader::Relist, relist::slots().to_vec()),
            (Shader::BatchRelist, batch_relist::slots().to_vec()),
            (Shader::BatchSimulate, batch_simulate::slots().to_vec()),
            (Shader::BatchMerge, batch_merge::slots().to_vec()),
            (Shader::BatchEmit, batch_emit::slots().to_vec()),
            (Shader::Splat, splat::slots().to_vec()),
            (Shader::RibbonPieces, ribbon::piece_slots().to_vec()),
            (Shader::Grid, grid::slots().to_vec()),
            (Shader::Flock, flock::slots().to_vec()),
            (Shader::Crowd, crowd::slots().to_vec()),
            (Shader::Roofline, crate::roofline::slots().to_vec()),
            (Shader::Sdf, sdf::slots().to_vec()),
            (Shader::Flow, flow::slots().to_vec()),
            (Shader::Scan, grid::scan_slots().to_vec()),
            (Shader::MeshCull, mesh::cull_slots().to_vec()),
            (Shader::Mesh, mesh::draw_slots().to_vec()),
        ]
    }

    /// Every pass's group 0 layout binds at most the storage buffers WebGPU allows a stage
    /// (its other groups bind none; merge.wgsl's group 0 is two layouts, its cull's and
    /// its arguments'): the limit [`crate::adapter`] asks a device for.
    #[test]
    fn every_layout_binds_at_most_webgpus_storage_buffers() {
        let most = crate::adapter::STORAGE_BUFFERS_PER_STAGE as usize;
        assert_eq!(
            most as u32,
            wgpu::Limits::default().max_storage_buffers_per_shader_stage
        );
        for (shader, slots) in declared() {
            let layouts: Vec<Vec<BufferSlot>> = match shader {
                Shader::Merge => [&merge::CULL_BINDINGS[..], &merge::ARGS_BINDINGS[..]]
                    .iter()
                    .map(|bindings| bindings.iter().map(|&b| slots[b as usize]).collect())
                    .collect(),
                _ => vec![slots],
            };
            for layout in layouts {
                let storage = layout
                    .iter()
                    .filter(|s| matches!(s.ty, wgpu::BufferBindingType::Storage { .. }))
                    .count();
                assert!(
                    storage <= most,
                    "{}: {storage} storage buffers",
                    shader.name()
                );
            }
        }
    }

    /// Each declared binding is the WGSL's: same address space and access, and the least
    /// size it declares is what the WGSL type needs (one element of a runtime array).
    #[test]
    fn declared_bindings_match_the_wgsl() {
        for (shader, slots) in declared() {
            let src = shader.source();
            let module = naga::front::wgsl::parse_str(&src).expect("parses");
            let mut layouter = naga::proc::Layouter::default();
            layouter.update(module.to_ctx()).expect("layout");
            let mut wgsl: Vec<(u32, naga::AddressSpace, u32)> = module
                .global_variables
                .iter()
                .filter_map(|(_, var)| {
                    // (buffers only: a texture's binding follows them)
                    let b = var.binding.as_ref().filter(|b| b.group == 0)?;
                    if var.space == naga::AddressSpace::Handle {
                        return None;
                    }
                    // a runtime array needs one element; anything else its whole size
                    let size = match module.types[var.ty].inner {
                        naga::TypeInner::Array {
                            stride,
                            size: naga::ArraySize::Dynamic,
                            ..
                        } => stride,
                        _ => layouter[var.ty].size,
                    };
                    Some((b.binding, var.space, size))
                })
                .collect();
            wgsl.sort_by_key(|w| w.0);
            let name = shader.name();
            assert_eq!(wgsl.len(), slots.len(), "{name}: bindings in group 0");
            let pairs = wgsl.into_iter().zip(slots).enumerate();
            for (i, ((binding, space, size), slot)) in pairs {
                assert_eq!(binding, i as u32, "{name}: bindings 0, 1, … without a gap");
                let same_space = match (space, slot.ty) {
                    (naga::AddressSpace::Uniform, wgpu::BufferBindingType::Uniform) => true,
                    (
                        naga::AddressSpace::Storage { access },
                        wgpu::BufferBindingType::Storage { read_only },
                    ) => read_only != access.contains(naga::StorageAccess::STORE),
                    _ => false,
                };
                assert!(
                    same_space,
                    "{name}: binding {binding} is {space:?}, not {slot:?}"
                );
                assert_eq!(size as u64, slot.min, "{name}: binding {binding}'s size");
            }
        }
    }
}
