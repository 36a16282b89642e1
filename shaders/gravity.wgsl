// gravity.wgsl — all-pairs gravity between the particles of an effect (N-body mode,
// GPU Gems 3 ch. 31): each workgroup walks the step's bodies (gravity_stage.wgsl) in
// tiles of WORKGROUP, staged in workgroup memory; every particle sums the Plummer-softened
// pull of all others (a body's pull on itself is zero: the distance is zero). The
// accelerations go to `accel[slot]` for simulate to add; all are computed from the same
// positions, so the pairwise forces cancel and momentum is conserved.

// (bindings, target_of, body_of, plummer_pull, store_accel: gravity_pairs.wgsl)

var<workgroup> tile: array<vec4<f32>, WORKGROUP>; // xyz position, w mass (0 past the end)

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let n = atomicLoad(&counters.alive);
    let me = target_of(linear_index(gid, groups), n);
    let eps2 = effect.nbody_softening * effect.nbody_softening;
    var a = vec3<f32>(0.0);
    let tiles = (n + WORKGROUP - 1u) / WORKGROUP;
    for (var t = 0u; t < tiles; t++) {
        let body = body_of(t * WORKGROUP + lid, n);
        workgroupBarrier();
        tile[lid] = body;
        workgroupBarrier();
        for (var k = 0u; k < WORKGROUP; k++) {
            a += plummer_pull(tile[k], me.x, eps2);
        }
    }
    store_accel(me, a);
}
