// relist.wgsl — the survivors simulate appended to the next alive list become the current
// alive list again, copied on the GPU (one thread per survivor, dispatched from the
// simulate arguments args.wgsl wrote for them). Every pass reads and appends to the one
// current list, so which list holds the particles never depends on whether the host
// submitted a frame it recorded.

@group(0) @binding(0) var<storage, read> next_list: array<u32>;
@group(0) @binding(1) var<storage, read_write> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(gid, groups);
    if i < atomicLoad(&counters.alive) {
        alive_list[i] = next_list[i];
    }
}
