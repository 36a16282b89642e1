//! The frames particles show ([`Sprite::Image`](crate::effect::Sprite::Image)): every frame
//! of every image sheet an effect shows is one layer of a single texture array, so that one
//! binding serves every effect's splat and draw, merged lists and batches too, and a
//! flipbook's next frame is the next layer. A layer is [`IMAGE_SIDE`]² texels with its mip
//! levels, each its own (a frame's coarse levels never take colour from its neighbours on
//! the sheet, as an atlas's do). Texels are premultiplied linear light, sRGB-encoded
//! (`Rgba8UnormSrgb`): the sampler decodes before it filters, so filtering and the mip
//! levels mix light, and transparent texels lend no colour. A frame of another size is
//! resampled to the layer's side.

use super::{linear_to_srgb, AlphaMode, ColorSpace, Image, ImageId};
use crate::error::{Invalid, Result};

/// Side of a layer, texels (`IMAGE_SIDE` in common.wgsl).
pub(crate) const IMAGE_SIDE: u32 = 256;
/// Mip levels of a layer, down to 1×1.
const MIPS: u32 = IMAGE_SIDE.ilog2() + 1;

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// One frame's mip levels, largest first, each row by row.
type Levels = Vec<Vec<[u8; 4]>>;

/// A placed sheet: its image, its grid (columns, rows), and whether its texels are data
/// (normals: read as linear, whatever the image's colour space says).
pub(crate) type SheetKey = (ImageId, (u32, u32), bool);

/// The array and what lies in it.
pub(crate) struct ImageLayers {
    texture: Option<wgpu::Texture>,
    /// What the splat and the draw bind (a 1×1 layer while no image is placed).
    pub view: wgpu::TextureView,
    /// Each placed sheet and its first layer.
    placed: Vec<(SheetKey, u32)>,
    /// Every layer's levels, kept to fill a larger array when it grows.
    layers: Vec<Levels>,
    /// Counts the arrays made: bind groups over an older one are stale.
    generation: u64,
}

fn create(device: &wgpu::Device, side: u32, layers: u32, mips: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("flurry.particle_images"),
        size: wgpu::Extent3d {
            width: side,
            height: side,
            depth_or_array_layers: layers,
        },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FORMAT,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}

fn array_view(texture: &wgpu::Texture) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        ..Default::default()
    })
}

impl ImageLayers {
    pub fn new(device: &wgpu::Device) -> Self {
        ImageLayers {
            texture: None,
            view: array_view(&create(device, 1, 1, 1)),
            placed: Vec::new(),
            layers: Vec::new(),
            generation: 0,
        }
    }

    /// Changes whenever [`ImageLayers::view`] does.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The first layer of `sheet`, if placed.
    pub fn first_layer(&self, sheet: SheetKey) -> Option<u32> {
        self.placed
            .iter()
            .find(|(s, _)| *s == sheet)
            .map(|&(_, l)| l)
    }

    /// Place the `columns` × `rows` frames of `image` (known as `id`; `data`: normals, read
    /// as linear), unless they are already: its first layer. Refuses more layers in all than
    /// the device's array limit, naming `field`.
    pub fn place(
        &mut self,
        (device, queue): (&wgpu::Device, &wgpu::Queue),
        (id, image): (ImageId, &Image),
        ((columns, rows), data): ((u32, u32), bool),
        field: &str,
    ) -> Result<u32> {
        let key = (id, (columns, rows), data);
        if let Some(first) = self.first_layer(key) {
            return Ok(first);
        }
        let limit = device.limits().max_texture_array_layers;
        let first = self.layers.len() as u32;
        let frames = columns * rows;
        if first + frames > limit {
            let allowed = format!(
                "at most {limit} frames placed in all on this device ({first} already are)"
            );
            let value = format!("{frames} frames ({columns} × {rows})");
            return Err(Invalid::new(field, value, allowed).into());
        }
        let sheet = match data {
            true => {
                let linear = (ColorSpace::Linear, AlphaMode::Straight);
                Sheet::new(
                    &image.clone().with_encoding(linear.0, linear.1),
                    (columns, rows),
                )
            }
            false => Sheet::new(image, (columns, rows)),
        };
        for k in 0..frames {
            self.layers.push(levels(&sheet.frame(k)));
        }
        self.placed.push((key, first));
        let capacity = self
            .texture
            .as_ref()
            .map_or(0, |t| t.depth_or_array_layers());
        let wanted = first + frames;
        if wanted > capacity {
            // a larger array, filled again from the kept levels
            let capacity = wanted.next_power_of_two().clamp(4, limit.max(wanted));
            let texture = create(device, IMAGE_SIDE, capacity, MIPS);
            for layer in 0..wanted {
                self.write(queue, &texture, layer);
            }
            self.view = array_view(&texture);
            self.texture = Some(texture);
            self.generation += 1;
        } else if let Some(texture) = &self.texture {
            for layer in first..wanted {
                self.write(queue, texture, layer);
            }
        }
        Ok(first)
    }

