//! Prewarming an effect: simulated for seconds before it is first seen, in a few large
//! submissions of steps rather than frame by frame on the host's clock.
//!
//! Each step's uniforms differ (its clock, its spawns), and a submission's `write_buffer`s
//! all land before its commands: so every step's uniforms are staged side by side in one
//! buffer, and the step copies its own into the effect's slot just before its dispatches.

use std::sync::atomic::Ordering;

use super::{unknown, EffectId, ParticleRenderer, Pass, COMPUTE_STEPS};
use crate::error::{Invalid, Result};
use crate::view::View;

/// The longest prewarm, seconds.
pub const MAX_PREWARM: f32 = 600.0;

/// The steps a prewarm may take, seconds: what frames from 10,000 Hz to 10 Hz step.
pub const PREWARM_STEPS: std::ops::RangeInclusive<f32> = 1e-4..=0.1;

/// Steps recorded into one submission.
const STEPS_PER_SUBMISSION: usize = 64;

impl ParticleRenderer {
    /// Run effect `id` for `seconds` of its own time (0 to [`MAX_PREWARM`]) now, so that it
    /// starts as if it had been playing that long: snow already lying, a waterfall already
    /// falling. It steps `step` seconds at a time ([`PREWARM_STEPS`]; the host's frame time
    /// makes it what frames would have made, step for step: what an effect does can depend
    /// on its step, as depth collisions do), the steps recorded many to a submission
    /// through `queue` (nothing waits for them), with the effect's camera-following
    /// emitters and bounds placed for `view`; the scene it collides with is the depth of the
    /// last frame drawn (none before the first). Its time scale is left out (these are its
    /// own seconds); an effect that stopped emitting only ages its particles. Its steps
    /// report no events ([`ParticleRenderer::set_events`]). Call it between frames: the next
    /// frame is recorded after an [`ParticleRenderer::update`]. Refuses an unknown effect, a
    /// paused one (or one frozen out of view), a length outside the range and a view flurry
    /// cannot use.
    pub fn prewarm(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        id: EffectId,
        (seconds, step): (f32, f32),
        view: impl Into<View>,
    ) -> Result<()> {
        if !(seconds.is_finite() && (0.0..=MAX_PREWARM).contains(&seconds)) {
            let allowed = format!("a finite number of seconds from 0 to {MAX_PREWARM}");
            return Err(Invalid::new("seconds", seconds, allowed).into());
        }
        if !PREWARM_STEPS.contains(&step) {
            let (lo, hi) = (PREWARM_STEPS.start(), PREWARM_STEPS.end());
            let allowed = format!("a number of seconds from {lo} to {hi}");
            return Err(Invalid::new("step", step, allowed).into());
        }
        let view = view.into().model()?;
        let at = (self.entries.iter())
            .position(|e| e.id == id)
            .ok_or_else(|| unknown(id))?;
        // (one still compiling is built for now: a prewarm is a pause the host chose)
        self.bind_now(device, queue, at)?;
        if self.entries[at].system.lifecycle().held() {
            let allowed = "an effect that plays or stopped emitting (play it first)";
            let value = format!("{id:?} (paused, or frozen out of view)");
            return Err(Invalid::new("id", value, allowed).into());
        }
        self.run_ahead(device, queue, at, steps_of(seconds, step), &view);
        Ok(())
    }

