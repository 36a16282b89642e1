//! `ParticleSystem`: one effect's pool and passes, recorded into the host's encoder.
//!
//! Per frame: [`ParticleSystem::update`] writes the uniforms (camera, clock, this frame's
//! spawn request); [`ParticleSystem::encode_compute`] records emit → args → simulate → args;
//! [`ParticleSystem::record_draw`] records the indirect draw into a render pass the caller
//! opened on an Rgba16Float target. Nothing here submits or waits.

use wgpu_profiler::GpuProfiler;

use crate::camera::Camera;
use crate::effect::{EffectDesc, Shape, SpawnClock, Velocity};
use crate::error::Result;
use crate::passes::bodies::BodiesPass;
use crate::passes::gravity::GravityPass;
use crate::passes::sort::{SortBinding, SortPass, SortPlan};
use crate::passes::{
    args::ArgsPass, cull::CullPass, draw::DrawPass, emit::EmitPass, simulate::SimulatePass,
};
use crate::pool::{ParticlePool, PoolSnapshot};
use crate::types::{uniform_bytes, EffectParams, EmitUniforms, FrameUniforms};
use wgpu::util::DeviceExt;

/// The compute steps of one frame, in order (`profile` can submit each on its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Emit, then size the simulate dispatch.
    Emit,
    /// All-pairs gravity between the particles (effects with self-gravity only).
    Gravity,
    /// Simulate, then size the cull dispatch.
    Simulate,
    /// Frustum cull into the visible list, then write the draw arguments.
    Cull,
    /// Sort the visible list back to front (effects that sort; others record nothing).
    Sort,
}

impl Step {
    pub const ALL: [Step; 5] = [
        Step::Emit,
        Step::Gravity,
        Step::Simulate,
        Step::Cull,
        Step::Sort,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::Emit => "emit",
            Step::Gravity => "gravity",
            Step::Simulate => "simulate",
            Step::Cull => "cull",
            Step::Sort => "sort",
        }
    }
}

/// Totals of a system, from a read-back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    pub capacity: u32,
    pub alive: u32,
    pub dead: u32,
    /// In the view frustum this frame (drawn or splatted).
    pub visible: u32,
    /// Of those, splatted by compute (the rest are drawn as triangles).
    pub splatted: u32,
    pub emitted_total: u64,
    pub dropped_total: u64,
    pub killed_total: u64,
    pub requested_total: u64,
}

pub struct ParticleSystem {
    desc: EffectDesc,
    pool: ParticlePool,
    frame_buf: wgpu::Buffer,
    effect_buf: wgpu::Buffer,
    emit_buf: wgpu::Buffer,
    emit: EmitPass,
    args: ArgsPass,
    simulate: SimulatePass,
    cull: CullPass,
    sort: SortPass,
    sort_plan: Option<SortPlan>,
    draw: DrawPass,
    emit_bind: [wgpu::BindGroup; 2],
    simulate_bind: [wgpu::BindGroup; 2],
    /// The massive bodies (one unused slot when the effect has none).
    bodies: wgpu::Buffer,
    bodies_pass: Option<(BodiesPass, wgpu::BindGroup)>,
    gravity: Option<(GravityPass, [wgpu::BindGroup; 2])>,
    /// Whether an emitter spawns at GPU events (OnHit / OnDeath); it uses `emit_bind`.
    spawns_on_hit: bool,
    cull_bind: [wgpu::BindGroup; 2],
    sort_bind: Option<SortBinding>,
    draw_bind: wgpu::BindGroup,
    args_bind: wgpu::BindGroup,
    /// Collision bind group for use without a renderer: nothing to collide with.
    no_collision: wgpu::BindGroup,
    clock: SpawnClock,
    /// Updates so far.
    frames: u64,
    /// The alive list this frame's emit appends to (and its first simulate reads).
    list: usize,
    /// The alive list holding the particles after the last encoded frame.
    live: usize,
    /// Simulate steps per frame, each of dt / substeps.
    substeps: u32,
    /// (target pixels per metre at 1 m, largest splatted radius in pixels) for cull.
    splat: (f32, f32),
    /// Sorted and drawn together with other effects by the renderer.
    merged: bool,
    request: u32,
    dropped_on_cpu: u64,
}

fn uniform_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

