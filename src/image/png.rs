//! Image files (PNG), for effect files that name their images by path.

use std::path::Path;

use super::Image;
use crate::error::{Error, Result};

impl Image {
    /// Read a PNG file (any bit depth and colour type, converted to 8-bit RGBA; its colour
    /// taken as sRGB, its alpha as straight, as PNG files hold them). Needs the `png`
    /// feature.
    pub fn open(path: &Path) -> Result<Image> {
        let limit = crate::files::MAX_IMAGE_FILE;
        let read = crate::files::read_bounded(path, limit, "an image file");
        let bytes = read.map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        // (what is wrong with the image, its size, names the file too)
        Image::from_png(&bytes).map_err(|e| Error::ImageFile {
            path: path.to_path_buf(),
            message: match e {
                Error::ImageFile { message, .. } => message,
                e => e.to_string(),
            },
        })
    }

    /// Decode a PNG file's bytes (as [`Image::open`] does; a failure names no file).
    pub fn from_png(bytes: &[u8]) -> Result<Image> {
        palette_indices(bytes).map_err(|message| Error::ImageFile {
            path: Default::default(),
            message,
        })?;
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

/// A palette image whose pixels index past its palette is refused (decoders show such a
/// pixel as black, or as whatever they choose: the file is broken); any other file passes,
/// its decoding left to the decoder.
fn palette_indices(bytes: &[u8]) -> std::result::Result<(), String> {
    let mut decoder = png_decoder::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png_decoder::Transformations::IDENTITY);
    // (a file the decoder cannot read is the decoder's to refuse, saying why)
    let Ok(mut reader) = decoder.read_info() else {
        return Ok(());
    };
    let info = reader.info();
    if info.color_type != png_decoder::ColorType::Indexed {
        return Ok(());
    }
    let entries = info.palette.as_ref().map_or(0, |p| p.len() / 3);
    let depth = info.bit_depth as usize;
    let Some(size) = reader.output_buffer_size() else {
        return Ok(());
    };
    let mut buffer = vec![0; size];
    let Ok(frame) = reader.next_frame(&mut buffer) else {
        return Ok(());
    };
    let per_byte = 8 / depth;
    let mask = ((1u16 << depth) - 1) as u8;
    for row in buffer.chunks(frame.line_size).take(frame.height as usize) {
        let indices = row
            .iter()
            .flat_map(|&b| (0..per_byte).map(move |k| (b >> (8 - depth * (k + 1))) & mask));
        if let Some(index) = indices
            .take(frame.width as usize)
            .find(|&i| i as usize >= entries)
        {
            return Err(format!(
                "a pixel indexes entry {index} of a palette of {entries} entries"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A palette PNG of `depth` bits, 3 × 2 pixels of `indices`, with `entries` colours.
    fn palette_png(depth: png_decoder::BitDepth, indices: &[u8], entries: usize) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png_decoder::Encoder::new(&mut bytes, 3, 2);
        encoder.set_color(png_decoder::ColorType::Indexed);
        encoder.set_depth(depth);
        encoder.set_palette(
            (0..entries * 3)
                .map(|k| (k * 40) as u8)
                .collect::<Vec<u8>>(),
        );
        let bits = depth as usize;
        let row = |r: &[u8]| -> Vec<u8> {
            let mut packed = vec![0u8; (3 * bits).div_ceil(8)];
            for (k, &i) in r.iter().enumerate() {
                packed[k * bits / 8] |= i << (8 - bits - (k * bits) % 8);
            }
            packed
        };
        let data = [row(&indices[..3]), row(&indices[3..])].concat();
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&data).unwrap();
        writer.finish().unwrap();
        bytes
    }

    /// Palette indices within the palette decode; one past it is refused, naming it, at
    /// every bit depth a palette PNG may have.
    #[test]
    fn palette_indices_past_the_palette_are_refused() {
        use png_decoder::BitDepth::*;
        for (depth, entries) in [(One, 2), (Two, 3), (Four, 5), (Eight, 7)] {
            let within = [0, 1, 0, 1, 0, entries as u8 - 1];
            let image = Image::from_png(&palette_png(depth, &within, entries)).unwrap();
            assert_eq!((image.width(), image.height()), (3, 2));
            if entries < (1 << depth as usize) {
                let past = [0, 1, 0, 1, entries as u8, 0];
                let e = Image::from_png(&palette_png(depth, &past, entries)).unwrap_err();
                let said = format!("indexes entry {entries} of a palette of {entries} entries");
                assert!(e.to_string().contains(&said), "{depth:?}: {e}");
            }
        }
    }
}
