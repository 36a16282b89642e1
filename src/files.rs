//! Files read whole (effect files, their modules, images): only regular files, and only up
//! to a size named in the refusal, so that a path naming a FIFO, a device (`/dev/zero`), a
//! directory or a file of gigabytes is refused at once, not waited on or read without end.

use std::io::Read;
use std::path::Path;

/// The most bytes an effect file or a module file may hold.
pub const MAX_TEXT_FILE: u64 = 4 << 20;

/// The most bytes an image file may hold.
#[cfg(feature = "png")]
pub const MAX_IMAGE_FILE: u64 = 256 << 20;

/// The bytes of the regular file at `path`, of at most `limit` bytes (`what` the file is,
/// for the refusal: "an effect file").
pub(crate) fn read_bounded(path: &Path, limit: u64, what: &str) -> std::io::Result<Vec<u8>> {
    let refuse = |message: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, message);
    // (asked before opening: opening a FIFO waits for a writer)
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "a FIFO, a socket or a device"
        };
        return Err(refuse(format!(
            "not a regular file ({kind}): {what} is read from a file"
        )));
    }
    if meta.len() > limit {
        let size = meta.len();
        return Err(refuse(format!(
            "{size} bytes: {what} holds at most {limit} bytes"
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // (a file that grew since is read no further than the limit)
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(refuse(format!(
            "more than {limit} bytes: {what} holds at most that"
        )));
    }
    Ok(bytes)
}

/// The UTF-8 text of the regular file at `path`, of at most [`MAX_TEXT_FILE`] bytes.
pub(crate) fn read_text(path: &Path, what: &str) -> std::io::Result<String> {
    let bytes = read_bounded(path, MAX_TEXT_FILE, what)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let message = format!("not UTF-8 text: invalid byte at offset {at}");
        std::io::Error::new(std::io::ErrorKind::InvalidData, message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory, a device and a FIFO are refused without waiting; a file past the limit
    /// is refused naming it; a file within it is read.
    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = std::env::temp_dir().join(format!("flurry-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let refused = |path: &Path| read_bounded(path, 16, "a test file").unwrap_err();
        let e = refused(&dir);
        assert!(
            e.to_string().contains("not a regular file (a directory)"),
            "{e}"
        );
        #[cfg(unix)]
        {
            let e = refused(Path::new("/dev/zero"));
            assert!(
                e.to_string().contains("a FIFO, a socket or a device"),
                "{e}"
            );
            let fifo = dir.join("fifo");
            let _ = std::fs::remove_file(&fifo);
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            assert!(made.is_ok_and(|s| s.success()), "mkfifo makes a FIFO");
            let e = refused(&fifo);
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        let big = dir.join("big");
        std::fs::write(&big, [b'x'; 17]).unwrap();
        let e = refused(&big);
        assert!(
            e.to_string()
                .contains("17 bytes: a test file holds at most 16"),
            "{e}"
        );
        std::fs::write(&big, [b'x'; 16]).unwrap();
        assert_eq!(read_bounded(&big, 16, "a test file").unwrap().len(), 16);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
