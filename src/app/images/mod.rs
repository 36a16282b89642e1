//! `flurry images`: the shipped images, made from noise into `effects/images/` — nothing is
//! downloaded, and the same command makes the same files on every run: smoke puffs and their
//! normals, a flame, a fireball and a spark.

mod noise;
mod sheets;

use std::io::Write as _;
use std::path::Path;

use crate::host::AppError;

/// One shipped image: its file name, its sheet (columns, rows, texels a frame side), how
/// its frames' texels are made, and whether they are data (normals: stored as they are, not
/// sRGB-encoded).
pub struct Shipped {
    pub file: &'static str,
    pub grid: (u32, u32, u32),
    texel: fn(f32, f32, f32) -> [f32; 4],
    data: bool,
}

/// A colour sheet of 4 × 4 frames of 128 texels.
const fn sheet(file: &'static str, texel: fn(f32, f32, f32) -> [f32; 4]) -> Shipped {
    Shipped {
        file,
        grid: (4, 4, 128),
        texel,
        data: false,
    }
}

/// Every shipped image.
pub const SHIPPED: [Shipped; 5] = [
    sheet("smoke.png", sheets::smoke),
    sheet("flame.png", sheets::flame),
    sheet("fireball.png", sheets::fireball),
    Shipped {
        file: "spark.png",
        grid: (2, 2, 64),
        texel: sheets::spark,
        data: false,
    },
    Shipped {
        data: true,
        ..sheet("smoke_normals.png", sheets::smoke_normals)
    },
];

impl Shipped {
    /// Its texels, 8-bit RGBA rows from the top (sRGB colour, straight alpha).
    pub fn make(&self) -> Vec<u8> {
        sheets::sheet(self.grid, self.texel, self.data)
    }

    /// Width and height, texels.
    pub fn size(&self) -> (u32, u32) {
        let (columns, rows, side) = self.grid;
        (columns * side, rows * side)
    }
}

/// Make every shipped image into `folder` (created if need be).
pub fn run(folder: &Path) -> Result<(), AppError> {
    if folder.exists() && !folder.is_dir() {
        let value = folder.display();
        let allowed = "a folder (this is a file): the images are written into it";
        return Err(flurry::Invalid::new("--out", value, allowed).into());
    }
    std::fs::create_dir_all(folder).map_err(|source| AppError::Io {
        path: folder.to_path_buf(),
        source,
    })?;
    for shipped in &SHIPPED {
        let (width, height) = shipped.size();
        let path = folder.join(shipped.file);
        let pixels = image::RgbaImage::from_raw(width, height, shipped.make())
            .expect("a sheet has width × height texels");
        pixels
            .save(&path)
            .map_err(|e| AppError::Image(format!("writing {}: {e}", path.display())))?;
        let line = format!("{} ({width} × {height})", path.display());
        crate::cli::note_stdout(writeln!(std::io::stdout(), "{line}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped files are what the command makes (within a step of 8-bit rounding,
    /// should another machine's floating point differ in a last bit).
    #[test]
    fn the_shipped_images_are_what_the_command_makes() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("effects/images");
        for shipped in &SHIPPED {
            let path = folder.join(shipped.file);
            let file = image::open(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (run `flurry images`)", path.display()))
                .into_rgba8();
            assert_eq!(file.dimensions(), shipped.size(), "{}", shipped.file);
            let made = shipped.make();
            let off = (file.as_raw().iter().zip(&made))
                .filter(|(a, b)| a.abs_diff(**b) > 1)
                .count();
            assert_eq!(
                off, 0,
                "{}: {off} channels differ; run `flurry images`",
                shipped.file
            );
        }
    }
}
