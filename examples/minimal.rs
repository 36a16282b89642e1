//! The shortest headless host: its own device and texture, 60 frames of snow, `minimal.png`.
use flurry::{glam::Vec3, wgpu, Camera, EffectDesc, FrameTargets, GpuContext};
use flurry::{ParticleRenderer, Settings, Targets};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let adapter = pollster::block_on(instance.request_adapter(&Default::default()))?;
    let (device, queue) = pollster::block_on(adapter.request_device(&Default::default()))?;
    let (width, height, format) = (512, 320, wgpu::TextureFormat::Rgba8UnormSrgb);
    let color = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("color"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = color.create_view(&Default::default());
    let mut particles =
        ParticleRenderer::new(&device, Targets::new(format, None), Settings::default())?;
    let snow = EffectDesc::from_ron(include_str!("../effects/snow.ron"))?;
    // its pipelines built now, as at a loading screen (else they are built off this thread
    // and the snow starts falling once they are ready, a second or so into the 60 frames)
    particles.warm(&device, &[&snow])?;
    particles.add_effect(&device, &queue, &snow, 65_536, 1)?;
    let camera = Camera::look_at(Vec3::new(0.0, 4.0, 16.0), Vec3::ZERO, 1.6);
    for _ in 0..60 {
        particles.update(&device, &queue, 1.0 / 60.0, camera, (width, height))?;
        let mut encoder = device.create_command_encoder(&Default::default());
        // the host's own pass: a black sky for the snow to be composited onto
        let ops = wgpu::Operations {
            load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
            store: wgpu::StoreOp::Store,
        };
        let attachment = wgpu::RenderPassColorAttachment {
            view: &view,
            depth_slice: None,
            resolve_target: None,
            ops,
        };
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            color_attachments: &[Some(attachment)],
            ..Default::default()
        });
        particles.encode(&device, &mut encoder, &FrameTargets::new(&view, None))?;
        queue.submit([encoder.finish()]);
    }
    let gpu = GpuContext {
        instance,
        adapter,
        device,
        queue,
    };
    let pixels = gpu.read_texture(&color)?;
    let image = image::RgbaImage::from_raw(width, height, pixels);
    Ok(image.ok_or("a short read-back")?.save("minimal.png")?)
}
