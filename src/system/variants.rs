//! The pipeline variants an effect records with, decided from its description alone, before
//! any buffer is made: what [`super::ParticleSystem::new`] builds its passes from, and what
//! a renderer's warm ([`crate::ParticleRenderer::warm`]) compiles for an effect it has not
//! added yet. One decision for both, so that a warmed effect finds its variants built.

use crate::effect::graph::{Graph, Stage};
use crate::effect::EffectDesc;
use crate::error::Result;
use crate::passes::cull::CullVariant;
use crate::passes::draw::{DrawKinds, DrawSprites};
use crate::passes::simulate::SimulateVariant;
use crate::passes::splat::SplatVariant;
use crate::types::EffectParams;

/// What an effect's own passes compile in (as added: no instances, nobody listening to its
/// events; the system switches those on later).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EffectVariants {
    pub simulate: SimulateVariant,
    pub cull: CullVariant,
    pub splat: SplatVariant,
    /// What its draw list holds.
    pub kinds: DrawKinds,
    /// Its init stacks' generated block, where they generate one (else the shared emit).
    pub init: Option<String>,
    /// Its update stacks' generated block, likewise (else the shared simulate).
    pub update: Option<String>,
}

impl EffectVariants {
    /// The variants of `desc`, whose stacks compiled to `graph` and whose constants encode
    /// to `params` (with its stacks folded in).
    pub fn of(desc: &EffectDesc, graph: &Graph, params: &EffectParams) -> Self {
        let block = |stage| graph.generates(stage).then(|| graph.wgsl(stage));
        EffectVariants {
            simulate: SimulateVariant::of(params),
            cull: CullVariant::of(params),
            splat: SplatVariant::of(params),
            kinds: DrawKinds::of(desc),
            init: block(Stage::Init),
            update: block(Stage::Update),
        }
    }

    /// The variants of `desc` (validated first), for a renderer that has not added it.
    pub fn of_desc(desc: &EffectDesc) -> Result<Self> {
        Ok(super::CompiledEffect::new(desc)?.variants().clone())
    }

    /// Its own draw's sprites.
    pub fn sprites(&self) -> DrawSprites {
        DrawSprites::of(self.splat)
    }
}
