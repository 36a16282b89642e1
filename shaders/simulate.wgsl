// simulate.wgsl — advance every particle of one pool by one step (step.wgsl: forces and
// Euler), with what a pool batched with others never has (batch_simulate.wgsl): depth
// collision (bounce, kill or settle) against the previous frame's depth, the pull of the
// effect's massive bodies (bodies.wgsl moves them after this pass), an acceleration a pass
// before wrote, deaths as events. Survivors are appended to the next alive list, the dead
// to the dead list, events to the hit-event buffer.
//
// Each effect gets its own variant (src/passes/simulate.rs, SimulateVariant): the features
// below and in step.wgsl it does not use are compiled out. CPU drivers run both sides of
// every branch under a mask, taken or not, so a feature's code costs its full work whether
// or not a single particle uses it (on lavapipe, 1M stars: see docs/measurements.md).
// The depth collision's response, COLLIDE_NONE to COLLIDE_SETTLE: a constant, as is every
// branch of this shader's on what the effect's uniforms hold. Mesa 22.3's lavapipe compiles
// a shader again at every bind, keeping each copy, when inlining the values its branches
// test removes enough of it (a branch on a response, or on whether the previous frame's
// depth exists, grew a process by half a megabyte a frame).
override COLLIDE: u32 = 3u;
override BODIES: u32 = 5u;      // massive bodies pull: none, 1 to 4 of them, or BODIES_ANY
const BODIES_ANY: u32 = 5u;     // any number of bodies, pulled in a loop
override PASS_ACCEL: u32 = 1u;  // a pass before wrote an acceleration per particle
override DEATHS: u32 = 1u;      // some emitter's deaths are events
override HOST_EVENTS: u32 = 1u; // hits or deaths reach the host (frame.events says which)

@group(0) @binding(0) var<storage, read_write> particles: array<ParticleWords>;
// the pool's three lists (src/pool.rs, PoolLists), one binding rather than three (WebGPU
// allows a stage 8 storage buffers): from entry 0 the current alive list (`main` steps the
// particles it lists, `over_slots` lists its survivors in it: nothing to copy back, as
// args.wgsl after_simulate sizes relist to nothing), from lists_apart() the next alive list
// (`main`'s survivors, which relist.wgsl copies back), from twice that the dead list
@group(0) @binding(1) var<storage, read_write> lists: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
@group(0) @binding(3) var<uniform> frame: FrameUniforms;
@group(0) @binding(4) var<uniform> effect: EffectParams;
// a uniform binding of the bodies' storage buffer (bodies.wgsl moves them): every thread
// reads the same few bodies, which CPU drivers load once for a whole SIMD group from a
// uniform buffer but lane by lane from a storage buffer (3x the cost of the pull itself)
@group(0) @binding(5) var<uniform> bodies: array<Body, MAX_BODIES>;
@group(0) @binding(6) var<storage, read_write> hit_events: array<HitEvent>;
// per particle slot: gravity.wgsl's all-pairs pull or flock.wgsl's steering
@group(0) @binding(7) var<storage, read> pass_accel: array<vec4<f32>>;
// what the effect's update stacks read (graph.wgsl): its parameters, its curves and
// gradients (the rows of a float texture), its own attributes (GRAPH_STRIDE words a slot,
// one word where it has none)
@group(0) @binding(8) var<uniform> graph_params: GraphParams;
@group(0) @binding(9) var<storage, read_write> graph_attributes: array<u32>;
// where the host placed the effect's instances (src/instances.rs), for its stacks
@group(0) @binding(10) var<storage, read> instances: array<InstanceGpu>;
// the events for the host since the buffer was last read back (src/system/events.rs)
@group(0) @binding(11) var<storage, read_write> host_events: HostEvents;
@group(0) @binding(12) var graph_table: texture_2d<f32>;

// Entries from one of the pool's lists to the next: the binding ends with the dead list,
// as long as the pool.
fn lists_apart() -> u32 {
    return (arrayLength(&lists) - effect.capacity) / 2u;
}

// The dead list's entry `k` becomes `slot` (step.wgsl lists the dead so).
fn put_dead(k: u32, slot: u32) {
    lists[2u * lists_apart() + k] = slot;
}

struct HostEvents {
    head: EventHeader,
    events: array<HostEvent>,
}

fn instance_at(k: u32) -> InstanceGpu {
    return instances[k];
}

fn graph_time() -> f32 {
    return frame.time;
}

fn graph_dt() -> f32 {
    return frame.dt;
}

