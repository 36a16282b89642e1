//! Temporary files the program writes an output into before renaming it over the output:
//! created exclusively under names of their own (`.NAME.flurry-PID-N.tmp`, beside the
//! output so the rename stays on one file system), removed when dropped unless kept, and
//! removed by the signals that end a run (SIGINT, SIGTERM, SIGHUP) before the signal does
//! what it would have done (`install`).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A temporary file of ours; removed when dropped unless [`TempFile::keep`] says it was
/// renamed into place.
pub struct TempFile {
    path: PathBuf,
    file: File,
    slot: Option<usize>,
    kept: bool,
}

/// How many names this process has tried (each attempt a new one).
static ATTEMPTS: AtomicU32 = AtomicU32::new(0);

/// A new, empty temporary file in `folder` for the output named `name`.
pub fn create(folder: &Path, name: &str) -> std::io::Result<TempFile> {
    loop {
        let n = ATTEMPTS.fetch_add(1, Ordering::Relaxed);
        let path = folder.join(format!(".{name}.flurry-{}-{n}.tmp", std::process::id()));
        // exclusively: a file already there (whoever made it) is never opened, let alone
        // removed
        match File::options().write(true).create_new(true).open(&path) {
            Ok(file) => {
                let slot = watch(&path);
                return Ok(TempFile {
                    path,
                    file,
                    slot,
                    kept: false,
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < u32::MAX => continue,
            Err(e) => return Err(e),
        }
    }
}

impl TempFile {
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// It was renamed into place: nothing to remove.
    pub fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            unwatch(slot);
        }
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

pub use signals::install;
use signals::{unwatch, watch};

/// What the signals that end a run do about the temporary files (on other systems: nothing).
#[cfg(unix)]
mod signals {
    use std::path::Path;
    use std::sync::atomic::{AtomicPtr, Ordering};

    /// The temporary files a signal must remove, as C strings (a handler may only make
    /// async-signal-safe calls: it reads these and unlinks). A path once watched is never
    /// freed (a handler on another thread may be reading it): a few bytes an output.
    const SLOTS: usize = 8;
    static WATCHED: [AtomicPtr<libc::c_char>; SLOTS] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

    pub fn watch(path: &Path) -> Option<usize> {
        use std::os::unix::ffi::OsStrExt as _;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
        let raw = c.into_raw();
        let null = std::ptr::null_mut();
        let slot = WATCHED.iter().position(|s| {
            s.compare_exchange(null, raw, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        if slot.is_none() {
            // SAFETY: `raw` came from `into_raw` just above and was never shared
            drop(unsafe { std::ffi::CString::from_raw(raw) });
        }
        slot
    }

    pub fn unwatch(slot: usize) {
        WATCHED[slot].store(std::ptr::null_mut(), Ordering::SeqCst);
    }

    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    extern "C" fn on_signal(signal: libc::c_int) {
        for slot in &WATCHED {
            let path = slot.load(Ordering::SeqCst);
            if !path.is_null() {
                // SAFETY: a NUL-terminated path that is never freed; unlink is
                // async-signal-safe
                unsafe { libc::unlink(path) };
            }
        }
        // SAFETY: restoring the default disposition and raising the signal again ends the
        // process as the signal would have (both async-signal-safe)
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    /// Remove the temporary files on SIGINT, SIGTERM and SIGHUP, then end as the signal
    /// would. Signals the process was started ignoring stay ignored (`nohup`).
    pub fn install() {
        for signal in SIGNALS {
            let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            // SAFETY: installing a handler that only makes async-signal-safe calls
            let before = unsafe { libc::signal(signal, handler) };
            if before == libc::SIG_IGN {
                // SAFETY: as above, restoring what the process was given
                unsafe { libc::signal(signal, libc::SIG_IGN) };
            }
        }
    }
}

#[cfg(not(unix))]
mod signals {
    pub fn watch(_: &std::path::Path) -> Option<usize> {
        None
    }

    pub fn unwatch(_: usize) {}

    pub fn install() {}
}
