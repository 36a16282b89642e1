//! Compiling ahead ([`crate::ParticleRenderer::warm`]): every pipeline variant the frames of
//! some effects may record, before any of them is added, so that adding them and drawing
//! them compiles nothing (a loading screen instead of a hitch).
//!
//! What a frame records depends on more than each effect: its pool's size (a small one is
//! emitted, simulated, relisted and culled in a batch with others), which effects share a
//! merged list (its cull, draw and splat compile in what any member shows), which blends the
//! splats add up, and what the host does to an effect after adding it (placing it as
//! instances, listening to its events). So the variants warmed are every one some set of
//! the effects given may need: for the merged lists, the batches and the resolve, every
//! union of the effects' own variants.

use super::Pipelines;
use crate::effect::{Blend, EffectDesc};
use crate::error::Result;
use crate::passes::cull::CullVariant;
use crate::passes::draw::{DrawKinds, DrawSprites};
use crate::passes::mesh::MeshVariant;
use crate::passes::simulate::SimulateVariant;
use crate::passes::splat::{Accumulated, SplatVariant};
use crate::renderer::Scale;
use crate::system::variants::EffectVariants;

/// What of an effect decides the pipelines its frames may record: two effects of one kind
/// need the same ones.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EffectKind {
    pub variants: EffectVariants,
    pub blend: Blend,
    pub sorts: bool,
    pub ribbons: bool,
    /// Mesh particles: whether their mesh is closed (None: not known yet, so both).
    pub mesh: Option<Option<bool>>,
    pub self_gravity: bool,
    pub bodies: bool,
    pub neighbours: bool,
    pub flock: bool,
    pub crowd: bool,
    pub shadows: bool,
}

impl EffectKind {
    /// The kind of `desc` (validated first), its mesh particles' mesh closed or not (None:
    /// not known yet).
    pub fn of(desc: &EffectDesc, closed_mesh: Option<bool>) -> Result<Self> {
        let variants = EffectVariants::of_desc(desc)?;
        Ok(Self::of_variants(desc, variants, closed_mesh))
    }

    /// The kind of `desc`, whose variants are `variants`.
    pub fn of_variants(
        desc: &EffectDesc,
        variants: EffectVariants,
        closed_mesh: Option<bool>,
    ) -> Self {
        EffectKind {
            variants,
            blend: desc.blend,
            sorts: desc.sorts(),
            ribbons: desc.ribbon_subdivisions().is_some(),
            mesh: desc.particle_mesh().map(|_| closed_mesh),
            self_gravity: desc.self_gravity.is_some(),
            bodies: desc.bodies.is_some(),
            neighbours: desc.neighbours.is_some(),
            flock: desc.flock.is_some(),
            crowd: desc.crowd.is_some(),
            shadows: desc.shadows().is_some(),
        }
    }

    /// Whether what was built for this kind serves `other` too: the same kind, or one whose
    /// mesh this kind did not know (both closings built).
    pub fn covers(&self, other: &EffectKind) -> bool {
        let mesh = match (self.mesh, other.mesh) {
            (Some(None), Some(_)) => None,
            (mine, theirs) => Some(mine == theirs),
        };
        let rest = EffectKind {
            mesh: other.mesh,
            ..self.clone()
        };
        mesh.unwrap_or(true) && rest == *other
    }
}

/// One effect to warm for: its name (in errors) and its kind.
#[derive(Clone, Debug)]
pub(crate) struct WarmEffect {
    pub name: String,
    pub kind: EffectKind,
}

/// What the renderer's frames are drawn with: the particle target's scale and whether the
/// compute splat is on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct WarmFrame {
    pub scale: Scale,
    pub splat: bool,
    /// The composite upsamples by nearest depth.
    pub nearest: bool,
}

