//! Images a host gives a renderer: for particles to show
//! ([`Sprite::Image`](crate::effect::Sprite::Image), a still image or a flipbook's frames)
//! and for ribbons to show along their length
//! ([`RibbonTexture`](crate::effect::RibbonTexture)).

mod layers;
mod library;
#[cfg(feature = "png")]
mod png;

pub(crate) use library::Images;

use serde::{Deserialize, Serialize};

use crate::error::{Invalid, Result};

/// An image a host added to a renderer
/// ([`ParticleRenderer::add_image`](crate::ParticleRenderer::add_image)); in an effect file
/// `image: 0` is the first image the host added, `1` the second, and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ImageId(pub u32);

/// Widest and tallest image, texels: what every device wgpu runs on can hold in one 2D
/// texture (a device may allow more; the renderer checks its own limit too).
pub const MAX_IMAGE_SIDE: u32 = 8192;

/// How an image's colour channels encode light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColorSpace {
    /// sRGB-encoded, as images are painted and stored (the default).
    #[default]
    Srgb,
    /// Linear: the value is the light (data, or colour made by a program in linear light).
    Linear,
}

/// How an image's colour relates to its alpha.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AlphaMode {
    /// Colour as it would show where the texel were opaque (the default; PNG files).
    #[default]
    Straight,
    /// Colour already multiplied by alpha (in the image's colour space).
    Premultiplied,
}

/// An RGBA image, 8 bits a channel, rows from the top; its colour sRGB-encoded and its
/// alpha straight unless said otherwise ([`Image::with_encoding`]). Checked when made.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    width: u32,
    height: u32,
    pixels: Vec<[u8; 4]>,
    color_space: ColorSpace,
    alpha: AlphaMode,
}

impl Image {
    /// An image `width` × `height` texels (each 1..=[`MAX_IMAGE_SIDE`]) of `pixels`, row by
    /// row from the top; their number must be `width × height`. A bad one is an error
    /// naming the field, its value and what is allowed.
    pub fn new(width: u32, height: u32, pixels: Vec<[u8; 4]>) -> Result<Image> {
        for (field, side) in [("image.width", width), ("image.height", height)] {
            if !(1..=MAX_IMAGE_SIDE).contains(&side) {
                let allowed = format!("1..={MAX_IMAGE_SIDE} texels");
                return Err(Invalid::new(field, side, allowed).into());
            }
        }
        let texels = width as usize * height as usize;
        if pixels.len() != texels {
            let allowed = format!("{texels} pixels (width × height)");
            let value = format!("{} pixels", pixels.len());
            return Err(Invalid::new("image.pixels", value, allowed).into());
        }
        Ok(Image {
            width,
            height,
            pixels,
            color_space: ColorSpace::Srgb,
            alpha: AlphaMode::Straight,
        })
    }

    /// The same pixels read as encoded in `color_space` with `alpha`.
    pub fn with_encoding(self, color_space: ColorSpace, alpha: AlphaMode) -> Image {
        Image {
            color_space,
            alpha,
            ..self
        }
    }

    /// How its colour encodes light.
    pub fn color_space(&self) -> ColorSpace {
        self.color_space
    }

    /// How its colour relates to its alpha.
    pub fn alpha_mode(&self) -> AlphaMode {
        self.alpha
    }

    /// Texel `i` (row by row) as linear light premultiplied by its alpha, 0..=1.
    pub(crate) fn linear_premultiplied(&self, i: usize) -> [f32; 4] {
        let p = self.pixels[i];
        let a = p[3] as f32 / 255.0;
        let light = |c: u8| match self.color_space {
            ColorSpace::Srgb => srgb_to_linear(c),
            ColorSpace::Linear => c as f32 / 255.0,
        };
        let k = match self.alpha {
            AlphaMode::Straight => a,
            AlphaMode::Premultiplied => 1.0,
        };
        [light(p[0]) * k, light(p[1]) * k, light(p[2]) * k, a]
    }

    /// The image as sRGB-encoded colour with straight alpha (what a ribbon's texture holds).
    pub(crate) fn srgb_straight(&self) -> Image {
        if (self.color_space, self.alpha) == (ColorSpace::Srgb, AlphaMode::Straight) {
            return self.clone();
        }
        let pixels = (0..self.pixels.len())
            .map(|i| {
                let [r, g, b, a] = self.linear_premultiplied(i);
                let straight = |c: f32| linear_to_srgb(if a > 0.0 { c / a } else { 0.0 });
                [straight(r), straight(g), straight(b), self.pixels[i][3]]
            })
            .collect();
        Image {
            pixels,
            color_space: ColorSpace::Srgb,
            alpha: AlphaMode::Straight,
            ..*self
        }
    }

