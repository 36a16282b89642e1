//! The files a run writes (`--out`, `--dump`, `--json`, `--trace`, `--plot`): all checked
//! before the run starts, none created until it has succeeded, each written whole.
//!
//! Before the run: each path must name a file of its format (`.png`, `.json`, `.svg`), not
//! a folder nor a read-only file (which is never replaced), where a file can be created (in
//! its folder, or the nearest one above it that exists: missing folders are made only when
//! the file is written); no two flags may name one file. After it: the contents go into a
//! temporary file beside the output, created exclusively under a name of its own (never a
//! user's file: `.NAME.flurry-PID-N.tmp`), then renamed over the output; a write cut short
//! (a full disk, a file-size limit) or a signal (`temp_files`) leaves nothing behind.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use flurry::Invalid;

use super::temp_files;
use crate::host::AppError;

/// One output a flag names: the flag, its path (None: not asked for) and its format's
/// extension.
pub type Output<'a> = (&'static str, Option<&'a Path>, &'static str);

/// Refuse, before the run, any of `outputs` that could not be written at its end, and two
/// flags naming the same file.
pub fn check(outputs: &[Output]) -> Result<(), AppError> {
    let mut seen: Vec<(&str, PathBuf)> = Vec::new();
    for &(flag, path, extension) in outputs {
        let Some(path) = path else { continue };
        check_one(flag, path, extension)?;
        let key = identity(path);
        if let Some((other, _)) = seen.iter().find(|(_, k)| *k == key) {
            let allowed = format!("a file other than {other}'s (each output is a file of its own)");
            return Err(Invalid::new(flag, path.display(), allowed).into());
        }
        seen.push((flag, key));
    }
    Ok(())
}

fn check_one(flag: &str, path: &Path, extension: &str) -> Result<(), AppError> {
    let refuse =
        |allowed: String| -> AppError { Invalid::new(flag, path.display(), allowed).into() };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let Some(name) = name.filter(|_| !ends_in_separator(path)) else {
        return Err(refuse(format!(
            "a file path ending in .{extension} (this names a folder)"
        )));
    };
    let dotted = format!(".{extension}");
    let lower = name.to_ascii_lowercase();
    if !lower.ends_with(&dotted) {
        return Err(refuse(format!(
            "a path ending in {dotted} (the file is written as {extension})"
        )));
    }
    if lower == dotted {
        return Err(refuse(format!(
            "a file name before {dotted} (\"{name}\" alone is a hidden file with no name)"
        )));
    }
    let writable = |why: String| refuse(format!("a file that can be written ({why})"));
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => return Err(writable("it is a directory".into())),
        Ok(m) if !m.is_file() => return Err(writable("it is not a regular file".into())),
        _ => refuse_read_only(flag, path)?,
    }
    let (folder, _) = existing_folder(path).map_err(writable)?;
    // a file of our own, made and removed at once, says whether the folder takes new files
    temp_files::create(&folder, &name).map_err(|e| writable(e.to_string()))?;
    Ok(())
}

/// Refuse a read-only file at `path`: a rename would replace it whatever its mode.
fn refuse_read_only(flag: &str, path: &Path) -> Result<(), AppError> {
    if std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly()) {
        let allowed = "a file that can be written (it is read-only: flurry never replaces it)";
        return Err(Invalid::new(flag, path.display(), allowed).into());
    }
    Ok(())
}

/// Whether `path` is written with a trailing separator (`out.png/`: a folder).
fn ends_in_separator(path: &Path) -> bool {
    let s = path.as_os_str().to_string_lossy();
    s.ends_with(std::path::MAIN_SEPARATOR) || s.ends_with('/')
}

/// The folder `path`'s file goes in, or the nearest one above it that exists, and the
/// folders below that still to be made. Refused: an ancestor that is a file.
fn existing_folder(path: &Path) -> Result<(PathBuf, Vec<std::ffi::OsString>), String> {
    let mut missing = Vec::new();
    let mut at = parent_of(path);
    loop {
        match std::fs::metadata(&at) {
            Ok(m) if m.is_dir() => return Ok((at, missing)),
            Ok(_) => return Err(format!("{} is not a folder", at.display())),
            Err(_) => {}
        }
        match (at.file_name().map(|n| n.to_owned()), at.parent()) {
            (Some(name), Some(up)) => {
                missing.insert(0, name);
                at = if up.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    up.to_path_buf()
                };
            }
            _ => return Err(format!("no folder of {} exists", path.display())),
        }
    }
}

/// The folder `path` names its file in ("." for a bare name).
fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Where `path` points, for telling two outputs apart: its nearest existing folder
/// resolved (links, `..`), then the rest of the path as written without its `.` parts.
fn identity(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default();
    let (folder, missing) = existing_folder(path).unwrap_or((parent_of(path), Vec::new()));
    let mut key = std::fs::canonicalize(&folder).unwrap_or(folder);
    for part in missing {
        key.push(part);
    }
    key.push(name);
    key.components()
        .filter(|c| *c != Component::CurDir)
        .collect()
}

/// Write `contents` to the output `flag` names at `path`, whole: its missing folders made,
/// a temporary file of our own filled, then renamed over the path. A read-only file there
/// (made so since the check) is refused, not replaced.
pub fn write(flag: &str, path: &Path, contents: &[u8]) -> Result<(), AppError> {
    write_with(flag, path, |out| out.write_all(contents))
}

/// As [`write`], the contents written by `fill` as it makes them (streamed through a buffer
/// into the temporary file: a large dump is never held whole in memory).
pub fn write_with(
    flag: &str,
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), AppError> {
    let io = |source| AppError::Io {
        path: path.to_path_buf(),
        source,
    };
    refuse_read_only(flag, path)?;
    let folder = parent_of(path);
    std::fs::create_dir_all(&folder).map_err(|source| AppError::Io {
        path: folder.clone(),
        source,
    })?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut temp = temp_files::create(&folder, &name).map_err(io)?;
    let filled = {
        let mut out = std::io::BufWriter::new(temp.file());
        fill(&mut out).and_then(|()| out.flush())
    };
    let written = filled.and_then(|()| std::fs::rename(temp.path(), path));
    match written {
        Ok(()) => {
            temp.keep();
            Ok(())
        }
        // (dropped: removed)
        Err(e) => Err(io(e)),
    }
}

/// Write `report` as pretty JSON to the output `flag` names, when the run was asked for one.
pub fn write_json(
    flag: &str,
    path: Option<&Path>,
    report: &serde_json::Value,
) -> Result<(), AppError> {
    match path {
        Some(path) => {
            let text = serde_json::to_string_pretty(report).unwrap_or_default();
            write(flag, path, text.as_bytes())
        }
        None => Ok(()),
    }
}
