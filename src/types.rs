//! Rust mirrors of the structs and constants in `shaders/common.wgsl`.
//!
//! Storage-buffer structs that the CPU reads back are `bytemuck::Pod` with explicit padding
//! (the public ones are what [`crate::PoolSnapshot`] holds); uniform structs are written with
//! `encase`. A unit test checks every size and field offset against naga's layouter run on
//! the WGSL source, and every GPU enum code against the WGSL constant of the same name.

use bytemuck::{Pod, Zeroable};
use encase::ShaderType;
use glam::{Mat4, Vec3, Vec4};

/// Bytes per particle in the pool.
pub(crate) const PARTICLE_SIZE: u64 = std::mem::size_of::<Particle>() as u64;
/// Threads per workgroup of the per-particle passes (`WORKGROUP` in WGSL).
pub(crate) const WORKGROUP: u32 = 64;

/// Most workgroups in one dimension of a dispatch (`MAX_GROUPS_X` in WGSL): the limit
/// WebGPU guarantees. A dispatch past it is dropped whole, so larger ones go two-dimensional.
pub(crate) const MAX_GROUPS_X: u32 = 65535;

/// Workgroups per row of a two-dimensional dispatch (`GROUPS_PER_ROW` in WGSL): a power of
/// two, so power-of-two counts are covered exactly.
pub(crate) const GROUPS_PER_ROW: u32 = 32768;

/// The dispatch of [`WORKGROUP`]-wide workgroups covering `threads` threads, within
/// [`MAX_GROUPS_X`] per dimension (`dispatch_size` in common.wgsl; shaders find their index
/// with `linear_index`).
pub(crate) fn dispatch_size(threads: u32) -> [u32; 3] {
    let groups = threads.div_ceil(WORKGROUP);
    if groups <= MAX_GROUPS_X {
        [groups, 1, 1]
    } else {
        [GROUPS_PER_ROW, groups.div_ceil(GROUPS_PER_ROW), 1]
    }
}
/// Emitters per effect (`MAX_EMITTERS` in WGSL).
pub(crate) const MAX_EMITTERS: usize = 8;

/// Most network steps fused into one sort dispatch (`STEPS` of sort.wgsl's pipelines).
pub(crate) const MAX_SORT_STEPS: u32 = 7;
/// Pairs each sort thread keeps in registers (`MAX_GROUP` in sort.wgsl).
pub(crate) const MAX_GROUP: u32 = 1 << MAX_SORT_STEPS;
/// Threads per sort workgroup (`SORT_THREADS`).
pub(crate) const SORT_THREADS: u32 = 64;
/// Shortest sorted length (`MIN_LEN`): one workgroup of full groups.
pub(crate) const MIN_LEN: u32 = MAX_GROUP * SORT_THREADS;
/// u32 accumulators per particle-target texel of the compute splat (`ACCUM_CHANNELS`).
pub(crate) const ACCUM_CHANNELS: u32 = 8;

/// Pairs a sorted list must hold for `capacity` entries: a power of two, at least
/// [`MIN_LEN`].
pub(crate) fn sort_len(capacity: u32) -> u32 {
    // at most 2^31: the largest power of two of a u32 (callers check their limits first)
    capacity.clamp(1, 1 << 31).next_power_of_two().max(MIN_LEN)
}

/// The GPU's enum codes, each named once here and as a WGSL constant of the same name
/// (checked by `gpu_codes_match_wgsl`).
macro_rules! gpu_codes {
    ($($name:ident = $value:expr,)*) => {
        $(pub(crate) const $name: u32 = $value;)*
        /// Every code with its name, for the test against the WGSL constants.
        #[cfg(test)]
        const GPU_CODES: &[(&str, u32)] = &[$((stringify!($name), $name)),*];
    };
}

gpu_codes! {
    SHAPE_POINT = 0,
    SHAPE_BOX = 1,
    SHAPE_SPHERE = 2,
    SHAPE_SPHERE_SURFACE = 3,
    SHAPE_DISK = 4,
    SHAPE_EXP_DISK = 5,
    SHAPE_MESH = 6,
    VELOCITY_LINEAR = 0,
    VELOCITY_RADIAL = 1,
    VELOCITY_ORBIT = 2,
    VELOCITY_NORMAL = 3,
    RENDER_BILLBOARD = 0,
    RENDER_UPRIGHT = 1,
    RENDER_STRETCHED = 2,
    RENDER_TUMBLING = 3,
    RENDER_FLAT = 4,
    RENDER_RIBBON = 5,
    RENDER_MESH = 6,
    SPRITE_DISC = 0,
    SPRITE_SNOWFLAKE = 1,
    SPRITE_RING = 2,
    SPRITE_IMAGE = 3,
    FLIPBOOK_RANDOM_START = 1,
    FLIPBOOK_BLEND = 2,
    FLIPBOOK_NORMALS_SHIFT = 2,
    COLLIDE_NONE = 0,
    COLLIDE_BOUNCE = 1,
    COLLIDE_KILL = 2,
    COLLIDE_SETTLE = 3,
    BOUNDS_NONE = 0,
    BOUNDS_KILL = 1,
    BOUNDS_WRAP = 2,
    INTEGRATOR_EXPLICIT = 0,
    INTEGRATOR_SYMPLECTIC = 1,
    NO_EMITTER = u32::MAX,
}

/// [`EffectParams::light_wrap`] of an unlit effect (`UNLIT` in common.wgsl).
pub(crate) const UNLIT: f32 = -1.0;

/// One particle as stored on the GPU (64 bytes), as [`crate::PoolSnapshot`] reads it back.
/// What a simulation step reads and writes lies in its first 32 bytes (a GPU's memory
/// sector): the rotation is kept as at age 0 ([`Particle::rotation_now`]), and a dead
/// particle's slot is marked by its lifetime, negated ([`Particle::is_live`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Particle {
    /// World position, metres.
    pub pos: Vec3,
    /// Seconds since emission.
    pub age: f32,
    /// Metres per second.
    pub vel: Vec3,
    /// Seconds; the particle dies when `age >= lifetime`. Negated when it dies: a slot
    /// holds a live particle while its lifetime is above zero.
    pub lifetime: f32,
    /// Start colour, rgba8 unorm packed as WGSL's `pack4x8unorm`.
    pub color: u32,
    /// Start diameter, metres.
    pub size: f32,
    /// Radians about the view axis at age 0: it turns by `spin` as it ages.
    pub rotation: f32,
    /// Radians per second.
    pub spin: f32,
    /// Emission ordinal: a stable key that does not depend on the pool slot.
    pub id: u32,
    /// Emitter that spawned it.
    pub emitter: u32,
    /// [`Particle::SETTLED`] when at rest on the scene; from bit 8 up the index of the
    /// [`crate::Instance`] that spawned it (all ones: none did).
    pub flags: u32,
    /// Age when it settled.
    pub settled_at: f32,
}

impl Particle {
    /// Flag: at rest on the scene after a settling collision (`FLAG_SETTLED`).
    pub const SETTLED: u32 = 1;

