//! The shipped effect files, for the tests that go through every one of them.

use std::path::{Path, PathBuf};

use super::EffectDesc;

/// Every effect file in `effects/`, read, with its path.
pub fn all() -> Vec<(PathBuf, EffectDesc)> {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/effects");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            let effect = EffectDesc::from_file(&path).unwrap();
            out.push((path, effect));
        }
    }
    assert!(out.len() >= 10);
    out
}

/// `text` read as the effect file at `path` would be (its imports relative to it).
pub fn read_as(text: &str, path: &Path) -> crate::Result<EffectDesc> {
    let folder = path.parent().unwrap().to_path_buf();
    let read = |import: &str| crate::effect::read_import(&folder, import);
    EffectDesc::from_ron_importing(text, read)
}

/// The shipped effect in the file named `file` (`snow.ron`).
pub fn named(file: &str) -> EffectDesc {
    let found = all().into_iter().find(|(path, _)| path.ends_with(file));
    found
        .unwrap_or_else(|| panic!("no shipped effect {file}"))
        .1
}
