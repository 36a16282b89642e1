// sdf.wgsl — a map's signed distance field by jump flooding (Rong & Tan 2006).
//
// Every cell looks for the nearest blocked cell and the nearest free cell: `init` makes each
// cell its own seed of its kind; each `jump` of step k lets a cell take, of the seeds its
// eight neighbours k cells away (and itself) hold, the nearest of each kind; steps halve from
// half the map's longer side to 1, then one more of 1 mends the rare misses. `distance` turns
// the seeds into metres: outside buildings the distance to the nearest blocked cell (or the
// map's edge, beyond which all is blocked) less half a cell, inside them minus the distance to
// the nearest free cell less half a cell, so the field crosses zero on the walls.

struct SdfParams {
    width: u32,
    height: u32,
    step: u32,       // this jump's k, cells
    cell: f32,       // metres
}

const NO_SEED: u32 = 0xffffffffu;

@group(0) @binding(0) var<storage, read> blocked: array<u32>;
@group(0) @binding(1) var<storage, read> seeds_in: array<vec2<u32>>;
// per cell: the nearest blocked cell found so far, and the nearest free cell (NO_SEED: none)
@group(0) @binding(2) var<storage, read_write> seeds_out: array<vec2<u32>>;
@group(0) @binding(3) var<uniform> params: SdfParams;
@group(0) @binding(4) var<storage, read_write> sdf: array<f32>;

fn cell_xy(i: u32) -> vec2<i32> {
    return vec2<i32>(i32(i % params.width), i32(i / params.width));
}

// Squared distance in cells between cell i and seed s (FAR_AWAY without a seed).
fn seed_distance2(i: u32, s: u32) -> f32 {
    if s == NO_SEED {
        return FAR_AWAY;
    }
    let d = vec2<f32>(cell_xy(i) - cell_xy(s));
    return dot(d, d);
}

@compute @workgroup_size(64)
fn init(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= params.width * params.height {
        return;
    }
    let b = blocked[i] != 0u;
    seeds_out[i] = vec2<u32>(select(NO_SEED, i, b), select(i, NO_SEED, b));
}

@compute @workgroup_size(64)
fn jump(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= params.width * params.height {
        return;
    }
    let at = cell_xy(i);
    let k = i32(params.step);
    var best = seeds_in[i];
    var best_d = vec2<f32>(seed_distance2(i, best.x), seed_distance2(i, best.y));
    for (var n = 0u; n < 9u; n++) {
        let q = at + vec2<i32>(i32(n % 3u) - 1, i32(n / 3u) - 1) * k;
        if n == 4u || q.x < 0 || q.y < 0 || q.x >= i32(params.width) || q.y >= i32(params.height) {
            continue;
        }
        let s = seeds_in[u32(q.y) * params.width + u32(q.x)];
        let d = vec2<f32>(seed_distance2(i, s.x), seed_distance2(i, s.y));
        if d.x < best_d.x {
            best.x = s.x;
            best_d.x = d.x;
        }
        if d.y < best_d.y {
            best.y = s.y;
            best_d.y = d.y;
        }
    }
    seeds_out[i] = best;
}

@compute @workgroup_size(64)
fn distance(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= params.width * params.height {
        return;
    }
    let s = seeds_in[i];
    let at = cell_xy(i);
    let half = 0.5 * params.cell;
    if blocked[i] != 0u {
        // a building with no street anywhere is as deep as it gets
        sdf[i] = -(sqrt(seed_distance2(i, s.y)) * params.cell - half);
        return;
    }
    // beyond the map's edge everything is blocked: the cells at -1 and at the size
    let size = vec2<i32>(i32(params.width), i32(params.height));
    let edge = f32(min(min(at.x + 1, size.x - at.x), min(at.y + 1, size.y - at.y)));
    let cells = min(sqrt(seed_distance2(i, s.x)), edge);
    sdf[i] = cells * params.cell - half;
}
