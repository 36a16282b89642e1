//! Splat pass (`shaders/splat.wgsl`): particles a few pixels across drawn by compute into
//! per-pixel accumulators, then resolved into the particle target where they touched it
//! (the renderer clears the target before them; the draw pass then loads it).

use super::merge::{MergedList, SplatList};
use super::Binding;
use super::{bind, buffer_entries, buffer_resources, compute_pipeline, dispatch_from_args};
use super::{layout, members, BufferSlot};
use super::{read_only, read_write, storage_texture, texture, uniform};
use crate::compiler::Compiler;
use crate::error::Result;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::*;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// splat.wgsl's group 0 buffers, in binding order (the members' table follows them): the
/// last an effect's draw counters, read as words (the dots' count).
pub(super) fn slots() -> [BufferSlot; 6] {
    [
        read_only::<Particle>(),
        read_only::<u32>(),
        read_write::<Counters>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        read_only::<u32>(),
    ]
}

/// The members' table's binding in group 0.
const MEMBERS_BINDING: u32 = 6;

/// Where the dots' splat's dispatch is in a pool's draw counters (`DrawCounters.dots_x`).
pub(crate) const DOTS_DISPATCH_OFFSET: u64 = 52;

/// A particle target's accumulators and the bind groups over them.
pub(crate) struct SplatTarget {
    _accum: wgpu::Buffer,
    /// The texels the frame's splats touched (splat.wgsl `Touched`).
    _touched: wgpu::Buffer,
    /// The resolve's dispatch over them, written by `bound`.
    resolve_args: wgpu::Buffer,
    /// The rectangle the resolve takes, written by `bound`.
    rect: wgpu::Buffer,
    splat: wgpu::BindGroup,
    /// `bound`'s: the touched texels and the resolve's dispatch.
    bound: wgpu::BindGroup,
    resolve: wgpu::BindGroup,
}

impl SplatTarget {
    /// Texels the last frame's resolve wrote (the rectangle the splats touched). Blocks: for
    /// profilers.
    pub fn resolved_texels(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<u64> {
        let bytes = crate::readback::read_buffer(device, queue, &self.rect, 0, 16)?;
        let [x, y, end_x, end_y]: [u32; 4] = bytemuck::pod_read_unaligned(&bytes);
        Ok(end_x.saturating_sub(x) as u64 * end_y.saturating_sub(y) as u64)
    }
}

/// splat.wgsl `Touched` with nothing touched: the bounds empty.
pub(crate) const NOTHING_TOUCHED: [u32; 4] = [u32::MAX, u32::MAX, 0, 0];

/// What one effect's splat compiles in: its blend, and the snowflake sprites and images only
/// where an emitter shows them (CPU drivers run every branch under a mask, per covered pixel); or
/// what a merged list's splat of its members' particles does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct SplatVariant {
    /// How its particles blend.
    pub blend: SplatBlend,
    /// Some emitter shows the snowflake sprites.
    pub snowflakes: bool,
    /// Some emitter shows the ring sprite.
    pub rings: bool,
    /// A merged list's splat list, each particle with its member's constants.
    pub merged: bool,
    /// Lit billboards (a merged list's: some member's; each particle by its own effect's).
    pub lit: bool,
    /// Some emitter shows an image.
    pub images: bool,
}

/// How a splat's particles blend (`ADDITIVE` in splat.wgsl).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum SplatBlend {
    /// Alpha-blended.
    #[default]
    Alpha = 0,
    /// Their light adds up.
    Additive = 1,
    /// Each as its effect asks (a merged list with members of both blends).
    Each = 2,
}

impl SplatBlend {
    const ALL: [SplatBlend; 3] = [SplatBlend::Alpha, SplatBlend::Additive, SplatBlend::Each];
}

/// Which accumulators a frame's splats added to (the union of their blends), so that the
/// resolve reads and clears only those (splat.wgsl `RESOLVED`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Accumulated {
    /// Some splat was alpha-blended (accumulators 0 to 4).
    pub alpha: bool,
    /// Some splat added light (accumulators 5 to 7).
    pub additive: bool,
}

impl Accumulated {
    /// How many there are ([`Accumulated::index`] is below it).
    pub const COUNT: usize = 4;

    /// With the accumulators a splat of `blend` adds to.
    pub fn add(&mut self, blend: SplatBlend) {
        self.alpha |= blend != SplatBlend::Additive;
        self.additive |= blend != SplatBlend::Alpha;
    }

    /// Accumulators a texel the resolve reads: 5 alpha-blended, 3 additive.
    pub fn channels(self) -> u64 {
        5 * self.alpha as u64 + 3 * self.additive as u64
    }

