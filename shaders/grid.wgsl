// grid.wgsl — the neighbour grid: every alive particle binned into a uniform grid of cells
// one neighbour radius wide, by a counting sort, so that a particle finds every neighbour
// within the radius among the particles of the 27 cells around its own.
//
// The grid is unbounded: a cell's integer coordinates are hashed into a table of a power of
// two cells (at least twice the pool), so particles anywhere share one table; cells that
// hash alike share a bucket, which a query filters by distance like any other particle.
// Per frame: `clear` zeroes the counts, `count` adds each particle to its bucket's count
// (keeping its rank within the bucket), scan.wgsl turns the counts into each bucket's first
// slot (in place; slot `table` ends up holding the total), and `scatter` writes each
// particle's index at its bucket's start plus its rank. `count_neighbours` is the query as
// the tests check it: for each particle, how many others lie within the radius and the
// sum of their indices.

struct GridParams {
    cell: f32,    // cell side, metres (the neighbour radius)
    radius: f32,  // neighbour radius, metres
    mask: u32,    // table - 1
    table: u32,   // buckets (a power of two)
}

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
// per bucket: its count, then its first slot in `sorted` (table + 1 entries)
@group(0) @binding(3) var<storage, read_write> buckets: array<atomic<u32>>;
// per alive entry: its bucket and its rank within it
@group(0) @binding(4) var<storage, read_write> entry_bucket: array<u32>;
@group(0) @binding(5) var<storage, read_write> entry_rank: array<u32>;
// particle indices, bucket by bucket
@group(0) @binding(6) var<storage, read_write> sorted: array<u32>;
@group(0) @binding(7) var<uniform> grid: GridParams;
// per particle slot: (neighbours found, sum of their indices), by count_neighbours
@group(0) @binding(8) var<storage, read_write> found: array<vec2<u32>>;

fn cell_of(x: vec3<f32>) -> vec3<i32> {
    return vec3<i32>(floor(x / grid.cell));
}

// A cell's bucket (the spatial hash of Teschner et al. 2003).
fn bucket_of(c: vec3<i32>) -> u32 {
    let u = bitcast<vec3<u32>>(c);
    return ((u.x * 73856093u) ^ (u.y * 19349663u) ^ (u.z * 83492791u)) & grid.mask;
}

@compute @workgroup_size(64)
fn clear(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i <= grid.table {
        atomicStore(&buckets[i], 0u);
    }
}

@compute @workgroup_size(64)
fn count(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= atomicLoad(&counters.alive) {
        return;
    }
    let b = bucket_of(cell_of(particles[alive[i]].pos));
    entry_bucket[i] = b;
    entry_rank[i] = atomicAdd(&buckets[b], 1u);
}

@compute @workgroup_size(64)
fn scatter(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= atomicLoad(&counters.alive) {
        return;
    }
    sorted[atomicLoad(&buckets[entry_bucket[i]]) + entry_rank[i]] = alive[i];
}

@compute @workgroup_size(64)
fn count_neighbours(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= atomicLoad(&counters.alive) {
        return;
    }
    let q = alive[i];
    let x = particles[q].pos;
    let c = cell_of(x);
    let r2 = grid.radius * grid.radius;
    var seen: array<u32, 27>;
    var visited = 0u;
    var n = 0u;
    var sum = 0u;
    for (var k = 0u; k < 27u; k++) {
        let d = vec3<i32>(i32(k % 3u) - 1, i32((k / 3u) % 3u) - 1, i32(k / 9u) - 1);
        let b = bucket_of(c + d);
        // two cells around may share a bucket: visit it once
        var again = false;
        for (var s = 0u; s < visited; s++) {
            again = again || seen[s] == b;
        }
        if again {
            continue;
        }
        seen[visited] = b;
        visited += 1u;
        let end = atomicLoad(&buckets[b + 1u]);
        for (var slot = atomicLoad(&buckets[b]); slot < end; slot++) {
            let j = sorted[slot];
            let e = particles[j].pos - x;
            if j != q && dot(e, e) <= r2 {
                n += 1u;
                sum += j;
            }
        }
    }
    found[q] = vec2<u32>(n, sum);
}
