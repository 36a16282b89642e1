//! Simulate pass (`shaders/simulate.wgsl`): forces, Euler step, age, spin, death by
//! lifetime or bounds, depth collision; survivors to the next alive list, the dead to the
//! dead list, events to the hit-event buffer. Each effect's simulate is specialised for
//! the features it uses ([`SimulateVariant`]).

use super::BufferSlot;
use super::{bind, buffer_entries, buffer_resources, dispatch_over_pool, graph_table_entry};
use super::{layout, module_pipeline, read_only, read_write, texture, uniform, uniform_array};
use super::{Binding, GraphInputs};
use crate::compiler::Compiler;
use crate::pool::{ParticlePool, Sizing};
use crate::shaders::Shader;
use crate::types::*;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// simulate.wgsl's group 0 buffers, in binding order (eight storage buffers: what WebGPU
/// allows a stage); the effect's baked table follows them.
pub(super) fn slots() -> [BufferSlot; 12] {
    [
        read_write::<Particle>(),
        // the pool's three lists, one binding (ParticlePool::lists)
        read_write::<u32>(),
        read_write::<Counters>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        uniform_array::<Body>(MAX_BODIES),
        read_write::<HitEvent>(),
        read_only::<[f32; 4]>(),
        uniform::<GraphParams>(),
        read_write::<u32>(),
        read_only::<InstanceGpu>(),
        // the host events' header and room for one event at least
        read_write::<(EventHeader, HostEvent)>(),
    ]
}

/// Where simulate.wgsl binds the effect's baked table.
const TABLE_BINDING: u32 = 12;

/// What one effect's simulate compiles in: each feature the effect does not use is compiled
/// out of its variant. CPU drivers run both sides of every branch under a mask, so an unused
/// feature would otherwise cost its full work for every particle (on lavapipe the galaxy's
/// 1M stars simulated in half the time with the features it does not use compiled out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct SimulateVariant {
    /// The depth collision's response: `COLLIDE_NONE`, `COLLIDE_BOUNCE`, `COLLIDE_KILL` or
    /// `COLLIDE_SETTLE` (particles at rest, fading out). A constant of the variant, not a
    /// branch on the effect's uniform: lavapipe (Mesa 22.3) compiles a shader again at
    /// every bind, keeping every copy, while inlining the uniforms its branches test
    /// removes enough of it.
    pub collision: u32,
    /// Some emitter's particles stay where they are born.
    pub anchored: bool,
    /// Curl-noise wind.
    pub turbulence: bool,
    /// Massive bodies pull: none (0), 1 to [`UNROLLED_BODIES`] of them, pulled by as many
    /// calls, or any number ([`BODIES_ANY`]), in a loop.
    pub bodies: u32,
    /// A pass before simulate wrote an acceleration per particle (all-pairs gravity, a
    /// flock's steering).
    pub pass_accel: bool,
    /// Some emitter's deaths are events.
    pub deaths: bool,
    /// Hits or deaths reach the host (which, the frame uniforms say).
    pub host_events: bool,
    /// `BOUNDS_NONE`, `BOUNDS_KILL` or `BOUNDS_WRAP`.
    pub bounds: u32,
}

/// Most bodies a variant pulls by one call each rather than in a loop (on lavapipe the loop
/// over the galaxy's two bodies cost 3 ms of its 23 ms step at 1M stars).
pub(crate) const UNROLLED_BODIES: u32 = 4;

/// The bodies code of a variant that pulls any number of bodies in a loop (`BODIES_ANY`).
pub(crate) const BODIES_ANY: u32 = UNROLLED_BODIES + 1;

impl SimulateVariant {
    /// How many variants there are ([`SimulateVariant::index`] is below it): four
    /// collision responses, five features on or off, six bodies codes, three bounds modes.
    pub const COUNT: usize = 4 * (1 << 5) * (BODIES_ANY as usize + 1) * 3;

