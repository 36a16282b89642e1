//! Compiling off the host's thread ([`crate::Settings::background_compile`]): an effect of a kind
//! whose pipelines are not built yet is added unbound (its buffers and CPU state, no bind
//! groups) and records nothing, its clock waiting at 0, while a worker thread builds every
//! pipeline its frames may need; at the first update after that, it is bound and starts.
//!
//! One worker at a time: it builds, for every effect waiting, the variants of its kind
//! alone (so that a kind whose generated code fails fails alone), then those of every kind
//! the renderer holds and has built for together (the merged lists' and batches' unions).
//! What has been built for is `covered`: an effect of a kind it covers, in a renderer whose
//! effects it all covers, starts at once.

use std::sync::Arc;
use std::thread::JoinHandle;

use super::{unknown, EffectId, ParticleRenderer};
use crate::error::{Error, Result};
use crate::pipelines::{EffectKind, Pipelines, WarmEffect, WarmFrame};
use crate::system::Assets;

/// The kinds whose pipelines are all built, with every union between them, for frames
/// drawn `frame`'s way.
#[derive(Clone, Debug)]
pub(super) struct Covered {
    frame: WarmFrame,
    kinds: Vec<EffectKind>,
}

impl Covered {
    fn covers(&self, frame: WarmFrame, kind: &EffectKind) -> bool {
        self.frame == frame && self.kinds.iter().any(|k| k.covers(kind))
    }
}

/// What a worker reports: each waiting effect's result, and what is covered now.
type Done = (Vec<(EffectId, std::result::Result<(), Failure>)>, Covered);

/// Why an effect's pipelines could not be built (its generated code refused), kept to
/// tell the host each time it asks.
#[derive(Clone, Debug)]
pub(super) struct Failure {
    effect: String,
    stage: String,
    message: String,
}

impl Failure {
    fn of(effect: &str, error: Error) -> Self {
        match error {
            Error::GeneratedCode {
                effect,
                stage,
                message,
            } => Failure {
                effect,
                stage,
                message,
            },
            other => Failure {
                effect: effect.to_string(),
                stage: "compile".into(),
                message: other.to_string(),
            },
        }
    }

    fn error(&self) -> Error {
        Error::GeneratedCode {
            effect: self.effect.clone(),
            stage: self.stage.clone(),
            message: self.message.clone(),
        }
    }
}

/// The worker and what it left.
#[derive(Default)]
pub(super) struct Compiling {
    /// What the pipelines built serve (None: nothing known yet).
    covered: Option<Covered>,
    /// The worker at work, the effects it builds for and the targets' generation it
    /// started in.
    job: Option<(JoinHandle<Done>, Vec<EffectId>, u64)>,
    /// A worker waited for outside an update, its report taken at the next.
    /// (Err: it panicked; its payload is let go, the renderer staying `Sync`.)
    done: Option<(std::result::Result<Done, ()>, Vec<EffectId>, u64)>,
    /// Counts the host's new targets: what a worker started before them built does not
    /// cover what the composite and the mesh draws need now.
    generation: u64,
    /// Effects whose pipelines failed (removed), by id.
    failed: Vec<(EffectId, Failure)>,
    /// An effect may wait for its pipelines: one was added waiting, and no worker has
    /// looked for waiting effects since (while none can be waiting, an update does not look
    /// through every effect for one).
    pub waiting: bool,
}

impl ParticleRenderer {
    /// Whether effect `id` records: Ok(true) once its pipelines are built (at once, unless
    /// [`crate::Settings::background_compile`] is on and its kind was new), Ok(false) while a
    /// worker builds them. An effect whose generated code the worker could not compile is
    /// removed, and this is the error [`ParticleRenderer::add_effect`] would have given;
    /// an unknown id is an error too.
    pub fn is_ready(&self, id: EffectId) -> Result<bool> {
        if let Some(e) = self.entries.iter().find(|e| e.id == id) {
            return Ok(e.system.is_bound());
        }
        match self.compiling.failed.iter().find(|(f, _)| *f == id) {
            Some((_, failure)) => Err(failure.error()),
            None => Err(unknown(id)),
        }
    }

