// flow.wgsl — the walking distance from every street cell of a map to a destination, over
// the grid's eight neighbours, dearer near the walls (so that walkers keep off them).
//
// A step from cell a to a neighbour b costs its length (a cell, or √2 cells diagonally)
// times the mean of the two cells' weights, a weight being 1 + wall · max(0, 1 − sdf / range)
// (sdf.wgsl's distance to the nearest wall): `wall` times dearer against a wall, the extra
// fading over `range` metres. Blocked cells are not entered, nor a diagonal that would cut a
// building's corner.
//
// Solved by a block fast iterative method: the map is cut into tiles of FLOW_TILE² cells.
// `seed` sets the destination cells to 0 and the rest to unreached and empties both lists of
// tiles; `start` lists the tiles that hold a destination. Each `solve` pass takes the tiles
// listed for it, a thread each. The thread loads its tile and the ring of cells around it
// into its share of workgroup memory and sweeps the tile row by row, letting each cell take
// the cheapest way through a neighbour; a cell lowered lowers those after it in the same
// sweep. The sweeps run in the four orders (x and y each forwards or backwards) in turn,
// starting with the one the wave came in by, until one lowers nothing (then no cell can be:
// none was, through neighbours that did not change), at most SWEEPS: one pass carries a
// wave across a whole tile. A tile lists for the next pass the tiles beside it where a cell
// it lowered lowers one of theirs as they are now (and itself, if SWEEPS did not settle
// it), each tile once. Before each pass `gate` sizes its dispatch from the list it takes
// (none once a pass listed no tile: every distance is then exact) and empties the list it
// fills. After the last pass, the list it filled is empty exactly when the field settled.
// The sums are the same as Dijkstra's, step by step.
//
// A thread a tile needs no barrier: on a CPU adapter, where a barrier switches between the
// workgroup's invocations, a tile a workgroup spent more on barriers than on the sweeps.
//
// The distances live in one buffer as the bits of positive floats (whose order as u32 is
// theirs as f32), read and written atomically: a tile reads the ring of cells its
// neighbours may be lowering in the same pass. A value read before the neighbour lowered it
// is still the length of some way, and the neighbour lists the tile for the next pass.
//
// `direct` then gives every street cell the way to walk: the unit step (x, z) to the
// neighbour its shortest way leaves through (zero at a destination and where no way leads),
// beside its distance.

struct FlowParams {
    width: u32,
    height: u32,
    cell: f32,       // metres
    wall: f32,       // extra weight against a wall
    range: f32,      // metres over which it fades
    tiles_x: u32,    // tiles across and down
    tiles_y: u32,
    base: u32,       // this field's first cell in `way` (fields of a crowd share one buffer)
}

// per cell: FREE, BLOCKED or GOAL
const FREE: u32 = 0u;
const BLOCKED: u32 = 1u;
const GOAL: u32 = 2u;
// not reached (yet)
const UNREACHED: f32 = 3.0e38;
// cells a tile is wide
const FLOW_TILE: u32 = 16u;
// a tile and the ring of cells around it, in workgroup memory
const SIDE: u32 = 18u;
const RING_CELLS: u32 = 324u;
// most sweeps a tile takes in one pass
const SWEEPS: u32 = 32u;
// tiles a solve workgroup takes, a thread each
const TILES_PER_GROUP: u32 = 4u;

// tiles listed for a pass: how many, then the tiles (`entries[0..count]`), then per tile
// which tiles of the 3 × 3 around it listed it (`entries[tiles + t]`, a bit each: nonzero
// for a tile listed, once)
struct Tiles {
    count: atomic<u32>,
    entries: array<atomic<u32>>,
}

@group(0) @binding(0) var<storage, read> cells: array<u32>;
@group(0) @binding(1) var<storage, read> sdf: array<f32>;
// per cell: its distance's bits
@group(0) @binding(2) var<storage, read_write> dist: array<atomic<u32>>;
@group(0) @binding(3) var<uniform> params: FlowParams;
// per cell from `base`: the unit step (x, z) to walk, the distance (metres) and 0
@group(0) @binding(4) var<storage, read_write> way: array<vec4<f32>>;
// the tiles this pass takes (each clears its own mark) and those it lists for the next (the
// two swap from pass to pass)
@group(0) @binding(5) var<storage, read_write> tiles_in: Tiles;
@group(0) @binding(6) var<storage, read_write> tiles_out: Tiles;
// seed and gate only: the passes' indirect dispatch (workgroups x, y, z), in a group of its
// own (a pass cannot bind what it is dispatched by)
@group(1) @binding(0) var<storage, read_write> solve_args: array<u32, 3>;

