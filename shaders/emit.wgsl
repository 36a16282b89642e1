// emit.wgsl — spawn this frame's requested particles.
//
// One thread per requested spawn. Each thread pops an index from the dead list with an
// atomic; a pop that finds the list empty is undone and counted as dropped. The new
// particle is initialised from its emitter (spawn.wgsl: every attribute mean ± variance)
// and appended to the current alive list. Emitted/dropped totals and the alive append use
// one global atomic per workgroup each. (Many small pools emit a dispatch for all,
// batch_emit.wgsl.)

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
// (read only; bound for writing as the alive list beside it in the same buffer is)
@group(0) @binding(1) var<storage, read_write> dead_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> alive_list: array<u32>;
@group(0) @binding(3) var<storage, read_write> counters: Counters;
@group(0) @binding(4) var<uniform> emit: EmitUniforms;
@group(0) @binding(5) var<uniform> effect: EffectParams;
// the bodies where they are now, as simulate binds them (a uniform, one storage buffer
// fewer: WebGPU allows a stage 8)
@group(0) @binding(6) var<uniform> bodies: array<Body, MAX_BODIES>;
// spawn_on_hit only: this frame's depth-collision hits (alive_list is then the live list)
@group(0) @binding(7) var<storage, read> hit_events: array<HitEvent>;
// every mesh's triangles (the renderer's), for Mesh-shaped emitters
@group(0) @binding(8) var<storage, read> surface: array<SurfaceTriangle>;
// the effect's instances (emit.instances of them; src/instances.rs)
@group(0) @binding(9) var<storage, read> instances: array<InstanceGpu>;
// what the effect's init stacks read (graph.wgsl): its parameters, its own attributes
// (GRAPH_STRIDE words a slot, one word where it has none), its curves and gradients (the
// rows of a float texture)
@group(0) @binding(10) var<uniform> graph_params: GraphParams;
@group(0) @binding(11) var<storage, read_write> graph_attributes: array<u32>;
@group(0) @binding(12) var graph_table: texture_2d<f32>;

fn graph_time() -> f32 {
    return emit.time;
}

fn graph_dt() -> f32 {
    return emit.step;
}

var<workgroup> wg_emitted: atomic<u32>;
var<workgroup> wg_dropped: atomic<u32>;
var<workgroup> wg_base: u32;

// The spawns' hooks (spawn.wgsl): this effect's emitters, bodies and instances.
fn emitter(e: u32) -> EmitterParams {
    return emit.emitters[e];
}

fn anchored(e: u32) -> bool {
    return effect.looks[e].anchored != 0u;
}

fn body(k: u32) -> Body {
    return bodies[k];
}

fn instance_at(k: u32) -> InstanceGpu {
    return instances[k];
}

// What the spawns read of this frame's request and the effect (every entry point's first
// step).
fn begin_spawning() {
    spawning = Spawning(
        emit.id_base,
        emit.emitter_count,
        emit.frame,
        emit.instances,
        emit.per_instance,
        effect.seed,
        effect.body_g,
    );
}

// The workgroup's spawns join the alive list and the totals: one global atomic per
// workgroup for each (called by every invocation, in uniform control flow).
fn append_spawned(lid: u32, emitted: bool, slot: u32, local: u32) {
    workgroupBarrier();
    if lid == 0u {
        let n = atomicLoad(&wg_emitted);
        let d = atomicLoad(&wg_dropped);
        if n > 0u {
            wg_base = atomicAdd(&counters.alive, n);
            add_emitted(n);
        }
        if d > 0u {
            add_dropped(d);
        }
    }
    workgroupBarrier();
    if emitted {
        alive_list[wg_base + local] = slot;
    }
}

// The 64-bit totals (Counters in common.wgsl): the low word, carried into the high one.
fn add_emitted(n: u32) {
    if carries(atomicAdd(&counters.emitted, n), n) {
        atomicAdd(&counters.emitted_hi, 1u);
    }
}

fn add_dropped(n: u32) {
    if carries(atomicAdd(&counters.dropped, n), n) {
        atomicAdd(&counters.dropped_hi, 1u);
    }
}

// Returns the low word before the addition (hit spawns number their ids by it).
fn add_hit_spawned(n: u32) -> u32 {
    let old = atomicAdd(&counters.hit_spawned, n);
    if carries(old, n) {
        atomicAdd(&counters.hit_spawned_hi, 1u);
    }
    return old;
}

const NO_SLOT: u32 = 0xffffffffu;

// Pops an index off the dead list; a pop that finds it empty is undone, counted as dropped
// and answers NO_SLOT.
fn pop_dead() -> u32 {
    let old = atomicSub(&counters.dead, 1);
    if old > 0 {
        return dead_list[u32(old - 1)];
    }
    atomicAdd(&counters.dead, 1);
    atomicAdd(&wg_dropped, 1u);
    return NO_SLOT;
}

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    begin_spawning();
    let ordinal = linear_index(gid, groups);
    if ordinal == 0u {
        // what reached the GPU: a frame the host recorded but never submitted asked nothing
        if carries(atomicAdd(&counters.requested, emit.request), emit.request) {
            atomicAdd(&counters.requested_hi, 1u);
        }
        // the frame's hit events start from none (a pool sized per slot has no argument
        // pass after emit to do it; it dispatches this thread even when nothing is asked)
        atomicStore(&counters.events, 0u);
    }
    var slot = 0u;
    var local = 0u;
    var emitted = false;
    if ordinal < emit.request {
        slot = pop_dead();
        if slot != NO_SLOT {
            graph_slot = slot;
            particles[slot] = spawn_particle(ordinal);
            local = atomicAdd(&wg_emitted, 1u);
            emitted = true;
        }
    }
    append_spawned(lid, emitted, slot, local);
}

