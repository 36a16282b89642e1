// host.wgsl — a stand-in for the host application's scene in tests and demos: opaque,
// flat-shaded quads written to the host's colour and depth targets.

const MAX_QUADS: u32 = 8u;

struct HostQuad {
    center: vec4<f32>,   // xyz, w unused
    u: vec4<f32>,        // half extent along the first axis
    v: vec4<f32>,        // half extent along the second axis
    color: vec4<f32>,    // linear RGB, a = 1
}

struct HostUniforms {
    view_proj: mat4x4<f32>,
    quads: array<HostQuad, MAX_QUADS>,
}

@group(0) @binding(0) var<uniform> host: HostUniforms;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> VsOut {
    let q = host.quads[ii];
    let corner = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    )[vi];
    let world = q.center.xyz + q.u.xyz * corner.x + q.v.xyz * corner.y;
    var out: VsOut;
    out.clip = host.view_proj * vec4<f32>(world, 1.0);
    out.color = q.color;
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    return in.color;
}
