//! Procedural sprites (six snowflakes), made on the CPU at start-up into a
//! texture array that the draw and the splat sample.
//!
//! Each flake is six-fold symmetric: a point is folded into the 30° wedge beside the first
//! arm (rotations by 60° and the mirror about the arm leave the flake unchanged), and its
//! coverage is the distance to the arm and its side branches, drawn with a soft edge. The
//! branches' positions, lengths and angles come from a seeded hash, one set per flake.

use crate::hash::pcg_hash;

/// Flakes in the array (layers).
pub(crate) const SNOWFLAKES: u32 = 6;
/// Side of the largest mip level, texels.
pub(crate) const SPRITE_SIZE: u32 = 64;
/// Mip levels down to 1x1.
pub(crate) const SPRITE_MIPS: u32 = SPRITE_SIZE.ilog2() + 1;

/// A segment from `a` to `b` with a half thickness, in flake units (radius 1).
struct Stroke {
    a: [f32; 2],
    b: [f32; 2],
    half_width: f32,
}

fn distance_to(p: [f32; 2], s: &Stroke) -> f32 {
    let (ab, ap) = (
        [s.b[0] - s.a[0], s.b[1] - s.a[1]],
        [p[0] - s.a[0], p[1] - s.a[1]],
    );
    let len2 = ab[0] * ab[0] + ab[1] * ab[1];
    let t = ((ap[0] * ab[0] + ap[1] * ab[1]) / len2).clamp(0.0, 1.0);
    let d = [ap[0] - t * ab[0], ap[1] - t * ab[1]];
    (d[0] * d[0] + d[1] * d[1]).sqrt() - s.half_width
}

/// Flake `k`'s strokes in the wedge: the arm along +x, branches leaving it at 60°.
fn strokes(k: u32) -> Vec<Stroke> {
    let mut state = pcg_hash(0x5eed_f1a4 ^ k.wrapping_mul(0x9e37_79b9));
    let mut rand = || {
        state = pcg_hash(state);
        (state >> 8) as f32 / 16_777_216.0
    };
    let arm = 0.78 + 0.17 * rand();
    let mut s = vec![Stroke {
        a: [0.0, 0.0],
        b: [arm, 0.0],
        half_width: 0.035 + 0.025 * rand(),
    }];
    // a hexagonal plate at the centre on some flakes
    let plate = 0.12 + 0.2 * rand();
    if rand() < 0.5 {
        let corner = |a: f32| [plate * a.cos(), plate * a.sin()];
        let half_width = 0.03;
        s.push(Stroke {
            a: corner(0.0),
            b: corner(std::f32::consts::FRAC_PI_3),
            half_width,
        });
    }
    let branches = 2 + (rand() * 3.0) as u32;
    let angle = (50.0 + 20.0 * rand()).to_radians();
    for i in 0..branches {
        let t = 0.25 + 0.6 * (i as f32 + 0.3 + 0.4 * rand()) / branches as f32;
        let length = (0.15 + 0.35 * rand()) * (1.0 - 0.6 * t);
        s.push(Stroke {
            a: [t * arm, 0.0],
            b: [t * arm + length * angle.cos(), length * angle.sin()],
            half_width: 0.02 + 0.015 * rand(),
        });
    }
    s
}

/// Fold `p` into the wedge 0 <= angle <= 30° (six rotations, one mirror).
fn fold(p: [f32; 2]) -> [f32; 2] {
    let r = (p[0] * p[0] + p[1] * p[1]).sqrt();
    let sixth = std::f32::consts::FRAC_PI_3;
    let a = p[1].atan2(p[0]).rem_euclid(sixth);
    let a = a.min(sixth - a);
    [r * a.cos(), r * a.sin()]
}

