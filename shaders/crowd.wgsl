// crowd.wgsl — walkers on a city map: each particle is a person with a state (idle, walk,
// run, …) from the effect's state table, a destination, and a clock that says when the state
// ends. Runs after the neighbour grid (grid.wgsl), before simulate (before each substep's),
// one thread per walker in the grid's order; it sets each walker's velocity (simulate then moves it: a crowd has no
// other force) and its pose.
//
// A walker in a state of speed > 0 heads down its destination's flow field (flow.wgsl: the
// unit step towards the destination, blended between the four cells around it), its heading
// swayed by up to `wander` radians on its own slow rhythm, at the speed it drew for the state;
// then
//   separation  Σ over walkers nearer than s of  separate · (1 − d/s) · (x − xj)/d  (horizontal)
//   walls       avoid · max(0, 1 − sdf/wall) · ∇sdf        (sdf.wgsl's distance, bilinear)
// are added, and its velocity turns towards the sum at `turn` per second, never faster than
// 1.5 × its speed. A walker never steps where its body (a square `radius` either side of it)
// would overlap a blocked cell: it slides along the wall, or stops. Arrived within `arrive`
// metres of the destination, it enters the `arrived` state and picks another destination.
// Whatever the state, when its clock runs out it draws the next state from the table's
// probabilities and a duration from an exponential of the state's mean, and a speed within
// its range. A new walker (a particle this walker slot has not seen) is placed on a random
// street cell that leads to every destination, in the table's first state.
//
// The state table (`states`, rgba32float, a row per state): texel 0 holds (least speed, most
// speed, mean seconds, gait), texels 1..4 the cumulative probabilities of the next state
// 0, 1, 2, … (four per texel). The pose written for mesh.wgsl: a walker's `rotation` is its
// gait plus the fraction of its cycle (mesh.wgsl turns it into the bones' poses).

struct CrowdParams {
    origin: vec2<f32>,   // the map's corner (x, z), metres
    width: u32,          // cells
    height: u32,
    cell: f32,           // metres
    destinations: u32,   // flow fields in `way`, one after another
    states: u32,         // rows of the state table
    arrived: u32,        // the state a walker enters on arrival
    arrive: f32,         // metres from the destination's centre
    separation: f32,     // s, metres
    separate: f32,       // m/s²
    wall: f32,           // metres from a wall where its push starts
    avoid: f32,          // m/s² at the wall
    wander: f32,         // radians
    turn: f32,           // per second
    radius: f32,         // metres a walker's body reaches either side
    ground: f32,         // height of the streets, metres
    seed: u32,
    _pad0: u32,
    _pad1: u32,
    goals: array<vec4<u32>, 4>, // the destinations' cells (index z·width + x), 16 at most
}

// One walker's state (32 bytes), per particle slot.
struct Walker {
    state: u32,          // row of the state table
    destination: u32,    // index of its destination
    timer: f32,          // seconds left in the state
    owner: u32,          // id of the particle this slot's walker is
    speed: f32,          // m/s drawn for the state
    phase: f32,          // cycles of its gait so far
    changes: u32,        // states entered so far (its random stream)
    assigned: u32,       // 1 once the slot holds a walker
}

// Gaits: what a state's figure does, and the metres one cycle (two steps) covers.
const GAIT_STAND: u32 = 0u;
const GAIT_WALK: u32 = 1u;
const GAIT_RUN: u32 = 2u;
const STRIDE_WALK: f32 = 1.4;
const STRIDE_RUN: f32 = 2.4;
// a standing figure's slow sway: cycles per second
const SWAY_HZ: f32 = 0.3;
const NO_WAY: f32 = 3.0e38;

@group(0) @binding(0) var<storage, read_write> counters: Counters;
@group(0) @binding(1) var<storage, read> buckets: array<u32>;
@group(0) @binding(2) var<storage, read> entries: array<GridEntry>;
@group(0) @binding(3) var<uniform> grid: GridParams;
@group(0) @binding(4) var<uniform> crowd: CrowdParams;
@group(0) @binding(5) var<uniform> frame: FrameUniforms;
@group(0) @binding(6) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(7) var<storage, read_write> walkers: array<Walker>;
// per destination, per cell: the unit step (x, z) towards it, its distance (flow.wgsl)
@group(0) @binding(8) var<storage, read> way: array<vec4<f32>>;
// per cell: metres to the nearest wall, negative inside buildings (sdf.wgsl)
@group(0) @binding(9) var<storage, read> sdf: array<f32>;
@group(0) @binding(10) var states: texture_2d<f32>;

