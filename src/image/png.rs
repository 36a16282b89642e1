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
        let decoded = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
            .map_err(|e| Error::ImageFile {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?
            .into_rgba8();
        let (width, height) = decoded.dimensions();
        let pixels = decoded.pixels().map(|p| p.0).collect();
        Image::new(width, height, pixels)
    }
}