    /// Whether its slot holds a live particle (in the alive list): its lifetime is above
    /// zero (`is_live` in common.wgsl).
    pub fn is_live(&self) -> bool {
        self.lifetime > 0.0
    }

    /// Its rotation now, radians: turned from its rotation at age 0 by its spin
    /// (`rotation_now` in common.wgsl).
    pub fn rotation_now(&self) -> f32 {
        self.rotation + self.spin * self.age
    }

    /// Whether the numbers a step and an update stack write (position, velocity, age, size
    /// and rotation) are all finite. A particle whose are not dies at that step and is
    /// counted ([`crate::Stats::non_finite_total`]).
    pub fn numbers_finite(&self) -> bool {
        self.pos.is_finite()
            && self.vel.is_finite()
            && [self.age, self.size, self.rotation]
                .iter()
                .all(|x| x.is_finite())
    }

    /// The index of the [`crate::Instance`] of its effect that spawned it, if one did.
    pub fn instance(&self) -> Option<u32> {
        let i = self.flags >> crate::instances::FLAG_INSTANCE_SHIFT;
        (i != crate::instances::MAX_INSTANCES).then_some(i)
    }
}

/// The pool's atomic counters (128 bytes), as [`crate::PoolSnapshot`] reads them back.
/// Killed particles are `emitted - alive`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Counters {
    /// Entries in the dead list.
    pub dead: i32,
    /// Entries in the current alive list.
    pub alive: u32,
    /// Scratch count of the next alive list (zero between frames).
    pub next_alive: u32,
    /// Particles emitted since creation: the low 32 bits ([`Counters::emitted_total`]).
    pub emitted: u32,
    /// Spawn requests that found the dead list empty: the low 32 bits.
    pub dropped: u32,
    /// Entries of the visible list written by cull this frame.
    pub visible: u32,
    /// Depth-collision hits since creation: the low 32 bits.
    pub hits: u32,
    /// Hit events written this frame (more than the event buffer holds are counted only).
    pub events: u32,
    /// Particles spawned by hit events since creation: the low 32 bits.
    pub hit_spawned: u32,
    /// Entries of the splat list written by cull this frame (drawn by compute).
    pub splatted: u32,
    /// The high 32 bits of `emitted`.
    pub emitted_hi: u32,
    /// The high 32 bits of `dropped`.
    pub dropped_hi: u32,
    /// The high 32 bits of `hits`.
    pub hits_hi: u32,
    /// The high 32 bits of `hit_spawned`.
    pub hit_spawned_hi: u32,
    /// Scheduled spawns the emit pass was asked for since creation: the low 32 bits.
    pub requested: u32,
    /// The high 32 bits of `requested`.
    pub requested_hi: u32,
    /// Particles killed since creation because a step left a number of theirs not finite
    /// (inf or NaN): the low 32 bits ([`Counters::non_finite_total`]).
    pub non_finite: u32,
    /// The high 32 bits of `non_finite`.
    pub non_finite_hi: u32,
    /// Unused: the struct is 128 bytes, which divides the 256 bytes a storage binding's
    /// offset may need to be aligned to (pools' counters lie in arrays).
    pub reserved: [u32; 14],
}

impl Counters {
    /// Particles emitted since creation.
    pub fn emitted_total(&self) -> u64 {
        wide(self.emitted_hi, self.emitted)
    }

    /// Spawn requests the GPU dropped since creation.
    pub fn dropped_total(&self) -> u64 {
        wide(self.dropped_hi, self.dropped)
    }

    /// Depth-collision hits since creation.
    pub fn hits_total(&self) -> u64 {
        wide(self.hits_hi, self.hits)
    }

    /// Particles hit events asked for since creation.
    pub fn hit_spawned_total(&self) -> u64 {
        wide(self.hit_spawned_hi, self.hit_spawned)
    }

    /// Scheduled spawns the emit pass was asked for since creation (what the CPU's clock
    /// asked for, but what it refused beyond the pool's capacity and what frames the host
    /// never submitted carried).
    pub fn requested_total(&self) -> u64 {
        wide(self.requested_hi, self.requested)
    }

    /// Particles killed since creation because a step left a number of theirs (position,
    /// velocity, age, size or rotation) not finite.
    pub fn non_finite_total(&self) -> u64 {
        wide(self.non_finite_hi, self.non_finite)
    }
}

fn wide(hi: u32, lo: u32) -> u64 {
    (hi as u64) << 32 | lo as u64
}

/// A depth-collision hit (`HitEvent` in common.wgsl; 32 bytes): the hook for passes that
/// react to hits.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct HitEvent {
    /// Where it hit, on the surface.
    pub pos: Vec3,
    /// Id of the particle that hit.
    pub particle: u32,
    /// The surface's normal there.
    pub normal: Vec3,
    /// Speed into the surface at the hit.
    pub speed: f32,
}

/// An event for the host (`HostEvent` in common.wgsl; 48 bytes): a particle's hit or death
/// ([`crate::ParticleEvent`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct HostEvent {
    pub pos: Vec3,
    /// `crate::events::EVENT_HIT` or `EVENT_DEATH`.
    pub kind: u32,
    pub vel: Vec3,
    pub emitter: u32,
    pub normal: Vec3,
    pub time: f32,
}

/// The head of an effect's host-event buffer (`EventHeader` in common.wgsl; 16 bytes),
/// its events following.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub(crate) struct EventHeader {
    /// Events recorded since the buffer was last read back (may exceed its room).
    pub count: u32,
    /// Events recorded since the effect began listening: the low 32 bits.
    pub total: u32,
    /// The high 32 bits of `total`.
    pub total_hi: u32,
    pub _pad: u32,
}

impl EventHeader {
    /// Events recorded since the effect began listening.
    pub fn total(&self) -> u64 {
        wide(self.total_hi, self.total)
    }
}

/// Indirect arguments written on the GPU (128 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub(crate) struct IndirectArgs {
    /// `dispatch_workgroups_indirect` arguments over the alive list (byte offset 0): the
    /// passes before simulate (and the relist of a pool sized per slot).
    pub sim: [u32; 3],
    pub _pad: u32,
    /// `draw_indirect` arguments (byte offset [`IndirectArgs::DRAW_OFFSET`]).
    pub draw: [u32; 4],
    /// `dispatch_workgroups_indirect` arguments of cull (byte offset 32).
    pub cull: [u32; 3],
    pub _pad1: u32,
    /// `dispatch_workgroups_indirect` arguments of the hit spawns (byte offset 48).
    pub spawn: [u32; 3],
    /// Particles the hit spawns ask for this frame.
    pub spawn_request: u32,
    /// `dispatch_workgroups_indirect` arguments of the splat (byte offset 64).
    pub splat: [u32; 3],
    pub _pad2: u32,
    /// Simulate over the alive list (byte offset 80), no workgroups for a pool nearly full
    /// (`simulated_by_slot` in common.wgsl), for the variants that may run over the slots.
    pub step_list: [u32; 3],
    pub _pad3: u32,
    /// Simulate over every slot of a pool nearly full (byte offset 96), else no workgroups.
    pub step_slots: [u32; 3],
    pub _pad4: u32,
    /// Relist after simulate (byte offset 112): over the survivors, or no workgroups after
    /// a step over the slots (it listed them in the current list).
    pub relist: [u32; 3],
    pub _pad5: u32,
}

