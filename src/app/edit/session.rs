//! What the editor edits: the effect with its history, the file it was read from and is
//! saved to (watched for changes made in a text editor), and what the viewport last showed.

use std::path::{Path, PathBuf};

use flurry::effect::{EffectDesc, EffectEdit};
use flurry::expr::{Curve, Gradient, Value};

use super::inspector::EmitterAction;

use super::viewport::Viewport;
use crate::host::live_effect::{LiveEffect, Reload};
use crate::host::AppError;

/// The largest file whose text a save keeps (an effect file is a few KiB; a larger one is
/// not an effect's).
const MAX_KEPT: u64 = 4 << 20;

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
    /// A gesture of many edits made one (a colour picked, a parameter dragged): what it
    /// edits and the undo depth before it.
    gesture: Option<(String, usize)>,
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
            gesture: None,
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

    /// Set a stack's lines or a node's expression (refused and said when it does not
    /// parse or check).
    pub fn set_text(&mut self, path: &str, text: &str) {
        let result = self.edit.set_text(path, text);
        self.said(result);
    }

    /// Set one of a few ways (refused and said where the rest of the effect does not
    /// allow it).
    pub fn set_choice(&mut self, path: &str, option: &str) {
        let result = self.edit.set_choice(path, option);
        self.said(result);
    }

    /// Replace a curve's keys (refused and said where they are out of order).
    pub fn set_curve(&mut self, name: &str, curve: Curve) {
        let result = self.edit.set_curve(name, curve);
        self.said(result);
    }

    /// Replace a gradient's keys; `picking`: part of a colour pick, one edit with the
    /// picks of the same gradient just before it.
    pub fn set_gradient(&mut self, name: &str, gradient: Gradient, picking: bool) {
        let what = format!("gradients.{name}");
        self.in_gesture(&what, picking, |edit| edit.set_gradient(name, gradient));
    }

    /// Set a parameter's default (the viewport's effect goes on: a parameter is set
    /// live); `dragging`: one edit with the rest of the same drag.
    pub fn set_parameter(&mut self, name: &str, value: Value, dragging: bool) {
        let what = format!("parameters.{name}");
        self.in_gesture(&what, dragging, |edit| edit.set_parameter(name, value));
    }

    /// Set a colour's four channels `base[0]`..`base[3]` as one edit; `picking`: one edit
    /// with the picks of the same colour just before it.
    pub fn set_colour(&mut self, base: &str, rgba: [f32; 4], picking: bool) {
        let paths: Vec<String> = (0..4).map(|c| format!("{base}[{c}]")).collect();
        let numbers: Vec<(&str, f32)> = (paths.iter().map(String::as_str)).zip(rgba).collect();
        self.in_gesture(base, picking, |edit| edit.set_numbers(&numbers).map(|_| ()));
    }

    /// Make an edit of `what`; `going_on`: part of a gesture, one edit with the edits of
    /// the same gesture just before it.
    fn in_gesture(
        &mut self,
        what: &str,
        going_on: bool,
        make: impl FnOnce(&mut EffectEdit) -> flurry::Result<()>,
    ) {
        let depth = self.edit.undo_depth();
        let since = match &self.gesture {
            Some((w, d)) if w == what && depth == d + 1 => *d,
            _ => depth,
        };
        let result = make(&mut self.edit);
        if result.is_ok() {
            self.edit.merge_since(since);
        }
        self.gesture = (going_on && result.is_ok()).then(|| (what.to_string(), since));
        self.said(result);
    }

    /// Import these module files, read relative to the effect's file (without one, to the
    /// working directory).
    pub fn set_imports(&mut self, imports: Vec<String>) {
        let folder = self
            .file
            .as_deref()
            .and_then(Path::parent)
            .unwrap_or(Path::new(""));
        let read = |import: &str| flurry::effect::read_import(folder, import);
        let result = self.edit.set_imports(imports, read);
        self.said(result);
    }

    /// Duplicate, remove or move an emitter up.
    pub fn emitter(&mut self, action: EmitterAction) {
        let result = match action {
            EmitterAction::Duplicate(k) => self.edit.duplicate_emitter(k).map(|_| ()),
            EmitterAction::Remove(k) => self.edit.remove_emitter(k),
            EmitterAction::Up(k) => self.edit.move_emitter(k, k.saturating_sub(1)),
        };
        self.said(result);
    }

    /// An edit's outcome on the status line: nothing when it was made, why when refused.
    fn said(&mut self, result: flurry::Result<()>) {
        self.notice = result.err().map(|e| format!("refused: {e}"));
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

    /// Write the effect to its file: over the text the file holds (or, saved as a new
    /// file, the text of the file it was opened from) with only what was edited changed,
    /// every comment and line of the author's kept; a new effect, or a file that does not
    /// read as one, written whole with each number's range as a comment. `to` names
    /// another file, which it is then read from and watched at.
    pub fn save(&mut self, to: Option<&Path>) -> Result<PathBuf, AppError> {
        let Some(path) = to.or(self.file.as_deref()).map(Path::to_path_buf) else {
            let why = "a file to save to: type one next to \"save as\"";
            return Err(flurry::Invalid::new("save", "no file", why).into());
        };
        let effect = self.edit.effect();
        // the author's words: the file's own, else (saved as a new file, or over a file of
        // another kind) those of the file it was opened from
        let read = |p: &Path| {
            let small = std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= MAX_KEPT);
            small.then(|| std::fs::read_to_string(p).ok()).flatten()
        };
        let texts = [Some(path.as_path()), self.file.as_deref()]
            .into_iter()
            .flatten();
        let kept = texts
            .filter_map(read)
            .find_map(|text| effect.patch_ron(&text).ok());
        let whole = kept.is_none();
        let text = kept.unwrap_or_else(|| {
            format!(
                "// {}: written by `flurry edit`; each number's range is the comment after it.\n{}",
                effect.name,
                effect.to_ron_commented()
            )
        });
        crate::cli::output::write("save", &path, text.as_bytes())?;
        self.saved = Some(effect.clone());
        if self.file.as_deref() != Some(path.as_path()) {
            self.live = Some(LiveEffect::open(&path)?);
            self.file = Some(path.clone());
        }
        let how = if whole {
            " (written whole: no effect file's text to keep)"
        } else {
            ""
        };
        self.notice = Some(format!("saved {}{how}", path.display()));
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

    /// Show the effect as edited in `viewport` if it is not what it shows: where only
    /// parameters' defaults changed, by setting them (the effect goes on), else by showing
    /// the new effect from its start.
    pub fn sync(&mut self, viewport: &mut Viewport) {
        let now = self.edit.effect();
        if &self.shown == now {
            return;
        }
        let before = std::mem::replace(&mut self.shown, now.clone());
        let result = match defaults_only(&before, now) {
            Some(changed) => viewport.set_parameters(&changed),
            None => viewport.show(now, self.file.as_deref()),
        };
        viewport.error = result.err().map(|e| e.to_string());
    }
}

