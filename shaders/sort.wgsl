// sort.wgsl — bitonic sort of (key, index) pairs, ascending by key (back to front, see
// sort_key in common.wgsl), over the first `count` pairs, count read on the GPU.
//
// The sorted length n is count rounded up to a power of two (at least one block); pairs
// past count are padding with SORT_SENTINEL keys, written by local_sort. Stages:
//   local_sort         every block of BLOCK pairs sorted entirely in workgroup memory
//   global_step(k, j)  one compare-exchange step with stride j >= BLOCK, in global memory
//   local_merge(k)     the remaining steps of stage k (strides < BLOCK) in workgroup memory
// sort_args writes every step's indirect dispatch from the count, so steps of stages
// beyond n dispatch no workgroups.

const BLOCK: u32 = 2048u;
const SORT_THREADS: u32 = 256u;
const PER_THREAD: u32 = 8u; // BLOCK / SORT_THREADS

struct SortStep {
    k: u32,
    j: u32,
    kind: u32,   // 0 local_sort, 1 global_step, 2 local_merge
    _pad: u32,
}

@group(0) @binding(0) var<storage, read_write> pairs: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read_write> counters: Counters;
@group(0) @binding(2) var<uniform> step: SortStep; // dynamic offset, one slot per step
@group(0) @binding(3) var<storage, read> steps: array<SortStep>;
@group(0) @binding(4) var<storage, read_write> dispatch: array<u32>; // 3 per step

var<workgroup> tile: array<vec2<u32>, BLOCK>;

fn next_pow2(x: u32) -> u32 {
    if x <= 1u {
        return 1u;
    }
    return 1u << (32u - countLeadingZeros(x - 1u));
}

// Padded length of the sort for the current count (0 when there is nothing to sort).
fn sorted_len() -> u32 {
    let count = atomicLoad(&counters.visible);
    if count == 0u {
        return 0u;
    }
    return max(next_pow2(count), BLOCK);
}

@compute @workgroup_size(64)
fn sort_args(@builtin(global_invocation_id) gid: vec3<u32>) {
    let s = gid.x;
    if s >= arrayLength(&steps) {
        return;
    }
    let n = sorted_len();
    let st = steps[s];
    var groups = 0u;
    if n > 0u && st.k <= n {
        if st.kind == 1u {
            groups = n / 2u / SORT_THREADS;
        } else {
            groups = n / BLOCK;
        }
    }
    dispatch[3u * s] = groups;
    dispatch[3u * s + 1u] = 1u;
    dispatch[3u * s + 2u] = 1u;
}

// Order tile[i] and tile[i + j] ascending when (global index & k) == 0, else descending.
fn exchange_tile(i: u32, j: u32, k: u32, base: u32) {
    let a = tile[i];
    let b = tile[i + j];
    let ascending = ((base + i) & k) == 0u;
    if (a.x > b.x) == ascending {
        tile[i] = b;
        tile[i + j] = a;
    }
}

// Pair (i, i + j) handled by compare-exchange number t of a step with stride j.
fn first_of(t: u32, j: u32) -> u32 {
    return ((t & ~(j - 1u)) << 1u) | (t & (j - 1u));
}

fn merge_tile(k: u32, j_start: u32, lid: u32, base: u32) {
    for (var j = j_start; j > 0u; j = j >> 1u) {
        workgroupBarrier();
        for (var q = 0u; q < PER_THREAD / 2u; q++) {
            exchange_tile(first_of(lid + q * SORT_THREADS, j), j, k, base);
        }
    }
    workgroupBarrier();
}

@compute @workgroup_size(256)
fn local_sort(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let count = atomicLoad(&counters.visible);
    let base = wid.x * BLOCK;
    for (var q = 0u; q < PER_THREAD; q++) {
        let i = lid + q * SORT_THREADS;
        var v = vec2<u32>(SORT_SENTINEL, SORT_SENTINEL);
        if base + i < count {
            v = pairs[base + i];
        }
        tile[i] = v;
    }
    for (var k = 2u; k <= BLOCK; k = k << 1u) {
        merge_tile(k, k >> 1u, lid, base);
    }
    for (var q = 0u; q < PER_THREAD; q++) {
        let i = lid + q * SORT_THREADS;
        pairs[base + i] = tile[i];
    }
}

@compute @workgroup_size(256)
fn local_merge(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let base = wid.x * BLOCK;
    for (var q = 0u; q < PER_THREAD; q++) {
        let i = lid + q * SORT_THREADS;
        tile[i] = pairs[base + i];
    }
    merge_tile(step.k, BLOCK >> 1u, lid, base);
    for (var q = 0u; q < PER_THREAD; q++) {
        let i = lid + q * SORT_THREADS;
        pairs[base + i] = tile[i];
    }
}

@compute @workgroup_size(256)
fn global_step(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = first_of(gid.x, step.j);
    let l = i + step.j;
    let a = pairs[i];
    let b = pairs[l];
    let ascending = (i & step.k) == 0u;
    if (a.x > b.x) == ascending {
        pairs[i] = b;
        pairs[l] = a;
    }
}
