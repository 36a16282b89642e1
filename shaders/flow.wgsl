// flow.wgsl — the walking distance from every street cell of a map to a destination, over
// the grid's eight neighbours, dearer near the walls (so that walkers keep off them).
//
// A step from cell a to a neighbour b costs its length (a cell, or √2 cells diagonally)
// times the mean of the two cells' weights, a weight being 1 + wall · max(0, 1 − sdf / range)
// (sdf.wgsl's distance to the nearest wall): `wall` times dearer against a wall, the extra
// fading over `range` metres. Blocked cells are not entered, nor a diagonal that would cut a
// building's corner. `seed` sets the destination cells to 0 and the rest to unreached;
// each `relax` lets every cell take the cheapest way through a neighbour (Bellman-Ford in
// parallel, one step of every shortest path per relaxation); `changed` counts the cells a
// relaxation lowered. Before each relaxation `gate` looks at the count of the one before:
// once a relaxation lowered nothing the field is exact (and both buffers hold it), and the
// relaxations left are dispatched empty; then it zeroes the count. After the last, the count
// is 0 exactly when the field settled.
// `direct` then gives every street cell the way to walk: the unit step (x, z) to the
// neighbour its shortest way leaves through (zero at a destination and where no way leads),
// beside its distance.

struct FlowParams {
    width: u32,
    height: u32,
    cell: f32,       // metres
    wall: f32,       // extra weight against a wall
    range: f32,      // metres over which it fades
    groups_x: u32,   // a relaxation's workgroups (dispatch_size of the cells)
    groups_y: u32,
    base: u32,       // this field's first cell in `way` (fields of a crowd share one buffer)
}

// per cell: FREE, BLOCKED or GOAL
const FREE: u32 = 0u;
const BLOCKED: u32 = 1u;
const GOAL: u32 = 2u;
// not reached (yet)
const UNREACHED: f32 = 3.0e38;

@group(0) @binding(0) var<storage, read> cells: array<u32>;
@group(0) @binding(1) var<storage, read> sdf: array<f32>;
@group(0) @binding(2) var<storage, read> dist_in: array<f32>;
@group(0) @binding(3) var<storage, read_write> dist_out: array<f32>;
@group(0) @binding(4) var<uniform> params: FlowParams;
@group(0) @binding(5) var<storage, read_write> changed: array<atomic<u32>>;
// per cell from `base`: the unit step (x, z) to walk, the distance (metres) and 0
@group(0) @binding(6) var<storage, read_write> way: array<vec4<f32>>;
// seed and gate only: the relaxations' indirect dispatch (workgroups x, y, z), in a group of
// its own (a relaxation cannot bind what it is dispatched by)
@group(1) @binding(0) var<storage, read_write> relax_args: array<u32, 3>;

fn weight(i: u32) -> f32 {
    return 1.0 + params.wall * max(0.0, 1.0 - sdf[i] / params.range);
}

fn open(x: i32, y: i32) -> bool {
    let inside = x >= 0 && y >= 0 && x < i32(params.width) && y < i32(params.height);
    return inside && cells[u32(y) * params.width + u32(x)] != BLOCKED;
}

@compute @workgroup_size(64)
fn seed(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i == 0u {
        // the first relaxation runs whatever the last computation left
        relax_args = array<u32, 3>(params.groups_x, params.groups_y, 1u);
        atomicStore(&changed[0], 1u);
    }
    if i >= params.width * params.height {
        return;
    }
    dist_out[i] = select(UNREACHED, 0.0, cells[i] == GOAL);
}

// One thread: once a relaxation lowered nothing, the rest are dispatched empty; then the
// count starts again from 0 (`seed` arms the first relaxation).
@compute @workgroup_size(1)
fn gate() {
    if atomicLoad(&changed[0]) == 0u {
        relax_args = array<u32, 3>(0u, 1u, 1u);
    }
    atomicStore(&changed[0], 0u);
}

// The cheapest way from street cell i through one of its neighbours: its distance and the
// step (x, z) to that neighbour; (UNREACHED, 0) where no neighbour is reached.
struct Way {
    distance: f32,
    step: vec2<i32>,
}

fn cheapest_way(i: u32) -> Way {
    let x = i32(i % params.width);
    let y = i32(i / params.width);
    let w = weight(i);
    var best = Way(UNREACHED, vec2<i32>(0));
    for (var n = 0u; n < 9u; n++) {
        let dx = i32(n % 3u) - 1;
        let dy = i32(n / 3u) - 1;
        if n == 4u || !open(x + dx, y + dy) {
            continue;
        }
        // a diagonal only past two open sides (no corner cut)
        if dx != 0 && dy != 0 && !(open(x + dx, y) && open(x, y + dy)) {
            continue;
        }
        let j = u32(y + dy) * params.width + u32(x + dx);
        let d = dist_in[j];
        if d >= UNREACHED {
            continue;
        }
        let length = select(1.0, 1.4142135, dx != 0 && dy != 0) * params.cell;
        let through = d + length * 0.5 * (w + weight(j));
        if through < best.distance {
            best = Way(through, vec2<i32>(dx, dy));
        }
    }
    return best;
}

@compute @workgroup_size(64)
fn relax(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= params.width * params.height {
        return;
    }
    let old = dist_in[i];
    if cells[i] == BLOCKED {
        dist_out[i] = old;
        return;
    }
    let best = min(old, cheapest_way(i).distance);
    dist_out[i] = best;
    if best < old {
        atomicAdd(&changed[0], 1u);
    }
}

// Reads the settled distances (dist_in: the last relaxation's output).
@compute @workgroup_size(64)
fn direct(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= params.width * params.height {
        return;
    }
    var step = vec2<f32>(0.0);
    if cells[i] == FREE && dist_in[i] < UNREACHED {
        let way = cheapest_way(i);
        if way.distance < UNREACHED {
            step = normalize(vec2<f32>(way.step));
        }
    }
    way[params.base + i] = vec4<f32>(step, dist_in[i], 0.0);
}