impl IndirectArgs {
    /// Byte offset of the simulate dispatch arguments.
    pub const SIM_OFFSET: u64 = 0;
    /// Byte offset of the draw arguments.
    pub const DRAW_OFFSET: u64 = 16;
    /// Byte offset of the cull dispatch arguments.
    pub const CULL_OFFSET: u64 = 32;
    /// Byte offset of the hit-spawn dispatch arguments.
    pub const SPAWN_OFFSET: u64 = 48;
    /// Byte offset of the splat dispatch arguments.
    pub const SPLAT_OFFSET: u64 = 64;
    /// Byte offset of simulate's dispatch over the alive list.
    pub const STEP_LIST_OFFSET: u64 = 80;
    /// Byte offset of simulate's dispatch over every slot.
    pub const STEP_SLOTS_OFFSET: u64 = 96;
    /// Byte offset of relist's dispatch after simulate.
    pub const RELIST_OFFSET: u64 = 112;
}

/// One step of the bitonic sort (`SortStep` in sort.wgsl; 16 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub(crate) struct SortStep {
    /// Stage: the size of the bitonic sequences being merged.
    pub k: u32,
    /// Largest compare stride of the dispatch.
    pub j: u32,
    /// 0 chunk sort, 1 fused steps.
    pub kind: u32,
    /// Steps fused in the dispatch (`STEPS` of its pipeline).
    pub steps: u32,
}

/// Per-frame camera and clock (`FrameUniforms` in common.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct FrameUniforms {
    pub view_proj: Mat4,
    pub eye: Vec3,
    pub dt: f32,
    pub cam_right: Vec3,
    pub time: f32,
    pub cam_up: Vec3,
    pub frame: u32,
    /// Frustum planes (left, right, bottom, top, depth), inside where `xyz·p + w >= 0`.
    pub planes: [Vec4; 6],
    /// Distance along the view axis: `dot(view_depth, (x, 1))`.
    pub view_depth: Vec4,
    /// Particle-target pixels per metre at clip w = 1.
    pub pixel_scale: f32,
    /// Particles at most this many target pixels in radius are splatted (0: none).
    pub splat_radius: f32,
    /// 0 for an orthographic view.
    pub perspective: u32,
    /// The id the next spawn will get (ribbons order their points by how far before it).
    pub id_end: u32,
    /// Towards the renderer's light (unit), for mesh particles.
    pub light_dir: Vec3,
    /// Simulate steps this frame, each of `dt` (a flock steers once a frame, for them all).
    pub substeps: u32,
    /// The light's linear RGB.
    pub light_color: Vec3,
    /// The events reaching the host this frame: a bit per kind (`crate::events::EVENT_HIT`,
    /// `EVENT_DEATH`); none in a prewarm's steps.
    pub events: u32,
    /// Ambient linear RGB.
    pub ambient: Vec3,
    /// Mesh particles whose mesh spans at most this many target pixels in radius are drawn
    /// as lit discs (0: never).
    pub mesh_lod: f32,
}

/// The host's depth convention (`DepthMapping` in common.wgsl; [`crate::view`]).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct DepthMappingUniform {
    /// a, b, c, d: depth = (a z + b) / (c z + d) of view z.
    pub coeffs: Vec4,
    /// Depth of the far plane: 1, or 0 reversed.
    pub background: f32,
    pub _pad0: u32,
    pub _pad1: u32,
    pub _pad2: u32,
}

impl From<crate::view::DepthMapping> for DepthMappingUniform {
    fn from(m: crate::view::DepthMapping) -> Self {
        DepthMappingUniform {
            coeffs: m.coeffs,
            background: m.background,
            ..Default::default()
        }
    }
}

/// Per-effect constants.
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct EffectParams {
    pub gravity: Vec3,
    pub drag: f32,
    pub wind: Vec3,
    pub integrator: u32,
    pub bounds_min: Vec3,
    pub bounds_mode: u32,
    pub bounds_max: Vec3,
    pub seed: u32,
    /// Lit billboards' wrap (0..=1); [`UNLIT`]: unlit.
    pub light_wrap: f32,
    pub capacity: u32,
    /// Soft-particle fade distance, metres (0: hard edges against the scene).
    pub soft_distance: f32,
    /// 1 for additive blending.
    pub additive: u32,
    /// 0 none, 1 bounce, 2 kill, 3 settle.
    pub collision: u32,
    pub restitution: f32,
    pub friction: f32,
    pub thickness: f32,
    pub settle_time: f32,
    /// Gravitational constant of the massive bodies.
    pub body_g: f32,
    /// Massive bodies (0: none).
    pub body_count: u32,
    /// 1: all-pairs gravity between the particles.
    /// 1: simulate adds the per-particle acceleration a pass before it wrote (all-pairs
    /// gravity, a flock's steering).
    pub pass_accel: u32,
    pub nbody_g: f32,
    pub nbody_mass: f32,
    pub nbody_softening: f32,
    /// Emitter that spawns at every hit.
    pub hit_emitter: u32,
    /// Particles it spawns per hit (0: none).
    pub hit_count: u32,
    /// Deaths of this emitter's particles are events too (`u32::MAX`: none).
    pub death_source: u32,
    /// Curl-noise wind speed, m/s (0: none).
    pub turbulence: f32,
    /// Size of its eddies, metres.
    pub turbulence_scale: f32,
    /// 1: the bounds are relative to the camera's x and z (`FrameUniforms::eye`).
    pub follow_camera: u32,
    /// A second emitter that spawns at every event.
    pub hit_emitter2: u32,
    /// Particles it spawns per event (0: none).
    pub hit_count2: u32,
    /// The emitter that lays trails.
    pub trail_emitter: u32,
    /// Whose particles leave trails (`NO_EMITTER`: none).
    pub trail_source: u32,
    /// Seconds between two points of a trail.
    pub trail_every: f32,
    /// Self-shadowing: the density grid's cells along each axis (0: none; shadow.wgsl).
    pub shadow_cells: u32,
    /// Self-shadowing: multiplies the optical depth.
    pub shadow_strength: f32,
    /// How each emitter's particles look.
    pub looks: [EmitterLook; MAX_EMITTERS],
}

