//! The low-resolution particle target: its colour (Rgba16Float), the host's depth
//! downsampled to it (kept for the next frame's collisions), the compute splat's
//! accumulators and the bind groups over them. Reallocated when the host's size changes.

use crate::passes::downsample::LOW_DEPTH_FORMAT;
use crate::passes::draw::{target_layout, PARTICLE_FORMAT};
use crate::passes::mesh::MESH_DEPTH_FORMAT;
use crate::passes::splat::{SplatPass, SplatTarget};
use crate::pipelines::Pipelines;
use crate::sprites::Sprites;

/// Size-dependent resources.
pub(super) struct LowRes {
    /// The host's size it was made for.
    pub host: (u32, u32),
    /// The generation of the images' array its bind groups hold.
    pub images: u64,
    pub size: (u32, u32),
    pub color: wgpu::TextureView,
    /// The host's distances (the downsample's), kept apart for the next frame's
    /// collisions where mesh particles are drawn into `drawn` (written only then).
    pub depth: wgpu::TextureView,
    /// The same with the mesh particles drawn in: what the particles are drawn against
    /// and the composite upsamples by.
    pub drawn: wgpu::TextureView,
    /// The depth buffer the mesh particles' distances are drawn with.
    pub mesh_depth: wgpu::TextureView,
    /// Where the host has no depth: the full-size depth buffer mesh particles are drawn
    /// with into its colour (its sample count).
    pub host_mesh_depth: Option<wgpu::TextureView>,
    /// The mesh distance pass's group 1: `depth`.
    pub mesh_bind: wgpu::BindGroup,
    /// The draw's bind group 1 (scene depth, sprites, the images' frames).
    pub draw_bind: wgpu::BindGroup,
    /// The compute splat's accumulators (None: splat off).
    pub splat: Option<SplatTarget>,
    /// Simulate's view of `drawn`, then of `depth` (each holding the previous frame's),
    /// and its camera.
    collision_binds: [wgpu::BindGroup; 2],
    /// The downsample's and the composite's bind groups over the host's depth view they
    /// were made for (a host that draws into the same views each frame makes them once).
    pub host_binds: std::sync::Mutex<Option<HostBinds>>,
}

/// The bind groups over one host depth view.
#[derive(Clone)]
pub(super) struct HostBinds {
    pub depth: wgpu::TextureView,
    pub downsample: wgpu::BindGroup,
    pub composite: wgpu::BindGroup,
}

fn texture(
    device: &wgpu::Device,
    label: &str,
    size: (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureView {
    crate::gpu::texture_2d(device, label, size, format, usage).create_view(&Default::default())
}

impl LowRes {
    /// A target of `size` texels for a host of `host` pixels; with `splat`, the compute
    /// splat's accumulators too, if they fit the device's storage limit; with
    /// `host_mesh_depth` (a host without depth: its sample count), a full-size depth buffer
    /// for the mesh particles.
    pub fn new(
        device: &wgpu::Device,
        p: &Pipelines,
        (host, size): ((u32, u32), (u32, u32)),
        (sprites, images): (&Sprites, &wgpu::TextureView),
        collision: &dyn crate::passes::Binding,
        (splat, host_mesh_depth): (bool, Option<u32>),
    ) -> Self {
        use wgpu::TextureUsages as U;
        let color = texture(
            device,
            "flurry.particle_target",
            size,
            PARTICLE_FORMAT,
            U::RENDER_ATTACHMENT | U::TEXTURE_BINDING | U::STORAGE_BINDING,
        );
        let depth = texture(
            device,
            "flurry.particle_depth",
            size,
            LOW_DEPTH_FORMAT,
            U::STORAGE_BINDING | U::TEXTURE_BINDING,
        );
        let drawn = texture(
            device,
            "flurry.particle_drawn_depth",
            size,
            LOW_DEPTH_FORMAT,
            U::STORAGE_BINDING | U::TEXTURE_BINDING | U::RENDER_ATTACHMENT,
        );
        let mesh_depth = texture(
            device,
            "flurry.mesh_depth",
            size,
            MESH_DEPTH_FORMAT,
            U::RENDER_ATTACHMENT,
        );
        let host_mesh_depth = host_mesh_depth.map(|samples| {
            let format = (MESH_DEPTH_FORMAT, samples);
            crate::gpu::multisampled_2d(
                device,
                "flurry.host_mesh_depth",
                host,
                format,
                U::RENDER_ATTACHMENT,
            )
            .create_view(&Default::default())
        });
        let mesh_bind = crate::passes::mesh::host_distance_bind(device, &depth);
        let resources = [
            (0, wgpu::BindingResource::TextureView(&drawn)),
            (1, wgpu::BindingResource::TextureView(&sprites.view)),
            (2, wgpu::BindingResource::Sampler(&sprites.sampler)),
            (3, wgpu::BindingResource::TextureView(images)),
        ];
        let layout = target_layout(device);
        let draw_bind = crate::passes::bind(device, "draw_target", &layout, &resources);
        let collision_binds = [
            p.collision_bind(&drawn, collision),
            p.collision_bind(&depth, collision),
        ];
        let bytes = SplatPass::accum_bytes(size);
        let limits = device.limits();
        let fits =
            bytes <= limits.max_storage_buffer_binding_size && bytes <= limits.max_buffer_size;
        let splat = (splat && fits).then(|| {
            p.splat()
                .target(device, size, (&drawn, &color), (sprites, images))
        });
        LowRes {
            host,
            images: 0,
            size,
            color,
            depth,
            drawn,
            mesh_depth,
            host_mesh_depth,
            mesh_bind,
            draw_bind,
            splat,
            collision_binds,
            host_binds: Default::default(),
        }
    }

    /// Simulate's group over the previous frame's host distances: kept `apart` from the
    /// drawn ones (where its mesh particles were drawn into those), or the drawn ones,
    /// which then hold the host's alone.
    pub fn collision_bind(&self, apart: bool) -> &wgpu::BindGroup {
        &self.collision_binds[apart as usize]
    }
}