impl ParticleSystem {
    /// Build the pool and pipelines for `desc` (validated) with `capacity` particles
    /// (checked by [`crate::pool::check_capacity`]) and a random `seed`.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        desc: &EffectDesc,
        capacity: u32,
        seed: u32,
    ) -> Result<Self> {
        use encase::ShaderType;
        desc.validate()?;
        if desc.self_gravity.is_some() && capacity > crate::effect::MAX_NBODY {
            return Err(crate::error::Invalid::new(
                "--particles",
                capacity,
                format!("1..={} for all-pairs gravity", crate::effect::MAX_NBODY),
            )
            .into());
        }
        let pool = ParticlePool::new(device, capacity, desc.self_gravity.is_some());
        let frame_buf = uniform_buffer(device, "flurry.frame", FrameUniforms::min_size().get());
        let effect_buf = uniform_buffer(device, "flurry.effect", EffectParams::min_size().get());
        let emit_buf = uniform_buffer(device, "flurry.emit", EmitUniforms::min_size().get());
        queue.write_buffer(
            &effect_buf,
            0,
            &uniform_bytes(&desc.effect_params(seed, capacity)),
        );
        let emit = EmitPass::new(device);
        let args = ArgsPass::new(device);
        let simulate = SimulatePass::new(device, desc.collision.is_some());
        let cull = CullPass::new(device);
        let sort = SortPass::new(device);
        let draw = DrawPass::new(device, desc.blend);
        let per_list = |f: &dyn Fn(usize) -> wgpu::BindGroup| [f(0), f(1)];
        // massive bodies (at least one slot, so the bindings exist when there are none)
        let mut initial = desc.initial_bodies();
        let body_count = initial.len();
        initial.resize(body_count.max(1), Default::default());
        let bodies = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("flurry.bodies"),
            contents: bytemuck::cast_slice(&initial),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        });
        let emit_bind = per_list(&|c| emit.bind(device, &pool, c, &emit_buf, &effect_buf, &bodies));
        let simulate_bind =
            per_list(&|c| simulate.bind(device, &pool, c, &frame_buf, &effect_buf, &bodies));
        let gravity = desc.self_gravity.is_some().then(|| {
            let pass = GravityPass::new(device);
            let binds = per_list(&|c| pass.bind(device, &pool, c, &effect_buf));
            (pass, binds)
        });
        let bodies_pass = (body_count > 0).then(|| {
            let pass = BodiesPass::new(device);
            let bind = pass.bind(device, &bodies, &frame_buf, &effect_buf);
            (pass, bind)
        });
        // after simulating from list c, the live particles are in list 1 - c
        // indexed by the list that holds the particles after simulate
        let cull_bind = per_list(&|l| cull.bind(device, &pool, l, &frame_buf, &effect_buf));
        let sort_plan = desc.sorts().then(|| SortPlan::bitonic(device, capacity));
        let sort_bind = sort_plan
            .as_ref()
            .map(|plan| sort.bind(device, plan, &pool.visible, &pool.counters));
        let draw_bind = draw.bind(device, &pool, &frame_buf, &effect_buf);
        let args_bind = args.bind(device, &pool, &effect_buf);
        let no_collision = {
            use encase::ShaderType;
            let depth = crate::gpu::texture_2d(
                device,
                "flurry.no_collision_depth",
                (1, 1),
                crate::passes::downsample::LOW_DEPTH_FORMAT,
                wgpu::TextureUsages::TEXTURE_BINDING,
            )
            .create_view(&Default::default());
            // a zeroed CollisionFrame: enabled = 0
            let frame = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("flurry.no_collision"),
                size: crate::types::CollisionFrame::min_size().get(),
                usage: wgpu::BufferUsages::UNIFORM,
                mapped_at_creation: false,
            });
            crate::passes::simulate::collision_bind(device, &depth, &frame)
        };
        Ok(ParticleSystem {
            desc: desc.clone(),
            pool,
            frame_buf,
            effect_buf,
            emit_buf,
            emit,
            args,
            simulate,
            cull,
            sort,
            sort_plan,
            draw,
            emit_bind,
            simulate_bind,
            bodies,
            bodies_pass,
            gravity,
            spawns_on_hit: desc.hit_emitter().is_some(),
            cull_bind,
            sort_bind,
            draw_bind,
            args_bind,
            no_collision,
            clock: SpawnClock::default(),
            frames: 0,
            list: 0,
            live: 0,
            substeps: 1,
            splat: (0.0, 0.0),
            merged: false,
            request: 0,
            dropped_on_cpu: 0,
        })
    }

    pub fn desc(&self) -> &EffectDesc {
        &self.desc
    }

    /// Move or re-aim emitter `index` (its shape, velocity, rate), e.g. a gun that follows
    /// the camera; takes effect at the next update. Bursts already scheduled stay.
    pub fn set_emitter(&mut self, index: usize, shape: Shape, velocity: Velocity, rate: f32) {
        if let Some(e) = self.desc.emitters.get_mut(index) {
            e.shape = shape;
            e.velocity = velocity;
            e.rate = rate.max(0.0);
        }
    }

    pub fn capacity(&self) -> u32 {
        self.pool.capacity
    }

    pub fn pool(&self) -> &ParticlePool {
        &self.pool
    }

    /// Seconds simulated so far.
    pub fn time(&self) -> f64 {
        self.clock.time
    }

    /// Alive list this frame's emit appends to.
    fn current(&self) -> usize {
        self.list
    }

    /// Alive list holding the particles after the last encoded frame.
    pub fn live_list(&self) -> usize {
        self.live
    }

    /// Simulate `substeps` (at least 1) steps of dt / substeps per frame, from the next
    /// update on: orbits and collisions stay accurate at a frame rate the effect cannot.
    pub fn set_substeps(&mut self, substeps: u32) {
        self.substeps = substeps.max(1);
    }

    /// Let the renderer sort and draw this effect together with others: its own sort is
    /// then skipped.
    pub fn set_merged(&mut self, merged: bool) {
        self.merged = merged;
    }

    pub fn merged(&self) -> bool {
        self.merged
    }

    pub fn substeps(&self) -> u32 {
        self.substeps
    }

    /// Let cull send particles at most `radius` pixels across (in radius) to the compute
    /// splat, for a target of `pixel_scale` pixels per metre at 1 m; `radius` 0 (the
    /// default) draws every particle. Takes effect at the next update.
    pub fn set_splat(&mut self, pixel_scale: f32, radius: f32) {
        self.splat = (pixel_scale, radius);
    }

    /// Advance the clock by `dt` seconds and write this frame's uniforms.
    pub fn update(&mut self, queue: &wgpu::Queue, dt: f32, camera: &Camera) {
        let id_base = self.clock.requested_total as u32;
        let counts = self.clock.advance(&self.desc, dt);
        let clamped = clamp_request(&counts, self.pool.capacity);
        self.dropped_on_cpu +=
            counts.iter().sum::<u64>() - clamped.iter().map(|&c| c as u64).sum::<u64>();
        let offset = self.desc.camera_offset(camera.eye);
        let emit = self.desc.emit_uniforms_at(&clamped, id_base, offset);
        self.request = emit.request;
        self.frames += 1;
        self.list = self.live;
        self.live = (self.list + self.substeps as usize) % 2;
        let (cam_right, cam_up) = camera.axes();
        let frame = FrameUniforms {
            view_proj: camera.view_proj(),
            eye: camera.eye,
            dt: dt / self.substeps as f32,
            cam_right,
            time: self.clock.time as f32,
            cam_up,
            frame: self.frames as u32,
            planes: camera.frustum_planes(),
            near: camera.near,
            far: camera.far,
            pixel_scale: self.splat.0,
            splat_radius: self.splat.1,
        };
        queue.write_buffer(&self.frame_buf, 0, &uniform_bytes(&frame));
        queue.write_buffer(&self.emit_buf, 0, &uniform_bytes(&emit));
    }

    /// The compute steps this system records each frame (no sort for effects that skip it).
    pub fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        Step::ALL
            .into_iter()
            .filter(|&s| s != Step::Sort || (self.sort_plan.is_some() && !self.merged))
            .filter(|&s| s != Step::Gravity || self.gravity.is_some())
    }

    /// Record one compute step into an open compute pass (no depth collision).
    pub fn record_step(&self, step: Step, pass: &mut wgpu::ComputePass) {
        self.record_step_with(step, pass, &self.no_collision);
    }

    /// Record one compute step; simulate collides against `collision`
    /// ([`crate::passes::simulate::collision_bind`]).
    pub fn record_step_with(
        &self,
        step: Step,
        pass: &mut wgpu::ComputePass,
        collision: &wgpu::BindGroup,
    ) {
        let c = self.current();
        match step {
            Step::Emit => {
                self.emit.record(pass, &self.emit_bind[c], self.request);
                self.args.record_after_emit(pass, &self.args_bind);
            }
            Step::Gravity => {
                if let Some((gravity, binds)) = &self.gravity {
                    gravity.record(pass, &binds[c], &self.pool);
                }
            }
            Step::Simulate => {
                pass.set_bind_group(1, collision, &[]);
                for sub in 0..self.substeps as usize {
                    let c = (self.list + sub) % 2;
                    if sub > 0 {
                        // later substeps need the pull of the particles where they are now
                        if let Some((gravity, binds)) = &self.gravity {
                            gravity.record(pass, &binds[c], &self.pool);
                        }
                        pass.set_bind_group(1, collision, &[]);
                    }
                    self.simulate
                        .record(pass, &self.simulate_bind[c], &self.pool);
                    self.args.record_after_simulate(pass, &self.args_bind);
                    if let Some((bodies, bind)) = &self.bodies_pass {
                        bodies.record(pass, bind);
                    }
                }
                if self.spawns_on_hit {
                    let bind = &self.emit_bind[self.live];
                    self.emit.record_on_hit(pass, bind, &self.pool);
                    self.args.record_after_spawn(pass, &self.args_bind);
                }
            }
            Step::Cull => {
                self.cull
                    .record(pass, &self.cull_bind[self.live], &self.pool);
                self.args.record_after_cull(pass, &self.args_bind);
            }
            Step::Sort => {
                if let (Some(plan), Some(bind)) = (&self.sort_plan, &self.sort_bind) {
                    self.sort.record(pass, plan, bind);
                }
            }
        }
    }

    /// Record every compute step of the frame, each in its own (optionally profiled) pass.
    pub fn encode_compute(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        profiler: Option<&GpuProfiler>,
    ) {
        for step in self.steps() {
            crate::profiler::compute_pass(encoder, profiler, step.name(), |pass| {
                self.record_step(step, pass)
            });
        }
    }

    /// Record the indirect draw of the live particles into an Rgba16Float render pass.
    pub fn record_draw(&self, pass: &mut wgpu::RenderPass) {
        self.draw.record(pass, &self.draw_bind, &self.pool);
    }

    /// The all-pairs gravity accelerations of the last frame, per slot (blocks; for tests).
    pub fn read_nbody_accel(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<[f32; 4]>> {
        let n = self.pool.capacity as u64;
        let bytes = crate::readback::read_buffer(device, queue, &self.pool.accel, 0, n * 16)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    /// The massive bodies as they are now (blocks; for tests).
    pub fn read_bodies(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<crate::types::Body>> {
        let n = self.desc.bodies.as_ref().map_or(0, |b| b.bodies.len()) as u64;
        let bytes = crate::readback::read_buffer(device, queue, &self.bodies, 0, n * 32)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    /// Read the pool back (blocks; for tests and `stats`).
    pub fn snapshot(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<PoolSnapshot> {
        self.pool.snapshot(device, queue, self.live_list())
    }

    /// Totals from a snapshot of this system.
    pub fn stats(&self, snap: &PoolSnapshot) -> Stats {
        let emitted = snap.counters.emitted as u64;
        Stats {
            capacity: self.pool.capacity,
            alive: snap.counters.alive,
            dead: snap.counters.dead.max(0) as u32,
            visible: snap.counters.visible + snap.counters.splatted,
            splatted: snap.counters.splatted,
            emitted_total: emitted,
            dropped_total: snap.counters.dropped as u64 + self.dropped_on_cpu,
            killed_total: emitted - snap.counters.alive as u64,
            // the CPU's schedule plus the spawns the GPU's collision hits asked for
            requested_total: self.clock.requested_total + snap.counters.hit_spawned as u64,
        }
    }

    /// The buffers a later pass may bind (frame uniforms, effect constants).
    pub fn uniforms(&self) -> (&wgpu::Buffer, &wgpu::Buffer) {
        (&self.frame_buf, &self.effect_buf)
    }
}

/// Limit a frame's request to the pool's capacity (anything beyond it must drop anyway);
/// later emitters lose first. The excess is counted as dropped by the caller.
pub fn clamp_request(counts: &[u64], capacity: u32) -> Vec<u32> {
    let mut left = capacity as u64;
    counts
        .iter()
        .map(|&c| {
            let take = c.min(left);
            left -= take;
            take as u32
        })
        .collect()
}
