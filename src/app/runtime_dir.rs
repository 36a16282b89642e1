//! A runtime folder for the graphics stack when the session gives none.
//!
//! Mesa's Vulkan drivers (lavapipe among them) print `error: XDG_RUNTIME_DIR is invalid or
//! not set` when it is missing, although nothing fails: the first line a newcomer on a
//! machine without a desktop session reads would be an error. Where `XDG_RUNTIME_DIR` is
//! unset or empty, the program sets it, for itself only, to a private folder of the user's
//! own (`flurry-runtime-UID` in the temporary folder, mode 0700), as a login session would.

/// Give the process a private runtime folder if it has none. Called first thing, before
/// any thread starts (it sets an environment variable).
pub fn ensure() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| !d.is_empty()) {
        return;
    }
    if let Some(dir) = private_folder() {
        std::env::set_var("XDG_RUNTIME_DIR", dir);
    }
}

/// The user's private folder, made if missing; None where the name is taken by something
/// that is not a folder of the user's with no access for others (the variable then stays
/// unset: a warning, not someone else's folder).
#[cfg(unix)]
fn private_folder() -> Option<std::path::PathBuf> {
    use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _};
    // SAFETY: getuid cannot fail
    let uid = unsafe { libc::getuid() };
    let dir = std::env::temp_dir().join(format!("flurry-runtime-{uid}"));
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    // not followed if a link: a folder another user placed there is not ours to use
    let m = std::fs::symlink_metadata(&dir).ok()?;
    let private = m.is_dir() && m.uid() == uid && m.mode() & 0o077 == 0;
    private.then_some(dir)
}

#[cfg(not(unix))]
fn private_folder() -> Option<std::path::PathBuf> {
    None
}
