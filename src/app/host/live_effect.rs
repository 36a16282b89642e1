//! An effect file that reloads when it changes on disk (`flurry demo NAME --effect FILE` in
//! a window): the host polls it; a good edit replaces the effect, a bad one is reported
//! (field, value, range) and the last good effect keeps running. The module files it
//! imports are watched with it.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use flurry::EffectDesc;

/// What identifies one version of the file: its modification time and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    modified: SystemTime,
    len: u64,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp {
        modified: meta.modified().ok()?,
        len: meta.len(),
    })
}

/// What a poll found.
#[derive(Debug)]
pub enum Reload {
    /// The file is as it was.
    Unchanged,
    /// It changed and reads as a valid effect, now [`LiveEffect::good`].
    Reloaded,
    /// It changed but is refused, with the reason; the last good effect stays.
    Refused(String),
}

/// An effect file and the last good effect read from it.
pub struct LiveEffect {
    path: PathBuf,
    /// The file's stamp, then its imports' (as the last good effect names them).
    seen: Vec<Option<Stamp>>,
    /// The last good effect as the file says it (its images relative to the file).
    written: EffectDesc,
    /// The same, its images found from the working directory.
    good: EffectDesc,
}

impl LiveEffect {
    /// The file's effect as it is now (an error when it cannot be used at all).
    pub fn open(path: &Path) -> flurry::Result<Self> {
        let written = EffectDesc::from_file(path)?;
        let mut live = LiveEffect {
            path: path.to_path_buf(),
            seen: Vec::new(),
            good: images_found(written.clone(), path),
            written,
        };
        live.seen = live.stamps();
        Ok(live)
    }

    /// The stamps of the file and of the module files its last good effect imports.
    fn stamps(&self) -> Vec<Option<Stamp>> {
        let folder = self.path.parent().unwrap_or(Path::new(""));
        let imports = self.good.imports.iter().map(|i| stamp(&folder.join(i)));
        std::iter::once(stamp(&self.path)).chain(imports).collect()
    }

    /// The last good effect.
    pub fn good(&self) -> &EffectDesc {
        &self.good
    }

    /// The last good effect as its file says it (its images named relative to the file):
    /// what an editor saves back.
    pub fn as_written(&self) -> &EffectDesc {
        &self.written
    }

    /// The file's name, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Read the file again if it or a module it imports changed since the last look. A
    /// file that cannot be read right now (an editor replacing it) is looked at again at
    /// the next poll.
    pub fn poll(&mut self) -> Reload {
        let now = self.stamps();
        if now[0].is_none() || now == self.seen {
            return Reload::Unchanged;
        }
        self.seen = now;
        match EffectDesc::from_file(&self.path) {
            Ok(desc) => {
                self.good = images_found(desc.clone(), &self.path);
                self.written = desc;
                self.seen = self.stamps();
                Reload::Reloaded
            }
            Err(flurry::Error::Io { .. }) => {
                self.seen = Vec::new(); // try again
                Reload::Unchanged
            }
            Err(e) => Reload::Refused(e.to_string()),
        }
    }
}

/// An effect file, the images it names by path (relative to the file) named relative to
/// the working directory instead, so that the renderer's `load_images` finds them
/// wherever the file came from.
pub fn effect_file(path: &Path) -> flurry::Result<EffectDesc> {
    Ok(images_found(EffectDesc::from_file(path)?, path))
}

/// `desc`, read from the file at `path`, with the images it names by path relative to the
/// file named relative to the working directory instead.
pub fn images_found(mut desc: EffectDesc, path: &Path) -> EffectDesc {
    use flurry::effect::{ImageSource, ImageSprite, Sprite};
    let folder = path.parent().unwrap_or(Path::new(""));
    let sprites = std::iter::once(&mut desc.sprite)
        .chain(desc.emitters.iter_mut().filter_map(|e| e.sprite.as_mut()));
    for sprite in sprites {
        if let Sprite::Image(ImageSprite { image, normals, .. }) = sprite {
            // the image and its normals
            for source in std::iter::once(image).chain(normals.as_mut()) {
                if let ImageSource::Path(file) = source {
                    *file = folder.join(&*file);
                }
            }
        }
    }
    desc
}
