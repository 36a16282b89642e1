//! A renderer's images on the GPU: one sRGB texture each, with its mips, and the sampler
//! the draw reads them through for ribbons.

use super::{Image, ImageId};
use crate::effect::EffectDesc;
use crate::error::{Error, Invalid, Result};

/// The host's images and what a ribbon without one binds.
pub(crate) struct Images {
    views: Vec<wgpu::TextureView>,
    /// Bound by ribbons without an image (never sampled: a 1×1 texture).
    none: wgpu::TextureView,
    /// Linear within and between mips; repeating along a ribbon, clamped across it.
    pub sampler: wgpu::Sampler,
}

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

fn create(device: &wgpu::Device, (width, height): (u32, u32), mips: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("flurry.image"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}

impl Images {
    pub fn new(device: &wgpu::Device) -> Self {
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("flurry.images"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        Images {
            views: Vec::new(),
            none: create(device, (1, 1), 1).create_view(&Default::default()),
            sampler,
        }
    }

    /// Upload `image` and its mips. Refuses a side past the device's 2D texture limit.
    pub fn add(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        image: &Image,
    ) -> Result<ImageId> {
        let limit = device.limits().max_texture_dimension_2d;
        for (field, side) in [("image.width", image.width), ("image.height", image.height)] {
            if side > limit {
                let allowed = format!("1..={limit} texels (the device's 2D texture limit)");
                return Err(Invalid::new(field, side, allowed).into());
            }
        }
        let mips = image.mips();
        let texture = create(device, (image.width, image.height), mips.len() as u32);
        for (level, mip) in mips.iter().enumerate() {
            queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: level as u32,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                bytemuck::cast_slice(&mip.pixels),
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(4 * mip.width),
                    rows_per_image: Some(mip.height),
                },
                wgpu::Extent3d {
                    width: mip.width,
                    height: mip.height,
                    depth_or_array_layers: 1,
                },
            );
        }
        self.views.push(texture.create_view(&Default::default()));
        Ok(ImageId(self.views.len() as u32 - 1))
    }

    /// What a ribbon showing `image` binds (the unsampled placeholder for none).
    pub fn view(&self, image: Option<ImageId>) -> &wgpu::TextureView {
        image
            .and_then(|id| self.views.get(id.0 as usize))
            .unwrap_or(&self.none)
    }

    /// Refuse an effect whose ribbons name an image this renderer does not hold.
    pub fn check(&self, desc: &EffectDesc) -> Result<()> {
        let allowed = match self.views.len() {
            0 => "an image added to this renderer (none has been)".to_string(),
            n => format!("0..{n} (the images added to this renderer)"),
        };
        let problems: Vec<_> = desc
            .named_images()
            .into_iter()
            .filter(|(_, image)| image.0 as usize >= self.views.len())
            .map(|(field, image)| Invalid::new(field, image.0, allowed.clone()))
            .collect();
        match problems.is_empty() {
            true => Ok(()),
            false => Err(Error::EffectInvalid {
                path: None,
                problems,
            }),
        }
    }
}