/// How one emitter's particles look and move (`EmitterLook` in common.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct EmitterLook {
    /// Multiplies the start colour at the end of life.
    pub color_end: Vec4,
    /// Multiplies the start size at the end of life.
    pub size_end: f32,
    /// 0 billboard, 1 upright, 2 velocity-stretched, 3 tumbling, 4 flat.
    pub render_mode: u32,
    /// Stretched: seconds of motion the streak covers.
    pub stretch: f32,
    /// 0 soft disc, 1 snowflakes, 2 ring, 3 image.
    pub sprite: u32,
    /// Images: the first layer of its frames in the renderer's image array.
    pub image_layer: u32,
    /// Images: how many frames (1 a still image; 0 no image).
    pub image_frames: u32,
    /// Flipbooks: frames a second of age, looping (0: once over its life).
    pub frame_rate: f32,
    /// Flipbooks: FLIPBOOK_RANDOM_START | FLIPBOOK_BLEND, and from bit
    /// FLIPBOOK_NORMALS_SHIFT up the first layer of its normals + 1 (0: none).
    pub flipbook: u32,
    /// 1: not lit by the effect's lighting.
    pub unlit: u32,
    /// 1: its particles stay where they are born.
    pub anchored: u32,
    /// Ribbons: extra pieces per span.
    pub subdivisions: u32,
    /// Textured ribbons: times the image repeats along the ribbon (0: no image).
    pub ribbon_repeats: f32,
    /// 1: its particles are trail points, their id their ribbon key.
    pub trail: u32,
    /// Mesh particles: the mesh's bounding radius at scale 1, metres.
    pub mesh_radius: f32,
    /// Flying mesh particles: wing beats per second (0: not a flier).
    pub flap_hz: f32,
    /// Flying mesh particles: radians the wings beat either side of rest.
    pub flap_angle: f32,
    /// 1: a flier, turned along its velocity.
    pub flies: u32,
    /// 1: a crowd's walker, turned along its velocity and posed by its gait.
    pub walks: u32,
    /// Multiplies its colour's RGB as drawn (above 1: brighter than white).
    pub emission: f32,
    /// Mesh particles drawn as discs (`crate::Lod::mesh_pixels`): the disc's half width and
    /// half height and its centre's height above the particle, at scale 1 (the mesh's box
    /// upright; zero: a disc of the particle's size).
    pub impostor: Vec3,
}

/// Most massive bodies per effect (`MAX_BODIES`).
pub(crate) const MAX_BODIES: usize = 64;

/// A massive body as it moves on the GPU (`Body` in common.wgsl; 32 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Body {
    /// Position, metres.
    pub pos: Vec3,
    /// Mass.
    pub mass: f32,
    /// Velocity, m/s.
    pub vel: Vec3,
    /// Plummer softening length.
    pub softening: f32,
}

/// The previous frame as depth collision sees it (`CollisionFrame` in simulate.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct CollisionFrame {
    pub prev_view_proj: Mat4,
    pub prev_inv_view_proj: Mat4,
    /// Distance along the previous view's axis: `dot(prev_view_depth, (x, 1))`.
    pub prev_view_depth: Vec4,
    pub prev_depth: DepthMappingUniform,
    /// Where the previous view looked from, as a homogeneous point: its eye (w = 1), or for
    /// an orthographic view the direction towards it (w = 0). The stored surface faces it.
    pub prev_viewer: Vec4,
    /// 0 until a previous frame's depth exists (and never without host depth); `prev_view_proj`
    /// is then zero, which puts every position off screen.
    pub enabled: u32,
    pub _pad0: u32,
    pub _pad1: u32,
    pub _pad2: u32,
}

/// One emitter as the emit pass sees it this frame (laid out as WGSL lays it out: its
/// bytes are what the uniform holds).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, ShaderType, Pod, Zeroable)]
pub(crate) struct EmitterParams {
    pub shape: u32,
    pub spawn_first: u32,
    pub spawn_count: u32,
    pub velocity_mode: u32,
    /// The first `burst_count` spawns are born together at `burst_at` (a fraction of the
    /// frame); the rest at even intervals over it.
    pub burst_count: u32,
    pub burst_at: f32,
    pub _pad0: u32,
    pub _pad1: u32,
    pub p0: Vec4,
    pub p1: Vec4,
    pub vel_mean: Vec4,
    pub vel_var: Vec4,
    pub color_mean: Vec4,
    pub color_var: Vec4,
    pub life_size: Vec4,
    pub rot_spin: Vec4,
    /// The emitter's world transform at the frame's start and end.
    pub start: Mat4,
    pub end: Mat4,
}

/// An effect's parameters as its stacks read them (`GraphParams` in common.wgsl): one
/// 16-byte slot each, holding its value's words ([`crate::expr::Value::to_words`]).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct GraphParams {
    pub slots: [glam::UVec4; crate::effect::MAX_PARAMETERS],
    /// Where the effect is: its transform (world).
    pub transform: Mat4,
    /// The camera's position (world).
    pub eye: Vec3,
    pub _pad1: u32,
    /// The direction the camera looks along (unit).
    pub view_dir: Vec3,
    pub _pad2: u32,
    /// Each emitter's space (world: the effect's transform times the emitter's).
    pub emitters: [Mat4; MAX_EMITTERS],
}

/// This frame's spawn request (laid out as WGSL lays it out: a frame copies only the
/// emitters in use, its bytes up to them).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, ShaderType, Pod, Zeroable)]
pub(crate) struct EmitUniforms {
    pub request: u32,
    pub id_base: u32,
    pub emitter_count: u32,
    /// Seconds of one simulate step.
    pub step: f32,
    /// Seconds of the frame the spawns are born over.
    pub frame: f32,
    /// Instances of the effect (0: not instanced): each spawns `per_instance` of the request.
    pub instances: u32,
    pub per_instance: u32,
    /// Seconds since the effect started, at the frame's start (what init stacks read as
    /// `time`).
    pub time: f32,
    pub emitters: [EmitterParams; MAX_EMITTERS],
}

/// One instance of an effect as the emit and cull passes read it (`InstanceGpu` in
/// common.wgsl; 144 bytes): where the host had it at the frame's start and end, and its
/// bounding sphere (centre, radius in world units; radius 0: never culled as a whole).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct InstanceGpu {
    pub start: glam::Mat4,
    pub end: glam::Mat4,
    pub bounds: Vec4,
}

/// Which member of a merged list an effect is (`MergeParams` in merge.wgsl): its index in
/// the merged draw's table of constants.
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct MergeParams {
    pub member: u32,
    /// Room for copies in the merged list (the members' capacities).
    pub copies: u32,
    pub _pad0: u32,
    pub _pad1: u32,
}

/// A particle as the neighbour grid lists it (`GridEntry` in grid_cells.wgsl, 32 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct GridEntry {
    pub pos: Vec3,
    /// Its slot in the pool.
    pub slot: u32,
    pub vel: Vec3,
    /// Its cell's key (the bucket is its low bits).
    pub key: u32,
}

/// One walker of a crowd as stored on the GPU (32 bytes, `Walker` in crowd.wgsl), per
/// particle slot, as [`crate::PoolSnapshot::walkers`] reads it back.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Walker {
    /// Its state: an index into the crowd's
    /// [`states`](crate::effect::Crowd::states).
    pub state: u32,
    /// Where it is going: an index into the crowd's destinations
    /// ([`Crowd::destinations_on`](crate::effect::Crowd::destinations_on)).
    pub destination: u32,
    /// Seconds left in its state.
    pub timer: f32,
    /// The [`Particle::id`] of the particle this slot's walker is.
    pub owner: u32,
    /// Metres per second drawn for its state (0 in a state that stands).
    pub speed: f32,
    /// The fraction of its gait's cycle (two steps) it is at.
    pub phase: f32,
    /// States it entered since it was placed, its first included.
    pub changes: u32,
    /// 1 once the slot holds a walker.
    pub assigned: u32,
}