    /// Run the effect at `at` through `steps` (seconds each) now, as [`Self::prewarm`] says:
    /// many steps to a submission of its own.
    fn run_ahead(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        at: usize,
        steps: Vec<f32>,
        view: &crate::view::ViewModel,
    ) {
        if steps.is_empty() {
            return;
        }
        // the scene is the depth the last frame drew (the next update writes its own)
        let drawn = self.depth_recorded.load(Ordering::Relaxed);
        let has_depth = self.targets.depth_format.is_some();
        if let (Some(view), true) = (&self.prev_view, drawn && has_depth) {
            self.uniforms
                .write_collision(queue, &super::collision_frame(view, true));
        }
        let lifecycle = self.begin_ahead(at);
        for chunk in steps.chunks(STEPS_PER_SUBMISSION) {
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("flurry.prewarm"),
            });
            self.record_ahead((device, queue), at, chunk, view, &mut encoder);
            queue.submit([encoder.finish()]);
        }
        self.end_ahead(at, lifecycle);
        // the slot holds the last step's uniforms now, not the last update's: a frame is
        // recorded only after the next update
        self.recorded = true;
    }

    /// Before an effect runs ahead (a prewarm, a catch-up): it records its own emit,
    /// simulate and relist (the batches are made again at the next update), at its own
    /// pace (its time scale is in the seconds it runs), unheard. What to give back to
    /// [`Self::end_ahead`].
    pub(super) fn begin_ahead(&mut self, at: usize) -> crate::playback::Lifecycle {
        let system = &mut self.entries[at].system;
        let lifecycle = system.lifecycle();
        system.set_batched(Default::default());
        system.set_time_scale(1.0);
        // (running: a catch-up's effect is frozen for the frame it runs in)
        system.set_out_of_view(false);
        // what happens before it is seen is not heard
        system.set_prewarming(true);
        self.uniform_pages.emit_everywhere();
        self.merge_dirty = true;
        lifecycle
    }

    /// After an effect ran ahead: its time scale, and whether it is frozen, as before.
    pub(super) fn end_ahead(&mut self, at: usize, lifecycle: crate::playback::Lifecycle) {
        let system = &mut self.entries[at].system;
        system.set_time_scale(lifecycle.time_scale);
        system.set_out_of_view(lifecycle.out_of_view);
        system.set_prewarming(false);
    }

    /// Record the effect at `at` through `steps` (seconds each) into `encoder`: each step's
    /// uniforms staged side by side in a buffer of their own, written through `queue` (so
    /// they are there at the submission's start), and copied into the effect's slot just
    /// before the step's dispatches.
    pub(super) fn record_ahead(
        &mut self,
        (device, queue): (&wgpu::Device, &wgpu::Queue),
        at: usize,
        steps: &[f32],
        view: &crate::view::ViewModel,
        encoder: &mut wgpu::CommandEncoder,
    ) {
        let meshes = self.meshes.set();
        let p = &self.pipelines;
        let collision = match &self.low {
            Some(low) => low.collision_bind(self.depth_apart.load(Ordering::Relaxed)),
            None => p.no_collision(),
        };
        let slot = self.entries[at].system.uniform_slot().clone();
        let parts = self
            .uniform_pages
            .staged_slot(&slot)
            .map(|(_, bytes)| bytes.len() as u64);
        // a slot's bytes (its three parts one after another) at the stride the device
        // aligns copies to
        let size: u64 = parts.iter().sum();
        let stride = size.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.ahead_uniforms"),
            size: stride * steps.len() as u64,
            usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        {
            let mut uploads = self.uploads.lock().expect("not poisoned");
            self.entries[at].system.copy_instances(&mut uploads);
            uploads.record((device, queue), encoder);
        }
        let mut staged = vec![0u8; (stride * steps.len() as u64) as usize];
        for (k, &dt) in steps.iter().enumerate() {
            let system = &mut self.entries[at].system;
            system.update(&mut self.uniform_pages, dt, view, meshes);
            let mut offset = stride * k as u64;
            for (range, bytes) in self.uniform_pages.staged_slot(&slot) {
                staged[offset as usize..][..bytes.len()].copy_from_slice(bytes);
                let len = bytes.len() as u64;
                encoder.copy_buffer_to_buffer(&staging, offset, &range.buffer, range.offset, len);
                offset += len;
            }
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("flurry.ahead_step"),
                timestamp_writes: None,
            });
            // what moves the particles, not what lists them for drawing (the next
            // frame's cull does)
            let moving = COMPUTE_STEPS.iter().take_while(|&&s| s != Pass::Shadow);
            for step in moving.filter_map(|s| s.step()) {
                if system.records(step) {
                    system.record_step(p, step, &mut pass, collision);
                }
            }
            system.record_step_without_cull(p, &mut pass);
        }
        queue.write_buffer(&staging, 0, &staged);
    }
}

/// The steps of a prewarm of `seconds`: whole steps of `step` and what is left (a step
/// short of a whole one by a thousandth is whole).
pub(super) fn steps_of(seconds: f32, step: f32) -> Vec<f32> {
    let whole = (seconds / step + 1e-3).floor() as usize;
    let left = seconds - whole as f32 * step;
    let mut steps = vec![step; whole];
    if left > 1e-3 * step {
        steps.push(left);
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prewarm_is_whole_steps_and_what_is_left() {
        let step = 1.0 / 60.0;
        assert!(steps_of(0.0, step).is_empty());
        assert_eq!(steps_of(1.0, step).len(), 60);
        assert_eq!(steps_of(5.0, step).len(), 300);
        let steps = steps_of(0.5 + step / 2.0, step);
        assert_eq!(steps.len(), 31);
        let total: f32 = steps.iter().sum();
        assert!((total - 0.5 - step / 2.0).abs() < 1e-5);
    }
}