    /// Width, texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height, texels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, row by row from the top.
    pub fn pixels(&self) -> &[[u8; 4]] {
        &self.pixels
    }

    /// Every mip level from the image itself down to 1×1, each texel the mean of the 2×2
    /// (at an odd edge, the 2×1 or 1×1) texels above it, averaged in linear light and
    /// weighted by alpha, so that transparent texels lend no colour to their neighbours.
    pub(crate) fn mips(&self) -> Vec<Image> {
        let mut levels = vec![self.clone()];
        while let Some(above) = levels.last().filter(|l| l.width > 1 || l.height > 1) {
            levels.push(above.half());
        }
        levels
    }

    /// The next mip level down.
    fn half(&self) -> Image {
        let (w, h) = ((self.width / 2).max(1), (self.height / 2).max(1));
        let mut pixels = Vec::with_capacity(w as usize * h as usize);
        for y in 0..h {
            for x in 0..w {
                let mut sum = [0.0f32; 4];
                let mut n = 0.0;
                for (sx, sy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let (sx, sy) = (2 * x + sx, 2 * y + sy);
                    if sx >= self.width || sy >= self.height {
                        continue;
                    }
                    let p = self.pixels[(sy * self.width + sx) as usize];
                    let a = p[3] as f32 / 255.0;
                    for c in 0..3 {
                        sum[c] += srgb_to_linear(p[c]) * a;
                    }
                    sum[3] += a;
                    n += 1.0;
                }
                let rgb = |c: usize| match sum[3] > 0.0 {
                    true => linear_to_srgb(sum[c] / sum[3]),
                    false => 0,
                };
                let alpha = (sum[3] / n * 255.0).round() as u8;
                pixels.push([rgb(0), rgb(1), rgb(2), alpha]);
            }
        }
        Image {
            width: w,
            height: h,
            pixels,
            color_space: self.color_space,
            alpha: self.alpha,
        }
    }
}

/// An sRGB-encoded channel in linear light, 0..=1.
pub(crate) fn srgb_to_linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    match c <= 0.04045 {
        true => c / 12.92,
        false => ((c + 0.055) / 1.055).powf(2.4),
    }
}

/// A linear channel (0..=1) sRGB-encoded.
pub(crate) fn linear_to_srgb(c: f32) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let s = match c <= 0.003_130_8 {
        true => c * 12.92,
        false => 1.055 * c.powf(1.0 / 2.4) - 0.055,
    };
    (s * 255.0).round() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_bad_sizes_by_field() {
        let err = Image::new(0, 4, vec![]).unwrap_err().to_string();
        assert!(err.contains("image.width = 0: allowed 1..=8192"), "{err}");
        let err = Image::new(4, 9000, vec![]).unwrap_err().to_string();
        assert!(err.contains("image.height = 9000"), "{err}");
        let err = Image::new(2, 2, vec![[0; 4]; 3]).unwrap_err().to_string();
        assert!(
            err.contains("image.pixels = 3 pixels: allowed 4 pixels"),
            "{err}"
        );
    }

    #[test]
    fn mips_halve_down_to_one_texel() {
        let image = Image::new(5, 2, vec![[255, 0, 0, 255]; 10]).unwrap();
        let sides: Vec<_> = image.mips().iter().map(|m| (m.width, m.height)).collect();
        assert_eq!(sides, [(5, 2), (2, 1), (1, 1)]);
    }

    #[test]
    fn mips_average_light_and_ignore_transparent_colour() {
        // black and white average to mid-grey in light (188 sRGB), not 128
        let grey = Image::new(2, 1, vec![[0, 0, 0, 255], [255, 255, 255, 255]]).unwrap();
        assert_eq!(grey.mips()[1].pixels, [[188, 188, 188, 255]]);
        // a transparent green texel keeps out of a red one's colour and halves the alpha
        let edge = Image::new(2, 1, vec![[255, 0, 0, 255], [0, 255, 0, 0]]).unwrap();
        assert_eq!(edge.mips()[1].pixels, [[255, 0, 0, 128]]);
    }

    #[test]
    fn srgb_round_trips() {
        for c in 0..=255u8 {
            assert_eq!(linear_to_srgb(srgb_to_linear(c)), c);
        }
    }
}
