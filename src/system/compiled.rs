//! An effect checked and compiled once ([`CompiledEffect`]): its fields' ranges, its stacks
//! compiled to a graph, the pipeline variants its passes record with. What
//! [`crate::ParticleRenderer::add_effect`] makes of an [`EffectDesc`] before anything else,
//! and what a host may make ahead ([`crate::ParticleRenderer::compile`]) to add the same
//! effect many times, compiling it once: copies share it, and what their frames read of it
//! lies in one place.

use std::sync::Arc;

use super::variants::EffectVariants;
use crate::effect::graph::Graph;
use crate::effect::EffectDesc;
use crate::error::Result;

/// An effect description, validated and compiled: its stacks' graph and the pipeline
/// variants its passes record with, decided once. Cheap to clone (the copies share it).
/// Made by [`crate::ParticleRenderer::compile`]; added, any number of times, by
/// [`crate::ParticleRenderer::add_compiled`]. It holds nothing of a device: the images and
/// meshes it names are looked up when it is added.
#[derive(Clone, Debug)]
pub struct CompiledEffect(Arc<Compiled>);

#[derive(Debug)]
struct Compiled {
    desc: EffectDesc,
    graph: Arc<Graph>,
    variants: EffectVariants,
}

impl CompiledEffect {
    /// Check every field of `desc` against its range and compile its stacks: `Ok` with
    /// what its passes need, or every out-of-range field at once, or the first line that
    /// does not compile (the errors of [`EffectDesc::validate`]).
    pub(crate) fn new(desc: &EffectDesc) -> Result<Self> {
        desc.check_fields(None)?;
        let graph = desc.compiled(None)?;
        // (its seed and capacity choose no variant)
        let mut params = desc.effect_params(0, 1);
        graph.fold_into(&mut params);
        let variants = EffectVariants::of(desc, &graph, &params);
        Ok(CompiledEffect(Arc::new(Compiled {
            desc: desc.clone(),
            graph: Arc::new(graph),
            variants,
        })))
    }

    /// The description it was compiled from.
    pub fn desc(&self) -> &EffectDesc {
        &self.0.desc
    }

    /// Its stacks, compiled.
    pub(crate) fn graph(&self) -> &Graph {
        &self.0.graph
    }

    /// The variants its passes record with, as added.
    pub(crate) fn variants(&self) -> &EffectVariants {
        &self.0.variants
    }

    /// The same effect with `desc` in place of its description, whose stacks, parameters
    /// and attributes are its own (an emitter moved or re-aimed: nothing compiled again).
    /// The caller checks `desc`'s fields.
    pub(crate) fn redescribed(&self, desc: EffectDesc) -> Self {
        CompiledEffect(Arc::new(Compiled {
            desc,
            graph: Arc::clone(&self.0.graph),
            variants: self.0.variants.clone(),
        }))
    }
}