fn cells() -> u32 {
    return crowd.width * crowd.height;
}

// The cell (x, z) a ground position lies in (may be off the map).
fn cell_at(x: vec2<f32>) -> vec2<i32> {
    return vec2<i32>(floor((x - crowd.origin) / crowd.cell));
}

fn on_map(c: vec2<i32>) -> bool {
    return c.x >= 0 && c.y >= 0 && c.x < i32(crowd.width) && c.y < i32(crowd.height);
}

fn index_of(c: vec2<i32>) -> u32 {
    return u32(c.y) * crowd.width + u32(c.x);
}

fn centre_of(c: vec2<i32>) -> vec2<f32> {
    return crowd.origin + (vec2<f32>(c) + 0.5) * crowd.cell;
}

// A street cell (off the map all is blocked).
fn free(c: vec2<i32>) -> bool {
    return on_map(c) && sdf[index_of(c)] > 0.0;
}

// Whether a body at x (a square `radius` either side) touches only street cells.
fn clear(x: vec2<f32>) -> bool {
    let r = crowd.radius;
    return free(cell_at(x + vec2<f32>(-r, -r))) && free(cell_at(x + vec2<f32>(r, -r)))
        && free(cell_at(x + vec2<f32>(-r, r))) && free(cell_at(x + vec2<f32>(r, r)));
}

// The wall distance at x, bilinear between cell centres (a cell off the map counts as
// half a cell inside a wall).
fn wall_distance(x: vec2<f32>) -> f32 {
    let g = (x - crowd.origin) / crowd.cell - 0.5;
    let c = vec2<i32>(floor(g));
    let f = g - floor(g);
    var d = vec4<f32>(0.0);
    for (var k = 0; k < 4; k++) {
        let n = c + vec2<i32>(k & 1, k >> 1u);
        d[k] = select(-0.5 * crowd.cell, sdf[index_of(n)], on_map(n));
    }
    return mix(mix(d.x, d.y, f.x), mix(d.z, d.w, f.x), f.y);
}

// The way towards destination `dest` at x: the unit steps of the four cells around it,
// blended bilinearly over those that have one; straight at the destination's centre within
// two cells of it.
fn heading(dest: u32, x: vec2<f32>) -> vec2<f32> {
    let base = dest * cells();
    let here = cell_at(x);
    let goal_index = crowd.goals[dest / 4u][dest % 4u];
    let goal = vec2<i32>(i32(goal_index % crowd.width), i32(goal_index / crowd.width));
    if on_map(here) && way[base + index_of(here)].z < 2.0 * crowd.cell {
        let to = centre_of(goal) - x;
        return to / max(length(to), 1e-6);
    }
    let g = (x - crowd.origin) / crowd.cell - 0.5;
    let c = vec2<i32>(floor(g));
    let f = g - floor(g);
    var sum = vec2<f32>(0.0);
    for (var k = 0; k < 4; k++) {
        let o = vec2<i32>(k & 1, k >> 1u);
        let n = c + o;
        if !on_map(n) {
            continue;
        }
        let w = way[base + index_of(n)];
        let weight = select(1.0 - f.x, f.x, o.x == 1) * select(1.0 - f.y, f.y, o.y == 1);
        sum += w.xy * weight;
    }
    if length(sum) < 1e-4 && on_map(here) {
        sum = way[base + index_of(here)].xy;
    }
    return sum / max(length(sum), 1e-6);
}

fn rotate2(v: vec2<f32>, angle: f32) -> vec2<f32> {
    let c = cos(angle);
    let s = sin(angle);
    return vec2<f32>(v.x * c - v.y * s, v.x * s + v.y * c);
}

// The state table's row of state s: (least speed, most speed, mean seconds, gait).
fn state_row(s: u32) -> vec4<f32> {
    return textureLoad(states, vec2<i32>(0, i32(s)), 0);
}