/// The parameters whose defaults differ, where that is all that differs between `before`
/// and `now` (None: more changed).
fn defaults_only(before: &EffectDesc, now: &EffectDesc) -> Option<Vec<(String, Value)>> {
    let mut same = before.clone();
    let mut changed = Vec::new();
    for (name, p) in &mut same.parameters {
        let new = now.parameters.get(name)?.default;
        if p.default != new {
            p.default = new;
            changed.push((name.clone(), new));
        }
    }
    (&same == now).then_some(changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::offscreen::FORMAT;
    use crate::host::demos::Demo;
    use flurry::expr::Value;
    use flurry::GpuContext;

    fn snow() -> (PathBuf, EffectDesc) {
        let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/effects/snow.ron"));
        let effect = EffectDesc::from_file(&path).unwrap();
        (path, effect)
    }

    /// A small viewport of `effect` (read from `path`) in `demo`'s host, with its device and
    /// queue.
    fn viewport_of(
        effect: &EffectDesc,
        path: &Path,
        demo: Demo,
    ) -> (Viewport, (flurry::wgpu::Device, flurry::wgpu::Queue)) {
        let gpu = GpuContext::new_headless().unwrap();
        let devices = (gpu.device.clone(), gpu.queue.clone());
        let shown = (effect, Some(path));
        let viewport = Viewport::new(gpu, demo, shown, (1024, 1), (FORMAT, (64, 48))).unwrap();
        (viewport, devices)
    }

    /// A session on campfire.ron and a small viewport of it, with its device and queue.
    fn campfire() -> (
        Viewport,
        Session,
        (flurry::wgpu::Device, flurry::wgpu::Queue),
    ) {
        let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/effects/campfire.ron"));
        let effect = EffectDesc::from_file(&path).unwrap();
        let (viewport, devices) = viewport_of(&effect, &path, Demo::Campfire);
        let session = Session::new(effect, Some(&path)).unwrap();
        (viewport, session, devices)
    }

    /// One frame of `dt` seconds of `viewport`, submitted.
    fn run_frame(
        viewport: &mut Viewport,
        (device, queue): (&flurry::wgpu::Device, &flurry::wgpu::Queue),
        dt: f32,
    ) {
        let mut encoder = device.create_command_encoder(&Default::default());
        let request = super::super::viewport::FrameRequest { size: (64, 48), dt };
        viewport.frame(&mut encoder, request);
        queue.submit([encoder.finish()]);
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("flurry-session-{}-{name}", std::process::id()))
    }

    /// The lines of `saved` that differ from `original`'s, as (original, saved); the two
    /// have as many lines.
    fn lines_changed(original: &str, saved: &str) -> Vec<(String, String)> {
        let (a, b): (Vec<&str>, Vec<&str>) = (original.lines().collect(), saved.lines().collect());
        assert_eq!(a.len(), b.len(), "as many lines");
        let pairs = a.into_iter().zip(b).filter(|(x, y)| x != y);
        pairs.map(|(x, y)| (x.to_string(), y.to_string())).collect()
    }

    /// A parameter dragged and saved (as a new file, then over it): the file is the
    /// author's, every comment and line as written, but for the number edited.
    #[test]
    fn a_save_keeps_the_authors_file_but_for_the_number_edited() {
        let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/effects/campfire.ron"));
        let original = std::fs::read_to_string(&path).unwrap();
        let mut session = Session::new(EffectDesc::from_file(&path).unwrap(), Some(&path)).unwrap();
        let out = temp("kept.ron");
        for value in [1.63, 2.25] {
            session.set_parameter("intensity", Value::F32(value), false);
            session.save(Some(&out)).unwrap();
            let saved = std::fs::read_to_string(&out).unwrap();
            let changed = lines_changed(&original, &saved);
            assert_eq!(changed.len(), 1, "{changed:?}");
            let (was, now) = &changed[0];
            assert!(was.contains("(default: 1.0,"), "{was}");
            assert_eq!(now, &was.replace("1.0,", &format!("{value},")));
            assert_eq!(
                &EffectDesc::from_file(&out).unwrap(),
                session.edit().effect()
            );
        }
        let _ = std::fs::remove_file(out);
    }

    /// Every number of the effect set through the call the inspector's widgets make, saved,
    /// loaded back as the edited effect; every edit undone gives the original.
    #[test]
    fn edited_saved_and_loaded_back_then_undone_to_the_original() {
        let (path, original) = snow();
        let mut session = Session::new(original.clone(), Some(&path)).unwrap();
        let fields = session.edit().fields();
        let mut edits = 0;
        for f in &fields {
            let wanted = (f.value + 0.1 * f.value.abs().max(0.5)).min(f.max);
            let depth = session.edit().undo_depth();
            session.set_number(&f.path, wanted);
            if session.edit().undo_depth() > depth {
                edits += 1;
                assert_eq!(session.edit().number(&f.path), Some(wanted), "{}", f.path);
            }
        }
        // (a box's max raised past a moved min is refused: the rest are taken)
        assert!(
            edits + 2 >= fields.len(),
            "{edits} of {} taken",
            fields.len()
        );
        assert!(session.unsaved());
        let out = temp("saved.ron");
        session.save(Some(&out)).unwrap();
        assert!(!session.unsaved());
        assert_eq!(session.file(), Some(out.as_path()));
        let loaded = EffectDesc::from_file(&out).unwrap();
        assert_eq!(&loaded, session.edit().effect());
        for _ in 0..edits {
            session.undo();
        }
        assert_eq!(session.edit().effect(), &original);
        let _ = std::fs::remove_file(out);
    }

    /// A number set out of its range is clamped before the effect changes: what reaches the
    /// renderer is in range, and the status line says so.
    #[test]
    fn a_number_out_of_range_is_clamped_before_it_reaches_the_renderer() {
        let (path, effect) = snow();
        let (mut viewport, _) = viewport_of(&effect, &path, Demo::Snow);
        let mut session = Session::new(effect, Some(&path)).unwrap();
        session.set_number("forces.drag", 5e4);
        let notice = session.notice.clone().unwrap_or_default();
        assert!(notice.contains("clamped"), "{notice}");
        session.sync(&mut viewport);
        let shown = viewport.scene.renderer.effect(viewport.effect()).unwrap();
        assert_eq!(shown.forces.drag, 1000.0);
        // refused edits change nothing there either
        session.set_number("forces.drag", f32::NAN);
        session.sync(&mut viewport);
        let shown = viewport.scene.renderer.effect(viewport.effect()).unwrap();
        assert_eq!(shown.forces.drag, 1000.0);
        assert!(viewport.error.is_none(), "{:?}", viewport.error);
    }

    /// A change made to the file in a text editor is one more edit, undone like any.
    #[test]
    fn a_change_on_disk_is_reloaded_as_an_edit() {
        let (original_path, original) = snow();
        let path = temp("watched.ron");
        std::fs::copy(&original_path, &path).unwrap();
        let mut session = Session::new(original.clone(), Some(&path)).unwrap();
        let mut changed = original.clone();
        changed.forces.drag = 2.5;
        // (a later modification time than the copy's, on any file system's clock)
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, changed.to_ron()).unwrap();
        session.poll();
        assert_eq!(session.edit().effect().forces.drag, 2.5);
        assert!(!session.unsaved());
        session.undo();
        assert_eq!(session.edit().effect(), &original);
        let _ = std::fs::remove_file(path);
    }

    /// A parameter dragged is set live: the effect goes on (its clock is not restarted),
    /// and the drag is one edit.
    #[test]
    fn a_parameter_dragged_is_set_live_as_one_edit() {
        let (mut viewport, mut session, (device, queue)) = campfire();
        let frame = |viewport: &mut Viewport| run_frame(viewport, (&device, &queue), 0.1);
        for _ in 0..3 {
            frame(&mut viewport);
        }
        let id = viewport.effect();
        for (value, dragging) in [(1.5, true), (2.0, true), (2.5, false)] {
            session.set_parameter("intensity", Value::F32(value), dragging);
            session.sync(&mut viewport);
            frame(&mut viewport);
        }
        assert_eq!(viewport.effect(), id, "the effect was not added again");
        let renderer = &viewport.scene.renderer;
        assert!(renderer.time(id).unwrap() > 0.5, "its clock went on");
        assert_eq!(renderer.parameter(id, "intensity"), Some(Value::F32(2.5)));
        assert_eq!(session.edit().undo_depth(), 1, "one drag, one edit");
        assert!(viewport.error.is_none(), "{:?}", viewport.error);
    }

    /// An edit shows the effect going on as edited: the new effect is run ahead to where
    /// the old one was (at most CARRY_ON seconds); held, it starts from its start.
    #[test]
    fn an_edited_effect_goes_on_from_where_the_old_one_was() {
        let (mut viewport, mut session, (device, queue)) = campfire();
        let frame = |viewport: &mut Viewport, dt| run_frame(viewport, (&device, &queue), dt);
        for _ in 0..5 {
            frame(&mut viewport, 0.1);
        }
        let first = viewport.effect();
        session.set_number("emitters[0].rate", 1000.0);
        session.sync(&mut viewport);
        assert_ne!(viewport.effect(), first, "a new effect");
        let time = viewport.scene.renderer.time(viewport.effect()).unwrap();
        assert!((time - 0.5).abs() < 0.02, "run ahead to 0.5 s: {time}");
        frame(&mut viewport, 0.1);
        viewport.set_playing(false).unwrap();
        session.set_number("emitters[0].rate", 500.0);
        session.sync(&mut viewport);
        assert_eq!(viewport.scene.renderer.time(viewport.effect()), Some(0.0));
        assert!(viewport.error.is_none(), "{:?}", viewport.error);
    }

    /// An edit that makes a new kind of effect (here its blend) compiles beside the frames:
    /// the effect before it stays shown, its clock going on, until a worker thread has built
    /// the new one's pipelines; the new one then takes its place, run ahead to where the old
    /// one was.
    #[test]
    fn an_edit_of_a_new_kind_shows_the_effect_before_it_until_compiled() {
        let (mut viewport, mut session, (device, queue)) = campfire();
        let frame = |viewport: &mut Viewport| run_frame(viewport, (&device, &queue), 0.02);
        for _ in 0..5 {
            frame(&mut viewport);
        }
        let first = viewport.effect();
        session.set_choice("blend", "Additive");
        session.sync(&mut viewport);
        assert!(viewport.compiling(), "a new kind waits for its pipelines");
        assert_eq!(
            viewport.effect(),
            first,
            "the effect before it is still shown"
        );
        let started = std::time::Instant::now();
        let mut old_time = viewport.scene.renderer.time(first).unwrap();
        let mut frames = 0;
        while viewport.compiling() {
            let limit = std::time::Duration::from_secs(300);
            assert!(started.elapsed() < limit, "still compiling after {limit:?}");
            old_time = viewport.scene.renderer.time(first).unwrap();
            frame(&mut viewport);
            frames += 1;
        }
        assert!(frames > 1, "the frames went on while it compiled: {frames}");
        assert!(old_time > 0.1, "the old effect's clock went on: {old_time}");
        let new = viewport.effect();
        let renderer = &viewport.scene.renderer;
        assert_ne!(new, first, "the edited effect is shown");
        assert_eq!(renderer.time(first), None, "the effect before it is gone");
        assert_eq!(
            renderer.effect(new).unwrap().blend,
            flurry::effect::Blend::Additive
        );
        // run ahead at the start of the frame that swapped them, then that frame's step
        let time = renderer.time(new).unwrap();
        let ahead = (old_time as f32).min(super::super::viewport::CARRY_ON) as f64;
        let expected = ahead + 0.02;
        assert!((time - expected).abs() < 0.005, "{expected} s: {time}");
        assert!(viewport.error.is_none(), "{:?}", viewport.error);
    }

    /// A colour picked in many steps is one edit; the next pick of another colour is
    /// another.
    #[test]
    fn a_colour_picked_in_many_steps_is_one_edit() {
        let (path, effect) = snow();
        let mut session = Session::new(effect, Some(&path)).unwrap();
        for red in [0.2, 0.4, 0.6] {
            session.set_colour("emitters[0].color.mean", [red, 0.5, 0.5, 1.0], true);
        }
        assert_eq!(session.edit().undo_depth(), 1);
        assert_eq!(
            session.edit().effect().emitters[0].color.mean,
            [0.6, 0.5, 0.5, 1.0]
        );
        session.set_colour("over_life.color_end", [1.0, 0.0, 0.0, 1.0], true);
        assert_eq!(session.edit().undo_depth(), 2);
        assert!(session.notice.is_none(), "{:?}", session.notice);
    }

    /// Imports are read relative to the effect's file; one that is not there is refused on
    /// the status line.
    #[test]
    fn imports_are_read_beside_the_file() {
        let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/effects/vortex.ron"));
        let effect = EffectDesc::from_file(&path).unwrap();
        let mut session = Session::new(effect.clone(), Some(&path)).unwrap();
        let more = [effect.imports.clone(), vec!["modules/looks.ron".into()]].concat();
        session.set_imports(more.clone());
        assert!(session.notice.is_none(), "{:?}", session.notice);
        assert_eq!(session.edit().effect().imports, more);
        session.set_imports(vec!["modules/not_there.ron".into()]);
        let notice = session.notice.clone().unwrap_or_default();
        assert!(
            notice.starts_with("refused") && notice.contains("not_there"),
            "{notice}"
        );
        assert_eq!(session.edit().effect().imports, more);
    }
}
