// emit.wgsl — spawn this frame's requested particles.
//
// One thread per requested spawn. Each thread pops an index from the dead list with an
// atomic; a pop that finds the list empty is undone and counted as dropped. The new
// particle is initialised from its emitter (every attribute mean ± variance) and appended
// to the current alive list. Emitted/dropped totals and the alive append use one global
// atomic per workgroup each.

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> dead_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> alive_list: array<u32>;
@group(0) @binding(3) var<storage, read_write> counters: Counters;
@group(0) @binding(4) var<uniform> emit: EmitUniforms;
@group(0) @binding(5) var<uniform> effect: EffectParams;
@group(0) @binding(6) var<storage, read> bodies: array<Body>;
// spawn_on_hit only: this frame's depth-collision hits (alive_list is then the live list)
@group(0) @binding(7) var<storage, read> hit_events: array<HitEvent>;
// every mesh's triangles (the renderer's), for Mesh-shaped emitters
@group(0) @binding(8) var<storage, read> surface: array<SurfaceTriangle>;
// the effect's instances (emit.instances of them; src/instances.rs)
@group(0) @binding(9) var<storage, read> instances: array<InstanceGpu>;

var<workgroup> wg_emitted: atomic<u32>;
var<workgroup> wg_dropped: atomic<u32>;
var<workgroup> wg_base: u32;

fn emitter_of(ordinal: u32) -> u32 {
    var e = 0u;
    for (var i = 1u; i < emit.emitter_count; i++) {
        if ordinal >= emit.emitters[i].spawn_first {
            e = i;
        }
    }
    return e;
}

// Where a particle is born, and the surface normal there (zero where the shape has none).
struct SpawnPoint {
    pos: vec3<f32>,
    normal: vec3<f32>,
}

fn spawn_point(em: EmitterParams, state: ptr<function, u32>) -> SpawnPoint {
    switch em.shape {
        case SHAPE_BOX: {
            let ux = rand01(state);
            let uy = rand01(state);
            let uz = rand01(state);
            return SpawnPoint(mix(em.p0.xyz, em.p1.xyz, vec3<f32>(ux, uy, uz)), vec3<f32>(0.0));
        }
        case SHAPE_SPHERE: {
            let dir = unit_vector(state);
            let u = rand01(state);
            return SpawnPoint(em.p0.xyz + dir * (em.p0.w * pow(u, 1.0 / 3.0)), dir);
        }
        case SHAPE_SPHERE_SURFACE: {
            let dir = unit_vector(state);
            return SpawnPoint(em.p0.xyz + dir * em.p0.w, dir);
        }
        case SHAPE_DISK: {
            let n = normalize(em.p1.xyz);
            let helper = select(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), abs(n.x) > 0.9);
            let t = normalize(cross(n, helper));
            let b = cross(n, t);
            let u = rand01(state);
            let phi = TAU * rand01(state);
            let r = em.p0.w * sqrt(u);
            return SpawnPoint(em.p0.xyz + (t * cos(phi) + b * sin(phi)) * r, n);
        }
        case SHAPE_EXP_DISK: {
            // p0 = (normal, max radius), p1 = (thickness, body, -, scale length)
            let b = bodies[u32(em.p1.y)];
            let n = normalize(em.p0.xyz);
            let helper = select(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), abs(n.x) > 0.9);
            let t = normalize(cross(n, helper));
            let bt = cross(n, t);
            // exponential surface density: r = -h ln(u1 u2) (a Gamma(2) draw), cut at max
            let u1 = rand01(state);
            let u2 = rand01(state);
            let r = min(-em.p1.w * log(max(u1 * u2, 1e-12)), em.p0.w);
            let phi = TAU * rand01(state);
            let h = em.p1.x * (rand01(state) - 0.5);
            return SpawnPoint(b.pos + (t * cos(phi) + bt * sin(phi)) * r + n * h, n);
        }
        case SHAPE_MESH: {
            // p0 = (centre, -), p1 = (first triangle, count as bits, scale, -)
            let u = rand01(state);
            let t = surface[pick_triangle(bitcast<u32>(em.p1.x), bitcast<u32>(em.p1.y), u)];
            let r1 = rand01(state);
            let r2 = rand01(state);
            let on = surface_point(t, r1, r2);
            return SpawnPoint(em.p0.xyz + on.pos * em.p1.z, on.normal);
        }
        default: {
            return SpawnPoint(em.p0.xyz, vec3<f32>(0.0));
        }
    }
}

