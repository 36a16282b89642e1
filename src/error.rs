//! The crate's error type. Everything a user can cause comes back as an [`Error`].

use std::path::PathBuf;

/// The hint printed whenever no usable adapter exists.
pub const INSTALL_HINT: &str = "on a CPU-only Linux machine install Mesa's Vulkan drivers \
(lavapipe): apt-get update && apt-get install -y mesa-vulkan-drivers";

/// One invalid value: the field or flag, the value given and what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub field: String,
    pub value: String,
    pub allowed: String,
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} = {}: allowed {}",
            self.field, self.value, self.allowed
        )
    }
}

impl Invalid {
    pub fn new(field: impl Into<String>, value: impl ToString, allowed: impl Into<String>) -> Self {
        Invalid {
            field: field.into(),
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }
}

/// Everything that can go wrong in flurry.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("no GPU adapter found{detail}; {INSTALL_HINT}")]
    NoAdapter { detail: String },

    #[error("FLURRY_ADAPTER={wanted} matches none of the adapters present: {available}")]
    AdapterNotFound { wanted: String, available: String },

    #[error("could not create a device on {adapter}: {source}")]
    RequestDevice {
        adapter: String,
        source: wgpu::RequestDeviceError,
    },

    #[error(
        "--particles {requested}: the pool needs a {bytes} byte particle buffer, but {adapter} \
allows {limit} bytes per storage buffer ({limit_name}); allowed 1..={max} particles on this adapter"
    )]
    CapacityTooLarge {
        requested: u64,
        max: u64,
        bytes: u64,
        limit: u64,
        limit_name: &'static str,
        adapter: String,
    },

    #[error("{0}")]
    Invalid(Invalid),

    #[error("effect{}: {message}", path.as_ref().map(|p| format!(" file {}", p.display())).unwrap_or_default())]
    EffectSyntax {
        path: Option<PathBuf>,
        message: String,
    },

    #[error("effect{} is invalid:\n{}", path.as_ref().map(|p| format!(" file {}", p.display())).unwrap_or_default(),
        problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    EffectInvalid {
        path: Option<PathBuf>,
        problems: Vec<Invalid>,
    },

    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },

    #[error("writing {path}: {message}")]
    Image { path: PathBuf, message: String },

    #[error("GPU read-back failed: {0}")]
    Readback(String),
}

impl From<Invalid> for Error {
    fn from(v: Invalid) -> Self {
        Error::Invalid(v)
    }
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