fn weight(i: u32) -> f32 {
    return 1.0 + params.wall * max(0.0, 1.0 - sdf[i] / params.range);
}

fn open(x: i32, y: i32) -> bool {
    let inside = x >= 0 && y >= 0 && x < i32(params.width) && y < i32(params.height);
    return inside && cells[u32(y) * params.width + u32(x)] != BLOCKED;
}

fn distance(i: u32) -> f32 {
    return bitcast<f32>(atomicLoad(&dist[i]));
}

fn tile_count() -> u32 {
    return params.tiles_x * params.tiles_y;
}

// List tile t for the next pass (unless it is listed already), taken up from the tile at
// `by` of 3 × 3 around it (row by row from (-1, -1); 4: itself).
fn list(t: u32, by: u32) {
    if atomicOr(&tiles_out.entries[tile_count() + t], 1u << by) == 0u {
        atomicStore(&tiles_out.entries[atomicAdd(&tiles_out.count, 1u)], t);
    }
}

@compute @workgroup_size(64)
fn seed(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i == 0u {
        atomicStore(&tiles_in.count, 0u);
        atomicStore(&tiles_out.count, 0u);
    }
    if i < tile_count() {
        atomicStore(&tiles_in.entries[tile_count() + i], 0u);
        atomicStore(&tiles_out.entries[tile_count() + i], 0u);
    }
    if i >= params.width * params.height {
        return;
    }
    atomicStore(&dist[i], bitcast<u32>(select(UNREACHED, 0.0, cells[i] == GOAL)));
}

// A thread a tile: the first pass takes the tiles that hold a destination.
@compute @workgroup_size(64)
fn start(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let t = linear_index(gid, groups);
    if t >= tile_count() {
        return;
    }
    let corner = vec2<u32>(t % params.tiles_x, t / params.tiles_x) * FLOW_TILE;
    let end = min(corner + FLOW_TILE, vec2<u32>(params.width, params.height));
    for (var y = corner.y; y < end.y; y++) {
        for (var x = corner.x; x < end.x; x++) {
            if cells[y * params.width + x] == GOAL {
                list(t, 4u);
                return;
            }
        }
    }
}

// One thread: the next pass's workgroups, a tile each of those listed (none once the last
// pass listed none); and the list that pass fills starts empty.
@compute @workgroup_size(1)
fn gate() {
    let listed = (atomicLoad(&tiles_in.count) + TILES_PER_GROUP - 1u) / TILES_PER_GROUP;
    var groups = vec3<u32>(listed, 1u, 1u);
    if listed > MAX_GROUPS_X {
        groups = vec3<u32>(GROUPS_PER_ROW, (listed + GROUPS_PER_ROW - 1u) / GROUPS_PER_ROW, 1u);
    }
    solve_args = array<u32, 3>(groups.x, groups.y, groups.z);
    atomicStore(&tiles_out.count, 0u);
}

// Each thread's tile and ring: distances, weights (negative where a cell is not entered:
// blocked, or off the map) and, per cell of the tile, the steps it may take (bit n for
// neighbour n of 3 × 3, row by row from (-1, -1)).
var<workgroup> tile_dist: array<f32, TILES_PER_GROUP * RING_CELLS>;
var<workgroup> tile_weight: array<f32, TILES_PER_GROUP * RING_CELLS>;
var<workgroup> tile_steps: array<u32, TILES_PER_GROUP * FLOW_TILE * FLOW_TILE>;

// The ring index (of a tile's share from `share` on) of the tile's cell (x, y).
fn ring(share: u32, x: u32, y: u32) -> u32 {
    return share + (y + 1u) * SIDE + x + 1u;
}