    /// How frames are drawn now, as far as pipelines go.
    pub(super) fn warm_frame(&self) -> WarmFrame {
        WarmFrame {
            scale: self.settings.scale,
            splat: self.settings.splat_radius() > 0.0,
            nearest: self.composites_by_nearest_depth(),
        }
    }

    /// The kind of the effect at `at`.
    fn kind_at(&self, at: usize) -> EffectKind {
        self.entries[at].system.kind()
    }

    /// Whether every pipeline an effect of `kind` may need, beside every effect here, is
    /// built.
    pub(super) fn covers(&self, kind: &EffectKind) -> bool {
        let frame = self.warm_frame();
        let Some(covered) = &self.compiling.covered else {
            return false;
        };
        covered.covers(frame, kind)
            && (0..self.entries.len()).all(|at| covered.covers(frame, &self.kind_at(at)))
    }

    /// Build now, on this thread, what `effects` and every effect here need; they are covered
    /// from now on.
    pub(super) fn build_for(&mut self, effects: Vec<WarmEffect>) -> Result<()> {
        self.wait_for_worker();
        let frame = self.warm_frame();
        // (the effects asked for fail with their own error; one waiting here that fails is
        // the worker's to report)
        self.pipelines.warm(&effects, frame)?;
        let set = self.with_everything(effects);
        self.compiling.covered = Some(together(&self.pipelines, set, frame));
        Ok(())
    }

    /// `effects`, every effect here and what is covered (for the same frames), each kind
    /// once.
    fn with_everything(&self, effects: Vec<WarmEffect>) -> Vec<WarmEffect> {
        let mut set: Vec<WarmEffect> = vec![];
        let frame = self.warm_frame();
        let covered = self.compiling.covered.iter().filter(|c| c.frame == frame);
        let covered = covered.flat_map(|c| &c.kinds).map(|k| WarmEffect {
            name: "an effect warmed before".into(),
            kind: k.clone(),
        });
        let here = (0..self.entries.len()).map(|at| WarmEffect {
            name: self.entries[at].system.desc().name.clone(),
            kind: self.kind_at(at),
        });
        for e in effects.into_iter().chain(here).chain(covered) {
            if !set.iter().any(|s| s.kind == e.kind) {
                set.push(e);
            }
        }
        set
    }

    /// Start the worker on the effects waiting, unless it is at work.
    pub(super) fn start_worker(&mut self) {
        if !self.compiling.waiting || self.compiling.job.is_some() || self.compiling.done.is_some()
        {
            return;
        }
        let waiting: Vec<(EffectId, WarmEffect)> = (0..self.entries.len())
            .filter(|&at| !self.entries[at].system.is_bound())
            .map(|at| {
                let e = WarmEffect {
                    name: self.entries[at].system.desc().name.clone(),
                    kind: self.kind_at(at),
                };
                (self.entries[at].id, e)
            })
            .collect();
        if waiting.is_empty() {
            self.compiling.waiting = false;
            return;
        }
        let ids = waiting.iter().map(|(id, _)| *id).collect();
        let set = self.with_everything(vec![]);
        let frame = self.warm_frame();
        let pipelines = Arc::clone(&self.pipelines);
        let work = move || build(&pipelines, waiting, set, frame);
        let spawned = std::thread::Builder::new()
            .name("flurry-compile".into())
            .spawn(work);
        // (no thread to be had: those effects wait for the next update's try)
        if let Ok(handle) = spawned {
            self.compiling.job = Some((handle, ids, self.compiling.generation));
        }
    }

    /// Forget what the pipelines built serve (new targets: some are built anew).
    pub(super) fn forget_covered(&mut self) {
        self.compiling.covered = None;
        self.compiling.generation += 1;
    }

    /// Wait for the worker at work, if any (its report is taken at the next update).
    pub(super) fn wait_for_worker(&mut self) {
        if let Some((handle, ids, generation)) = self.compiling.job.take() {
            self.compiling.done = Some((handle.join().map_err(drop), ids, generation));
        }
    }