// A walker's random stream in its current state: its particle, the states it entered and
// the effect's seed hashed one after another (the hash of each folded into the next: ids
// that differ in a few low bits would give correlated draws if merely XORed together).
// Each stay draws in order its duration, its speed, the state after it and, on arrival,
// the next destination.
fn stream(w: Walker) -> u32 {
    return pcg_hash(pcg_hash(pcg_hash(w.owner) ^ w.changes) ^ crowd.seed);
}

// Enter state s: a duration from an exponential of its mean, a speed within its range.
fn enter(w: ptr<function, Walker>, s: u32) {
    (*w).state = s;
    (*w).changes += 1u;
    var r = stream(*w);
    let row = state_row(s);
    // 1 − u in (0, 1]: the logarithm stays finite
    (*w).timer = -row.z * log(1.0 - rand01(&r));
    (*w).speed = mix(row.x, row.y, rand01(&r));
}

// The state after s, drawn from the table's cumulative probabilities (the stay's third
// draw).
fn next_state(w: Walker) -> u32 {
    var r = stream(w);
    rand01(&r);
    rand01(&r);
    let u = rand01(&r);
    for (var n = 0u; n + 1u < crowd.states; n++) {
        let cumulative = textureLoad(states, vec2<i32>(1 + i32(n / 4u), i32(w.state)), 0)[n % 4u];
        if u < cumulative {
            return n;
        }
    }
    return crowd.states - 1u;
}

// Another destination than `now`, at random (the stay's fourth draw).
fn other_destination(w: Walker, now: u32) -> u32 {
    if crowd.destinations < 2u {
        return now;
    }
    var r = stream(w);
    for (var skip = 0; skip < 3; skip++) {
        rand01(&r);
    }
    let k = min(u32(rand01(&r) * f32(crowd.destinations - 1u)), crowd.destinations - 2u);
    return select(k, k + 1u, k >= now);
}

// A new walker: on a street cell that leads to the destinations (tried at random; after 64
// misses at a destination's own cell), in the table's first state, heading for a destination.
fn born(id: u32) -> Walker {
    var w = Walker(0u, 0u, 0.0, id, 0.0, 0.0, 0u, 1u);
    var r = pcg_hash(pcg_hash(id) ^ crowd.seed ^ 0x85ebca6bu);
    w.destination = min(u32(rand01(&r) * f32(crowd.destinations)), crowd.destinations - 1u);
    w.phase = rand01(&r);
    // (its first state is its first change: every stay draws from a stream of its own)
    enter(&w, 0u);
    return w;
}

fn birthplace(id: u32) -> vec2<f32> {
    var r = pcg_hash(pcg_hash(id) ^ crowd.seed ^ 0x27d4eb2fu);
    let n = cells();
    // off the walls by the body's reach
    let jitter = max(0.5 * crowd.cell - crowd.radius - 1e-3, 0.0);
    for (var k = 0u; k < 64u; k++) {
        let i = min(u32(rand01(&r) * f32(n)), n - 1u);
        if sdf[i] > 0.0 && way[i].z < NO_WAY {
            let c = vec2<i32>(i32(i % crowd.width), i32(i / crowd.width));
            let off = vec2<f32>(rand01(&r), rand01(&r)) * 2.0 - 1.0;
            return centre_of(c) + off * jitter;
        }
    }
    let goal_index = crowd.goals[0].x;
    return centre_of(vec2<i32>(i32(goal_index % crowd.width), i32(goal_index / crowd.width)));
}