    /// A dense index below [`Accumulated::COUNT`]: splat.wgsl's `RESOLVED`.
    pub fn index(self) -> usize {
        self.alpha as usize | (self.additive as usize) << 1
    }

    /// Every one (tests validate each resolve).
    #[cfg(test)]
    pub fn all() -> impl Iterator<Item = Accumulated> {
        (0..Self::COUNT).map(|i| Accumulated {
            alpha: i & 1 == 1,
            additive: i & 2 == 2,
        })
    }

    /// splat.wgsl's constant for it.
    pub fn consts(self) -> [(&'static str, u32); 1] {
        [("RESOLVED", self.index() as u32)]
    }
}

impl SplatVariant {
    /// How many variants there are ([`SplatVariant::index`] is below it).
    pub const COUNT: usize = 96;

    /// The variant for an effect's encoded constants.
    pub fn of(params: &EffectParams) -> Self {
        SplatVariant {
            blend: match params.additive {
                1 => SplatBlend::Additive,
                _ => SplatBlend::Alpha,
            },
            snowflakes: params.looks.iter().any(|l| l.sprite == SPRITE_SNOWFLAKE),
            rings: params.looks.iter().any(|l| l.sprite == SPRITE_RING),
            merged: false,
            // (a mesh particle far enough away is splatted as a lit disc)
            lit: params.light_wrap != UNLIT
                || params.looks.iter().any(|l| l.render_mode == RENDER_MESH),
            images: params.looks.iter().any(|l| l.sprite == SPRITE_IMAGE),
        }
    }

    /// The splat of a merged list of members of `variants`: their blend where they share
    /// one (else each particle's own), the sprites any of them shows.
    pub fn merged(variants: impl Iterator<Item = SplatVariant>) -> Self {
        let mut merged = SplatVariant {
            merged: true,
            ..Default::default()
        };
        let mut blend = None;
        for v in variants {
            blend = match blend {
                None => Some(v.blend),
                Some(b) if b == v.blend => Some(b),
                Some(_) => Some(SplatBlend::Each),
            };
            merged.snowflakes |= v.snowflakes;
            merged.rings |= v.rings;
            merged.lit |= v.lit;
            merged.images |= v.images;
        }
        merged.blend = blend.unwrap_or_default();
        merged
    }

    /// What the splat of a merged list's `list` compiles in: the plain list's particles
    /// sample no texture and are lit by nothing (merge_list.wgsl `splats_rich`).
    pub fn for_list(self, list: SplatList) -> Self {
        match list {
            SplatList::Rich => self,
            SplatList::Plain => SplatVariant {
                snowflakes: false,
                lit: false,
                images: false,
                ..self
            },
        }
    }

    /// Whether it samples a texture or lights its particles: what only a merged list's
    /// rich splat list needs.
    pub fn is_rich(self) -> bool {
        self.snowflakes || self.lit || self.images
    }

    /// A dense index below [`SplatVariant::COUNT`].
    pub fn index(self) -> usize {
        let bits = [
            self.snowflakes,
            self.merged,
            self.lit,
            self.images,
            self.rings,
        ];
        super::variant_bits(&bits) * SplatBlend::ALL.len() + self.blend as usize
    }

    /// Every variant (tests validate each).
    #[cfg(test)]
    pub fn all() -> impl Iterator<Item = SplatVariant> {
        (0..Self::COUNT).map(|i| {
            let bits = i / SplatBlend::ALL.len();
            SplatVariant {
                blend: SplatBlend::ALL[i % SplatBlend::ALL.len()],
                snowflakes: bits & 1 == 1,
                merged: bits & 2 == 2,
                lit: bits & 4 == 4,
                images: bits & 8 == 8,
                rings: bits & 16 == 16,
            }
        })
    }