    fn write(&self, queue: &wgpu::Queue, texture: &wgpu::Texture, layer: u32) {
        for (level, texels) in self.layers[layer as usize].iter().enumerate() {
            let side = IMAGE_SIDE >> level;
            queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture,
                    mip_level: level as u32,
                    origin: wgpu::Origin3d {
                        x: 0,
                        y: 0,
                        z: layer,
                    },
                    aspect: wgpu::TextureAspect::All,
                },
                bytemuck::cast_slice(texels),
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(4 * side),
                    rows_per_image: Some(side),
                },
                wgpu::Extent3d {
                    width: side,
                    height: side,
                    depth_or_array_layers: 1,
                },
            );
        }
    }
}

/// An image as premultiplied linear light, cut into frames.
struct Sheet {
    width: u32,
    height: u32,
    light: Vec<[f32; 4]>,
    grid: (u32, u32),
}

impl Sheet {
    fn new(image: &Image, grid: (u32, u32)) -> Self {
        let light = (0..image.pixels().len())
            .map(|i| image.linear_premultiplied(i))
            .collect();
        Sheet {
            width: image.width(),
            height: image.height(),
            light,
            grid,
        }
    }

    /// The light at texel (x, y), clamped to the frame's texels `lo..=hi`.
    fn texel(&self, x: i64, y: i64, lo: (i64, i64), hi: (i64, i64)) -> [f32; 4] {
        let (x, y) = (x.clamp(lo.0, hi.0), y.clamp(lo.1, hi.1));
        self.light[(y as u32 * self.width + x as u32) as usize]
    }

    /// Frame `k` (row by row from the top left) resampled to [`IMAGE_SIDE`]², premultiplied
    /// linear light: each layer texel the mean of bilinear samples spread over its footprint
    /// on the frame (one where the frame is as fine as the layer or coarser), never reading
    /// past the frame's edge.
    fn frame(&self, k: u32) -> Vec<[f32; 4]> {
        let (columns, rows) = self.grid;
        let w = self.width as f64 / columns as f64;
        let h = self.height as f64 / rows as f64;
        let (x0, y0) = ((k % columns) as f64 * w, (k / columns) as f64 * h);
        let lo = (x0.floor() as i64, y0.floor() as i64);
        let hi = (
            ((x0 + w).ceil() as i64 - 1).max(lo.0),
            ((y0 + h).ceil() as i64 - 1).max(lo.1),
        );
        let side = IMAGE_SIDE as f64;
        let taps = |scale: f64| (scale.ceil() as usize).max(1);
        let (nx, ny) = (taps(w / side), taps(h / side));
        let bilinear = |u: f64, v: f64| {
            // texel centres at +0.5
            let (fx, fy) = (u - 0.5, v - 0.5);
            let (ix, iy) = (fx.floor() as i64, fy.floor() as i64);
            let (tx, ty) = ((fx - fx.floor()) as f32, (fy - fy.floor()) as f32);
            let mut out = [0.0f32; 4];
            for (dx, dy, weight) in [
                (0, 0, (1.0 - tx) * (1.0 - ty)),
                (1, 0, tx * (1.0 - ty)),
                (0, 1, (1.0 - tx) * ty),
                (1, 1, tx * ty),
            ] {
                let t = self.texel(ix + dx, iy + dy, lo, hi);
                for c in 0..4 {
                    out[c] += t[c] * weight;
                }
            }
            out
        };
        let mut texels = Vec::with_capacity((IMAGE_SIDE * IMAGE_SIDE) as usize);
        for j in 0..IMAGE_SIDE {
            for i in 0..IMAGE_SIDE {
                let mut sum = [0.0f32; 4];
                for sy in 0..ny {
                    for sx in 0..nx {
                        let u = x0 + (i as f64 + (sx as f64 + 0.5) / nx as f64) / side * w;
                        let v = y0 + (j as f64 + (sy as f64 + 0.5) / ny as f64) / side * h;
                        let t = bilinear(u, v);
                        for c in 0..4 {
                            sum[c] += t[c];
                        }
                    }
                }
                let n = (nx * ny) as f32;
                texels.push(sum.map(|c| c / n));
            }
        }
        texels
    }
}

