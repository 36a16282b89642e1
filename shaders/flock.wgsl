// flock.wgsl — boids: each bird steers by the birds around it, found through the neighbour
// grid (grid.wgsl, built just before), and writes its steering as an acceleration that
// simulate adds to the effect's forces (as it adds gravity.wgsl's all-pairs pull).
//
// Within the grid's radius R of a bird at x moving at v, with n neighbours of mean position
// X and mean velocity V:
//   separation  Σ over neighbours nearer than s of  separate · (1 − d/s) · (x − xj)/d
//   alignment   align · (V − v)            (1/s: how fast it matches their heading)
//   cohesion    cohere · (X − x)           (1/s²: pull towards their centre)
//   roost       roost_pull · (h − v/|v|), h = unit(t + (ring − x)/r): a bird's heading turned
//               towards the way round the horizontal circle of radius r about the roost
//               (anticlockwise seen from above), and back onto it from more than r/4 away
// The sum is then limited so that the bird's speed at the end of the frame, v + a·T (T the
// frame: all its substeps), stays within [min_speed, max_speed]: birds never hover and never
// race. The steering is found once a frame and simulate adds it at every substep, each of
// T/substeps, so its velocity ramps from v to the limited one over the frame (limited over
// one substep and added at each, it overshot: at 4 substeps v + 4·(v' − v), which the next
// frame's limit could not undo, and the speeds grew without bound). Neighbours are read as
// the grid listed them (positions and velocities before this frame's steps), so the result
// does not depend on the order threads run in.

struct FlockParams {
    separation: f32,     // s, metres
    separate: f32,       // m/s², the push of a neighbour at distance 0
    align: f32,          // 1/s
    cohere: f32,         // 1/s²
    roost: vec3<f32>,    // centre of the circle, metres
    roost_radius: f32,   // r, metres
    roost_pull: f32,     // m/s²
    min_speed: f32,      // m/s
    max_speed: f32,      // m/s
    _pad0: u32,
}

@group(0) @binding(0) var<storage, read_write> counters: Counters;
// the grid (grid.wgsl): each bucket's first entry, and the alive particles bucket by bucket
@group(0) @binding(1) var<storage, read> buckets: array<u32>;
@group(0) @binding(2) var<storage, read> entries: array<GridEntry>;
@group(0) @binding(3) var<uniform> grid: GridParams;
@group(0) @binding(4) var<uniform> flock: FlockParams;
@group(0) @binding(5) var<uniform> frame: FrameUniforms;
// per particle slot: the steering acceleration (xyz), for simulate
@group(0) @binding(6) var<storage, read_write> accel: array<vec4<f32>>;

// What the birds within the radius add up to.
struct Neighbourhood {
    count: f32,
    pos_sum: vec3<f32>,
    vel_sum: vec3<f32>,
    push: vec3<f32>,     // separation, before its gain
}

fn neighbourhood(q: u32, x: vec3<f32>) -> Neighbourhood {
    let r2 = grid.radius * grid.radius;
    let s = flock.separation;
    var h = Neighbourhood(0.0, vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0));
    let c = cell_of(x, grid);
    for (var k = 0u; k < 27u; k++) {
        let key = cell_key(cell_around(c, k));
        let b = bucket_of(key, grid);
        let end = buckets[b + 1u];
        for (var e = buckets[b]; e < end; e++) {
            let j = entries[e];
            let away = x - j.pos;
            let d2 = dot(away, away);
            if j.key != key || j.slot == q || d2 > r2 {
                continue;
            }
            h.count += 1.0;
            h.pos_sum += j.pos;
            h.vel_sum += j.vel;
            let d = sqrt(d2);
            if d < s && d > 0.0 {
                h.push += away * ((1.0 - d / s) / d);
            }
        }
    }
    return h;
}

// Round the roost's circle, pulled onto it from afar (a unit direction).
fn roost_heading(x: vec3<f32>) -> vec3<f32> {
    let rel = x - flock.roost;
    let flat = vec2<f32>(rel.x, rel.z);
    let d = length(flat);
    // at the very centre any way out will do
    let radial = select(vec2<f32>(1.0, 0.0), flat / d, d > 1e-6);
    let tangent = vec3<f32>(-radial.y, 0.0, radial.x);
    let ring = flock.roost + vec3<f32>(radial.x, 0.0, radial.y) * flock.roost_radius;
    // within a quarter of the radius of the circle only its direction: a pull onto the
    // circle itself would squeeze the flock into a line along it
    let off = ring - x;
    let band = 0.25 * flock.roost_radius;
    let beyond = max(length(off) - band, 0.0) / (max(length(off), 1e-6) * flock.roost_radius);
    let heading = tangent + off * beyond;
    return heading / max(length(heading), 1e-6);
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
    // in the grid's order: neighbouring threads visit the same cells, so a SIMD group's
    // lanes run the same loops over the same memory
    let me = entries[i];
    let q = me.slot;
    let x = me.pos;
    let v = me.vel;
    let h = neighbourhood(q, x);
    // the roost turns a bird's heading towards its own (at full pull however fast it flies)
    let heading = v / max(length(v), 1e-6);
    var a = flock.separate * h.push + flock.roost_pull * (roost_heading(x) - heading);
    if h.count > 0.0 {
        a += flock.align * (h.vel_sum / h.count - v) + flock.cohere * (h.pos_sum / h.count - x);
    }
    // the speed at the frame's end within [min_speed, max_speed]
    let dt = max(frame.dt * f32(max(frame.substeps, 1u)), 1e-9);
    let next = v + a * dt;
    let speed = length(next);
    let kept = next * (clamp(speed, flock.min_speed, flock.max_speed) / max(speed, 1e-9));
    // (stopped dead: off along x at the least speed)
    let limited = select(vec3<f32>(flock.min_speed, 0.0, 0.0), kept, speed > 1e-9);
    accel[q] = vec4<f32>((limited - v) / dt, 0.0);
}
