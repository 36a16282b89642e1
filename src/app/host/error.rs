//! The program's errors: the library's, and what only a program meets (windows, images,
//! files it writes).

use std::path::PathBuf;

use flurry::Invalid;

/// Everything that can stop the program.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Flurry(#[from] flurry::Error),

    #[error("{0}")]
    Image(String),

    #[error("{0}")]
    Window(String),

    #[error("profiler: {0}")]
    Profiler(String),

    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },

    /// A soak run found the pool broken (`stats --check-every`): exit 1, not 2.
    #[error("after frame {frame}: {violation}")]
    Violation { frame: u32, violation: String },
}

impl From<Invalid> for AppError {
    fn from(v: Invalid) -> Self {
        AppError::Flurry(v.into())
    }
}

/// `Result` with [`AppError`].
pub type Result<T, E = AppError> = std::result::Result<T, E>;