/// One pipeline variant, keyed as the passes key them.
#[derive(Clone, Debug, PartialEq)]
enum Variant {
    Emit,
    /// An effect's emit with its init stacks' block (the effect named in errors).
    GraphEmit(String, String),
    Args,
    Simulate(SimulateVariant),
    GraphSimulate(String, SimulateVariant, String),
    Relist,
    Gravity,
    Bodies,
    Cull(CullVariant),
    Sort,
    RibbonPieces,
    Grid,
    Flock,
    Crowd,
    Navigation,
    Shadow,
    MeshCull,
    MeshLit(MeshVariant),
    MeshDistance(MeshVariant),
    Draw(Blend, DrawKinds, DrawSprites),
    MergedDraw(DrawSprites),
    MergeCull(CullVariant),
    BatchEmit,
    BatchRelist,
    BatchSimulate(SimulateVariant),
    BatchMergeCull(CullVariant),
    Splat(SplatVariant),
    Dots(SplatVariant),
    DotsTouch,
    Bound,
    Resolve(Accumulated),
    Downsample(Scale, bool),
    /// (same size, by nearest depth)
    Composite(bool, bool),
}

/// Every union of one or more of `items` by `join` (associative and commutative): the
/// variant a set of them compiles to, for every set.
fn unions<T: Copy + PartialEq>(items: &[T], join: impl Fn(T, T) -> T) -> Vec<T> {
    let mut all: Vec<T> = vec![];
    for &item in items {
        if !all.contains(&item) {
            all.push(item);
        }
    }
    // (each pass joins every union so far with every item: the variants are a few bits,
    // so this ends within a few passes)
    let mut k = 0;
    while k < all.len() {
        for &item in items {
            let joined = join(all[k], item);
            if !all.contains(&joined) {
                all.push(joined);
            }
        }
        k += 1;
    }
    all
}

/// Both settings of a flag the host or the pool's size decides later.
const EITHER: [bool; 2] = [false, true];

/// Every variant the frames of some of `effects` may record.
fn variants(effects: &[WarmEffect], frame: WarmFrame) -> Vec<Variant> {
    let mut out = vec![Variant::Args, Variant::Relist];
    for e in effects {
        out.extend(own(e, frame.splat));
    }
    for sorted in EITHER {
        let members: Vec<_> = effects
            .iter()
            .filter(|e| e.kind.sorts == sorted && !e.kind.ribbons)
            .collect();
        out.extend(merged(&members, sorted, frame.splat));
    }
    let has_meshes = effects.iter().any(|e| e.kind.mesh.is_some());
    for apart in EITHER.into_iter().filter(|&a| !a || has_meshes) {
        out.push(Variant::Downsample(frame.scale, apart));
    }
    out.push(Variant::Composite(
        frame.scale == Scale::Full,
        frame.nearest,
    ));
    if frame.splat && !effects.is_empty() {
        // the splats' blends, each effect's own or a merged list's, added up
        let blends: Vec<_> = out
            .iter()
            .filter_map(|v| match v {
                Variant::Splat(s) => {
                    let mut accumulated = Accumulated::default();
                    accumulated.add(s.blend);
                    Some(accumulated)
                }
                _ => None,
            })
            .collect();
        let join = |a: Accumulated, b: Accumulated| Accumulated {
            alpha: a.alpha | b.alpha,
            additive: a.additive | b.additive,
        };
        out.push(Variant::Bound);
        out.extend(unions(&blends, join).into_iter().map(Variant::Resolve));
    }
    let mut distinct = vec![];
    for v in out {
        if !distinct.contains(&v) {
            distinct.push(v);
        }
    }
    distinct
}