/// Coverage (0..=255) of flake `k` in a `size`x`size` image, row-major, four samples a
/// texel.
pub(crate) fn snowflake(k: u32, size: u32) -> Vec<u8> {
    let s = strokes(k);
    let edge = 2.0 / size as f32; // soft edge: about one texel
    let coverage = |p: [f32; 2]| {
        let q = fold(p);
        let d = s
            .iter()
            .map(|st| distance_to(q, st))
            .fold(f32::MAX, f32::min);
        (0.5 - d / edge).clamp(0.0, 1.0)
    };
    let mut out = Vec::with_capacity((size * size) as usize);
    for y in 0..size {
        for x in 0..size {
            let mut sum = 0.0;
            for (ox, oy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                let u = (x as f32 + ox) / size as f32 * 2.0 - 1.0;
                let v = (y as f32 + oy) / size as f32 * 2.0 - 1.0;
                sum += coverage([u, v]);
            }
            out.push((sum / 4.0 * 255.0).round() as u8);
        }
    }
    out
}

/// Every mip level of `image` (`size`x`size`), each the 2x2 mean of the one above.
pub(crate) fn mip_chain(image: Vec<u8>, size: u32) -> Vec<Vec<u8>> {
    let mut levels = vec![image];
    let mut s = size;
    while s > 1 {
        let prev = levels.last().expect("at least one level");
        let half = s / 2;
        let at = |x: u32, y: u32| prev[(y * s + x) as usize] as u32;
        let next = (0..half * half)
            .map(|i| {
                let (x, y) = (2 * (i % half), 2 * (i / half));
                ((at(x, y) + at(x + 1, y) + at(x, y + 1) + at(x + 1, y + 1) + 2) / 4) as u8
            })
            .collect();
        levels.push(next);
        s = half;
    }
    levels
}

/// The snowflake array: [`SNOWFLAKES`] layers of R8Unorm, [`SPRITE_MIPS`] levels.
pub(crate) fn create_texture(device: &wgpu::Device) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("flurry.snowflakes"),
        size: wgpu::Extent3d {
            width: SPRITE_SIZE,
            height: SPRITE_SIZE,
            depth_or_array_layers: SNOWFLAKES,
        },
        mip_level_count: SPRITE_MIPS,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R8Unorm,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    })
}

/// Every flake's mip chain, drawn on the CPU (7-8 ms).
fn flakes() -> Vec<Vec<Vec<u8>>> {
    (0..SNOWFLAKES)
        .map(|k| mip_chain(snowflake(k, SPRITE_SIZE), SPRITE_SIZE))
        .collect()
}

