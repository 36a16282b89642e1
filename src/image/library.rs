//! A renderer's images on the GPU: for ribbons one sRGB texture each, with its mips, and
//! the sampler the draw reads them through; for particles the frames their effects show,
//! in one array ([`ImageLayers`]).

use super::layers::ImageLayers;
use super::{Image, ImageId};
use crate::effect::{EffectDesc, ImageSource, Sprite};
use crate::error::{Error, Invalid, Result};
use crate::types::{EmitterLook, FLIPBOOK_NORMALS_SHIFT, MAX_EMITTERS};

/// The host's images and what a ribbon without one binds.
pub(crate) struct Images {
    /// Each image as the host gave it (particles' frames are cut from it when an effect
    /// first shows it).
    sources: Vec<Image>,
    views: Vec<wgpu::TextureView>,
    /// The frames particles show.
    pub layers: ImageLayers,
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
            sources: Vec::new(),
            layers: ImageLayers::new(device),
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
        let mips = image.srgb_straight().mips();
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
        self.sources.push(image.clone());
        Ok(ImageId(self.views.len() as u32 - 1))
    }

    /// Place the frames `desc`'s particles show in the array (those already there stay
    /// where they are). Call after [`Images::check`].
    pub fn place_sprites(
        &mut self,
        gpu: (&wgpu::Device, &wgpu::Queue),
        desc: &EffectDesc,
    ) -> Result<()> {
        for (field, sprite) in desc.image_sprites() {
            let grid = sprite.flipbook.map_or((1, 1), |f| (f.columns, f.rows));
            let sheets = [(&sprite.image, false)];
            let normals = sprite.normals.as_ref().map(|n| (n, true));
            for (source, data) in sheets.into_iter().chain(normals) {
                let ImageSource::Id(id) = *source else {
                    continue; // refused by check
                };
                let image = &self.sources[id.0 as usize];
                self.layers.place(gpu, (id, image), (grid, data), &field)?;
            }
        }
        Ok(())
    }

    /// Where each emitter's frames (and their normals) lie in the array (placed by
    /// [`Images::place_sprites`]).
    pub fn locate_frames(&self, desc: &EffectDesc, looks: &mut [EmitterLook; MAX_EMITTERS]) {
        for (e, look) in looks.iter_mut().enumerate() {
            let Sprite::Image(sprite) = desc.sprite_of(e) else {
                continue;
            };
            let grid = sprite.flipbook.map_or((1, 1), |f| (f.columns, f.rows));
            let first = |source: &ImageSource, data| match *source {
                ImageSource::Id(id) => self.layers.first_layer((id, grid, data)),
                ImageSource::Path(_) => None,
            };
            look.image_layer = first(&sprite.image, false).unwrap_or(0);
            if let Some(normals) = sprite.normals.as_ref().and_then(|n| first(n, true)) {
                look.flipbook |= (normals + 1) << FLIPBOOK_NORMALS_SHIFT;
            }
        }
    }

    /// What a ribbon showing `image` binds (the unsampled placeholder for none).
    pub fn view(&self, image: Option<ImageId>) -> &wgpu::TextureView {
        image
            .and_then(|id| self.views.get(id.0 as usize))
            .unwrap_or(&self.none)
    }

    /// Refuse an effect whose ribbons or particles name an image this renderer does not
    /// hold, or a file not loaded yet.
    pub fn check(&self, desc: &EffectDesc) -> Result<()> {
        let allowed = match self.views.len() {
            0 => "an image added to this renderer (none has been)".to_string(),
            n => format!("0..{n} (the images added to this renderer)"),
        };
        let unloaded = desc.image_paths().into_iter().map(|(field, path)| {
            let allowed = "an image's id: a file is loaded and added first \
                (ParticleRenderer::load_images)";
            Invalid::new(field, format!("{path:?}"), allowed)
        });
        let problems: Vec<_> = desc
            .named_images()
            .into_iter()
            .filter(|(_, image)| image.0 as usize >= self.views.len())
            .map(|(field, image)| Invalid::new(field, image.0, allowed.clone()))
            .chain(unloaded)
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
