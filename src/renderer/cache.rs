//! The pipeline cache kept across runs: a renderer builds every pipeline through a
//! [`wgpu::PipelineCache`] where its device has [`wgpu::Features::PIPELINE_CACHE`]; a host
//! stores its bytes at the end of a run and seeds the next run's renderer with them, so that
//! the driver need not compile what it compiled before.

use super::ParticleRenderer;
use crate::pipeline_cache::{adapter_identity, create, frame, unframe, CacheIgnored};

impl ParticleRenderer {
    /// Build pipelines from now on through a cache seeded with `bytes`, which
    /// [`ParticleRenderer::pipeline_cache`] gave in an earlier run. Call it right after
    /// [`ParticleRenderer::new`]: pipelines compiled before are not compiled again.
    ///
    /// Bytes that cannot be used are ignored, never a failure: the error says why (the
    /// device has no pipeline cache; not a cache, or a damaged one; made for another adapter
    /// or driver), and the renderer goes on with an empty cache, as on a first run. Bytes
    /// are checked (their adapter and a checksum) before the driver sees them.
    ///
    /// How much it saves is the driver's: on drivers that keep their own cache on disk (most
    /// desktop GPUs) little; on lavapipe nothing (it keeps nothing in a pipeline cache).
    pub fn seed_pipeline_cache(
        &mut self,
        device: &wgpu::Device,
        bytes: &[u8],
    ) -> Result<(), CacheIgnored> {
        let compiler = self.pipelines.compiler();
        if **compiler != *device {
            return Err(CacheIgnored::OtherDevice);
        }
        if compiler.cache().is_none() {
            return Err(CacheIgnored::Unsupported);
        }
        let payload = unframe(&adapter_identity(&device.adapter_info()), bytes)?;
        compiler.set_cache(Some(create(device, Some(payload))));
        Ok(())
    }

    /// What the driver compiled for this renderer so far, as bytes to store (a file in the
    /// user's cache folder, written whole) and give to
    /// [`ParticleRenderer::seed_pipeline_cache`] in the next run; None where the device has
    /// no pipeline cache ([`wgpu::Features::PIPELINE_CACHE`]) or the driver gives nothing.
    /// Call it after the effects were added and drawn (or warmed,
    /// [`ParticleRenderer::warm`]), at the end of a run.
    pub fn pipeline_cache(&self) -> Option<Vec<u8>> {
        let compiler = self.pipelines.compiler();
        let data = compiler.cache()?.get_data()?;
        Some(frame(&adapter_identity(&compiler.adapter_info()), &data))
    }
}
