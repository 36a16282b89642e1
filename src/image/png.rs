//! Image files (PNG), for effect files that name their images by path.

use std::path::Path;

use super::Image;
use crate::error::{Error, Result};

impl Image {
    /// Read a PNG file (any bit depth and colour type, converted to 8-bit RGBA; its colour
    /// taken as sRGB, its alpha as straight, as PNG files hold them). Needs the `png`
    /// feature.
    pub fn open(path: &Path) -> Result<Image> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Image::from_png(&bytes).map_err(|e| match e {
            Error::ImageFile { message, .. } => Error::ImageFile {
                path: path.to_path_buf(),
                message,
            },
            e => e,
        })
    }

    /// Decode a PNG file's bytes (as [`Image::open`] does; a failure names no file).
    pub fn from_png(bytes: &[u8]) -> Result<Image> {
        let decoded = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
            .map_err(|e| Error::ImageFile {
                path: Default::default(),
                message: e.to_string(),
            })?
            .into_rgba8();
        let (width, height) = decoded.dimensions();
        let pixels = decoded.pixels().map(|p| p.0).collect();
        Image::new(width, height, pixels)
    }
}
