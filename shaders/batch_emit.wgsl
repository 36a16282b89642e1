// batch_emit.wgsl — emit.wgsl's `main` for many small pools in one dispatch: the pools
// sized per slot of one chunk of the arena (src/arena.rs) whose effects are placed once
// and have no massive bodies (src/renderer/batched.rs). Workgroup row y is pool
// `members[y]`, its workgroup x that pool's spawns 64x..64x+63 of the frame (the batch is
// dispatched for its largest request): which pool a thread serves comes from its
// workgroup, so its entry, its effect's constants and its frame's request are the same
// for the whole workgroup, and its emitters are read from the table where they are. Each
// spawn is born as emit.wgsl's (spawn.wgsl), popped off the pool's dead list and appended
// to its alive list with one atomic a workgroup.

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
// (read only; bound for writing as the alive lists beside it in the same buffer are)
@group(0) @binding(1) var<storage, read_write> dead_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> alive_list: array<u32>;
// each pool's counters, then room up to the next (256 bytes: 2 Counters a pool)
@group(0) @binding(3) var<storage, read_write> counters: array<Counters>;
@group(0) @binding(4) var<storage, read> members: array<BatchMember>;
@group(0) @binding(5) var<storage, read> effects: array<EffectParams>;
// each member's emit uniforms (written when its emitters change: their spawns, head and
// all, are read from `spawns`)
@group(0) @binding(6) var<storage, read> emits: array<EmitUniforms>;
// every mesh's triangles (the renderer's), for Mesh-shaped emitters
@group(0) @binding(7) var<storage, read> surface: array<SurfaceTriangle>;

// One emitter's spawns of the frame (src/passes/batch_emit.rs, EmitterSpawns).
struct EmitterSpawns {
    first: u32,
    count: u32,
    burst_count: u32,
    burst_at: f32,
}

// One member's spawns of the frame: its emit uniforms' head and its emitters' spawns
// (src/passes/batch_emit.rs, BatchSpawns), the part of them written every frame.
struct BatchSpawns {
    request: u32,
    id_base: u32,
    emitter_count: u32,
    step: f32,
    frame: f32,
    instances: u32,
    per_instance: u32,
    time: f32,
    emitters: array<EmitterSpawns, MAX_EMITTERS>,
}

@group(0) @binding(8) var<uniform> spawns: array<BatchSpawns, BATCH_ROWS>;

// This workgroup's row of the tables.
var<private> row: u32;

fn emitter(e: u32) -> EmitterParams {
    var params = emits[row].emitters[e];
    let s = spawns[row].emitters[e];
    params.spawn_first = s.first;
    params.spawn_count = s.count;
    params.burst_count = s.burst_count;
    params.burst_at = s.burst_at;
    return params;
}

fn anchored(e: u32) -> bool {
    return effects[row].looks[e].anchored != 0u;
}

fn body(k: u32) -> Body {
    return Body(); // never read: a batched effect has no bodies
}

fn instance_at(k: u32) -> InstanceGpu {
    return InstanceGpu(); // never read: a batched effect is placed once
}

var<workgroup> wg_emitted: atomic<u32>;
var<workgroup> wg_dropped: atomic<u32>;
var<workgroup> wg_base: u32;

const NO_SLOT: u32 = 0xffffffffu;

// A slot of the pool off its dead list (emit.wgsl pop_dead, in the pool's range); NO_SLOT
// when the list is empty (the pop undone, counted as dropped).
fn pop_dead(pool: BatchMember, c: u32) -> u32 {
    let old = atomicSub(&counters[c].dead, 1);
    if old > 0 {
        return dead_list[pool.first + u32(old - 1)];
    }
    atomicAdd(&counters[c].dead, 1);
    atomicAdd(&wg_dropped, 1u);
    return NO_SLOT;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    row = wid.y;
    let pool = members[row];
    let c = pool.counters * COUNTERS_PER_POOL;
    let request = spawns[row].request;
    spawning = Spawning(
        spawns[row].id_base,
        spawns[row].emitter_count,
        spawns[row].frame,
        spawns[row].instances,
        spawns[row].per_instance,
        effects[row].seed,
        effects[row].body_g,
    );
    let ordinal = wid.x * 64u + lid;
    if ordinal == 0u {
        // as emit.wgsl's first thread: what reached the GPU, and no hit events yet
        if carries(atomicAdd(&counters[c].requested, request), request) {
            atomicAdd(&counters[c].requested_hi, 1u);
        }
        atomicStore(&counters[c].events, 0u);
    }
    var slot = 0u;
    var local = 0u;
    var emitted = false;
    if ordinal < request {
        slot = pop_dead(pool, c);
        if slot != NO_SLOT {
            particles[pool.first + slot] = spawn_particle(ordinal);
            local = atomicAdd(&wg_emitted, 1u);
            emitted = true;
        }
    }
    // the workgroup's spawns join the pool's alive list and its totals
    workgroupBarrier();
    if lid == 0u {
        let n = atomicLoad(&wg_emitted);
        let d = atomicLoad(&wg_dropped);
        if n > 0u {
            wg_base = atomicAdd(&counters[c].alive, n);
            if carries(atomicAdd(&counters[c].emitted, n), n) {
                atomicAdd(&counters[c].emitted_hi, 1u);
            }
        }
        if d > 0u {
            if carries(atomicAdd(&counters[c].dropped, d), d) {
                atomicAdd(&counters[c].dropped_hi, 1u);
            }
        }
    }
    workgroupBarrier();
    if emitted {
        alive_list[pool.first + wg_base + local] = slot;
    }
}