    /// The variant for an effect's encoded constants: exactly the branches its simulate
    /// would take (no events for the host: the system adds them where the host listens).
    pub fn of(params: &EffectParams) -> Self {
        let looks = &params.looks;
        SimulateVariant {
            collision: params.collision.min(COLLIDE_SETTLE),
            anchored: looks.iter().any(|l| l.anchored == 1),
            turbulence: params.turbulence > 0.0,
            bodies: match params.body_count {
                n if n <= UNROLLED_BODIES => n,
                _ => BODIES_ANY,
            },
            pass_accel: params.pass_accel == 1,
            deaths: params.death_source != NO_EMITTER,
            host_events: false,
            bounds: params.bounds_mode.min(BOUNDS_WRAP),
        }
    }

    /// A dense index below [`SimulateVariant::COUNT`].
    pub fn index(self) -> usize {
        let flags = [
            self.anchored,
            self.turbulence,
            self.pass_accel,
            self.deaths,
            self.host_events,
        ];
        let bodies = self.bodies.min(BODIES_ANY) as usize;
        let features =
            super::variant_bits(&flags) * 4 + self.collision.min(COLLIDE_SETTLE) as usize;
        (features * (BODIES_ANY as usize + 1) + bodies) * 3 + self.bounds.min(BOUNDS_WRAP) as usize
    }

    /// Every variant (tests validate each).
    #[cfg(test)]
    pub fn all() -> impl Iterator<Item = SimulateVariant> {
        let codes = BODIES_ANY as usize + 1;
        (0..Self::COUNT).map(move |i| {
            let features = i / 3 / codes;
            let bit = |b: usize| (features / 4) >> b & 1 == 1;
            SimulateVariant {
                collision: (features % 4) as u32,
                anchored: bit(0),
                turbulence: bit(1),
                pass_accel: bit(2),
                deaths: bit(3),
                host_events: bit(4),
                bodies: (i / 3 % codes) as u32,
                bounds: (i % 3) as u32,
            }
        })
    }

    /// simulate.wgsl's constants for it.
    pub fn consts(self) -> [(&'static str, u32); 9] {
        [
            ("COLLIDE", self.collision),
            ("SETTLE", self.settles() as u32),
            ("ANCHORED", self.anchored as u32),
            ("TURBULENCE", self.turbulence as u32),
            ("BODIES", self.bodies),
            ("PASS_ACCEL", self.pass_accel as u32),
            ("DEATHS", self.deaths as u32),
            ("HOST_EVENTS", self.host_events as u32),
            ("BOUNDS", self.bounds),
        ]
    }

    /// Whether a pool nearly full runs over its slots rather than through its alive list:
    /// not with depth collision, whose step costs the same either way, while the empty one
    /// of the two dispatches cost it 1.8 ms a frame (rain of 1M on lavapipe, against 0.08
    /// ms for fireworks without collision: docs/measurements.md).
    pub fn by_slot(self) -> bool {
        !self.collides()
    }

    /// Whether particles meet the host's depth (a response other than none).
    pub fn collides(self) -> bool {
        self.collision != COLLIDE_NONE
    }

    /// Whether a hit settles a particle at rest.
    pub fn settles(self) -> bool {
        self.collision == COLLIDE_SETTLE
    }

    /// Whether small pools of this variant may be simulated many in one dispatch
    /// (batch_simulate.wgsl): not with depth collision, massive bodies, an acceleration
    /// from a pass before, deaths that spawn or events for the host, which read or write
    /// buffers of the pool's own.
    pub fn batches(self) -> bool {
        let own_buffers = self.bodies > 0 || self.pass_accel || self.deaths || self.host_events;
        !(self.collides() || own_buffers)
    }
}

/// simulate.wgsl's group 0 layout, shared by every variant.
pub(crate) fn simulate_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let mut entries = buffer_entries(C, &slots());
    entries.push(graph_table_entry(TABLE_BINDING));
    layout(device, "simulate", &entries)
}