// Particles spawned where this frame's collisions hit (and watched particles died):
// effect.hit_count per event by emitter effect.hit_emitter and effect.hit_count2 by
// effect.hit_emitter2, each one's shape is taken relative to the hit point and whose
// velocity is turned to the surface's side. Appended to the live list (after simulate).
// Ids carry the top bit, numbered by a GPU counter of such requests.
@compute @workgroup_size(64)
fn spawn_on_hit(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    begin_spawning();
    let i = linear_index(gid, groups);
    let events = atomicLoad(&counters.events);
    let per_event = effect.hit_count + effect.hit_count2;
    let request = hit_spawn_request(events, effect);
    if i == 0u {
        // the spawns past the pool's capacity: asked for, never dispatched, dropped
        let excess = hit_spawns_wanted(events, effect) - request;
        add_hit_spawned(excess);
        add_dropped(excess);
    }
    var slot = 0u;
    var local = 0u;
    var emitted = false;
    if i < request {
        let n = add_hit_spawned(1u);
        slot = pop_dead();
        if slot != NO_SLOT {
            let ev = hit_events[i / per_event];
            // the first hit_count spawns of an event by hit_emitter, the rest by hit_emitter2
            let first = i % per_event < effect.hit_count;
            let emitter = select(effect.hit_emitter2, effect.hit_emitter, first);
            graph_slot = slot;
            var p = spawn_from(emitter, 0x80000000u | (n & 0x7fffffffu));
            p.pos = ev.pos + p.pos;
            let into = dot(p.vel, ev.normal);
            if into < 0.0 {
                p.vel = p.vel - 2.0 * into * ev.normal;
            }
            particles[slot] = p;
            local = atomicAdd(&wg_emitted, 1u);
            emitted = true;
        }
    }
    append_spawned(lid, emitted, slot, local);
}

// Most points one trail lays in one simulate step (a step longer than this many trail
// intervals lays its last TRAIL_BURST; the trail is coarser there, never broken).
const TRAIL_BURST: u32 = 16u;

var<workgroup> wg_asked: atomic<u32>;

// Trails (effect.trail_emitter, a Trail trigger): every living particle of emitter
// effect.trail_source lays a point at each multiple k of effect.trail_every seconds of its
// age that this step passed (ages in [age - dt, age)), where it was then (going back
// along its velocity), by the trail emitter (its shape relative to that point, its colour
// tinting the parent's start colour). A point's
// id is trail_key(parent, k): its ribbon key, so a ribbon-drawn trail joins its points in
// the order they were laid. One thread per particle of the live list as it was before
// (counters.next_alive, set by args.wgsl before_trails); the points are appended to it.
@compute @workgroup_size(64)
fn spawn_trails(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    begin_spawning();
    let i = linear_index(gid, groups);
    var slots: array<u32, TRAIL_BURST>;
    var got = 0u;
    var asked = 0u;
    if i < atomicLoad(&counters.next_alive) {
        let parent = particles[alive_list[i]];
        if parent.emitter == effect.trail_source {
            let every = effect.trail_every;
            let first = u32(max(ceil((parent.age - emit.step) / every), 0.0));
            // (a parent born late in the frame is younger than 0 until its first substep ends)
            let end = min(u32(max(ceil(parent.age / every), 0.0)), TRAIL_POINTS);
            let start = max(first, max(end, TRAIL_BURST) - TRAIL_BURST);
            for (var k = start; k < end; k++) {
                asked += 1u;
                let slot = pop_dead();
                if slot != NO_SLOT {
                    graph_slot = slot;
                    var q = spawn_from(effect.trail_emitter, trail_key(parent.id, k));
                    q.pos += parent.pos - parent.vel * (parent.age - f32(k) * every);
                    // the parent's start colour, tinted by the trail emitter's own
                    let tint = unpack4x8unorm(q.color);
                    q.color = pack4x8unorm(unpack4x8unorm(parent.color) * tint);
                    particles[slot] = q;
                    slots[got] = slot;
                    got += 1u;
                }
            }
        }
    }
    let local = atomicAdd(&wg_emitted, got);
    atomicAdd(&wg_asked, asked);
    workgroupBarrier();
    if lid == 0u {
        let n = atomicLoad(&wg_emitted);
        if n > 0u {
            wg_base = atomicAdd(&counters.alive, n);
            add_emitted(n);
        }
        let d = atomicLoad(&wg_dropped);
        if d > 0u {
            add_dropped(d);
        }
        // what the trails asked for, with the events' spawns (requested = emitted + dropped)
        let a = atomicLoad(&wg_asked);
        if a > 0u {
            add_hit_spawned(a);
        }
    }
    workgroupBarrier();
    for (var j = 0u; j < got; j++) {
        alive_list[wg_base + local + j] = slots[j];
    }
}
