//! What the editor edits: the effect with its history, the file it was read from and is
//! saved to (watched for changes made in a text editor), and what the viewport last showed.

use std::path::{Path, PathBuf};

use flurry::effect::{EffectDesc, EffectEdit};

use super::viewport::Viewport;
use crate::host::live_effect::{LiveEffect, Reload};
use crate::host::AppError;

/// The effect under edit and its file.
pub struct Session {
    edit: EffectEdit,
    /// The file read and saved (None: not saved anywhere yet).
    file: Option<PathBuf>,
    /// The file watched for changes made elsewhere.
    live: Option<LiveEffect>,
    /// The effect as the file has it (what "unsaved changes" is measured against).
    saved: Option<EffectDesc>,
    /// The effect the viewport shows.
    shown: EffectDesc,
    /// What the last action said (saved, reloaded, an edit refused), for the status line.
    pub notice: Option<String>,
}

impl Session {
    /// `effect` as read from `file` (or made in the program, with no file yet).
    pub fn new(effect: EffectDesc, file: Option<&Path>) -> Result<Self, AppError> {
        let live = file.map(LiveEffect::open).transpose()?;
        Ok(Session {
            saved: file.map(|_| effect.clone()),
            shown: effect.clone(),
            edit: EffectEdit::new(effect)?,
            file: file.map(Path::to_path_buf),
            live,
            notice: None,
        })
    }

    pub fn edit(&self) -> &EffectEdit {
        &self.edit
    }

    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Whether the effect differs from its file (or has none).
    pub fn unsaved(&self) -> bool {
        self.saved.as_ref() != Some(self.edit.effect())
    }

    /// Set the number at `path` (clamped to its range; an edit that would make the effect
    /// invalid is refused and said).
    pub fn set_number(&mut self, path: &str, value: f32) {
        match self.edit.set_number(path, value) {
            Ok(set) if set != value => {
                self.notice = Some(format!("{path} = {set} (clamped to its range)"));
            }
            Ok(_) => self.notice = None,
            Err(e) => self.notice = Some(format!("refused: {e}")),
        }
    }

    pub fn undo(&mut self) {
        if !self.edit.undo() {
            self.notice = Some("nothing to undo".into());
        }
    }

    pub fn redo(&mut self) {
        if !self.edit.redo() {
            self.notice = Some("nothing to redo".into());
        }
    }

    /// Write the effect to its file, each number's range as a comment (`to` names another
    /// file, which it is then read from and watched at).
    pub fn save(&mut self, to: Option<&Path>) -> Result<PathBuf, AppError> {
        let Some(path) = to.or(self.file.as_deref()).map(Path::to_path_buf) else {
            let why = "a file to save to: type one next to \"save as\"";
            return Err(flurry::Invalid::new("save", "no file", why).into());
        };
        let effect = self.edit.effect();
        let text = format!(
            "// {}: written by `flurry edit`; each number's range is the comment after it.\n{}",
            effect.name,
            effect.to_ron_commented()
        );
        crate::cli::output::write("save", &path, text.as_bytes())?;
        self.saved = Some(effect.clone());
        if self.file.as_deref() != Some(path.as_path()) {
            self.live = Some(LiveEffect::open(&path)?);
            self.file = Some(path.clone());
        }
        self.notice = Some(format!("saved {}", path.display()));
        Ok(path)
    }

    /// Look at the file: a change made elsewhere that reads as a valid effect becomes an
    /// edit (undone like any), one that does not is said, and the effect stays.
    pub fn poll(&mut self) {
        let Some(live) = &mut self.live else {
            return;
        };
        let name = live.path().display().to_string();
        match live.poll() {
            Reload::Unchanged => {}
            Reload::Reloaded => {
                let read = live.as_written().clone();
                self.saved = Some(read.clone());
                match self.edit.replace(read) {
                    Ok(true) => self.notice = Some(format!("{name} changed on disk: reloaded")),
                    Ok(false) => {}
                    Err(e) => self.notice = Some(format!("{name}: {e}")),
                }
            }
            Reload::Refused(why) => {
                let line = why.replace(":\n  - ", ": ").replace("\n  - ", "; ");
                self.notice = Some(format!("{line} (keeping the effect as it was)"));
            }
        }
    }

    /// Show the effect as edited in `viewport` if it is not what it shows.
    pub fn sync(&mut self, viewport: &mut Viewport) {
        if &self.shown == self.edit.effect() {
            return;
        }
        self.shown = self.edit.effect().clone();
        if let Err(e) = viewport.show(&self.shown, self.file.as_deref()) {
            viewport.error = Some(e.to_string());
        } else {
            viewport.error = None;
        }
    }
}