/// The variants of an effect's own passes, batched with other small pools or not, placed
/// once or as instances, listened to or not.
fn own(e: &WarmEffect, splat: bool) -> Vec<Variant> {
    let (k, v) = (&e.kind, &e.kind.variants);
    let name = || e.name.clone();
    let mut out = vec![match &v.init {
        Some(block) => Variant::GraphEmit(name(), block.clone()),
        None => Variant::Emit,
    }];
    for host_events in EITHER {
        let simulate = SimulateVariant {
            host_events,
            ..v.simulate
        };
        out.push(match &v.update {
            Some(block) => Variant::GraphSimulate(name(), simulate, block.clone()),
            None => Variant::Simulate(simulate),
        });
        if v.update.is_none() && simulate.batches() {
            out.push(Variant::BatchSimulate(simulate));
        }
    }
    out.push(Variant::BatchRelist);
    if v.init.is_none() && !k.bodies {
        out.push(Variant::BatchEmit);
    }
    if k.self_gravity {
        out.push(Variant::Gravity);
    }
    if k.bodies {
        out.push(Variant::Bodies);
    }
    for (instanced, dots) in EITHER.into_iter().flat_map(|i| EITHER.map(|d| (i, d))) {
        out.push(Variant::Cull(CullVariant {
            instanced,
            dots,
            ..v.cull
        }));
    }
    if k.sorts || k.ribbons {
        out.push(Variant::Sort);
    }
    if k.ribbons {
        out.push(Variant::RibbonPieces);
    }
    if k.neighbours {
        out.push(Variant::Grid);
    }
    if k.flock {
        out.push(Variant::Flock);
    }
    if k.crowd {
        out.extend([Variant::Crowd, Variant::Navigation]);
    }
    if k.shadows {
        out.push(Variant::Shadow);
    }
    if let Some(closed) = k.mesh {
        out.push(Variant::MeshCull);
        let closed = closed.map_or(EITHER.to_vec(), |c| vec![c]);
        for (reversed, closed) in EITHER
            .into_iter()
            .flat_map(|r| closed.iter().map(move |&c| (r, c)))
        {
            let variant = MeshVariant { reversed, closed };
            out.extend([Variant::MeshLit(variant), Variant::MeshDistance(variant)]);
        }
    }
    out.push(Variant::Draw(k.blend, v.kinds, v.sprites()));
    if splat {
        out.extend([
            Variant::Splat(v.splat),
            Variant::Dots(v.splat),
            Variant::DotsTouch,
        ]);
    }
    out
}

/// The variants of a merged list (`sorted` or not) of any two or more of `members`: its
/// culls (alone and in batches), its draw and its splats, for every set of them.
fn merged(members: &[&WarmEffect], sorted: bool, splat: bool) -> Vec<Variant> {
    if members.is_empty() {
        return vec![];
    }
    let mut out = vec![];
    if sorted {
        out.push(Variant::Sort);
    }
    // (a member's cull into a merged list lists no dots apart)
    let culls: Vec<_> = members
        .iter()
        .map(|e| CullVariant {
            dots: false,
            ..e.kind.variants.cull
        })
        .collect();
    for instanced in EITHER {
        let cull = culls.iter().map(|&c| CullVariant { instanced, ..c });
        out.extend(cull.map(Variant::MergeCull));
    }
    // (a member placed as instances is culled alone, never in a batch)
    let join = |a, b| CullVariant::merged([a, b].into_iter());
    out.extend(
        unions(&culls, join)
            .into_iter()
            .map(Variant::BatchMergeCull),
    );
    let splats: Vec<_> = members.iter().map(|e| e.kind.variants.splat).collect();
    let join = |a, b| SplatVariant::merged([a, b].into_iter());
    // (a list of one kind of member is still a merged list: two copies of one effect)
    let singles = splats
        .iter()
        .map(|&s| SplatVariant::merged(std::iter::once(s)));
    let lists = unions(&singles.collect::<Vec<_>>(), join);
    for list in lists {
        out.push(Variant::MergedDraw(DrawSprites::of(list)));
        if splat {
            out.push(Variant::Splat(
                list.for_list(crate::passes::merge::SplatList::Plain),
            ));
            if list.is_rich() {
                out.push(Variant::Splat(
                    list.for_list(crate::passes::merge::SplatList::Rich),
                ));
            }
        }
    }
    out
}

impl Pipelines {
    /// Build every pipeline the frames of some of `effects` may record in a renderer drawing
    /// `frame`'s way (each at most once: what exists is kept).
    pub fn warm(&self, effects: &[WarmEffect], frame: WarmFrame) -> Result<()> {
        for v in variants(effects, frame) {
            self.build(&v)?;
        }
        Ok(())
    }

