//! The crate's error type. Everything a user or a host can cause comes back as an [`Error`].

use std::path::PathBuf;

/// The hint given whenever no usable adapter exists.
pub const INSTALL_HINT: &str = "on a CPU-only Linux machine install Mesa's Vulkan drivers \
(lavapipe): apt-get update && apt-get install -y mesa-vulkan-drivers";

/// An import an effect names that could not be read ([`Error::Import`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{field} `{import}`: {reason}")]
pub struct ImportError {
    /// `imports[k]`.
    pub field: String,
    /// The import as written.
    pub import: String,
    /// Why it was refused (the file that is missing, the module's parse error).
    pub reason: String,
}

/// One invalid value: the field or flag, the value given and what is allowed.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    /// The field's path (`emitters[0].rate`) or the flag (`--particles`).
    pub field: String,
    /// The value given, as text.
    pub value: String,
    /// What would have been accepted.
    pub allowed: String,
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} = {}: allowed {}",
            self.field,
            shortened(&self.value),
            self.allowed
        )
    }
}

/// The first line of a validator's report (the rest quotes generated code at length).
fn first_line(message: &str) -> std::borrow::Cow<'_, str> {
    shortened(message.lines().next().unwrap_or_default())
}

/// Input as an error shows it: whole up to 120 characters, else its start and its length
/// (an error echoing 100,000 characters of a flag or a line hides what it says).
pub(crate) fn shortened(text: &str) -> std::borrow::Cow<'_, str> {
    const SHOWN: usize = 120;
    let count = text.chars().count();
    if count <= SHOWN {
        return text.into();
    }
    let start: String = text.chars().take(SHOWN - 20).collect();
    format!("{start}… ({count} characters)").into()
}

impl Invalid {
    /// `field` was given `value`; `allowed` says what it may be.
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
    /// No adapter at all (`detail` names a `WGPU_BACKEND` restriction, if any).
    #[error("no GPU adapter found{detail}; {INSTALL_HINT}")]
    NoAdapter {
        /// What restricted the search.
        detail: String,
    },

    /// Adapters exist, but none has what flurry needs (a GL fallback without compute
    /// storage textures, say).
    #[error("no adapter has what flurry needs: {lacking}; {INSTALL_HINT}")]
    NoSuitableAdapter {
        /// Each adapter and what it lacks.
        lacking: String,
    },

    /// A host's device whose limits are below what flurry's passes need.
    #[error("the device's limits are too low for flurry: {short}")]
    DeviceLimits {
        /// Each short limit, what the device has and what is needed.
        short: String,
    },

    /// `FLURRY_ADAPTER` names no adapter present.
    #[error("FLURRY_ADAPTER={wanted} matches none of the adapters present: {available}")]
    AdapterNotFound {
        /// What was asked for.
        wanted: String,
        /// The adapters there are.
        available: String,
    },

    /// The adapter refused to create a device.
    #[error("could not create a device on {adapter}: {source}")]
    RequestDevice {
        /// The adapter asked.
        adapter: String,
        /// wgpu's reason.
        source: wgpu::RequestDeviceError,
    },

