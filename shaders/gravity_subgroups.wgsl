// gravity_subgroups.wgsl — all-pairs gravity as gravity.wgsl computes it (the same sums, in
// the same order), for devices with subgroup operations: the bodies come in batches of
// SHARED, one a lane in each group of SHARED lanes, and every lane reads them from the
// registers of lanes 0..SHARED-1 by broadcast, so a body costs one texel read per SHARED
// pulls and no barrier is needed. The batch is written out lane by lane (constant lanes,
// no inner loop): on lavapipe a loop's per-lane masks cost as much as the pulls.
// Needs subgroups of at least SHARED lanes (GravityPass takes the tiled kernel otherwise).

// (bindings, target_of, body_of, plummer_pull, store_accel: gravity_pairs.wgsl)

const SHARED: u32 = 8u;

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let n = atomicLoad(&counters.alive);
    let me = target_of(linear_index(gid, groups), n);
    let eps2 = effect.nbody_softening * effect.nbody_softening;
    var a = vec3<f32>(0.0);
    // every lane runs every batch (past the end the bodies are massless), so the
    // broadcasts see the whole subgroup
    for (var first = 0u; first < n; first += SHARED) {
        let body = body_of(first + lane % SHARED, n);
        a += plummer_pull(subgroupBroadcast(body, 0u), me.x, eps2);
        a += plummer_pull(subgroupBroadcast(body, 1u), me.x, eps2);
        a += plummer_pull(subgroupBroadcast(body, 2u), me.x, eps2);
        a += plummer_pull(subgroupBroadcast(body, 3u), me.x, eps2);
        a += plummer_pull(subgroupBroadcast(body, 4u), me.x, eps2);
        a += plummer_pull(subgroupBroadcast(body, 5u), me.x, eps2);
        a += plummer_pull(subgroupBroadcast(body, 6u), me.x, eps2);
        a += plummer_pull(subgroupBroadcast(body, 7u), me.x, eps2);
    }
    store_accel(me, a);
}