// Depth collision against the previous frame's host depth (at the particle target's
// resolution: the farthest and nearest distance of each footprint, downsample.wgsl) seen
// through the previous frame's view.
struct CollisionFrame {
    prev_view_proj: mat4x4<f32>,
    prev_inv_view_proj: mat4x4<f32>,
    prev_view_depth: vec4<f32>,  // distance along its view axis: dot(., vec4(x, 1))
    prev_depth: DepthMapping,    // its projection's depth convention
    // where it looked from: its eye (w = 1), or towards it (orthographic, w = 0)
    prev_viewer: vec4<f32>,
    enabled: u32,        // 0 until a previous frame with host depth exists (prev_view_proj then zero)
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(1) @binding(0) var prev_depth: texture_2d<f32>;
@group(1) @binding(1) var<uniform> collision: CollisionFrame;

// Where a world position lands in the previous frame.
struct Projected {
    texel: vec2<i32>,
    distance: f32,       // along the view axis
    on_screen: bool,
}

fn project(x: vec3<f32>) -> Projected {
    var out: Projected;
    out.on_screen = false;
    let c = collision.prev_view_proj * vec4<f32>(x, 1.0);
    if c.w <= 0.0 {
        return out;
    }
    let ndc = c.xyz / c.w;
    if abs(ndc.x) > 1.0 || abs(ndc.y) > 1.0 || ndc.z < 0.0 || ndc.z > 1.0 {
        return out;
    }
    let size = vec2<i32>(textureDimensions(prev_depth));
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    out.texel = clamp(vec2<i32>(uv * vec2<f32>(size)), vec2<i32>(0), size - 1);
    out.distance = dot(collision.prev_view_depth, vec4<f32>(x, 1.0));
    out.on_screen = true;
    return out;
}

// The surface's distance in a stored texel (farthest, nearest of its footprint): the
// middle of the footprint's range (exact for a plane; the farthest alone lies off the plane
// where the footprint slopes), or the nearest where the footprint also sees the background.
fn surface_distance(d: vec2<f32>) -> f32 {
    if d.x >= FAR_AWAY {
        return d.y;
    }
    return 0.5 * (d.x + d.y);
}

// World position of the surface at `distance` seen through the centre of texel t.
fn surface_point(t: vec2<i32>, distance: f32) -> vec3<f32> {
    let uv = (vec2<f32>(t) + 0.5) / vec2<f32>(textureDimensions(prev_depth));
    let depth = distance_depth(distance, collision.prev_depth);
    let ndc = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, depth, 1.0);
    let w = collision.prev_inv_view_proj * ndc;
    return w.xyz / w.w;
}

// The surface vector from c (the point at texel t, distance d) towards its neighbour along
// one axis, signed as +axis, on the side with the smaller depth step (the other side may
// cross a silhouette); `plus` and `minus` are the neighbours' stored texels and whether
// each lies inside the texture.
fn tangent(t: vec2<i32>, axis: vec2<i32>, c: vec3<f32>, d: f32, plus: vec2<f32>, minus: vec2<f32>, has: vec2<bool>) -> vec3<f32> {
    let d_plus = surface_distance(plus);
    let d_minus = surface_distance(minus);
    let use_plus = has.x && (!has.y || abs(d_plus - d) <= abs(d - d_minus));
    // one neighbour's point, whichever side: CPU drivers would compute both branches
    let n = surface_point(t + select(-axis, axis, use_plus), select(d_minus, d_plus, use_plus));
    return select(c - n, n - c, use_plus);
}

// The depth texels a collision test reads, each loaded once: the particle's and its four
// neighbours (clamped at the edges; `inside` says which lie within the texture).
struct Footprint {
    centre: vec2<f32>,
    left: vec2<f32>,
    right: vec2<f32>,
    up: vec2<f32>,
    down: vec2<f32>,
    inside: vec4<bool>,  // right, left, down, up
}

fn footprint(t: vec2<i32>) -> Footprint {
    let size = vec2<i32>(textureDimensions(prev_depth));
    let last = size - 1;
    var f: Footprint;
    f.centre = textureLoad(prev_depth, t, 0).rg;
    f.right = textureLoad(prev_depth, min(t + vec2<i32>(1, 0), last), 0).rg;
    f.left = textureLoad(prev_depth, max(t - vec2<i32>(1, 0), vec2<i32>(0)), 0).rg;
    f.down = textureLoad(prev_depth, min(t + vec2<i32>(0, 1), last), 0).rg;
    f.up = textureLoad(prev_depth, max(t - vec2<i32>(0, 1), vec2<i32>(0)), 0).rg;
    let plus = t < last;
    let minus = t > vec2<i32>(0);
    f.inside = vec4<bool>(plus.x, minus.x, plus.y, minus.y);
    return f;
}