/// Most destinations a crowd may have (`CrowdParams.goals`).
pub(crate) const MAX_DESTINATIONS: usize = 16;

/// A crowd's map and steering (`CrowdParams` in crowd.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct CrowdParams {
    pub origin: glam::Vec2,
    pub width: u32,
    pub height: u32,
    pub cell: f32,
    pub destinations: u32,
    pub states: u32,
    pub arrived: u32,
    pub arrive: f32,
    pub separation: f32,
    pub separate: f32,
    pub wall: f32,
    pub avoid: f32,
    pub wander: f32,
    pub turn: f32,
    pub radius: f32,
    pub ground: f32,
    pub seed: u32,
    pub _pad0: u32,
    pub _pad1: u32,
    /// The destinations' cells (z · width + x), four to an element.
    pub goals: [glam::UVec4; MAX_DESTINATIONS / 4],
}

/// A flock's steering (`FlockParams` in flock.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct FlockParams {
    pub separation: f32,
    pub separate: f32,
    pub align: f32,
    pub cohere: f32,
    pub roost: Vec3,
    pub roost_radius: f32,
    pub roost_pull: f32,
    pub min_speed: f32,
    pub max_speed: f32,
    pub _pad0: u32,
}

/// A map's size and one jump of the flooding (`SdfParams` in sdf.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct SdfParams {
    pub width: u32,
    pub height: u32,
    /// Cells this jump looks across.
    pub step: u32,
    /// Metres a cell is wide.
    pub cell: f32,
}

/// A map's size and the cost of walking near walls (`FlowParams` in flow.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct FlowParams {
    pub width: u32,
    pub height: u32,
    /// Metres a cell is wide.
    pub cell: f32,
    /// Extra weight against a wall.
    pub wall: f32,
    /// Metres over which it fades.
    pub range: f32,
    /// Tiles across and down (a tile is `FLOW_TILE` cells square, a thread of the solve).
    pub tiles_x: u32,
    pub tiles_y: u32,
    /// This field's first cell in the output (the fields of a crowd share one buffer).
    pub base: u32,
}

/// The neighbour grid's cell, radius and table (`GridParams` in grid_cells.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct GridParams {
    /// Cell side, metres.
    pub cell: f32,
    /// Neighbour radius, metres.
    pub radius: f32,
    /// Buckets - 1.
    pub mask: u32,
    /// Buckets (a power of two).
    pub table: u32,
}

/// One level of the prefix sum (`ScanParams` in scan.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct ScanParams {
    /// Values in the level's data.
    pub count: u32,
    pub _pad0: u32,
    pub _pad1: u32,
    pub _pad2: u32,
}

/// Parameters of the depth downsample (`DownsampleParams` in downsample.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct DownsampleParams {
    pub depth: DepthMappingUniform,
}

/// Parameters of the composite (`CompositeParams` in composite.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub(crate) struct CompositeParams {
    pub depth: DepthMappingUniform,
    /// Relative view-depth difference that marks a depth edge.
    pub threshold: f32,
    /// Host target size, pixels.
    pub width: u32,
    pub height: u32,
    pub _pad0: u32,
}

