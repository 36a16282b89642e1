//! An HDR host for the tests that measure light: its colour target in half floats, cleared
//! each frame, the particles composited onto it without a tonemap, read back as linear RGB.

/// A host colour target of `size` in half floats: cleared, the particles composited onto
/// it (an HDR host: no tonemap), read back as linear RGB.
pub struct HdrHost {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    size: (u32, u32),
}

/// A square HDR host of `side` pixels, a camera 10 m from the origin looking at it, the
/// metres a pixel spans there, and a renderer drawing into the host.
pub struct Facing {
    pub host: HdrHost,
    pub camera: flurry::Camera,
    pub pixel: f32,
    pub renderer: flurry::ParticleRenderer,
}

impl Facing {
    pub fn new(gpu: &flurry::GpuContext, side: u32) -> Self {
        let host = HdrHost::new(gpu, (side, side));
        let eye = flurry::glam::Vec3::new(0.0, 0.0, 10.0);
        let camera = flurry::Camera::look_at(eye, flurry::glam::Vec3::ZERO, 1.0);
        let pixel = 2.0 * 10.0 * (camera.fov_y / 2.0).tan() / side as f32;
        let targets = flurry::Targets::new(HdrHost::FORMAT, None);
        let settings = super::settings();
        let renderer = flurry::ParticleRenderer::new(&gpu.device, targets, settings).unwrap();
        Facing {
            host,
            camera,
            pixel,
            renderer,
        }
    }
}

impl HdrHost {
    pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

    pub fn new(gpu: &flurry::GpuContext, size: (u32, u32)) -> Self {
        use wgpu::TextureUsages as U;
        let texture = super::host::headless::texture(
            &gpu.device,
            "hdr host",
            size,
            Self::FORMAT,
            U::RENDER_ATTACHMENT | U::COPY_SRC,
        );
        let view = texture.create_view(&Default::default());
        HdrHost {
            texture,
            view,
            size,
        }
    }

    pub fn frame(
        &self,
        gpu: &flurry::GpuContext,
        renderer: &mut flurry::ParticleRenderer,
        camera: &flurry::Camera,
        dt: f32,
    ) {
        renderer
            .update(&gpu.device, &gpu.queue, dt, camera, self.size)
            .unwrap();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("clear"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        let frame = flurry::FrameTargets::new(&self.view, None);
        renderer.encode(&gpu.device, &mut encoder, &frame).unwrap();
        gpu.queue.submit([encoder.finish()]);
    }

    /// `desc` added to `renderer` (a pool of `capacity`) and shown for two frames through
    /// `camera`: its stats after them.
    pub fn show(
        &self,
        gpu: &flurry::GpuContext,
        renderer: &mut flurry::ParticleRenderer,
        (desc, capacity): (&flurry::EffectDesc, u32),
        camera: &flurry::Camera,
    ) -> flurry::Stats {
        let id = renderer
            .add_effect(&gpu.device, &gpu.queue, desc, capacity, 5)
            .unwrap();
        for _ in 0..2 {
            self.frame(gpu, renderer, camera, 1.0 / 60.0);
        }
        renderer
            .snapshot(&gpu.device, &gpu.queue, id)
            .unwrap()
            .stats
    }

    /// Every pixel's linear red, green and blue, summed.
    pub fn total_light(&self, gpu: &flurry::GpuContext) -> f64 {
        self.pixels(gpu).iter().map(|p| p[0] + p[1] + p[2]).sum()
    }

    /// Every pixel's linear red, green and blue, row by row.
    pub fn pixels(&self, gpu: &flurry::GpuContext) -> Vec<[f64; 3]> {
        let (width, height) = self.size;
        let row = (width * 8).div_ceil(256) * 256;
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hdr read-back"),
            size: (row * height) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: None,
                },
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
        gpu.queue.submit([encoder.finish()]);
        buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.unwrap());
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .unwrap();
        let bytes = buffer.slice(..).get_mapped_range().unwrap();
        let mut pixels = Vec::with_capacity((width * height) as usize);
        for y in 0..height {
            let start = (y * row) as usize;
            let texels = &bytes[start..start + (width * 8) as usize];
            for texel in texels.chunks(8) {
                let channel = |c: usize| half(u16::from_le_bytes([texel[2 * c], texel[2 * c + 1]]));
                pixels.push([channel(0), channel(1), channel(2)]);
            }
        }
        pixels
    }
}

/// An IEEE half-precision float's value.
pub fn half(bits: u16) -> f64 {
    let sign = if bits >> 15 == 1 { -1.0 } else { 1.0 };
    let exponent = ((bits >> 10) & 0x1f) as i32;
    let fraction = (bits & 0x3ff) as f64;
    sign * match exponent {
        0 => fraction * 2f64.powi(-24),
        31 => f64::INFINITY,
        e => (1.0 + fraction / 1024.0) * 2f64.powi(e - 15),
    }
}
