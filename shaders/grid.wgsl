// grid.wgsl — the neighbour grid: every alive particle binned into a uniform grid of cells
// one neighbour radius wide (grid_cells.wgsl), by a counting sort, so that a particle finds
// every neighbour within the radius among the particles of the 27 cells around its own.
//
// Per frame: `clear` zeroes the counts, `count` adds each particle to its bucket's count
// (keeping its rank within the bucket), scan.wgsl turns the counts into each bucket's first
// entry (in place; entry `table` ends up holding the total), and `scatter` writes each
// particle's entry at its bucket's start plus its rank. `count_neighbours` is the query as
// the tests check it: for each particle, how many others lie within the radius and the
// sum of their indices.

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
// per bucket: its count, then its first entry (table + 1 of them)
@group(0) @binding(3) var<storage, read_write> buckets: array<atomic<u32>>;
// per alive entry: its bucket and its rank within it
@group(0) @binding(4) var<storage, read_write> entry_bucket: array<u32>;
@group(0) @binding(5) var<storage, read_write> entry_rank: array<u32>;
// the alive particles, bucket by bucket
@group(0) @binding(6) var<storage, read_write> entries: array<GridEntry>;
@group(0) @binding(7) var<uniform> grid: GridParams;
// per particle slot: (neighbours found, sum of their indices), by count_neighbours
@group(0) @binding(8) var<storage, read_write> found: array<vec2<u32>>;

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
    let b = bucket_of(cell_key(cell_of(particles[alive[i]].pos, grid)), grid);
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
    let slot = alive[i];
    let p = particles[slot];
    let key = cell_key(cell_of(p.pos, grid));
    let at = atomicLoad(&buckets[entry_bucket[i]]) + entry_rank[i];
    entries[at] = GridEntry(p.pos, slot, p.vel, key);
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
    // in the grid's order: neighbouring threads visit the same cells
    let me = entries[i];
    let c = cell_of(me.pos, grid);
    let r2 = grid.radius * grid.radius;
    var n = 0u;
    var sum = 0u;
    for (var k = 0u; k < 27u; k++) {
        let key = cell_key(cell_around(c, k));
        let b = bucket_of(key, grid);
        let end = atomicLoad(&buckets[b + 1u]);
        for (var e = atomicLoad(&buckets[b]); e < end; e++) {
            let j = entries[e];
            let d = j.pos - me.pos;
            if j.key == key && j.slot != me.slot && dot(d, d) <= r2 {
                n += 1u;
                sum += j.slot;
            }
        }
    }
    found[me.slot] = vec2<u32>(n, sum);
}
