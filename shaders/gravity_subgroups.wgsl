// gravity_subgroups.wgsl — all-pairs gravity as gravity.wgsl computes it (the same sums, in
// the same order), for devices with subgroup operations: each lane of a subgroup loads one
// body and the others read it from its registers by a shuffle, so a body costs one load
// per subgroup instead of one per lane from workgroup memory, and no barrier is needed.
// (On lavapipe the workgroup-memory loads, lane by lane, bound the tiled kernel.)

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
@group(0) @binding(3) var<uniform> effect: EffectParams;
@group(0) @binding(4) var<storage, read_write> accel: array<vec4<f32>>;

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(subgroup_size) width: u32,
    @builtin(subgroup_invocation_id) lane: u32,
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
    // every lane runs every batch (past the end the bodies are massless), so the shuffles
    // see the whole subgroup
    for (var first = 0u; first < n; first += width) {
        let j = first + lane;
        var body = vec4<f32>(0.0);
        if j < n {
            body = vec4<f32>(particles[alive_list[j]].pos, effect.nbody_mass);
        }
        for (var k = 0u; k < width; k++) {
            let b = subgroupShuffle(body, k);
            let d = b.xyz - x;
            // m / r^3 by one reciprocal square root
            let inv = inverseSqrt(dot(d, d) + eps2);
            a += d * (b.w * inv * inv * inv);
        }
    }
    if mine {
        accel[index] = vec4<f32>(a * effect.nbody_g, 0.0);
    }
}
