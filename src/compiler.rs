//! The device as a renderer's passes build their pipelines on it: every pipeline goes
//! through the renderer's [`wgpu::PipelineCache`] (where the device has one) and is
//! counted, so that a test can say "this compiled nothing" and a host can store what the
//! driver compiled for its next run.
//!
//! It dereferences to the [`wgpu::Device`]: a pass makes its layouts, buffers and shader
//! modules on it as on the device itself, and only its pipelines through
//! [`Compiler::compute`] and [`Compiler::render`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// A device and the pipeline cache and counter its pipelines are built through. Clones
/// share both (a worker thread compiling for the renderer counts into the same counter).
#[derive(Clone, Debug)]
pub(crate) struct Compiler {
    device: wgpu::Device,
    /// What every pipeline is built through; None where the device lacks
    /// [`wgpu::Features::PIPELINE_CACHE`] (or a compiler standing alone: a bench's).
    cache: Arc<RwLock<Option<wgpu::PipelineCache>>>,
    /// Pipelines built so far.
    compiled: Arc<AtomicU64>,
}

impl std::ops::Deref for Compiler {
    type Target = wgpu::Device;

    fn deref(&self) -> &wgpu::Device {
        &self.device
    }
}

impl Compiler {
    /// Building on `device` without a cache (a bench's or a test's pass standing alone).
    pub fn new(device: &wgpu::Device) -> Self {
        Compiler {
            device: device.clone(),
            cache: Arc::default(),
            compiled: Arc::default(),
        }
    }

    /// Building on `device` through a pipeline cache of its own, empty, where the device
    /// has [`wgpu::Features::PIPELINE_CACHE`] (a renderer's).
    pub fn cached(device: &wgpu::Device) -> Self {
        let compiler = Compiler::new(device);
        if device.features().contains(wgpu::Features::PIPELINE_CACHE) {
            compiler.set_cache(Some(crate::pipeline_cache::create(device, None)));
        }
        compiler
    }

    /// Building through `cache` from now on (None: through none); pipelines built before
    /// stay as they are.
    pub fn set_cache(&self, cache: Option<wgpu::PipelineCache>) {
        *self.cache.write().unwrap_or_else(|e| e.into_inner()) = cache;
    }

    /// The cache pipelines are built through, if any.
    pub fn cache(&self) -> Option<wgpu::PipelineCache> {
        self.cache.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Pipelines built so far, by this compiler and its clones.
    pub fn compiled(&self) -> u64 {
        self.compiled.load(Ordering::Relaxed)
    }

    /// `desc` built through the cache (whatever cache `desc` names is replaced).
    pub fn compute(&self, desc: &wgpu::ComputePipelineDescriptor<'_>) -> wgpu::ComputePipeline {
        let cache = self.cache();
        let desc = wgpu::ComputePipelineDescriptor {
            cache: cache.as_ref(),
            ..desc.clone()
        };
        self.compiled.fetch_add(1, Ordering::Relaxed);
        self.device.create_compute_pipeline(&desc)
    }

    /// `desc` built through the cache (whatever cache `desc` names is replaced).
    pub fn render(&self, desc: &wgpu::RenderPipelineDescriptor<'_>) -> wgpu::RenderPipeline {
        let cache = self.cache();
        let desc = wgpu::RenderPipelineDescriptor {
            cache: cache.as_ref(),
            ..desc.clone()
        };
        self.compiled.fetch_add(1, Ordering::Relaxed);
        self.device.create_render_pipeline(&desc)
    }
}
