// gravity_stage.wgsl — the bodies all-pairs gravity pulls with, staged once a step before
// it (gravity.wgsl, gravity_subgroups.wgsl): the j-th particle of the alive list's position
// and mass into texel j of `bodies`. The O(N²) kernels then read each body as one texel
// instead of an index and a particle's position through it (a dependent load, and a
// 16-byte read out of a 136-byte particle). A texture rather than a buffer because lavapipe
// fetches texels as vectors but loads storage buffers lane by lane, which bound the kernels
// there; on a GPU both go through the same caches.

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
@group(0) @binding(3) var<uniform> effect: EffectParams;
@group(0) @binding(4) var bodies: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let j = linear_index(gid, groups);
    if j < atomicLoad(&counters.alive) {
        let pos = particles[alive_list[j]].pos;
        textureStore(bodies, body_texel(j), vec4<f32>(pos, effect.nbody_mass));
    }
}