/// Bytes of `value` laid out as a WGSL uniform.
pub(crate) fn uniform_bytes<T: ShaderType + encase::internal::WriteInto>(value: &T) -> Vec<u8> {
    let mut buf = encase::UniformBuffer::new(Vec::<u8>::new());
    // Writing into a growable Vec cannot run out of space.
    buf.write(value).expect("encase write into Vec");
    buf.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Every composed module with naga's layout of its types.
    struct Layouts {
        modules: Vec<(naga::Module, naga::proc::Layouter)>,
    }

    impl Layouts {
        fn new() -> Self {
            let modules = crate::shaders::Shader::ALL
                .iter()
                .map(|shader| {
                    let src = shader.source();
                    let module = naga::front::wgsl::parse_str(&src).expect("module parses");
                    let mut layouter = naga::proc::Layouter::default();
                    layouter.update(module.to_ctx()).expect("layout");
                    (module, layouter)
                })
                .collect();
            Layouts { modules }
        }

        /// (size, [(member name, offset)]) of a WGSL struct.
        fn of(&self, name: &str) -> (u32, Vec<(String, u32)>) {
            for (module, layouter) in &self.modules {
                for (handle, ty) in module.types.iter() {
                    if ty.name.as_deref() == Some(name) {
                        if let naga::TypeInner::Struct { members, span } = &ty.inner {
                            let m = members
                                .iter()
                                .map(|m| (m.name.clone().unwrap_or_default(), m.offset))
                                .collect();
                            assert_eq!(layouter[handle].size, *span);
                            return (*span, m);
                        }
                    }
                }
            }
            panic!("struct {name} not found in any shader");
        }

        fn offset(&self, name: &str, member: &str) -> u32 {
            let (_, m) = self.of(name);
            m.iter()
                .find(|(n, _)| n == member)
                .unwrap_or_else(|| panic!("{name}.{member} missing"))
                .1
        }
    }

    macro_rules! check_pod {
        ($l:expr, $ty:ident, [$($field:ident => $wgsl:literal),* $(,)?]) => {{
            let (size, _) = $l.of(stringify!($ty));
            assert_eq!(size as usize, size_of::<$ty>(), "size of {}", stringify!($ty));
            $(assert_eq!(
                $l.offset(stringify!($ty), $wgsl) as usize,
                offset_of!($ty, $field),
                "{}.{}", stringify!($ty), $wgsl
            );)*
        }};
    }

    /// The value of WGSL constant `name` in the composed modules.
    fn wgsl_const(l: &Layouts, name: &str) -> u32 {
        for (module, _) in &l.modules {
            for (_, c) in module.constants.iter() {
                if c.name.as_deref() == Some(name) {
                    match module.global_expressions[c.init] {
                        naga::Expression::Literal(naga::Literal::U32(v)) => return v,
                        ref e => panic!("{name}: not a u32 literal: {e:?}"),
                    }
                }
            }
        }
        panic!("constant {name} not found in any shader");
    }

    #[test]
    fn gpu_codes_match_wgsl() {
        let l = Layouts::new();
        let sizes = [
            ("MAX_EMITTERS", MAX_EMITTERS as u32),
            ("MAX_BODIES", MAX_BODIES as u32),
            ("BODIES_ANY", crate::passes::simulate::BODIES_ANY),
            ("WORKGROUP", WORKGROUP),
            ("MAX_GROUPS_X", MAX_GROUPS_X),
            ("GROUPS_PER_ROW", GROUPS_PER_ROW),
            ("FLAG_SETTLED", Particle::SETTLED),
            ("FLAG_INSTANCE_SHIFT", crate::instances::FLAG_INSTANCE_SHIFT),
            ("NO_INSTANCE", crate::instances::MAX_INSTANCES),
            ("MAX_GROUP", MAX_GROUP),
            ("SORT_THREADS", SORT_THREADS),
            ("MIN_LEN", MIN_LEN),
            ("ACCUM_CHANNELS", ACCUM_CHANNELS),
            ("BODY_ROW", crate::passes::gravity::BODY_ROW),
            ("SHARED", crate::passes::gravity::SHARED_LANES),
            ("FLOW_TILE", crate::passes::flow::TILE),
            ("BATCH_ROWS", crate::passes::batch_relist::BATCH_ROWS as u32),
            (
                "COUNTERS_APART",
                (crate::passes::merge::COUNTERS_APART / size_of::<Counters>() as u64) as u32,
            ),
        ];
        for (name, value) in GPU_CODES.iter().copied().chain(sizes) {
            assert_eq!(wgsl_const(&l, name), value, "{name}");
        }
        // (the one f32 code: an unlit effect's light_wrap)
        let unlit = format!("const UNLIT: f32 = {UNLIT:?};");
        assert!(crate::shaders::COMMON.contains(&unlit), "{unlit}");
    }

    #[test]
    fn particle_words_are_the_particles_bytes() {
        let l = Layouts::new();
        let (size, _) = l.of("ParticleWords");
        assert_eq!(size as usize, size_of::<Particle>());
        // the four lanes of each word, in order: the fields particle_of (common.wgsl) reads
        let at = |field: usize, lane: usize| field + 4 * lane;
        let words = [
            (
                "motion",
                [
                    at(offset_of!(Particle, pos), 0),
                    at(offset_of!(Particle, pos), 1),
                    at(offset_of!(Particle, pos), 2),
                    offset_of!(Particle, age),
                ],
            ),
            (
                "velocity",
                [
                    at(offset_of!(Particle, vel), 0),
                    at(offset_of!(Particle, vel), 1),
                    at(offset_of!(Particle, vel), 2),
                    offset_of!(Particle, lifetime),
                ],
            ),
            (
                "look",
                [
                    offset_of!(Particle, color),
                    offset_of!(Particle, size),
                    offset_of!(Particle, rotation),
                    offset_of!(Particle, spin),
                ],
            ),
            (
                "identity",
                [
                    offset_of!(Particle, id),
                    offset_of!(Particle, emitter),
                    offset_of!(Particle, flags),
                    offset_of!(Particle, settled_at),
                ],
            ),
        ];
        for (word, fields) in words {
            let start = l.offset("ParticleWords", word) as usize;
            for (lane, field) in fields.into_iter().enumerate() {
                assert_eq!(start + 4 * lane, field, "ParticleWords.{word}[{lane}]");
            }
        }
    }

    #[test]
    fn pod_structs_match_wgsl() {
        let l = Layouts::new();
        check_pod!(l, Particle, [pos => "pos", age => "age", vel => "vel", lifetime => "lifetime",
            color => "color", size => "size", rotation => "rotation", spin => "spin", id => "id",
            emitter => "emitter", flags => "flags", settled_at => "settled_at"]);
        check_pod!(l, Counters, [dead => "dead", alive => "alive", next_alive => "next_alive",
            emitted => "emitted", dropped => "dropped", visible => "visible", hits => "hits",
            events => "events", hit_spawned => "hit_spawned", splatted => "splatted",
            emitted_hi => "emitted_hi", dropped_hi => "dropped_hi", hits_hi => "hits_hi",
            hit_spawned_hi => "hit_spawned_hi", requested => "requested",
            requested_hi => "requested_hi", non_finite => "non_finite",
            non_finite_hi => "non_finite_hi", reserved => "_reserved"]);
        check_pod!(l, HitEvent, [pos => "pos", particle => "particle", normal => "normal",
            speed => "speed"]);
        check_pod!(l, HostEvent, [pos => "pos", kind => "kind", vel => "vel",
            emitter => "emitter", normal => "normal", time => "time"]);
        check_pod!(l, EventHeader, [count => "count", total => "total",
            total_hi => "total_hi"]);
        check_pod!(l, IndirectArgs, [sim => "sim_x", draw => "draw_vertex_count", cull => "cull_x",
            spawn => "spawn_x", spawn_request => "spawn_request", splat => "splat_x",
            step_list => "step_list_x", step_slots => "step_slots_x", relist => "relist_x"]);
        for (field, offset) in [
            ("splat_x", IndirectArgs::SPLAT_OFFSET),
            ("cull_x", IndirectArgs::CULL_OFFSET),
            ("step_list_x", IndirectArgs::STEP_LIST_OFFSET),
            ("step_slots_x", IndirectArgs::STEP_SLOTS_OFFSET),
            ("relist_x", IndirectArgs::RELIST_OFFSET),
            ("draw_vertex_count", IndirectArgs::DRAW_OFFSET),
        ] {
            assert_eq!(l.offset("IndirectArgs", field) as u64, offset, "{field}");
        }
        {
            use crate::passes::batch_relist::BatchMember;
            use crate::passes::batch_simulate::StepClock;
            check_pod!(l, BatchMember, [first => "first", counters => "counters"]);
            check_pod!(l, StepClock, [eye => "eye", dt => "dt", time => "time"]);
            use crate::passes::batch_emit::{BatchSpawns, EmitterSpawns};
            check_pod!(l, BatchSpawns, [request => "request", id_base => "id_base",
                emitter_count => "emitter_count", step => "step", frame => "frame",
                instances => "instances", per_instance => "per_instance", time => "time",
                emitters => "emitters"]);
            check_pod!(l, EmitterSpawns, [first => "first", count => "count",
                burst_count => "burst_count", burst_at => "burst_at"]);
            use crate::passes::batch_merge::{row_size, CullMember};
            check_pod!(l, CullMember, [first => "first", counters => "counters",
                member => "member", copies => "copies"]);
            // a row of the batched merged cull's table: the member, then the effect's
            // constants as their uniform lays them out (the rows' stride is its size)
            assert_eq!(
                l.offset("CullRow", "effect") as usize,
                size_of::<CullMember>()
            );
            assert_eq!(l.of("CullRow").0 as u64, row_size());
            // the batched passes' tables of what are otherwise uniforms: an array's stride
            // is its element's uniform size
            assert_eq!(
                l.of("EffectParams").0 as u64,
                EffectParams::min_size().get()
            );
            assert_eq!(
                l.of("EmitUniforms").0 as u64,
                EmitUniforms::min_size().get()
            );
        }
        check_pod!(l, SortStep, [k => "k", j => "j", kind => "kind", steps => "steps"]);
        check_pod!(l, Body, [pos => "pos", mass => "mass", vel => "vel", softening => "softening"]);
        check_pod!(l, GridEntry, [pos => "pos", slot => "slot", vel => "vel", key => "key"]);
        check_pod!(l, InstanceGpu, [start => "start", end => "end", bounds => "bounds"]);
        check_pod!(l, Walker, [state => "state", destination => "destination", timer => "timer",
            owner => "owner", speed => "speed", phase => "phase", changes => "changes",
            assigned => "assigned"]);
        // the draw counters are the sort's Counters where it reads its count, and hold the
        // indirect arguments where the mesh draw reads them
        assert_eq!(l.of("DrawCounters").0, l.of("Counters").0);
        assert_eq!(
            l.offset("DrawCounters", "ribbon_points"),
            l.offset("Counters", "visible")
        );
        assert_eq!(l.offset("DrawCounters", "mesh_index_count"), 0);
        assert_eq!(
            l.offset("DrawCounters", "ribbon_pieces"),
            crate::pool::RIBBON_PIECES_OFFSET as u32
        );
        assert_eq!(l.of("RibbonPoint").0 as u64, crate::pool::RIBBON_POINT_SIZE);
        assert_eq!(
            l.offset("DrawCounters", "draw_index_count") as u64,
            crate::pool::RIBBON_DRAW_OFFSET
        );
        assert_eq!(
            l.offset("DrawCounters", "draw_index_count"),
            l.offset("Counters", "hit_spawned")
        );
        // the dots' count, which the splat reads as a word, and their splat's dispatch
        assert_eq!(
            l.offset("DrawCounters", "dots") as u64,
            crate::pool::DOTS_OFFSET
        );
        assert_eq!(
            crate::pool::DOTS_OFFSET,
            4 * wgsl_const(&l, "DOTS_WORD") as u64
        );
        assert_eq!(
            l.offset("DrawCounters", "dots_x") as u64,
            crate::passes::splat::DOTS_DISPATCH_OFFSET
        );
        // the splats' touched bounds, which a new target starts empty
        assert_eq!(
            l.of("Touched").0 as usize,
            std::mem::size_of_val(&crate::passes::splat::NOTHING_TOUCHED)
        );
        use crate::mesh::SurfaceTriangle;
        check_pod!(l, SurfaceTriangle, [a => "a", b => "b", c => "c", na => "na", nb => "nb",
            nc => "nc"]);
        assert_eq!(PARTICLE_SIZE, 64);
    }

    /// A member name and a function that writes a marker into it.
    type Marker<T> = (&'static str, fn(&mut T));

    /// encase's layout of a value, compared with naga's: size and the offsets of the given
    /// members, found by writing a marker value into one field at a time.
    fn check_uniform<T: ShaderType + encase::internal::WriteInto + Default + Copy>(
        l: &Layouts,
        name: &str,
        fields: &[Marker<T>],
    ) {
        let (size, _) = l.of(name);
        assert_eq!(T::min_size().get(), size as u64, "size of {name}");
        let base = uniform_bytes(&T::default());
        for (member, set) in fields {
            let mut v = T::default();
            set(&mut v);
            let bytes = uniform_bytes(&v);
            let first = bytes
                .iter()
                .zip(&base)
                .position(|(a, b)| a != b)
                .expect("marker changes the bytes")
                / 4
                * 4; // every scalar is 4 bytes: round to the start of the changed one
            assert_eq!(first as u32, l.offset(name, member), "{name}.{member}");
        }
    }

    #[test]
    fn uniform_structs_match_wgsl() {
        let l = Layouts::new();
        check_uniform::<FrameUniforms>(
            &l,
            "FrameUniforms",
            &[
                ("view_proj", |v| {
                    v.view_proj = Mat4::from_cols_array(&[2.0; 16])
                }),
                ("eye", |v| v.eye = Vec3::ONE),
                ("dt", |v| v.dt = 1.0),
                ("cam_right", |v| v.cam_right = Vec3::ONE),
                ("time", |v| v.time = 1.0),
                ("cam_up", |v| v.cam_up = Vec3::ONE),
                ("frame", |v| v.frame = 1),
                ("planes", |v| v.planes[0] = Vec4::ONE),
                ("view_depth", |v| v.view_depth = Vec4::ONE),
                ("pixel_scale", |v| v.pixel_scale = 1.0),
                ("splat_radius", |v| v.splat_radius = 1.0),
                ("perspective", |v| v.perspective = 1),
                ("id_end", |v| v.id_end = 1),
                ("light_dir", |v| v.light_dir = Vec3::ONE),
                ("light_color", |v| v.light_color = Vec3::ONE),
                ("events", |v| v.events = 1),
                ("mesh_lod", |v| v.mesh_lod = 1.0),
                ("ambient", |v| v.ambient = Vec3::ONE),
            ],
        );
        check_uniform::<DepthMappingUniform>(
            &l,
            "DepthMapping",
            &[
                ("coeffs", |v| v.coeffs = Vec4::ONE),
                ("background", |v| v.background = 1.0),
            ],
        );
        check_uniform::<EmitterLook>(
            &l,
            "EmitterLook",
            &[
                ("color_end", |v| v.color_end = Vec4::ONE),
                ("size_end", |v| v.size_end = 1.0),
                ("render_mode", |v| v.render_mode = 1),
                ("stretch", |v| v.stretch = 1.0),
                ("sprite", |v| v.sprite = 1),
                ("anchored", |v| v.anchored = 1),
                ("subdivisions", |v| v.subdivisions = 1),
                ("ribbon_repeats", |v| v.ribbon_repeats = 1.0),
                ("trail", |v| v.trail = 1),
                ("mesh_radius", |v| v.mesh_radius = 1.0),
                ("flap_hz", |v| v.flap_hz = 1.0),
                ("flap_angle", |v| v.flap_angle = 1.0),
                ("flies", |v| v.flies = 1),
                ("walks", |v| v.walks = 1),
                ("emission", |v| v.emission = 1.0),
                ("image_layer", |v| v.image_layer = 1),
                ("image_frames", |v| v.image_frames = 1),
                ("frame_rate", |v| v.frame_rate = 1.0),
                ("flipbook", |v| v.flipbook = 1),
                ("unlit", |v| v.unlit = 1),
                ("impostor", |v| v.impostor = Vec3::ONE),
            ],
        );
        check_uniform::<EffectParams>(
            &l,
            "EffectParams",
            &[
                ("gravity", |v| v.gravity = Vec3::ONE),
                ("drag", |v| v.drag = 1.0),
                ("wind", |v| v.wind = Vec3::ONE),
                ("integrator", |v| v.integrator = 1),
                ("bounds_min", |v| v.bounds_min = Vec3::ONE),
                ("bounds_mode", |v| v.bounds_mode = 1),
                ("bounds_max", |v| v.bounds_max = Vec3::ONE),
                ("seed", |v| v.seed = 1),
                ("light_wrap", |v| v.light_wrap = 1.0),
                ("looks", |v| v.looks[0].color_end = Vec4::ONE),
                ("hit_emitter2", |v| v.hit_emitter2 = 1),
                ("hit_count2", |v| v.hit_count2 = 1),
                ("trail_emitter", |v| v.trail_emitter = 1),
                ("trail_source", |v| v.trail_source = 1),
                ("trail_every", |v| v.trail_every = 1.0),
                ("shadow_cells", |v| v.shadow_cells = 1),
                ("shadow_strength", |v| v.shadow_strength = 1.0),
                ("follow_camera", |v| v.follow_camera = 1),
                ("turbulence", |v| v.turbulence = 1.0),
                ("capacity", |v| v.capacity = 1),
                ("soft_distance", |v| v.soft_distance = 1.0),
                ("additive", |v| v.additive = 1),
                ("collision", |v| v.collision = 1),
                ("restitution", |v| v.restitution = 1.0),
                ("friction", |v| v.friction = 1.0),
                ("thickness", |v| v.thickness = 1.0),
                ("settle_time", |v| v.settle_time = 1.0),
                ("body_g", |v| v.body_g = 1.0),
                ("body_count", |v| v.body_count = 1),
                ("pass_accel", |v| v.pass_accel = 1),
                ("nbody_g", |v| v.nbody_g = 1.0),
                ("nbody_mass", |v| v.nbody_mass = 1.0),
                ("nbody_softening", |v| v.nbody_softening = 1.0),
                ("hit_emitter", |v| v.hit_emitter = 1),
                ("hit_count", |v| v.hit_count = 1),
                ("death_source", |v| v.death_source = 1),
            ],
        );
        check_uniform::<CollisionFrame>(
            &l,
            "CollisionFrame",
            &[
                ("prev_view_proj", |v| {
                    v.prev_view_proj = Mat4::from_cols_array(&[2.0; 16])
                }),
                ("prev_inv_view_proj", |v| {
                    v.prev_inv_view_proj = Mat4::from_cols_array(&[2.0; 16])
                }),
                ("prev_view_depth", |v| v.prev_view_depth = Vec4::ONE),
                ("prev_depth", |v| v.prev_depth.coeffs = Vec4::ONE),
                ("prev_viewer", |v| v.prev_viewer = Vec4::ONE),
                ("enabled", |v| v.enabled = 1),
            ],
        );
        check_uniform::<EmitterParams>(
            &l,
            "EmitterParams",
            &[
                ("shape", |v| v.shape = 1),
                ("spawn_first", |v| v.spawn_first = 1),
                ("spawn_count", |v| v.spawn_count = 1),
                ("velocity_mode", |v| v.velocity_mode = 1),
                ("burst_count", |v| v.burst_count = 1),
                ("burst_at", |v| v.burst_at = 1.0),
                ("p0", |v| v.p0 = Vec4::ONE),
                ("p1", |v| v.p1 = Vec4::ONE),
                ("vel_mean", |v| v.vel_mean = Vec4::ONE),
                ("vel_var", |v| v.vel_var = Vec4::ONE),
                ("color_mean", |v| v.color_mean = Vec4::ONE),
                ("color_var", |v| v.color_var = Vec4::ONE),
                ("life_size", |v| v.life_size = Vec4::ONE),
                ("rot_spin", |v| v.rot_spin = Vec4::ONE),
                ("start", |v| v.start = Mat4::from_cols_array(&[2.0; 16])),
                ("end", |v| v.end = Mat4::from_cols_array(&[2.0; 16])),
            ],
        );
        check_uniform::<MergeParams>(
            &l,
            "MergeParams",
            &[("member", |v| v.member = 1), ("copies", |v| v.copies = 1)],
        );
        check_uniform::<ScanParams>(&l, "ScanParams", &[("count", |v| v.count = 1)]);
        check_uniform::<FlockParams>(
            &l,
            "FlockParams",
            &[
                ("separation", |v| v.separation = 1.0),
                ("separate", |v| v.separate = 1.0),
                ("align", |v| v.align = 1.0),
                ("cohere", |v| v.cohere = 1.0),
                ("roost", |v| v.roost = Vec3::ONE),
                ("roost_radius", |v| v.roost_radius = 1.0),
                ("roost_pull", |v| v.roost_pull = 1.0),
                ("min_speed", |v| v.min_speed = 1.0),
                ("max_speed", |v| v.max_speed = 1.0),
            ],
        );
        check_uniform::<SdfParams>(
            &l,
            "SdfParams",
            &[
                ("width", |v| v.width = 1),
                ("height", |v| v.height = 1),
                ("step", |v| v.step = 1),
                ("cell", |v| v.cell = 1.0),
            ],
        );
        check_uniform::<FlowParams>(
            &l,
            "FlowParams",
            &[
                ("width", |v| v.width = 1),
                ("height", |v| v.height = 1),
                ("cell", |v| v.cell = 1.0),
                ("wall", |v| v.wall = 1.0),
                ("range", |v| v.range = 1.0),
                ("tiles_x", |v| v.tiles_x = 1),
                ("tiles_y", |v| v.tiles_y = 1),
                ("base", |v| v.base = 1),
            ],
        );
        check_uniform::<CrowdParams>(
            &l,
            "CrowdParams",
            &[
                ("origin", |v| v.origin.x = 1.0),
                ("width", |v| v.width = 1),
                ("height", |v| v.height = 1),
                ("cell", |v| v.cell = 1.0),
                ("destinations", |v| v.destinations = 1),
                ("states", |v| v.states = 1),
                ("arrived", |v| v.arrived = 1),
                ("arrive", |v| v.arrive = 1.0),
                ("separation", |v| v.separation = 1.0),
                ("separate", |v| v.separate = 1.0),
                ("wall", |v| v.wall = 1.0),
                ("avoid", |v| v.avoid = 1.0),
                ("wander", |v| v.wander = 1.0),
                ("turn", |v| v.turn = 1.0),
                ("radius", |v| v.radius = 1.0),
                ("ground", |v| v.ground = 1.0),
                ("seed", |v| v.seed = 1),
                ("goals", |v| v.goals[0].x = 1),
            ],
        );
        check_uniform::<GridParams>(
            &l,
            "GridParams",
            &[
                ("cell", |v| v.cell = 1.0),
                ("radius", |v| v.radius = 1.0),
                ("mask", |v| v.mask = 1),
                ("table", |v| v.table = 1),
            ],
        );
        check_uniform::<DownsampleParams>(
            &l,
            "DownsampleParams",
            &[("depth", |v| v.depth.coeffs = Vec4::ONE)],
        );
        check_uniform::<CompositeParams>(
            &l,
            "CompositeParams",
            &[
                ("depth", |v| v.depth.coeffs = Vec4::ONE),
                ("threshold", |v| v.threshold = 1.0),
                ("width", |v| v.width = 1),
                ("height", |v| v.height = 1),
            ],
        );
        check_uniform::<GraphParams>(
            &l,
            "GraphParams",
            &[
                ("slots", |v| v.slots[0] = glam::UVec4::ONE),
                ("transform", |v| {
                    v.transform = Mat4::from_diagonal(Vec4::ONE * 2.0)
                }),
                ("eye", |v| v.eye = Vec3::ONE),
                ("view_dir", |v| v.view_dir = Vec3::ONE),
                ("emitters", |v| {
                    v.emitters[0] = Mat4::from_diagonal(Vec4::ONE * 2.0)
                }),
            ],
        );
        check_uniform::<EmitUniforms>(
            &l,
            "EmitUniforms",
            &[
                ("request", |v| v.request = 1),
                ("id_base", |v| v.id_base = 1),
                ("emitter_count", |v| v.emitter_count = 1),
                ("step", |v| v.step = 1.0),
                ("frame", |v| v.frame = 1.0),
                ("instances", |v| v.instances = 1),
                ("per_instance", |v| v.per_instance = 1),
                ("time", |v| v.time = 1.0),
                ("emitters", |v| v.emitters[0].shape = 1),
            ],
        );
    }
}
