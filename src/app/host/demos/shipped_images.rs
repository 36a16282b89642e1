//! The shipped images (`effects/images/`, made by `flurry images`), carried in the program
//! so that the demos whose effect files name them run from anywhere: added to a demo's
//! renderer first, in this order, and the files' paths named by those ids.

use std::path::Path;

use flurry::effect::EffectDesc;
use flurry::{Image, ImageId};

/// Each image by its path relative to `effects/`, as effect files there name it.
const FILES: [(&str, &[u8]); 5] = [
    (
        "images/smoke.png",
        include_bytes!("../../../../effects/images/smoke.png"),
    ),
    (
        "images/flame.png",
        include_bytes!("../../../../effects/images/flame.png"),
    ),
    (
        "images/fireball.png",
        include_bytes!("../../../../effects/images/fireball.png"),
    ),
    (
        "images/spark.png",
        include_bytes!("../../../../effects/images/spark.png"),
    ),
    (
        "images/smoke_normals.png",
        include_bytes!("../../../../effects/images/smoke_normals.png"),
    ),
];

/// The images, to add to a renderer before anything else (so image k has id k).
pub fn images() -> Vec<Image> {
    FILES
        .iter()
        .map(|(path, bytes)| {
            Image::from_png(bytes).unwrap_or_else(|e| panic!("{path} is a PNG: {e}"))
        })
        .collect()
}

/// `desc` (a shipped file's) with the paths it names replaced by the ids [`images`] get.
pub fn named(mut desc: EffectDesc) -> EffectDesc {
    desc.resolve_images(Path::new(""), |path| {
        let at = FILES.iter().position(|(file, _)| Path::new(file) == path);
        Ok(ImageId(
            at.unwrap_or_else(|| panic!("{} is not shipped", path.display())) as u32,
        ))
    })
    .expect("the shipped images are named by id");
    desc
}