pub(crate) struct SimulatePass {
    layout: wgpu::BindGroupLayout,
    /// Through the alive list (`main`).
    pipeline: wgpu::ComputePipeline,
    /// Over every slot (`over_slots`), for a variant that runs so when its pool is nearly
    /// full ([`SimulateVariant::by_slot`]).
    over_slots: Option<wgpu::ComputePipeline>,
}

impl SimulatePass {
    /// `variant`'s pipeline with an effect's update stacks (`graph`: a block of
    /// [`crate::effect::graph::Graph::wgsl`], or None for the empty hooks), its group 0
    /// laid out by `layout` ([`simulate_layout`]) and its group 1 by `collision`
    /// ([`collision_layout`]).
    pub fn new(
        device: &Compiler,
        (variant, graph): (SimulateVariant, Option<&str>),
        layout: &wgpu::BindGroupLayout,
        collision: &wgpu::BindGroupLayout,
    ) -> Self {
        let layouts = [Some(layout), Some(collision)];
        let consts = variant.consts();
        let source = match graph {
            Some(block) => Shader::Simulate.generated(&consts, block),
            None => Shader::Simulate.specialised(&consts),
        };
        let module = Shader::Simulate.module_of(device, source);
        let pipeline = |entry| module_pipeline(device, (&module, "simulate"), entry, &layouts);
        SimulatePass {
            layout: layout.clone(),
            pipeline: pipeline("main"),
            over_slots: variant.by_slot().then(|| pipeline("over_slots")),
        }
    }

    /// Bind group stepping the pool's current alive list: through it, appending the
    /// survivors to the next one, or over the slots, listing them in it; its events for the
    /// host into `events` (a header and room for one at least).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        frame: &dyn Binding,
        [effect, bodies, instances, events]: [&wgpu::Buffer; 4],
        (params, table, attributes): GraphInputs,
    ) -> wgpu::BindGroup {
        let lists = pool.lists();
        let mut resources = buffer_resources(&[
            &pool.particles,
            &lists,
            &pool.counters,
            frame,
            effect,
            bodies,
            &pool.hit_events,
            &pool.accel,
            params,
            attributes,
            instances,
            events,
        ]);
        resources.push((TABLE_BINDING, wgpu::BindingResource::TextureView(table)));
        bind(device, "simulate", &self.layout, &resources)
    }

    /// Indirect dispatches sized on the GPU from the alive count: one thread per particle
    /// of the alive list, or, for a variant that may and a pool nearly full, one per slot
    /// (args.wgsl sizes the other dispatch to no workgroups); a pool sized per slot runs
    /// through its list, one thread a slot. Bind group 1 (a [`collision_bind`]) must be set.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        match (&self.over_slots, pool.sizing) {
            (Some(over_slots), Sizing::Counted) => {
                let list = IndirectArgs::STEP_LIST_OFFSET;
                dispatch_over_pool(pass, &self.pipeline, &[bind], pool, list);
                // the same bind groups, so no barrier between the two: one of them is empty
                let slots = IndirectArgs::STEP_SLOTS_OFFSET;
                dispatch_over_pool(pass, over_slots, &[bind], pool, slots);
            }
            _ => {
                let offset = IndirectArgs::SIM_OFFSET;
                dispatch_over_pool(pass, &self.pipeline, &[bind], pool, offset);
            }
        }
    }
}

/// Simulate's group 1: the previous frame's depth (Rg32Float: farthest, nearest) and a
/// [`CollisionFrame`] uniform.
pub(crate) fn collision_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let depth = wgpu::TextureSampleType::Float { filterable: false };
    let frame = uniform::<CollisionFrame>().entry(1, C);
    layout(device, "collision", &[texture(0, depth, C), frame])
}

/// A group 1 of simulate over `depth` and a [`CollisionFrame`] uniform `frame`.
pub(crate) fn collision_bind(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    depth: &wgpu::TextureView,
    frame: &dyn Binding,
) -> wgpu::BindGroup {
    let resources = [
        (0, wgpu::BindingResource::TextureView(depth)),
        (1, frame.resource()),
    ];
    bind(device, "collision", layout, &resources)
}
