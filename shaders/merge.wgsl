// merge.wgsl — several alpha-blended effects sorted together: each effect's visible
// (key, index) pairs are appended to one renderer-level list as (key, slot << 24 | index),
// which is then sorted and drawn in one draw (draw.wgsl reads slot's pool and effect).

struct MergeParams {
    slot: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<storage, read> src: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read_write> src_counters: Counters;
@group(0) @binding(2) var<storage, read_write> dst: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> dst_counters: Counters;
@group(0) @binding(4) var<uniform> params: MergeParams;
@group(0) @binding(5) var<storage, read_write> dst_args: IndirectArgs;

var<workgroup> wg_count: atomic<u32>;
var<workgroup> wg_base: u32;

// One thread per pair of the effect's pool (dispatched for its capacity).
@compute @workgroup_size(64)
fn gather(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    let n = atomicLoad(&src_counters.visible);
    var local = 0u;
    let mine = i < n;
    if mine {
        local = atomicAdd(&wg_count, 1u);
    }
    workgroupBarrier();
    if lid == 0u {
        let c = atomicLoad(&wg_count);
        if c > 0u {
            wg_base = atomicAdd(&dst_counters.visible, c);
        }
    }
    workgroupBarrier();
    if mine {
        let pair = src[i];
        dst[wg_base + local] = vec2<u32>(pair.x, (params.slot << 24u) | pair.y);
    }
}

// After the gathers: the merged draw takes one instance per listed particle.
@compute @workgroup_size(1)
fn merged_args() {
    dst_args.draw_vertex_count = 3u;
    dst_args.draw_instance_count = atomicLoad(&dst_counters.visible);
    dst_args.draw_first_vertex = 0u;
    dst_args.draw_first_instance = 0u;
}