// The stored surface's depth interval, (front, back), widened half-way towards neighbour
// texel n's unless n sees only the background.
fn widen(interval: vec2<f32>, own: vec2<f32>, n: vec2<f32>) -> vec2<f32> {
    if n.y >= FAR_AWAY {
        return interval;
    }
    let nb_back = select(n.y, n.x, n.x < FAR_AWAY);
    return vec2<f32>(min(interval.x, 0.5 * (own.x + n.y)), max(interval.y, 0.5 * (own.y + nb_back)));
}

// The events this frame (collision hits, deaths that spawn), as many as the buffer holds;
// the count keeps rising past it so the spawn pass can clamp.
fn push_event(ev: HitEvent) {
    let e = atomicAdd(&counters.events, 1u);
    if e < arrayLength(&hit_events) {
        hit_events[e] = ev;
    }
}

// An event of kind `kind` for the host, if it listens to that kind this frame: counted
// whether or not the buffer has room, so that the host knows how many it lost.
fn report(kind: u32, x: vec3<f32>, v: vec3<f32>, n: vec3<f32>, emitter: u32) {
    if HOST_EVENTS == 1u && (frame.events & (1u << kind)) != 0u {
        let e = atomicAdd(&host_events.head.count, 1u);
        if carries(atomicAdd(&host_events.head.total, 1u), 1u) {
            atomicAdd(&host_events.head.total_hi, 1u);
        }
        if e < arrayLength(&host_events.events) {
            host_events.events[e] = HostEvent(x, kind, v, emitter, n, frame.time);
        }
    }
}

// The particle moved to *x (velocity *v): if it crossed the stored surface
// from the front and is behind it by less than the thickness, respond. Returns false
// when the response kills it. Off-screen positions and the background never collide.
fn collide(p: ptr<function, Particle>, x: ptr<function, vec3<f32>>, v: ptr<function, vec3<f32>>) -> bool {
    let now = project(*x);
    if !now.on_screen {
        return true;
    }
    let f = footprint(now.texel);
    if f.centre.y >= FAR_AWAY {
        return true; // nothing but the background here
    }
    // The surface spans the depths the texel's footprint samples, widened half-way towards
    // its four neighbours' (the samples sit at pixel centres, so the continuous footprint
    // reaches half a sample beyond them: on ground seen at a grazing angle that is tens of
    // cm). The far plane, where a footprint also sees the background, is not a surface.
    // Deeper than the interval by the thickness or more, the particle is passing behind
    // an object.
    let own = vec2<f32>(f.centre.y, select(f.centre.y, f.centre.x, f.centre.x < FAR_AWAY));
    var interval = widen(own, own, f.left);
    interval = widen(interval, own, f.right);
    interval = widen(interval, own, f.up);
    interval = widen(interval, own, f.down);
    if now.distance <= interval.x || now.distance >= interval.y + effect.thickness {
        return true;
    }
    if carries(atomicAdd(&counters.hits, 1u), 1u) {
        atomicAdd(&counters.hits_hi, 1u); // the 64-bit total's high word
    }
    // the surface's normal at the texel from the footprint's points, facing the view that
    // stored it: the side the particle came from, as it crossed the surface from in front
    // (its position before the step may lie behind another part of the footprint's
    // surface, on a slope or an edge: it once turned 7 % of snow's hits on hills upside
    // down, settling flakes a millimetre under the ground)
    let d = surface_distance(f.centre);
    let c = surface_point(now.texel, d);
    let tx = tangent(now.texel, vec2<i32>(1, 0), c, d, f.right, f.left, f.inside.xy);
    let ty = tangent(now.texel, vec2<i32>(0, 1), c, d, f.down, f.up, f.inside.zw);
    var n = normalize(cross(tx, ty));
    let viewer = collision.prev_viewer;
    if dot(n, viewer.xyz - c * viewer.w) < 0.0 {
        n = -n;
    }
    // back onto the surface along its normal, a millimetre in front
    let onto = *x - n * (dot(*x - c, n) - 1e-3);
    push_event(HitEvent(onto, (*p).id, n, max(-dot(*v, n), 0.0)));
    report(EVENT_HIT, onto, *v, n, (*p).emitter);
    if COLLIDE == COLLIDE_KILL {
        return false;
    }
    *x = onto;
    if COLLIDE == COLLIDE_SETTLE {
        *v = vec3<f32>(0.0);
        respin(p, 0.0);
        (*p).flags = (*p).flags | FLAG_SETTLED;
        (*p).settled_at = (*p).age;
        return true;
    }
    let vn = dot(*v, n);
    if vn < 0.0 {
        let tangential = *v - vn * n;
        *v = tangential * (1.0 - effect.friction) - effect.restitution * vn * n;
        // the surface grips a tumbling particle as it slows it: debris comes to rest
        // rather than spinning in place
        respin(p, (*p).spin * (1.0 - effect.friction));
    }
    return true;
}

