//! An image on a particle's quad ([`Sprite::Image`](super::Sprite::Image)): one of the
//! host's images, or a flipbook's frames cut from one, its frame chosen by the particle's
//! age.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::image::ImageId;

/// An image shown on each particle's quad, filling it (the quad's square, corner to
/// corner), tinted by the particle's colour: its colour times the image's, its alpha times
/// the image's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageSprite {
    /// Which image.
    pub image: ImageSource,
    /// The image is a sheet of frames, shown in turn as the particle ages; absent: the
    /// whole image, still.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flipbook: Option<Flipbook>,
    /// The frames' normals, a sheet laid out as the image's (its red, green and blue the
    /// normal's x right, y up and z towards the viewer, each from 0 for −1 to 1 for +1, read
    /// as data whatever the file says): lit billboards take them in place of a sphere's
    /// (smoke puffs lit along their own bulges). Absent: a sphere's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normals: Option<ImageSource>,
}

/// Where an image comes from: one the host added
/// ([`ParticleRenderer::add_image`](crate::ParticleRenderer::add_image)), or in an effect
/// file a PNG by its path relative to the file, which
/// `ParticleRenderer::load_images` (feature `png`) loads, adds and
/// names by its id. In a file `image: 0` is the first image the host added and
/// `image: "images/smoke.png"` a file beside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ImageSource {
    /// An image the host added.
    Id(ImageId),
    /// A PNG file, relative to the effect file's folder, not loaded yet.
    Path(PathBuf),
}

/// A sheet of `columns` × `rows` frames of equal size, read row by row from the top left;
/// the first `frames` of them are the flipbook (all by default). Each frame is shown
/// filling the quad, as a still image is.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flipbook {
    /// Frames across the sheet (1..=64).
    pub columns: u32,
    /// Frames down the sheet (1..=64).
    pub rows: u32,
    /// How many frames it has (1..=columns × rows); all of the sheet's when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frames: Option<u32>,
    /// When each frame shows.
    #[serde(default)]
    pub timing: FrameTiming,
    /// Each particle starts at a frame of its own, drawn at random (so a cloud of puffs is
    /// not all one frame).
    #[serde(default)]
    pub random_start: bool,
    /// Fade from each frame to the next as it plays, instead of cutting: the shown
    /// picture is the two frames mixed by how far between them the particle is.
    #[serde(default)]
    pub blend: bool,
}

/// When a flipbook's frames show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum FrameTiming {
    /// Once through the frames over the particle's life: frame k of n from k/n of its
    /// lifetime to (k + 1)/n (a fire's puff flaring and dying).
    #[default]
    OverLife,
    /// This many frames a second of the particle's age, looping (0.01..=1000).
    PerSecond(f32),
}

impl Flipbook {
    /// How many frames it has.
    pub fn frame_count(&self) -> u32 {
        self.frames
            .unwrap_or(self.columns.saturating_mul(self.rows))
    }
}