// The triangle of surface[first .. first + count] a uniform u in [0, 1) picks: the first
// whose running area fraction exceeds u, so each is picked by its share of the area.
fn pick_triangle(first: u32, count: u32, u: f32) -> u32 {
    var lo = first;
    var hi = first + count - 1u;
    while lo < hi {
        let mid = (lo + hi) / 2u;
        if surface[mid].a.w > u {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    return lo;
}

// A uniform point on t for uniform r1, r2 in [0, 1) (the half of the square past the
// diagonal folded back) and the corner normals interpolated there.
fn surface_point(t: SurfaceTriangle, u1: f32, u2: f32) -> SpawnPoint {
    var r1 = u1;
    var r2 = u2;
    if r1 + r2 > 1.0 {
        r1 = 1.0 - r1;
        r2 = 1.0 - r2;
    }
    let pos = t.a.xyz + (t.b.xyz - t.a.xyz) * r1 + (t.c.xyz - t.a.xyz) * r2;
    var n = t.na.xyz * (1.0 - r1 - r2) + t.nb.xyz * r1 + t.nc.xyz * r2;
    if length(n) <= 1e-6 {
        // opposite corner normals cancel here: the face's own normal
        n = cross(t.b.xyz - t.a.xyz, t.c.xyz - t.a.xyz);
    }
    return SpawnPoint(pos, normalize(n));
}

// Circular velocity about body b at x in the plane facing n (softened point mass).
fn orbit_velocity(b: Body, x: vec3<f32>, n: vec3<f32>) -> vec3<f32> {
    let d = x - b.pos;
    let axis = normalize(n);
    let radial = d - axis * dot(d, axis);
    let r = length(radial);
    if r < 1e-6 {
        return b.vel;
    }
    let r2 = r * r + b.softening * b.softening;
    let speed = sqrt(effect.body_g * b.mass * r * r / (r2 * sqrt(r2)));
    return b.vel + normalize(cross(axis, radial)) * speed;
}

// When within the frame spawn k of an emitter is born, as a fraction of the frame: its
// bursts together when they are due, then the rest one after another at even intervals.
fn birth_fraction(em: EmitterParams, k: u32) -> f32 {
    if k < em.burst_count {
        return em.burst_at;
    }
    let spread = max(em.spawn_count - em.burst_count, 1u);
    return (f32(k - em.burst_count) + 0.5) / f32(spread);
}

fn spawn_particle(ordinal: u32) -> Particle {
    // an instanced effect's request is its instances' in turn, each per_instance long
    var instance = NO_INSTANCE;
    var k = ordinal;
    if emit.instances > 0u {
        instance = ordinal / emit.per_instance;
        k = ordinal - instance * emit.per_instance;
    }
    let e = emitter_of(k);
    var p = spawn_from(e, emit.id_base + ordinal);
    p.flags = (instance << FLAG_INSTANCE_SHIFT) | FLAG_LIVE;
    // born at its own time in the frame, where the host's transform had the emitter then
    let em = emit.emitters[e];
    let f = birth_fraction(em, k - em.spawn_first);
    var start = em.start;
    var end = em.end;
    if emit.instances > 0u {
        let placed = instances[instance];
        start = placed.start * start;
        end = placed.end * end;
    }
    // a + (b - a) f rather than mix: exact where the emitter stood still (a = b), as in
    // the CPU twin
    let local = vec4<f32>(p.pos, 1.0);
    let pos0 = (start * local).xyz;
    p.pos = pos0 + ((end * local).xyz - pos0) * f;
    let vel0 = (start * vec4<f32>(p.vel, 0.0)).xyz;
    p.vel = vel0 + ((end * vec4<f32>(p.vel, 0.0)).xyz - vel0) * f;
    // simulate steps every particle by the whole frame: one born later starts that much
    // younger and that much further back along its flight, so a frame's spawns leave the
    // emitter as a stream rather than one clump
    let late = f * emit.frame;
    p.age = -late;
    p.rotation -= p.spin * late;
    if effect.looks[e].anchored == 0u {
        p.pos -= p.vel * late;
    }
    return p;
}

// A particle of emitter e with id `id` (its random stream follows from the id).
fn spawn_from(e: u32, id: u32) -> Particle {
    let em = emit.emitters[e];
    var state = pcg_hash(id ^ pcg_hash(effect.seed));

    var p: Particle;
    let at = spawn_point(em, &state);
    p.pos = at.pos;
    if em.velocity_mode == VELOCITY_NORMAL {
        p.vel = at.normal * rand_range(&state, em.vel_mean.w, em.vel_var.w);
    } else if em.velocity_mode == VELOCITY_RADIAL {
        let dir = unit_vector(&state);
        let speed = rand_range(&state, em.vel_mean.w, em.vel_var.w);
        p.vel = dir * speed;
    } else if em.velocity_mode == VELOCITY_ORBIT {
        // mean = (body, dispersion), var = (normal)
        let b = bodies[u32(em.vel_mean.x)];
        let sx = rand_range(&state, 0.0, em.vel_mean.y);
        let sy = rand_range(&state, 0.0, em.vel_mean.y);
        let sz = rand_range(&state, 0.0, em.vel_mean.y);
        p.vel = orbit_velocity(b, p.pos, em.vel_var.xyz) + vec3<f32>(sx, sy, sz);
    } else {
        let vx = rand_range(&state, em.vel_mean.x, em.vel_var.x);
        let vy = rand_range(&state, em.vel_mean.y, em.vel_var.y);
        let vz = rand_range(&state, em.vel_mean.z, em.vel_var.z);
        p.vel = vec3<f32>(vx, vy, vz);
    }
    p.age = 0.0;
    p.lifetime = max(rand_range(&state, em.life_size.x, em.life_size.y), 1e-6);
    let cr = rand_range(&state, em.color_mean.x, em.color_var.x);
    let cg = rand_range(&state, em.color_mean.y, em.color_var.y);
    let cb = rand_range(&state, em.color_mean.z, em.color_var.z);
    let ca = rand_range(&state, em.color_mean.w, em.color_var.w);
    p.color = pack4x8unorm(vec4<f32>(cr, cg, cb, ca));
    p.size = max(rand_range(&state, em.life_size.z, em.life_size.w), 0.0);
    p.rotation = rand_range(&state, em.rot_spin.x, em.rot_spin.y);
    p.spin = rand_range(&state, em.rot_spin.z, em.rot_spin.w);
    p.id = id;
    p.emitter = e;
    p.flags = (NO_INSTANCE << FLAG_INSTANCE_SHIFT) | FLAG_LIVE;
    p.settled_at = 0.0;
    return p;
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