/// Write `flakes` ([`flakes`]) into `texture` ([`create_texture`]).
fn upload(queue: &wgpu::Queue, texture: &wgpu::Texture, flakes: &[Vec<Vec<u8>>]) {
    for (k, chain) in (0u32..).zip(flakes) {
        for (level, data) in chain.iter().enumerate() {
            let side = SPRITE_SIZE >> level;
            queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture,
                    mip_level: level as u32,
                    origin: wgpu::Origin3d { x: 0, y: 0, z: k },
                    aspect: wgpu::TextureAspect::All,
                },
                data,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(side),
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

/// How the sprites and the images' frames are filtered between mip levels: trilinearly on
/// a GPU, whose texture units blend two levels for nothing; from the nearest level on a CPU
/// device, where a texel fetched is the dearest thing a pixel does and blending two levels
/// fetches twice as many (the draw and the splat of a column of image puffs took 0.65× the
/// time with the nearest level on lavapipe: docs/measurements.md).
pub(crate) fn mip_filter(adapter: &wgpu::AdapterInfo) -> wgpu::MipmapFilterMode {
    match adapter.device_type {
        wgpu::DeviceType::Cpu => wgpu::MipmapFilterMode::Nearest,
        _ => wgpu::MipmapFilterMode::Linear,
    }
}

/// The snowflake array, its view and sampler, filled by the first [`Sprites::upload`]
/// after its flakes were drawn.
pub(crate) struct Sprites {
    texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pub sampler: wgpu::Sampler,
    /// The flakes being drawn on a thread of their own (7-8 ms of CPU on the host's thread
    /// at its first frame, else), until uploaded.
    drawing: Option<std::thread::JoinHandle<Vec<Vec<Vec<u8>>>>>,
}

impl Sprites {
    pub fn new(device: &wgpu::Device) -> Self {
        let texture = create_texture(device);
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..Default::default()
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("flurry.sprites"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: mip_filter(&device.adapter_info()),
            ..Default::default()
        });
        Sprites {
            texture,
            view,
            sampler,
            drawing: Some(std::thread::spawn(flakes)),
        }
    }

    /// Write the flakes into the array, once they are drawn, or at once (waiting for them)
    /// when a frame is `due` to draw particles.
    pub fn upload(&mut self, queue: &wgpu::Queue, due: bool) {
        let drawn = self.drawing.as_ref().is_some_and(|d| d.is_finished());
        if !(drawn || due) {
            return;
        }
        if let Some(drawing) = self.drawing.take() {
            // (a thread that panicked drew nothing: the flakes stay blank)
            if let Ok(flakes) = drawing.join() {
                upload(queue, &self.texture, &flakes);
            }
        }
    }
}

/// Layout entries of the sprite array (`texture_2d_array<f32>`) and its sampler at
/// `binding` and `binding + 1`.
pub(crate) fn layout_entries(
    binding: u32,
    visibility: wgpu::ShaderStages,
) -> [wgpu::BindGroupLayoutEntry; 2] {
    [
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D2Array,
                multisampled: false,
            },
            count: None,
        },
        wgpu::BindGroupLayoutEntry {
            binding: binding + 1,
            visibility,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
            count: None,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Coverage at (u, v) in [-1, 1]^2, nearest texel.
    fn at(img: &[u8], size: u32, u: f32, v: f32) -> f32 {
        let t = |c: f32| (((c + 1.0) * 0.5 * size as f32) as u32).min(size - 1);
        img[(t(v) * size + t(u)) as usize] as f32 / 255.0
    }

    #[test]
    fn flakes_are_six_fold_symmetric_and_all_different() {
        let size = 128;
        let flakes: Vec<Vec<u8>> = (0..SNOWFLAKES).map(|k| snowflake(k, size)).collect();
        for (k, img) in flakes.iter().enumerate() {
            // mean difference between the flake and itself turned by `turn`
            let turned = |turn: f32| {
                let mut diff = 0.0;
                for i in 0..4000 {
                    let r = 0.05 + 0.9 * (i as f32 / 4000.0);
                    let a = i as f32 * 2.399; // golden-angle spiral over the disc
                    let b = a + turn;
                    let c = at(img, size, r * a.cos(), r * a.sin());
                    diff += (c - at(img, size, r * b.cos(), r * b.sin())).abs();
                }
                diff / 4000.0
            };
            let ink = img.iter().map(|&x| x as f32 / 255.0).sum::<f32>() / img.len() as f32;
            assert!(
                ink > 0.03 && ink < 0.5,
                "flake {k}: {ink} of the square inked"
            );
            // a turn by 60° lands on the same flake up to texel rounding at the edges;
            // one by 30° (no symmetry of a snowflake) does not
            let sixth = std::f32::consts::FRAC_PI_3;
            let (same, other) = (turned(sixth), turned(0.5 * sixth));
            assert!(
                same < 0.3 * other,
                "flake {k}: 60° turns differ by {same}, 30° by {other}"
            );
            let same2 = turned(2.0 * sixth);
            assert!(
                same2 < 0.3 * other,
                "flake {k}: 120° turns differ by {same2}"
            );
        }
        for a in 0..flakes.len() {
            for b in a + 1..flakes.len() {
                let d: u32 = flakes[a]
                    .iter()
                    .zip(&flakes[b])
                    .map(|(&x, &y)| x.abs_diff(y) as u32)
                    .sum();
                assert!(d > 255 * 200, "flakes {a} and {b} are nearly the same");
            }
        }
    }

    #[test]
    fn mips_halve_down_to_one_texel() {
        let levels = mip_chain(snowflake(0, SPRITE_SIZE), SPRITE_SIZE);
        assert_eq!(levels.len() as u32, SPRITE_MIPS);
        for (i, l) in levels.iter().enumerate() {
            assert_eq!(l.len(), ((SPRITE_SIZE >> i) * (SPRITE_SIZE >> i)) as usize);
        }
        let mean = |l: &Vec<u8>| l.iter().map(|&x| x as f32).sum::<f32>() / l.len() as f32;
        let (top, last) = (mean(&levels[0]), mean(levels.last().unwrap()));
        assert!(
            (top - last).abs() < 2.0,
            "mean {top} at the top, {last} at 1x1"
        );
    }
}
