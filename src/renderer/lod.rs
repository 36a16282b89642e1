//! Each effect's level of detail ([`Lod`]).

use super::{EffectId, ParticleRenderer};
use crate::error::Result;
use crate::lod::Lod;

impl ParticleRenderer {
    /// Thin effect `id` out with distance and size on screen from the next update on: its
    /// rates and bursts fall with its distance, and its mesh particles that span only a few
    /// pixels are drawn as lit discs ([`Lod`]; None: full detail everywhere, the default).
    /// Refuses an unknown effect and a [`Lod`] out of range ([`Lod::check`]).
    pub fn set_lod(&mut self, id: EffectId, lod: Option<Lod>) -> Result<()> {
        if let Some(lod) = &lod {
            lod.check()?;
        }
        self.system_mut(id)?.set_lod(lod);
        Ok(())
    }

    /// Effect `id`'s level of detail (None: no such effect, or full detail).
    pub fn lod(&self, id: EffectId) -> Option<Lod> {
        self.system(id).and_then(|s| s.lod())
    }
}