    fn build(&self, v: &Variant) -> Result<()> {
        match v {
            Variant::Emit => {
                self.emit();
            }
            Variant::GraphEmit(effect, block) => {
                self.graph_emit(effect, block)?;
            }
            Variant::Args => {
                self.args();
            }
            Variant::Simulate(s) => {
                self.simulate(*s);
            }
            Variant::GraphSimulate(effect, s, block) => {
                self.graph_simulate(effect, *s, block)?;
            }
            Variant::Relist => {
                self.relist();
            }
            Variant::Gravity => {
                self.gravity();
            }
            Variant::Bodies => {
                self.bodies();
            }
            Variant::Cull(c) => {
                self.cull(*c);
            }
            Variant::Sort => {
                self.sort();
            }
            Variant::RibbonPieces => {
                self.ribbon_pieces();
            }
            Variant::Grid => {
                self.grid();
            }
            Variant::Flock => {
                self.flock();
            }
            Variant::Crowd => {
                self.crowd();
            }
            Variant::Navigation => {
                self.sdf();
                self.flow();
            }
            Variant::Shadow => {
                self.shadow();
            }
            Variant::MeshCull => {
                self.mesh_cull();
            }
            Variant::MeshLit(m) => {
                self.mesh_lit(*m);
            }
            Variant::MeshDistance(m) => {
                self.mesh_distance(*m);
            }
            Variant::Draw(blend, kinds, sprites) => {
                self.draw(*blend, *kinds, *sprites);
            }
            Variant::MergedDraw(sprites) => {
                self.merged_draw(*sprites);
            }
            Variant::MergeCull(c) => {
                self.merge().cull(*c);
            }
            Variant::BatchEmit => {
                self.batch_emit();
            }
            Variant::BatchRelist => {
                self.batch_relist();
            }
            Variant::BatchSimulate(s) => {
                self.batch_simulate(*s);
            }
            Variant::BatchMergeCull(c) => {
                self.batch_merge().cull(*c);
            }
            Variant::Splat(s) => {
                self.splat().splat(*s);
            }
            Variant::Dots(s) => {
                self.splat().dots(*s);
            }
            Variant::DotsTouch => {
                self.splat().dots_touch();
            }
            Variant::Bound => {
                self.splat().bound();
            }
            Variant::Resolve(a) => {
                self.splat().resolve(*a);
            }
            Variant::Downsample(scale, apart) => {
                self.downsample().pipeline(*scale, *apart);
            }
            Variant::Composite(same_size, nearest) => {
                self.composite().pipeline(*same_size, *nearest);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::splat::SplatBlend;

    #[test]
    fn unions_are_every_set_joined() {
        let bits = [0b001u8, 0b010, 0b100, 0b010];
        let mut all = unions(&bits, |a, b| a | b);
        all.sort();
        assert_eq!(all, (1..8).collect::<Vec<u8>>());
        assert_eq!(unions(&[] as &[u8], |a, b| a | b), Vec::<u8>::new());
    }

    #[test]
    fn a_kind_built_without_its_mesh_known_covers_both_closings_and_nothing_else() {
        let plain = EffectDesc {
            emitters: vec![Default::default()],
            ..Default::default()
        };
        let mut cubes = plain.clone();
        cubes.render = crate::effect::RenderMode::Mesh {
            mesh: crate::effect::MeshSource::Cube,
            flight: None,
        };
        let unknown = EffectKind::of(&cubes, None).unwrap();
        let closed = EffectKind::of(&cubes, Some(true)).unwrap();
        let open = EffectKind::of(&cubes, Some(false)).unwrap();
        assert!(unknown.covers(&closed) && unknown.covers(&open));
        assert!(!closed.covers(&open) && !closed.covers(&unknown));
        let mut additive = cubes.clone();
        additive.blend = Blend::Additive;
        assert!(!unknown.covers(&EffectKind::of(&additive, Some(true)).unwrap()));
        let plain = EffectKind::of(&plain, None).unwrap();
        assert!(!unknown.covers(&plain) && !plain.covers(&closed));
        assert!(plain.covers(&plain));
    }

    #[test]
    fn merged_splats_of_both_blends_blend_each() {
        let alpha = SplatVariant::default();
        let additive = SplatVariant {
            blend: SplatBlend::Additive,
            ..alpha
        };
        let join = |a, b| SplatVariant::merged([a, b].into_iter());
        let singles: Vec<_> = [alpha, additive]
            .into_iter()
            .map(|s| SplatVariant::merged(std::iter::once(s)))
            .collect();
        let blends: Vec<_> = unions(&singles, join).iter().map(|s| s.blend).collect();
        assert_eq!(
            blends,
            [SplatBlend::Alpha, SplatBlend::Additive, SplatBlend::Each]
        );
    }
}