    /// The worker's report, if it is done: the effects it built for bound (they start at
    /// this update), those that failed removed; then the worker started on any still
    /// waiting.
    pub(super) fn take_compiled(&mut self, device: &wgpu::Device, queue: &wgpu::Queue) {
        let finished = self
            .compiling
            .job
            .as_ref()
            .is_some_and(|(handle, ..)| handle.is_finished());
        if finished {
            self.wait_for_worker();
        }
        if let Some((report, ids, generation)) = self.compiling.done.take() {
            let results = match report {
                Ok((results, covered)) => {
                    if generation == self.compiling.generation {
                        self.compiling.covered = Some(covered);
                    }
                    results
                }
                Err(_) => {
                    let failure = Failure {
                        effect: "?".into(),
                        stage: "compile".into(),
                        message: "the compiling thread panicked".into(),
                    };
                    ids.iter().map(|&id| (id, Err(failure.clone()))).collect()
                }
            };
            for (id, result) in results {
                let bound = result.and_then(|()| self.bind_waiting(device, queue, id));
                if let Err(failure) = bound {
                    self.remove_effect(id);
                    self.compiling.failed.push((id, failure));
                }
            }
            self.merge_dirty = true;
        }
        self.start_worker();
    }

    /// Bind the effect `id` (if it is still here and waiting) now that its pipelines exist.
    fn bind_waiting(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        id: EffectId,
    ) -> std::result::Result<(), Failure> {
        let Some(at) = self.entries.iter().position(|e| e.id == id) else {
            return Ok(());
        };
        let assets = Assets {
            meshes: &self.meshes,
            images: &self.images,
            arena: Some(&self.arena),
            uploads: &self.uploads,
        };
        let system = &mut self.entries[at].system;
        if system.is_bound() {
            return Ok(());
        }
        let name = system.desc().name.clone();
        let bound = system.bind((device, queue), &self.pipelines, assets);
        bound.map_err(|e| Failure::of(&name, e))
    }

    /// Bind the effect at `at` now, on this thread, building what it needs first (a
    /// prewarm of an effect still waiting).
    pub(super) fn bind_now(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        at: usize,
    ) -> Result<()> {
        if self.entries[at].system.is_bound() {
            return Ok(());
        }
        let effect = WarmEffect {
            name: self.entries[at].system.desc().name.clone(),
            kind: self.kind_at(at),
        };
        self.build_for(vec![effect])?;
        let assets = Assets {
            meshes: &self.meshes,
            images: &self.images,
            arena: Some(&self.arena),
            uploads: &self.uploads,
        };
        let system = &mut self.entries[at].system;
        system.bind((device, queue), &self.pipelines, assets)?;
        self.merge_dirty = true;
        Ok(())
    }
}

/// The worker: each waiting effect's variants alone, then those of the whole `set`.
fn build(
    pipelines: &Pipelines,
    waiting: Vec<(EffectId, WarmEffect)>,
    set: Vec<WarmEffect>,
    frame: WarmFrame,
) -> Done {
    let results = waiting
        .into_iter()
        .map(|(id, e)| {
            let built = pipelines.warm(std::slice::from_ref(&e), frame);
            (id, built.map_err(|error| Failure::of(&e.name, error)))
        })
        .collect::<Vec<_>>();
    (results, together(pipelines, set, frame))
}

/// Build what the kinds of `set` need together (their unions), and say what is covered
/// then. A kind whose own variants fail is left out (the effect that has it fails alone);
/// the unions are the built-in passes' variants, which build whatever the effects.
fn together(pipelines: &Pipelines, set: Vec<WarmEffect>, frame: WarmFrame) -> Covered {
    let good: Vec<WarmEffect> = set
        .into_iter()
        .filter(|e| pipelines.warm(std::slice::from_ref(e), frame).is_ok())
        .collect();
    let kinds = match pipelines.warm(&good, frame) {
        Ok(()) => good.into_iter().map(|e| e.kind).collect(),
        Err(_) => vec![],
    };
    Covered { frame, kinds }
}