// What the effect adds to gravity and drag at x (slot `slot`): its bodies' pull, and the
// acceleration a pass before wrote. Up to four bodies are pulled by as many calls, each
// with a constant index: on lavapipe the loop over the galaxy's two bodies cost 3 ms of
// its 23 ms step at 1M stars (any loop does, even one that runs no iteration), and a body
// read at an index the driver cannot tell is the same for every lane is read lane by lane.
fn pull(x: vec3<f32>, slot: u32) -> vec3<f32> {
    var a = vec3<f32>(0.0);
    if BODIES == BODIES_ANY {
        for (var i = 0u; i < min(effect.body_count, MAX_BODIES); i++) {
            a += body_accel(bodies[i], x, effect.body_g);
        }
    } else {
        if BODIES >= 1u {
            a += body_accel(bodies[0], x, effect.body_g);
        }
        if BODIES >= 2u {
            a += body_accel(bodies[1], x, effect.body_g);
        }
        if BODIES >= 3u {
            a += body_accel(bodies[2], x, effect.body_g);
        }
        if BODIES >= 4u {
            a += body_accel(bodies[3], x, effect.body_g);
        }
    }
    if PASS_ACCEL == 1u {
        a += pass_accel[slot].xyz;
    }
    return a;
}

// The scene's response to the particle's move from where it was to *x (velocity *v):
// false when a collision kills it. The particles an emitter spawns at hits never collide.
fn meet_scene(p: ptr<function, Particle>, x: ptr<function, vec3<f32>>, v: ptr<function, vec3<f32>>) -> bool {
    if COLLIDE != COLLIDE_NONE {
        let e = (*p).emitter;
        // (`&` and `|`, not `&&` and `||`, which branch on the uniform alone)
        let spawned_by_hits = ((effect.hit_count > 0u) & (e == effect.hit_emitter))
            | ((effect.hit_count2 > 0u) & (e == effect.hit_emitter2));
        // (no test of collision.enabled: without a previous frame's depth its matrix is
        // zero, and `project` finds every position off screen)
        if !spawned_by_hits {
            return collide(p, x, v);
        }
    }
    return true;
}

// A death at x with velocity v: an event where the effect's deaths spawn (rockets
// bursting), with no surface normal.
fn on_death(p: Particle, x: vec3<f32>, v: vec3<f32>) {
    if DEATHS == 1u && p.emitter == effect.death_source {
        push_event(HitEvent(x, p.id, vec3<f32>(0.0), length(v)));
    }
}

// A particle's end, whatever ended it (`p` as its last step left it): an event for the
// host.
fn on_end(p: Particle) {
    report(EVENT_DEATH, p.pos, p.vel, vec3<f32>(0.0), p.emitter);
}

// Where the workgroup's `survivors` and `dead` start in the next alive list and the dead
// list; its `non_finite` counted.
fn claim(survivors: u32, dead: u32, non_finite: u32) -> vec2<u32> {
    var bases = vec2<u32>(0u);
    if survivors > 0u {
        bases.x = atomicAdd(&counters.next_alive, survivors);
    }
    if dead > 0u {
        bases.y = u32(atomicAdd(&counters.dead, i32(dead)));
    }
    if non_finite > 0u && carries(atomicAdd(&counters.non_finite, non_finite), non_finite) {
        atomicAdd(&counters.non_finite_hi, 1u);
    }
    return bases;
}

// One thread per particle of the alive list, read through it; the survivors to the next
// list.
@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    let listed = i < atomicLoad(&counters.alive);
    var index = 0u;
    var p: Particle;
    if listed {
        index = lists[i];
        p = particle_of(particles[index]);
    }
    let survives = advance(index, index, listed, p);
    let at = list(lid, index, listed, survives);
    if survives {
        lists[lists_apart() + at] = index;
    }
}

// One thread per slot, its particle read and written in place (a pool nearly full,
// args.wgsl): the same step as `main`, the survivors listed by slot straight into the
// current list, so that the cull then reads them in order and no relist copies them back.
// (Two entry points, not one that branches: on lavapipe a kernel holding both ways ran as
// slowly as the list's.)
@compute @workgroup_size(64)
fn over_slots(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    var live = false;
    var p: Particle;
    if i < effect.capacity {
        p = particle_of(particles[i]);
        live = is_live(p);
    }
    let survives = advance(i, i, live, p);
    let at = list(lid, i, live, survives);
    if survives {
        lists[at] = i;
    }
}
