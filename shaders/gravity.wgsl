// gravity.wgsl — all-pairs gravity between the particles of an effect (N-body mode,
// GPU Gems 3 ch. 31): each workgroup walks the alive list in tiles of WORKGROUP bodies
// staged in workgroup memory; every particle sums the Plummer-softened pull of all others
// (a body's pull on itself is zero: the distance is zero). The accelerations go to
// `accel[slot]` for simulate to add; all are computed from the same positions, so the
// pairwise forces cancel and momentum is conserved.

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
@group(0) @binding(3) var<uniform> effect: EffectParams;
@group(0) @binding(4) var<storage, read_write> accel: array<vec4<f32>>;

var<workgroup> tile: array<vec4<f32>, WORKGROUP>; // xyz position, w mass (0 past the end)

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    let n = atomicLoad(&counters.alive);
    let mine = i < n;
    var index = 0u;
    var x = vec3<f32>(0.0);
    if mine {
        index = alive_list[i];
        x = particles[index].pos;
    }
    let eps2 = effect.nbody_softening * effect.nbody_softening;
    var a = vec3<f32>(0.0);
    let tiles = (n + WORKGROUP - 1u) / WORKGROUP;
    for (var t = 0u; t < tiles; t++) {
        let j = t * WORKGROUP + lid;
        var body = vec4<f32>(0.0);
        if j < n {
            body = vec4<f32>(particles[alive_list[j]].pos, effect.nbody_mass);
        }
        workgroupBarrier();
        tile[lid] = body;
        workgroupBarrier();
        for (var k = 0u; k < WORKGROUP; k++) {
            let b = tile[k];
            let d = b.xyz - x;
            // m / r^3 by one reciprocal square root (no square root and division)
            let inv = inverseSqrt(dot(d, d) + eps2);
            a += d * (b.w * inv * inv * inv);
        }
    }
    if mine {
        accel[index] = vec4<f32>(a * effect.nbody_g, 0.0);
    }
}