// The steps cell k of the ring may take: into an open cell, and a diagonal only past two
// open sides (no corner cut); none out of a cell not entered.
fn steps_of(k: u32) -> u32 {
    let s = SIDE;
    if tile_weight[k] < 0.0 {
        return 0u;
    }
    let up = tile_weight[k - s] >= 0.0;
    let left = tile_weight[k - 1u] >= 0.0;
    let right = tile_weight[k + 1u] >= 0.0;
    let down = tile_weight[k + s] >= 0.0;
    var steps = select(0u, 1u << 1u, up) | select(0u, 1u << 3u, left);
    steps |= select(0u, 1u << 5u, right) | select(0u, 1u << 7u, down);
    let up_left = up && left && tile_weight[k - s - 1u] >= 0.0;
    let up_right = up && right && tile_weight[k - s + 1u] >= 0.0;
    let down_left = down && left && tile_weight[k + s - 1u] >= 0.0;
    let down_right = down && right && tile_weight[k + s + 1u] >= 0.0;
    steps |= select(0u, 1u << 0u, up_left) | select(0u, 1u << 2u, up_right);
    steps |= select(0u, 1u << 6u, down_left) | select(0u, 1u << 8u, down_right);
    return steps;
}

// Distance `best` lowered through ring cell j, if step n (a bit of `steps`) leads there, a
// step of `length` metres from a cell of weight w.
fn through(best: f32, steps: u32, n: u32, j: u32, w: f32, length: f32) -> f32 {
    if (steps & (1u << n)) == 0u {
        return best;
    }
    return min(best, tile_dist[j] + length * 0.5 * (w + tile_weight[j]));
}

// Ring cell k (with `steps`) lowered through its neighbours: whether it was.
fn lower(k: u32, steps: u32) -> bool {
    let s = SIDE;
    let d = tile_dist[k];
    let w = tile_weight[k];
    let straight = params.cell;
    let diagonal = 1.4142135 * params.cell;
    var best = through(d, steps, 0u, k - s - 1u, w, diagonal);
    best = through(best, steps, 1u, k - s, w, straight);
    best = through(best, steps, 2u, k - s + 1u, w, diagonal);
    best = through(best, steps, 3u, k - 1u, w, straight);
    best = through(best, steps, 5u, k + 1u, w, straight);
    best = through(best, steps, 6u, k + s - 1u, w, diagonal);
    best = through(best, steps, 7u, k + s, w, straight);
    best = through(best, steps, 8u, k + s + 1u, w, diagonal);
    tile_dist[k] = best;
    return best < d;
}

// One sweep of the tile from `share` on, x and y running forwards or backwards: whether it
// lowered a cell.
fn sweep(share: u32, cell_share: u32, back_x: bool, back_y: bool) -> bool {
    var lowered = false;
    for (var v = 0u; v < FLOW_TILE; v++) {
        let y = select(v, FLOW_TILE - 1u - v, back_y);
        for (var u = 0u; u < FLOW_TILE; u++) {
            let x = select(u, FLOW_TILE - 1u - u, back_x);
            let steps = tile_steps[cell_share + y * FLOW_TILE + x];
            if steps != 0u && lower(ring(share, x, y), steps) {
                lowered = true;
            }
        }
    }
    return lowered;
}

// A bit per tile of 3 × 3 around this one (row by row from (-1, -1)): those the tile's
// cell (x, y) at ring index k, map cell i, lowered and written, lowers a cell of. Their
// cells are read as they are now, so that a tile that took up the same wave in this pass
// is not taken again (one that has yet to is, and does no harm).
fn lowered_beside(k: u32, i: u32, x: u32, y: u32, steps: u32) -> u32 {
    var tiles = 0u;
    let d = tile_dist[k];
    let w = tile_weight[k];
    for (var n = 0u; n < 9u; n++) {
        let dx = i32(n % 3u) - 1;
        let dy = i32(n / 3u) - 1;
        // the neighbour's tile: -1, 0 or 1 across and down
        let tx = select(0, dx, u32(i32(x) + dx) >= FLOW_TILE);
        let ty = select(0, dy, u32(i32(y) + dy) >= FLOW_TILE);
        if (tx != 0 || ty != 0) && (steps & (1u << n)) != 0u {
            let j = u32(i32(k) + dy * i32(SIDE) + dx);
            let length = select(1.0, 1.4142135, dx != 0 && dy != 0) * params.cell;
            let neighbour = u32(i32(i) + dy * i32(params.width) + dx);
            if d + length * 0.5 * (w + tile_weight[j]) < distance(neighbour) {
                tiles |= 1u << u32((ty + 1) * 3 + tx + 1);
            }
        }
    }
    return tiles;
}