// The horizontal push away from the walkers nearer than the separation.
fn separation(q: u32, x: vec3<f32>) -> vec2<f32> {
    let s = crowd.separation;
    var push = vec2<f32>(0.0);
    let c = cell_of(x, grid);
    // every walker's feet are at the streets' height, in one layer of cells: only its 9
    // (the cells around with the same y) can hold any
    for (var n = 0u; n < 9u; n++) {
        let key = cell_key(cell_around(c, 3u + n % 3u + 9u * (n / 3u)));
        let b = bucket_of(key, grid);
        let end = buckets[b + 1u];
        for (var e = buckets[b]; e < end; e++) {
            let j = entries[e];
            let away = (x - j.pos).xz;
            let d = length(away);
            if j.key != key || j.slot == q || d >= s {
                continue;
            }
            if d > 1e-5 {
                push += away * ((1.0 - d / s) / d);
            } else {
                // on top of each other: apart along a direction of their own
                var r = pcg_hash(q);
                let a = TAU * rand01(&r);
                push += vec2<f32>(cos(a), sin(a));
            }
        }
    }
    return push;
}

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= atomicLoad(&counters.alive) {
        return;
    }
    let me = entries[i];
    let q = me.slot;
    var p = particles[q];
    if p.age >= p.lifetime {
        // died since the grid listed it (a later substep): nothing to steer
        return;
    }
    var w = walkers[q];
    // one step: the frame, or a substep of it (the pass runs before each)
    let dt = frame.dt;
    if w.assigned == 0u || w.owner != p.id {
        w = born(p.id);
        let at = birthplace(p.id);
        p.pos = vec3<f32>(at.x, crowd.ground, at.y);
        p.vel = vec3<f32>(0.0);
    }
    // the state's clock
    w.timer -= dt;
    if w.timer <= 0.0 {
        enter(&w, next_state(w));
    }
    let x = p.pos.xz;
    let here = cell_at(x);
    let moving = w.speed > 0.0;
    if moving && on_map(here) && way[w.destination * cells() + index_of(here)].z < NO_WAY {
        let goal_index = crowd.goals[w.destination / 4u][w.destination % 4u];
        let goal = centre_of(vec2<i32>(i32(goal_index % crowd.width), i32(goal_index / crowd.width)));
        if length(goal - x) <= crowd.arrive {
            w.destination = other_destination(w, w.destination);
            enter(&w, crowd.arrived);
        }
    }
    // where it wants to go
    var wanted = vec2<f32>(0.0);
    if w.speed > 0.0 {
        var h = heading(w.destination, x);
        // its own slow sway about the way (a period of 4 to 8 seconds)
        var r = pcg_hash(p.id ^ 0x9e3779b9u);
        let period = 4.0 + 4.0 * rand01(&r);
        let sway = crowd.wander * sin(TAU * (frame.time / period + rand01(&r)));
        wanted = rotate2(h, sway) * w.speed;
    }
    wanted += crowd.separate * separation(q, p.pos);
    let d = wall_distance(x);
    if d < crowd.wall {
        let e = 0.25 * crowd.cell;
        let grad = vec2<f32>(
            wall_distance(x + vec2<f32>(e, 0.0)) - wall_distance(x - vec2<f32>(e, 0.0)),
            wall_distance(x + vec2<f32>(0.0, e)) - wall_distance(x - vec2<f32>(0.0, e)),
        );
        let n = grad / max(length(grad), 1e-6);
        wanted += crowd.avoid * (1.0 - max(d, 0.0) / crowd.wall) * n;
    }
    let old = p.vel.xz;
    var v = old + (wanted - old) * min(crowd.turn * dt, 1.0);
    let fastest = 1.5 * max(w.speed, 0.5);
    v *= min(1.0, fastest / max(length(v), 1e-6));
    // never into a building: slide along the wall, or stop
    if !clear(x + v * dt) {
        if clear(x + vec2<f32>(v.x, 0.0) * dt) {
            v = vec2<f32>(v.x, 0.0);
        } else if clear(x + vec2<f32>(0.0, v.y) * dt) {
            v = vec2<f32>(0.0, v.y);
        } else {
            v = vec2<f32>(0.0);
        }
    }
    // a walker at rest keeps facing the way it last went: a millimetre a second along it
    // (mesh.wgsl turns a figure along its velocity)
    let speed = length(v);
    if speed < 1e-3 {
        let facing = select(vec2<f32>(0.0, 1.0), old / length(old), length(old) > 1e-6);
        let creep = facing * 1e-3;
        v = select(vec2<f32>(0.0), creep, clear(x + creep * dt));
    }
    p.vel = vec3<f32>(v.x, 0.0, v.y);
    // the gait's cycle, and the pose mesh.wgsl reads
    let gait = u32(state_row(w.state).w);
    var cycles = dt * SWAY_HZ;
    if gait == GAIT_WALK {
        cycles = length(v) * dt / STRIDE_WALK;
    } else if gait == GAIT_RUN {
        cycles = length(v) * dt / STRIDE_RUN;
    }
    w.phase = fract(w.phase + cycles);
    p.rotation = f32(gait) + w.phase - p.spin * p.age; // rotation_now(p): the pose
    particles[q] = p;
    walkers[q] = w;
}
