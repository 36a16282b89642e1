// roofline.wgsl — the device's own ceilings, measured in the same run as the passes they
// judge: `copy` reads and writes every element once (memory bandwidth: 32 bytes a thread),
// `fma` runs four independent chains of vec4 fused multiply-adds per thread in registers
// (arithmetic throughput: FMA_STEPS × 4 chains × 4 lanes × 2 flops a thread), reading and
// writing one element so that the work cannot be optimised away.

const FMA_STEPS: u32 = 256u;

@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;

@compute @workgroup_size(64)
fn copy(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i < arrayLength(&src) {
        dst[i] = src[i];
    }
}

@compute @workgroup_size(64)
fn fma_chains(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i >= arrayLength(&src) {
        return;
    }
    var a = src[i];
    var b = a + vec4<f32>(0.25);
    var c = a + vec4<f32>(0.5);
    var d = a + vec4<f32>(0.75);
    // a contraction towards a fixed point: the values stay finite however many steps
    let m = vec4<f32>(0.999);
    let n = vec4<f32>(0.001);
    for (var k = 0u; k < FMA_STEPS; k++) {
        a = fma(a, m, n);
        b = fma(b, m, n);
        c = fma(c, m, n);
        d = fma(d, m, n);
    }
    dst[i] = a + b + c + d;
}