@compute @workgroup_size(4)
fn solve(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) thread: u32,
) {
    let n = (group.x + group.y * groups.x) * TILES_PER_GROUP + thread;
    if n >= atomicLoad(&tiles_in.count) {
        return;
    }
    let tile = atomicLoad(&tiles_in.entries[n]);
    let by = atomicExchange(&tiles_in.entries[tile_count() + tile], 0u);
    let at = vec2<u32>(tile % params.tiles_x, tile / params.tiles_x);
    let share = thread * RING_CELLS;
    let cell_share = thread * FLOW_TILE * FLOW_TILE;
    // the tile and its ring
    let corner = vec2<i32>(at * FLOW_TILE) - 1;
    for (var k = 0u; k < RING_CELLS; k++) {
        let x = corner.x + i32(k % SIDE);
        let y = corner.y + i32(k / SIDE);
        var d = UNREACHED;
        var w = -1.0;
        if open(x, y) {
            let i = u32(y) * params.width + u32(x);
            d = distance(i);
            w = weight(i);
        }
        tile_dist[share + k] = d;
        tile_weight[share + k] = w;
    }
    for (var c = 0u; c < FLOW_TILE * FLOW_TILE; c++) {
        tile_steps[cell_share + c] = steps_of(ring(share, c % FLOW_TILE, c / FLOW_TILE));
    }
    // sweeps in the four orders in turn until one lowers nothing, the first in the way the
    // wave came: away from the tiles that listed this one
    var lowered = false;
    var settled = false;
    let west = (by & 0x49u) != 0u;
    let east = (by & 0x124u) != 0u;
    let north = (by & 0x7u) != 0u;
    let south = (by & 0x1c0u) != 0u;
    let first = select(0u, 1u, east && !west) | select(0u, 2u, south && !north);
    for (var n = first; n < first + SWEEPS && !settled; n++) {
        let any = sweep(share, cell_share, (n & 1u) != 0u, (n & 2u) != 0u);
        lowered = lowered || any;
        settled = !any;
    }
    if !lowered {
        return;
    }
    // the cells it lowered, and the tiles beside it that they lower
    var beside = select(0u, 1u << 4u, !settled);
    for (var c = 0u; c < FLOW_TILE * FLOW_TILE; c++) {
        let x = c % FLOW_TILE;
        let y = c / FLOW_TILE;
        let k = ring(share, x, y);
        let i = (at.y * FLOW_TILE + y) * params.width + at.x * FLOW_TILE + x;
        let steps = tile_steps[cell_share + c];
        if steps != 0u && tile_dist[k] < distance(i) {
            atomicStore(&dist[i], bitcast<u32>(tile_dist[k]));
            let edge = x == 0u || y == 0u || x == FLOW_TILE - 1u || y == FLOW_TILE - 1u;
            if edge {
                beside |= lowered_beside(k, i, x, y, steps);
            }
        }
    }
    for (var b = 0u; b < 9u; b++) {
        let to = vec2<i32>(at) + vec2<i32>(i32(b % 3u) - 1, i32(b / 3u) - 1);
        let tiles = vec2<i32>(i32(params.tiles_x), i32(params.tiles_y));
        if (beside & (1u << b)) != 0u && all(to >= vec2<i32>(0)) && all(to < tiles) {
            // seen from the tile beside, this one is on the opposite side
            list(u32(to.y) * params.tiles_x + u32(to.x), 8u - b);
        }
    }
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
        let d = distance(j);
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

// Reads the settled distances.
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
    let d = distance(i);
    if cells[i] == FREE && d < UNREACHED {
        let way = cheapest_way(i);
        if way.distance < UNREACHED {
            step = normalize(vec2<f32>(way.step));
        }
    }
    way[params.base + i] = vec4<f32>(step, d, 0.0);
}