    /// splat.wgsl's constants for it.
    pub fn consts(self) -> [(&'static str, u32); 6] {
        [
            ("ADDITIVE", self.blend as u32),
            ("FLAKES", self.snowflakes as u32),
            ("RINGS", self.rings as u32),
            ("MERGED", self.merged as u32),
            ("LIT", self.lit as u32),
            ("IMAGES", self.images as u32),
        ]
    }
}

pub(crate) struct SplatPass {
    device: Compiler,
    layout: wgpu::BindGroupLayout,
    target_layout: wgpu::BindGroupLayout,
    resolve_layout: wgpu::BindGroupLayout,
    bound_layout: wgpu::BindGroupLayout,
    /// `bound`, built the first time a frame needs it.
    bound: std::sync::OnceLock<wgpu::ComputePipeline>,
    /// `dots_touch`, likewise.
    dots_touch: std::sync::OnceLock<wgpu::ComputePipeline>,
    /// The members' table an effect's own splat binds (its variant never reads it).
    no_members: wgpu::TextureView,
    /// Nearest and clamped: a dot's gather of the scene's distances at its four pixels.
    depth_sampler: wgpu::Sampler,
    /// By [`SplatVariant::index`], each built the first time an effect needs it.
    splat: Vec<std::sync::OnceLock<wgpu::ComputePipeline>>,
    /// The dots' splat (an effect's own: `dots`), by [`SplatVariant::index`] likewise.
    dots: Vec<std::sync::OnceLock<wgpu::ComputePipeline>>,
    /// By [`Accumulated::index`], each built the first time a frame needs it.
    resolve: [std::sync::OnceLock<wgpu::ComputePipeline>; Accumulated::COUNT],
}

impl SplatPass {
    pub fn new(device: &Compiler) -> Self {
        let mut entries = buffer_entries(C, &slots());
        entries.push(members::entry(MEMBERS_BINDING, C));
        let system_layout = layout(device, "splat", &entries);
        let depth = wgpu::TextureSampleType::Float { filterable: false };
        let [sprites, sampler] = crate::sprites::layout_entries(3, C);
        let [images, _] = crate::sprites::layout_entries(5, C);
        let accum = read_write::<u32>().entry(1, C);
        let touched = read_write::<[u32; 4]>().entry(6, C);
        let target_entries = [
            texture(0, depth, C),
            accum,
            sprites,
            sampler,
            images,
            touched,
            wgpu::BindGroupLayoutEntry {
                binding: 10,
                visibility: C,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering),
                count: None,
            },
        ];
        let target_layout = layout(device, "splat_target", &target_entries);
        let color = storage_texture(2, super::draw::PARTICLE_FORMAT, C);
        let rect = uniform::<[u32; 4]>().entry(8, C);
        let resolve_layout = layout(device, "splat_resolve", &[accum, color, rect]);
        let resolve_args = read_write::<[u32; 3]>().entry(7, C);
        let rect_written = read_write::<[u32; 4]>().entry(9, C);
        let bound_layout = layout(
            device,
            "splat_bound",
            &[touched, resolve_args, rect_written],
        );
        let pipelines = || {
            (0..SplatVariant::COUNT)
                .map(|_| std::sync::OnceLock::new())
                .collect()
        };
        SplatPass {
            device: device.clone(),
            layout: system_layout,
            target_layout,
            resolve_layout,
            bound_layout,
            bound: Default::default(),
            dots_touch: Default::default(),
            no_members: members::no_members(device),
            depth_sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("flurry.splat_depth_sampler"),
                ..Default::default()
            }),
            splat: pipelines(),
            dots: pipelines(),
            resolve: Default::default(),
        }
    }

    /// Bytes of accumulators for a particle target of `size` texels.
    pub fn accum_bytes((w, h): (u32, u32)) -> u64 {
        w as u64 * h as u64 * ACCUM_CHANNELS as u64 * 4
    }

    /// The target's accumulators ([`SplatPass::accum_bytes`], zeroed) with the bind groups
    /// of the splat (scene depth, accumulators, the snowflakes and the images' frames) and
    /// the resolve (accumulators, the storage-writable particle colour target).
    pub fn target(
        &self,
        device: &wgpu::Device,
        size: (u32, u32),
        (depth, color): (&wgpu::TextureView, &wgpu::TextureView),
        (sprites, images): (&crate::sprites::Sprites, &wgpu::TextureView),
    ) -> SplatTarget {
        let accum = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.splat_accum"),
            size: Self::accum_bytes(size),
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let touched = wgpu::util::DeviceExt::create_buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("flurry.splat_touched"),
                contents: bytemuck::cast_slice(&NOTHING_TOUCHED),
                usage: wgpu::BufferUsages::STORAGE,
            },
        );
        let resolve_args = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.splat_resolve_args"),
            size: 12,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT,
            mapped_at_creation: false,
        });
        let rect = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.splat_resolve_rect"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::UNIFORM
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let splat = [
            (0, wgpu::BindingResource::TextureView(depth)),
            (1, accum.as_entire_binding()),
            (3, wgpu::BindingResource::TextureView(&sprites.view)),
            (4, wgpu::BindingResource::Sampler(&sprites.sampler)),
            (5, wgpu::BindingResource::TextureView(images)),
            (6, touched.as_entire_binding()),
            (10, wgpu::BindingResource::Sampler(&self.depth_sampler)),
        ];
        let resolve = [
            (1, accum.as_entire_binding()),
            (2, wgpu::BindingResource::TextureView(color)),
            (8, rect.as_entire_binding()),
        ];
        let resolve = bind(device, "splat_resolve", &self.resolve_layout, &resolve);
        let bound = [
            (6, touched.as_entire_binding()),
            (7, resolve_args.as_entire_binding()),
            (9, rect.as_entire_binding()),
        ];
        let splat = bind(device, "splat_target", &self.target_layout, &splat);
        let bound = bind(device, "splat_bound", &self.bound_layout, &bound);
        SplatTarget {
            _accum: accum,
            _touched: touched,
            resolve_args,
            rect,
            splat,
            bound,
            resolve,
        }
    }

    /// Bind group splatting the pool's splat list with its frame and effect constants.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        frame: &dyn Binding,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let (particles, list, counters) = (&pool.particles, &pool.splat, &pool.counters);
        let draw_counters = &pool.draw_counters;
        let buffers: [&dyn Binding; 6] = [particles, list, counters, frame, effect, draw_counters];
        self.bind_group(device, &buffers, &self.no_members)
    }

    /// Bind group splatting one of a merged list's splat lists of copies, `splat`, with
    /// `frame` and the members' table `members` (its uniform binding of one effect's
    /// constants, which its variant never reads, holds a member's, `effect`).
    pub fn bind_merged(
        &self,
        device: &wgpu::Device,
        (list, splat): (&MergedList, SplatList),
        (frame, effect): (&dyn Binding, &wgpu::Buffer),
        members: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        let (entries, counters) = list.splat_list(splat);
        // (its variant reads no draw counters: its list, bound read-only as they are, fills
        // their binding)
        let buffers: [&dyn Binding; 6] =
            [list.copies, &entries, &counters, frame, effect, &entries];
        self.bind_group(device, &buffers, members)
    }

    fn bind_group(
        &self,
        device: &wgpu::Device,
        buffers: &[&dyn Binding; 6],
        members: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        let mut resources = buffer_resources(buffers);
        resources.push((MEMBERS_BINDING, wgpu::BindingResource::TextureView(members)));
        bind(device, "splat", &self.layout, &resources)
    }

    /// `variant`'s pipeline of `entry` ("main" or "dots") from `pipelines`, built the first
    /// time it is asked for.
    fn pipeline<'a>(
        &self,
        (pipelines, entry): (&'a [std::sync::OnceLock<wgpu::ComputePipeline>], &str),
        variant: SplatVariant,
    ) -> &'a wgpu::ComputePipeline {
        pipelines[variant.index()].get_or_init(|| {
            let groups = [Some(&self.layout), Some(&self.target_layout)];
            let consts = variant.consts();
            compute_pipeline(&self.device, Shader::Splat, entry, &groups, &consts)
        })
    }

    /// The splat of a list by `variant` (`main`), built the first time it is asked for.
    pub fn splat(&self, variant: SplatVariant) -> &wgpu::ComputePipeline {
        self.pipeline((&self.splat, "main"), variant)
    }

    /// The splat of an effect's dots by `variant` (`dots`), likewise.
    pub fn dots(&self, variant: SplatVariant) -> &wgpu::ComputePipeline {
        self.pipeline((&self.dots, "dots"), variant)
    }

    /// The whole target marked touched after an effect's dots (`dots_touch`), likewise.
    pub fn dots_touch(&self) -> &wgpu::ComputePipeline {
        self.dots_touch.get_or_init(|| {
            let groups = [Some(&self.layout), Some(&self.target_layout)];
            compute_pipeline(&self.device, Shader::Splat, "dots_touch", &groups, &[])
        })
    }

    /// The resolve's arguments from the texels touched (`bound`), likewise.
    pub fn bound(&self) -> &wgpu::ComputePipeline {
        self.bound.get_or_init(|| {
            let groups = [None, Some(&self.bound_layout)];
            compute_pipeline(&self.device, Shader::Splat, "bound", &groups, &[])
        })
    }

    /// The resolve of the `accumulated` accumulators (`resolve`), likewise.
    pub fn resolve(&self, accumulated: Accumulated) -> &wgpu::ComputePipeline {
        self.resolve[accumulated.index()].get_or_init(|| {
            // (the resolve uses group 1 only)
            let groups = [None, Some(&self.resolve_layout)];
            let consts = accumulated.consts();
            compute_pipeline(&self.device, Shader::Splat, "resolve", &groups, &consts)
        })
    }

    /// Splat one list with its `variant`, dispatched from the [`IndirectArgs`] at
    /// `args` (a buffer and the offset they start at; sized on the GPU: an effect's by its
    /// cull, the merged list's by the merge).
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        (bind, variant): (&wgpu::BindGroup, SplatVariant),
        target: &SplatTarget,
        (args, start): (&wgpu::Buffer, u64),
    ) {
        let groups = [bind, &target.splat];
        let pipeline = self.splat(variant);
        let offset = start + IndirectArgs::SPLAT_OFFSET;
        dispatch_from_args(pass, pipeline, &groups, args, offset);
    }

    /// Splat the dots an effect's cull listed apart (cull_test.wgsl `DOTS`) with its `variant`
    /// (not a merged list's), dispatched from its pool's `draw_counters`; then, where it has
    /// any, mark the whole target touched for the resolve (`dots_touch`, one thread).
    pub fn record_dots(
        &self,
        pass: &mut wgpu::ComputePass,
        (bind, variant): (&wgpu::BindGroup, SplatVariant),
        target: &SplatTarget,
        draw_counters: &wgpu::Buffer,
    ) {
        debug_assert!(!variant.merged, "a merged list lists no dots apart");
        let groups = [bind, &target.splat];
        let pipeline = self.dots(variant);
        dispatch_from_args(pass, pipeline, &groups, draw_counters, DOTS_DISPATCH_OFFSET);
        pass.set_pipeline(self.dots_touch());
        pass.dispatch_workgroups(1, 1, 1);
    }

    /// Write the texels of the particle target the frame's splats touched from the
    /// `accumulated` accumulators (those they added to) and zero them.
    ///
    /// The resolve binds the accumulators through its own bind group: wgpu 30 inserts no
    /// barrier before a dispatch whose bind groups were all bound already, so re-binding
    /// the splat's group let the resolve read the sums before the splats had landed
    /// (seen on lavapipe: nothing drawn).
    pub fn record_resolve(
        &self,
        pass: &mut wgpu::ComputePass,
        target: &SplatTarget,
        accumulated: Accumulated,
    ) {
        pass.set_pipeline(self.bound());
        pass.set_bind_group(1, &target.bound, &[]);
        pass.dispatch_workgroups(1, 1, 1);
        pass.set_pipeline(self.resolve(accumulated));
        pass.set_bind_group(1, &target.resolve, &[]);
        pass.dispatch_workgroups_indirect(&target.resolve_args, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The resolve reads the accumulators of every blend splatted, and no others: a merged
    /// list of both blends adds to both.
    #[test]
    fn the_resolve_reads_what_the_splats_added_to() {
        let after = |blends: &[SplatBlend]| {
            let mut accumulated = Accumulated::default();
            blends.iter().for_each(|&b| accumulated.add(b));
            (accumulated.alpha, accumulated.additive)
        };
        assert_eq!(after(&[]), (false, false));
        assert_eq!(after(&[SplatBlend::Alpha]), (true, false));
        assert_eq!(after(&[SplatBlend::Additive]), (false, true));
        assert_eq!(after(&[SplatBlend::Each]), (true, true));
        assert_eq!(
            after(&[SplatBlend::Additive, SplatBlend::Alpha]),
            (true, true)
        );
        // (no frame with splats of one blend resolves another's; none reads nothing)
        assert_eq!(Accumulated::default().index(), 0);
    }

    /// A merged list's plain splat compiles out what only the rich list's particles show
    /// (snowflakes, images, light), and keeps its blend; the rich one is the list's whole.
    #[test]
    fn the_plain_splat_list_samples_nothing_and_lights_nothing() {
        let rich = SplatVariant {
            blend: SplatBlend::Each,
            snowflakes: true,
            rings: true,
            merged: true,
            lit: true,
            images: true,
        };
        let plain = rich.for_list(SplatList::Plain);
        assert!(!plain.is_rich());
        // (rings are plain: a coverage of their own, no texture)
        assert_eq!(
            (plain.blend, plain.merged, plain.rings),
            (SplatBlend::Each, true, true)
        );
        assert_eq!(rich.for_list(SplatList::Rich), rich);
        for one in [
            SplatVariant {
                snowflakes: true,
                ..Default::default()
            },
            SplatVariant {
                lit: true,
                ..Default::default()
            },
            SplatVariant {
                images: true,
                ..Default::default()
            },
        ] {
            assert!(one.is_rich(), "{one:?}");
        }
        assert!(!SplatVariant::default().is_rich());
    }
}