    /// A pool larger than the device's buffers hold.
    #[error(
        "{field} {requested}: the pool needs a {bytes} byte particle buffer, but the device \
allows {limit} bytes per storage buffer ({limit_name}); allowed 1..={max} particles on it"
    )]
    CapacityTooLarge {
        /// The field or flag that asked (`capacity`, `--particles`).
        field: String,
        /// Particles asked for.
        requested: u64,
        /// The most the device allows.
        max: u64,
        /// Bytes the pool would need.
        bytes: u128,
        /// The device's limit in bytes.
        limit: u64,
        /// The limit's name in `wgpu::Limits`.
        limit_name: &'static str,
    },

    /// A value out of range.
    #[error("{0}")]
    Invalid(Invalid),

    /// An effect file that is not valid RON for the schema.
    #[error("effect{}: {message}", path.as_ref().map(|p| format!(" file {}", p.display())).unwrap_or_default())]
    EffectSyntax {
        /// The file, if the effect came from one.
        path: Option<PathBuf>,
        /// The parser's message.
        message: String,
    },

    /// An effect with values out of range, every one of them listed.
    #[error("effect{} is invalid:\n{}", path.as_ref().map(|p| format!(" file {}", p.display())).unwrap_or_default(),
        problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    EffectInvalid {
        /// The file, if the effect came from one.
        path: Option<PathBuf>,
        /// Every field out of range.
        problems: Vec<Invalid>,
    },

    /// An expression or a line of an effect's stacks that does not compile: the file and
    /// the line and column where it is written (where known), the field, its text, and the
    /// column inside it with what was expected there.
    #[error("effect{}{}: {error}",
        path.as_ref().map(|p| format!(" file {}", p.display())).unwrap_or_default(),
        place.map(|(l, c)| format!(" (line {l}, column {c})")).unwrap_or_default())]
    EffectGraph {
        /// The file, if the effect came from one.
        path: Option<PathBuf>,
        /// Line and column (1-based) of the text in the file.
        place: Option<(usize, usize)>,
        /// What does not compile.
        error: Box<crate::effect::GraphError>,
    },

    /// A module file an effect imports could not be read or is no module.
    #[error("effect{}{}: {error}",
        path.as_ref().map(|p| format!(" file {}", p.display())).unwrap_or_default(),
        place.map(|(l, c)| format!(" (line {l}, column {c})")).unwrap_or_default())]
    Import {
        /// The effect file, if the effect came from one.
        path: Option<PathBuf>,
        /// Line and column (1-based) of the import in the effect file.
        place: Option<(usize, usize)>,
        /// Which import, and why it was refused.
        error: Box<ImportError>,
    },

    /// The code generated from an effect's stacks was refused by the shader validator: a
    /// fault of flurry's, reported rather than handed to wgpu.
    #[error(
        "effect `{effect}`: flurry generated code for its {stage} stacks that does not \
         validate, a defect of flurry's rather than of the effect (please report it with the \
         effect file; `flurry check --wgsl FILE` prints the code); the validator: {}",
        first_line(.message)
    )]
    GeneratedCode {
        /// The effect's name.
        effect: String,
        /// `init` or `update`.
        stage: String,
        /// The validator's whole report (its display shows the first line).
        message: String,
    },

    /// A file that could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },

    /// An image file that could not be decoded.
    #[error("image file {path}: {message}")]
    ImageFile {
        /// The file.
        path: PathBuf,
        /// What the decoder said.
        message: String,
    },

    /// Reading GPU memory back failed (the device was lost, or mapping failed).
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

#[cfg(test)]
mod shortened_tests {
    use super::*;

    /// A long value is shown by its start and its length, a short one whole.
    #[test]
    fn long_input_is_shown_by_its_start_and_length() {
        let long = "1.0 + ".repeat(20_000);
        let said = Invalid::new("--param", format!("heat={long}"), "an f32").to_string();
        assert!(said.len() < 200, "{said}");
        assert!(
            said.contains("… (120005 characters): allowed an f32"),
            "{said}"
        );
        let short = Invalid::new("--particles", 0, "1..=65536").to_string();
        assert_eq!(short, "--particles = 0: allowed 1..=65536");
    }

    /// Generated code the validator refuses is flurry's defect, said so, with the first
    /// line of the report and not the code it quotes.
    #[test]
    fn a_generated_code_refusal_shows_the_first_line() {
        let e = Error::GeneratedCode {
            effect: "fountain".into(),
            stage: "update".into(),
            message: "error: no definition in scope for identifier: `stp`\n  ┌─ wgsl:512:9\n"
                .into(),
        };
        let said = e.to_string();
        assert!(said.contains("a defect of flurry's"), "{said}");
        assert!(
            said.ends_with("the validator: error: no definition in scope for identifier: `stp`"),
            "{said}"
        );
    }
}
