// relist.wgsl — the survivors simulate appended to the next alive list become the current
// alive list again, copied on the GPU. Every pass reads and appends to the one current
// list, so which list holds the particles never depends on whether the host submitted a
// frame it recorded. `main`: one thread per survivor, dispatched from the relist
// arguments args.wgsl after_simulate wrote for them (none after a step over the slots,
// which listed its survivors in the current list itself); `recount`: one thread per slot
// (a pool sized so has no argument pass after simulate).

// (read only; bound for writing as the alive list beside it in the same buffer is)
@group(0) @binding(0) var<storage, read_write> next_list: array<u32>;
@group(0) @binding(1) var<storage, read_write> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
// the ribbon points', ribbon pieces' and mesh particles' counts (`recount` zeroes them)
@group(0) @binding(3) var<storage, read_write> draw_counters: DrawCounters;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(gid, groups);
    if i < atomicLoad(&counters.alive) {
        alive_list[i] = next_list[i];
    }
}

// The copy, and what args.wgsl after_simulate does for a counted pool: the survivors become
// the alive count (read by every thread from the scratch count, which the cull clears),
// and this frame's lists start empty.
@compute @workgroup_size(64)
fn recount(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(gid, groups);
    let n = atomicLoad(&counters.next_alive);
    if i < n {
        alive_list[i] = next_list[i];
    }
    if i == 0u {
        take_survivors(n);
    }
}