/// A frame's mip levels (each texel the mean of the 2×2 above it, in light), encoded as the
/// array holds them.
fn levels(frame: &[[f32; 4]]) -> Levels {
    let mut level = frame.to_vec();
    let mut side = IMAGE_SIDE;
    let mut out = vec![encode(&level)];
    while side > 1 {
        let half = side / 2;
        let at = |x: u32, y: u32| level[(y * side + x) as usize];
        let next: Vec<[f32; 4]> = (0..half * half)
            .map(|i| {
                let (x, y) = (2 * (i % half), 2 * (i / half));
                let quad = [at(x, y), at(x + 1, y), at(x, y + 1), at(x + 1, y + 1)];
                std::array::from_fn(|c| quad.iter().map(|t| t[c]).sum::<f32>() / 4.0)
            })
            .collect();
        out.push(encode(&next));
        level = next;
        side = half;
    }
    out
}

/// Premultiplied light as `Rgba8UnormSrgb` texels (colour encoded, alpha linear).
fn encode(light: &[[f32; 4]]) -> Vec<[u8; 4]> {
    light
        .iter()
        .map(|&[r, g, b, a]| {
            let alpha = (a.clamp(0.0, 1.0) * 255.0).round() as u8;
            [
                linear_to_srgb(r),
                linear_to_srgb(g),
                linear_to_srgb(b),
                alpha,
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sheet of 2 × 1 frames, the left one red and opaque, the right one transparent.
    fn two_frames(width: u32) -> Image {
        let pixels = (0..width * 2)
            .map(|i| match i % width < width / 2 {
                true => [255, 0, 0, 255],
                false => [0, 255, 0, 0],
            })
            .collect();
        Image::new(width, 2, pixels).unwrap()
    }

    #[test]
    fn frames_are_cut_from_the_sheet_without_bleeding_into_each_other() {
        for width in [64, 1024] {
            let sheet = Sheet::new(&two_frames(width), (2, 1));
            let left = sheet.frame(0);
            let right = sheet.frame(1);
            assert_eq!(left.len(), (IMAGE_SIDE * IMAGE_SIDE) as usize);
            assert!(left.iter().all(|t| *t == [1.0, 0.0, 0.0, 1.0]), "{width}");
            assert!(right.iter().all(|t| *t == [0.0; 4]), "{width}");
        }
    }

    #[test]
    fn a_frame_keeps_its_light_when_resampled() {
        // a 16 × 16 checker of opaque white and transparent texels: half its area lit,
        // whichever way it is resampled
        let pixels = (0..16 * 16)
            .map(|i| match (i % 16 + i / 16) % 2 {
                0 => [255; 4],
                _ => [0; 4],
            })
            .collect();
        let image = Image::new(16, 16, pixels).unwrap();
        let frame = Sheet::new(&image, (1, 1)).frame(0);
        let mean = frame.iter().map(|t| t[3]).sum::<f32>() / frame.len() as f32;
        assert!((mean - 0.5).abs() < 0.01, "{mean}");
        // the top level is the mean
        let top = levels(&frame).pop().unwrap();
        assert_eq!(top.len(), 1);
        assert!((top[0][3] as f32 / 255.0 - mean).abs() < 0.01);
    }

    #[test]
    fn texels_are_premultiplied_light() {
        // straight sRGB half-transparent white: light 1 × alpha ½ = ½, sRGB-encoded 188
        let straight = Image::new(1, 1, vec![[255, 255, 255, 128]]).unwrap();
        let texel = encode(&Sheet::new(&straight, (1, 1)).frame(0))[0];
        assert_eq!(texel, [188, 188, 188, 128]);
        // the same light given premultiplied in linear: 128 of 255
        let linear = Image::new(1, 1, vec![[128, 128, 128, 128]]).unwrap();
        let linear = linear.with_encoding(ColorSpace::Linear, AlphaMode::Premultiplied);
        assert_eq!(encode(&Sheet::new(&linear, (1, 1)).frame(0))[0], texel);
    }

    #[test]
    fn the_side_is_the_shaders() {
        let src = crate::shaders::Shader::Splat.source();
        assert!(src.contains(&format!("const IMAGE_SIDE: f32 = {IMAGE_SIDE}.0;")));
    }
}
