//! The program's pipeline cache on disk: what the driver compiled for a windowed demo's
//! renderer, kept in the user's cache folder (one file per adapter) and given to the next
//! run's renderer, so that it need not compile again where the driver keeps what it
//! compiled in a pipeline cache. A missing file is a first run; a file the renderer will
//! not use (damaged, another adapter's or driver's) is ignored with a note, and a folder
//! that cannot be written is a note too: never a failure.
//!
//! The folder: `FLURRY_CACHE_DIR` if set; else `$XDG_CACHE_HOME/flurry`, `~/.cache/flurry`
//! (Linux and other Unix), `~/Library/Caches/flurry` (macOS) or `%LOCALAPPDATA%\flurry`
//! (Windows). `FLURRY_CACHE_DIR=off` keeps no cache.

use std::path::{Path, PathBuf};

use flurry::ParticleRenderer;

/// The pipeline cache file of one adapter.
#[derive(Clone, Debug)]
pub struct CacheFile {
    path: PathBuf,
}

/// The user's cache folder for flurry, if one is known (and not turned off).
fn folder() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("FLURRY_CACHE_DIR") {
        return (dir != "off").then(|| PathBuf::from(dir));
    }
    let home = || var("HOME").map(PathBuf::from);
    let base = if cfg!(windows) {
        var("LOCALAPPDATA").map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        home().map(|h| h.join("Library").join("Caches"))
    } else {
        var("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| home().map(|h| h.join(".cache")))
    };
    base.map(|b| b.join("flurry"))
}

impl CacheFile {
    /// The file for `adapter` in the user's cache folder; None where no folder is known or
    /// the adapter's backend keeps no pipeline cache.
    pub fn for_adapter(adapter: &wgpu::AdapterInfo) -> Option<Self> {
        let key = wgpu::util::pipeline_cache_key(adapter)?;
        Some(CacheFile::at(&folder()?, &key))
    }

    /// The file `name` in `folder`.
    pub fn at(folder: &Path, name: &str) -> Self {
        CacheFile {
            path: folder.join(format!("{name}.bin")),
        }
    }

    #[cfg(test)]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Seed `renderer` (made on `device`, nothing compiled yet) with the file's bytes; a
    /// note for the user where they were not used (None: used, or no file yet).
    pub fn seed(&self, renderer: &mut ParticleRenderer, device: &wgpu::Device) -> Option<String> {
        let bytes = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => return Some(self.note("not read", &e.to_string())),
        };
        let ignored = renderer.seed_pipeline_cache(device, &bytes).err()?;
        Some(self.note("ignored", &ignored.to_string()))
    }

    /// Store what `renderer`'s driver compiled (written whole: a temporary file, then
    /// renamed; the folder made, only for the user where the system allows it); a note
    /// where it could not be.
    pub fn store(&self, renderer: &ParticleRenderer) -> Option<String> {
        let bytes = renderer.pipeline_cache()?;
        let folder = self.path.parent().unwrap_or(Path::new("."));
        let made = make_folder(folder);
        let written = made.and_then(|()| {
            crate::cli::output::write("pipeline cache", &self.path, &bytes)
                .map_err(|e| std::io::Error::other(e.to_string()))
        });
        written
            .err()
            .map(|e| self.note("not written", &e.to_string()))
    }

    fn note(&self, what: &str, why: &str) -> String {
        format!("note: pipeline cache {} {what}: {why}", self.path.display())
    }
}

/// `folder` and its parents, made where missing; a folder made is the user's alone (Unix).
fn make_folder(folder: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(folder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flurry::{Settings, Targets};

    fn renderer(gpu: &flurry::GpuContext) -> ParticleRenderer {
        let targets = Targets::new(wgpu::TextureFormat::Rgba8UnormSrgb, None);
        let settings = Settings {
            background_compile: false,
            ..Settings::default()
        };
        ParticleRenderer::new(&gpu.device, targets, settings).unwrap()
    }

    /// An adapter, or a failure that says how to install one.
    fn gpu() -> flurry::GpuContext {
        flurry::GpuContext::new_headless().unwrap_or_else(|e| panic!("{e}"))
    }

    /// A folder of its own under the system's temporary one, emptied.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("flurry-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_stored_cache_seeds_the_next_run_and_a_damaged_one_is_a_note() {
        let gpu = gpu();
        let dir = scratch("seed");
        let file = CacheFile::at(&dir.join("nested"), "adapter");
        let mut first = renderer(&gpu);
        assert_eq!(
            file.seed(&mut first, &gpu.device),
            None,
            "no file: a first run"
        );
        let desc = crate::host::demos::Demo::Snow.effect(256);
        first
            .add_effect(&gpu.device, &gpu.queue, &desc, 256, 1)
            .unwrap();
        let Some(bytes) = first.pipeline_cache() else {
            // an adapter without a pipeline cache stores nothing
            assert_eq!(file.store(&first), None);
            assert!(!file.path().exists());
            return;
        };
        assert_eq!(file.store(&first), None);
        assert_eq!(std::fs::read(file.path()).unwrap(), bytes);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join("nested"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "the folder is the user's alone: {mode:o}");
        }
        let mut second = renderer(&gpu);
        assert_eq!(file.seed(&mut second, &gpu.device), None, "used");
        // damaged on disk: a note, and the renderer builds as on a first run
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 0xff;
        std::fs::write(file.path(), &damaged).unwrap();
        let mut third = renderer(&gpu);
        let note = file.seed(&mut third, &gpu.device).expect("a note");
        assert!(note.contains("ignored: corrupt"), "{note}");
        third
            .add_effect(&gpu.device, &gpu.queue, &desc, 256, 1)
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unwritable_folder_is_a_note() {
        let gpu = gpu();
        let dir = scratch("unwritable");
        std::fs::create_dir_all(&dir).unwrap();
        // a file where the folder should be
        let blocker = dir.join("blocked");
        std::fs::write(&blocker, b"not a folder").unwrap();
        let file = CacheFile::at(&blocker, "adapter");
        let mut r = renderer(&gpu);
        let desc = crate::host::demos::Demo::Snow.effect(256);
        r.add_effect(&gpu.device, &gpu.queue, &desc, 256, 1)
            .unwrap();
        if r.pipeline_cache().is_some() {
            let note = file.store(&r).expect("a note");
            assert!(note.contains("not written"), "{note}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
