//! A system's level of detail (`crate::lod`): its rates by its distance, and the size on
//! screen below which its mesh particles are drawn as discs.

use super::ParticleSystem;
use crate::effect::graph::spawn::Spawning;
use crate::lod::Lod;
use crate::view::ViewModel;

impl ParticleSystem {
    pub fn set_lod(&mut self, lod: Option<Lod>) {
        self.lod = lod;
    }

    pub fn lod(&self) -> Option<Lod> {
        self.lod
    }

    /// The share of its rates and bursts it keeps this frame, seen from `view`: by the
    /// distance from the view's origin to its bounds as the view saw them (none: full
    /// rates).
    pub(super) fn lod_rates(&self, view: &ViewModel) -> f32 {
        let Some(lod) = self.lod else {
            return 1.0;
        };
        match self.sight.seen_bounds {
            Some(b) => lod.rates_at(view.eye.clamp(b.min, b.max).distance(view.eye)),
            None => 1.0,
        }
    }

    /// `spawning` (each emitter's rate and burst factor from its spawn stage; empty: as
    /// written) scaled by `share`.
    pub(super) fn thinned(&self, spawning: Vec<Spawning>, share: f32) -> Vec<Spawning> {
        if share == 1.0 {
            return spawning;
        }
        (self.effect.desc().emitters.iter().enumerate())
            .map(|(k, e)| {
                let s = spawning.get(k).copied().unwrap_or(Spawning {
                    rate: e.rate,
                    burst: 1.0,
                });
                Spawning {
                    rate: s.rate * share,
                    burst: s.burst * share,
                }
            })
            .collect()
    }

    /// The radius in target pixels at most which its mesh particles are drawn as discs
    /// (0: never), for a target of `target_per_host` pixels per pixel of the host's.
    pub(super) fn mesh_lod(&self) -> f32 {
        self.lod
            .map_or(0.0, |l| l.mesh_pixels * self.target_per_host)
    }
}
