// gravity_pairs.wgsl — what both all-pairs gravity kernels (gravity.wgsl, tiled through
// workgroup memory; gravity_subgroups.wgsl, shared through subgroups) share: their
// bindings, the particle each thread pulls on, and the pull of one body on it. Both read
// the bodies gravity_stage.wgsl staged for the step, one texel a body.

@group(0) @binding(0) var<storage, read> alive_list: array<u32>;
@group(0) @binding(1) var<storage, read_write> counters: Counters;
@group(0) @binding(2) var<uniform> effect: EffectParams;
@group(0) @binding(3) var<storage, read_write> accel: array<vec4<f32>>;
@group(0) @binding(4) var bodies: texture_2d<f32>;

// The particle thread i pulls on: its slot and position (mine: i is an alive particle;
// a thread past the end still takes part in its workgroup's loads and shuffles).
struct Target {
    mine: bool,
    index: u32,
    x: vec3<f32>,
}

fn target_of(i: u32, n: u32) -> Target {
    var t = Target(i < n, 0u, vec3<f32>(0.0));
    if t.mine {
        t.index = alive_list[i];
        t.x = textureLoad(bodies, body_texel(i), 0).xyz;
    }
    return t;
}

// Body j of the alive list as the kernels stage it: xyz position, w mass (0 past the end,
// where the texel read is of the last body, or of texel 0 when there is none).
fn body_of(j: u32, n: u32) -> vec4<f32> {
    let texel = textureLoad(bodies, body_texel(min(j, max(n, 1u) - 1u)), 0);
    return select(vec4<f32>(0.0), texel, j < n);
}

// The pull at x of a body (xyz position, w mass), before G: m (b - x) / (|b - x|^2 +
// eps2)^(3/2), by one reciprocal square root (no square root and division). Both kernels
// sum it over the bodies in the same order.
fn plummer_pull(body: vec4<f32>, x: vec3<f32>, eps2: f32) -> vec3<f32> {
    let d = body.xyz - x;
    let inv = inverseSqrt(dot(d, d) + eps2);
    return d * (body.w * inv * inv * inv);
}

// The summed pull `a` on t, times G, for simulate to add.
fn store_accel(t: Target, a: vec3<f32>) {
    if t.mine {
        accel[t.index] = vec4<f32>(a * effect.nbody_g, 0.0);
    }
}
