// scan.wgsl — an exclusive prefix sum over a u32 array, in place, in levels: `scan` turns
// each block of SCAN_BLOCK values into its exclusive prefix sums and writes the block's
// total to `sums`; the sums are scanned the same way (the next level, until one block
// holds them all); `add` then adds to every value its block's scanned total, from the top
// level down. The neighbour grid's cell starts come from its cell counts this way.
//
// A workgroup scans its block in workgroup memory (Hillis-Steele over 256 threads, each
// adding its two values first): log2(256) = 8 barriered steps.

const SCAN_THREADS: u32 = 256u;
const SCAN_BLOCK: u32 = 512u;

struct ScanParams {
    count: u32,   // values in `data`
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> params: ScanParams;

var<workgroup> partial: array<u32, 256>;

fn value(i: u32) -> u32 {
    return select(0u, data[i], i < params.count);
}

// The block a workgroup works on (blocks run in rows past the dispatch limit).
fn block_of(wg: vec3<u32>, groups: vec3<u32>) -> u32 {
    return wg.x + wg.y * groups.x;
}

@compute @workgroup_size(256)
fn scan(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let block = block_of(wg, groups);
    let base = block * SCAN_BLOCK + 2u * lid;
    let a = value(base);
    let b = value(base + 1u);
    partial[lid] = a + b;
    workgroupBarrier();
    // inclusive scan of the pairs' sums
    for (var offset = 1u; offset < SCAN_THREADS; offset *= 2u) {
        var add = 0u;
        if lid >= offset {
            add = partial[lid - offset];
        }
        workgroupBarrier();
        partial[lid] += add;
        workgroupBarrier();
    }
    let before = partial[lid] - (a + b);
    if base < params.count {
        data[base] = before;
    }
    if base + 1u < params.count {
        data[base + 1u] = before + a;
    }
    // (a dispatch in rows may run blocks past the last: they write nothing)
    if lid == SCAN_THREADS - 1u && block * SCAN_BLOCK < params.count {
        sums[block] = partial[lid];
    }
}

@compute @workgroup_size(256)
fn add(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let block = block_of(wg, groups);
    let base = block * SCAN_BLOCK + 2u * lid;
    let total = sums[block];
    if base < params.count {
        data[base] += total;
    }
    if base + 1u < params.count {
        data[base + 1u] += total;
    }
}
