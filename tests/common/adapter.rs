//! The headless GPU of every GPU test (the integration tests through `tests/common`, the
//! API fuzz and the library's unit tests mount this file; each names `GpuContext` in the
//! module that mounts it): an adapter, or a failure that says what to install; never a skip.

use super::GpuContext;

/// The headless GPU; no adapter is a test failure with the install hint, never a skip.
pub fn gpu() -> GpuContext {
    // lavapipe prints a harmless warning when XDG_RUNTIME_DIR is unset
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        let dir = std::env::temp_dir().join("flurry-xdg");
        let _ = std::fs::create_dir_all(&dir);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        }
        std::env::set_var("XDG_RUNTIME_DIR", &dir);
    }
    // (a host on WebGPU's default limits, as most hosts are: only tests of pools past them
    // ask for the adapter's, and say why)
    match GpuContext::webgpu_defaults() {
        Ok(gpu) => gpu,
        Err(e) => panic!("GPU tests need an adapter: {e}"),
    }
}
