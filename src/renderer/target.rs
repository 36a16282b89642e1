//! The low-resolution particle target: its colour (Rgba16Float), the host's depth
//! downsampled to it (kept for the next frame's collisions), the compute splat's
//! accumulators and the bind groups over them. Reallocated when the host's size changes.

use crate::passes::downsample::LOW_DEPTH_FORMAT;
use crate::passes::draw::{target_layout, PARTICLE_FORMAT};
use crate::passes::splat::{SplatPass, SplatTarget};
use crate::pipelines::Pipelines;
use crate::sprites::Sprites;

/// Size-dependent resources.
pub(super) struct LowRes {
    /// The host's size it was made for.
    pub host: (u32, u32),
    pub size: (u32, u32),
    pub color: wgpu::TextureView,
    pub depth: wgpu::TextureView,
    /// The draw's bind group 1 (scene depth, sprites).
    pub draw_bind: wgpu::BindGroup,
    /// The compute splat's accumulators (None: splat off).
    pub splat: Option<SplatTarget>,
    /// Simulate's view of `depth` (holding the previous frame's) and its camera.
    pub collision_bind: wgpu::BindGroup,
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
    /// splat's accumulators too, if they fit the device's storage limit.
    pub fn new(
        device: &wgpu::Device,
        p: &Pipelines,
        (host, size): ((u32, u32), (u32, u32)),
        sprites: &Sprites,
        collision: &wgpu::Buffer,
        splat: bool,
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
        let resources = [
            (0, wgpu::BindingResource::TextureView(&depth)),
            (1, wgpu::BindingResource::TextureView(&sprites.view)),
            (2, wgpu::BindingResource::Sampler(&sprites.sampler)),
        ];
        let layout = target_layout(device);
        let draw_bind = crate::passes::bind(device, "draw_target", &layout, &resources);
        let collision_bind = p.collision_bind(&depth, collision);
        let bytes = SplatPass::accum_bytes(size);
        let limits = device.limits();
        let fits =
            bytes <= limits.max_storage_buffer_binding_size && bytes <= limits.max_buffer_size;
        let splat =
            (splat && fits).then(|| p.splat().target(device, size, &depth, &color, sprites));
        LowRes {
            host,
            size,
            color,
            depth,
            draw_bind,
            splat,
            collision_bind,
        }
    }
}
