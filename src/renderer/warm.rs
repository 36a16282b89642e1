//! Compiling ahead: [`ParticleRenderer::warm`] builds what effects will need before they are
//! added (a loading screen), so that adding them and drawing them compiles nothing.

use super::ParticleRenderer;
use crate::effect::EffectDesc;
use crate::error::{Invalid, Result};
use crate::pipelines::{EffectKind, WarmEffect};

impl ParticleRenderer {
    /// Compile every pipeline `effects` need, without adding them, and say how many were
    /// compiled (those another effect or an earlier call built are not compiled again).
    /// Adding any of them afterwards, any number of times, with any capacity, and drawing
    /// them alone, together or beside the effects the renderer holds compiles nothing; so
    /// does placing one as instances or listening to its events. With
    /// [`crate::Settings::background_compile`] an effect of a warmed kind starts at once.
    /// Changing [`crate::Settings::scale`] or the targets later compiles the composite and
    /// the depth downsample for them anew. Another device of the renderer's wgpu instance
    /// is refused (wgpu tells devices apart within an instance).
    ///
    /// Pipelines compile on the calling thread; on a CPU driver (lavapipe) each takes tens
    /// of milliseconds, so call it where a pause is expected. Each effect is validated
    /// first (a bad one is the error [`ParticleRenderer::add_effect`] would give); images
    /// and meshes it names need not be loaded yet.
    pub fn warm(&mut self, device: &wgpu::Device, effects: &[&EffectDesc]) -> Result<usize> {
        let compiler = self.pipelines.compiler().clone();
        if *compiler != *device {
            let allowed = "the device the renderer was made with";
            return Err(Invalid::new("device", "another device", allowed).into());
        }
        let warmed: Vec<WarmEffect> = effects
            .iter()
            .map(|desc| {
                let closed = desc
                    .particle_mesh()
                    .and_then(|m| self.meshes.set().mesh(m))
                    .map(crate::Mesh::is_closed);
                Ok(WarmEffect {
                    name: desc.name.clone(),
                    kind: EffectKind::of(desc, closed)?,
                })
            })
            .collect::<Result<_>>()?;
        let before = compiler.compiled();
        self.build_for(warmed)?;
        Ok((compiler.compiled() - before) as usize)
    }

    /// Pipelines this renderer has compiled so far (each variant once): a host can check
    /// that a frame after [`ParticleRenderer::warm`] compiled none.
    pub fn compiled_pipelines(&self) -> u64 {
        self.pipelines.compiler().compiled()
    }
}
