// gravity_subgroups.wgsl — all-pairs gravity as gravity.wgsl computes it (the same sums, in
// the same order), for devices with subgroup operations: each lane of a subgroup loads one
// body and the others read it from its registers by a shuffle, so a body costs one load
// per subgroup instead of one per lane from workgroup memory, and no barrier is needed.
// (On lavapipe the workgroup-memory loads, lane by lane, bound the tiled kernel.)

// (bindings, target_of, body_of, plummer_pull, store_accel: gravity_pairs.wgsl)

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(subgroup_size) width: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let n = atomicLoad(&counters.alive);
    let me = target_of(linear_index(gid, groups), n);
    let eps2 = effect.nbody_softening * effect.nbody_softening;
    var a = vec3<f32>(0.0);
    // every lane runs every batch (past the end the bodies are massless), so the shuffles
    // see the whole subgroup
    for (var first = 0u; first < n; first += width) {
        let body = body_of(first + lane, n);
        for (var k = 0u; k < width; k++) {
            a += plummer_pull(subgroupShuffle(body, k), me.x, eps2);
        }
    }
    store_accel(me, a);
}
