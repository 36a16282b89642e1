// batch_simulate.wgsl — simulate.wgsl's `main` for many small pools in one dispatch: the
// pools sized per slot of one chunk of the arena (src/arena.rs) whose effects compile to
// the same variant (src/renderer/batched.rs). Workgroup row y is pool `members[y]`, its
// workgroup x that pool's alive-list entries 64x..64x+63: which pool a thread serves comes
// from its workgroup, so the pool's entry, its effect's constants and its clock are the
// same for the whole workgroup (CPU drivers then load them once, where an index that
// varies per thread is read lane by lane). The step is step.wgsl's, as for one pool.
//
// A batched pool has no depth collision, no massive bodies, no acceleration from a pass
// before it and no deaths that spawn (src/passes/simulate.rs, SimulateVariant::batches):
// those need buffers of the pool's own, so such a pool simulates alone.
const COLLIDE: u32 = COLLIDE_NONE;

// What a step reads of a member's frame (its FrameUniforms' fields of the same names),
// written every frame.
struct StepClock {
    eye: vec3<f32>,
    dt: f32,
    time: f32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<storage, read_write> particles: array<ParticleWords>;
// the chunk's current and next alive lists and its dead lists: regions of one buffer
// (src/arena.rs), so each is bound for writing, as a binding of a buffer written
// elsewhere in the same dispatch must be
@group(0) @binding(1) var<storage, read_write> alive_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> alive_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> dead_list: array<u32>;
// each pool's counters, then room up to the next (256 bytes: 2 Counters a pool)
@group(0) @binding(4) var<storage, read_write> counters: array<Counters>;
@group(0) @binding(5) var<uniform> members: array<BatchMember, BATCH_ROWS>;
@group(0) @binding(6) var<uniform> effects: array<EffectParams, BATCH_ROWS>;
@group(0) @binding(7) var<uniform> clocks: array<StepClock, BATCH_ROWS>;

// This workgroup's pool: what step.wgsl reads as `effect` and `frame`, and where its
// particles, lists and counters are.
var<private> effect: EffectParams;
var<private> frame: StepClock;
var<private> pool: BatchMember;

fn pull(x: vec3<f32>, slot: u32) -> vec3<f32> {
    return vec3<f32>(0.0); // no bodies, no pass before
}

fn meet_scene(p: ptr<function, Particle>, x: ptr<function, vec3<f32>>, v: ptr<function, vec3<f32>>) -> bool {
    return true; // no collision
}

fn on_death(p: Particle, x: vec3<f32>, v: vec3<f32>) {
    // no deaths that spawn
}

fn on_end(p: Particle) {
    // no events for the host
}

// The dead list's entry `k` (of the chunk's) becomes `slot` (step.wgsl lists the dead so).
fn put_dead(k: u32, slot: u32) {
    dead_list[k] = slot;
}

// Where the workgroup's `survivors` and `dead` start in the chunk's next alive lists and
// dead lists: in the pool's ranges; its `non_finite` counted.
fn claim(survivors: u32, dead: u32, non_finite: u32) -> vec2<u32> {
    let c = pool.counters * COUNTERS_PER_POOL;
    var bases = vec2<u32>(pool.first);
    if survivors > 0u {
        bases.x += atomicAdd(&counters[c].next_alive, survivors);
    }
    if dead > 0u {
        bases.y += u32(atomicAdd(&counters[c].dead, i32(dead)));
    }
    if non_finite > 0u && carries(atomicAdd(&counters[c].non_finite, non_finite), non_finite) {
        atomicAdd(&counters[c].non_finite_hi, 1u);
    }
    return bases;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    pool = members[wid.y];
    effect = effects[wid.y];
    frame = clocks[wid.y];
    let i = wid.x * 64u + lid;
    let listed = i < atomicLoad(&counters[pool.counters * COUNTERS_PER_POOL].alive);
    var slot = 0u;
    var p: Particle;
    if listed {
        slot = alive_in[pool.first + i];
        p = particle_of(particles[pool.first + slot]);
    }
    let survives = advance(slot, pool.first + slot, listed, p);
    let at = list(lid, slot, listed, survives);
    if survives {
        alive_out[at] = slot;
    }
}
