// draw.wgsl — camera-facing billboards pulled from the visible list (no per-particle vertex
// buffer), sorted back to front for alpha-blended effects: instance i draws particle
// draw_list[i].y as a 4-vertex strip. The sprite is a
// procedural soft disc; the output is premultiplied so one blend state serves additive
// (One, One) and alpha (One, OneMinusSrcAlpha) effects.

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> draw_list: array<vec2<u32>>; // (key, index), draw order
@group(0) @binding(2) var<uniform> frame: FrameUniforms;
@group(0) @binding(3) var<uniform> effect: EffectParams;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) color: vec4<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> VsOut {
    let p = particles[draw_list[ii].y];
    let corner = vec2<f32>(f32(vi & 1u), f32(vi >> 1u)) * 2.0 - 1.0;
    let t = life_t(p);
    let radius = drawn_radius(p, effect.size_end);
    let c = cos(p.rotation);
    let s = sin(p.rotation);
    let r = vec2<f32>(c * corner.x - s * corner.y, s * corner.x + c * corner.y) * radius;
    let world = p.pos + frame.cam_right * r.x + frame.cam_up * r.y;
    var out: VsOut;
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.uv = corner;
    out.color = unpack4x8unorm(p.color) * mix(vec4<f32>(1.0), effect.color_end, t);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    let d2 = dot(in.uv, in.uv);
    let falloff = 1.0 - smoothstep(0.25, 1.0, d2);
    let a = in.color.a * falloff;
    return vec4<f32>(in.color.rgb * a, a);
}
