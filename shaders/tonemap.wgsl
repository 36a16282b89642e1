// tonemap.wgsl — resolve the HDR (Rgba16Float) particle image to an LDR sRGB target:
// ACES filmic fit (Narkowicz 2015) per channel; the sRGB encode is the target format's.

@group(0) @binding(0) var hdr: texture_2d<f32>;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
}

// One triangle covering the screen.
@vertex
fn vs_main(@builtin(vertex_index) vi: u32) -> VsOut {
    let uv = vec2<f32>(f32((vi << 1u) & 2u), f32(vi & 2u));
    var out: VsOut;
    out.clip = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    return out;
}

fn aces(x: vec3<f32>) -> vec3<f32> {
    let a = 2.51;
    let b = 0.03;
    let c = 2.43;
    let d = 0.59;
    let e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), vec3<f32>(0.0), vec3<f32>(1.0));
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    let c = textureLoad(hdr, vec2<i32>(in.clip.xy), 0);
    return vec4<f32>(aces(max(c.rgb, vec3<f32>(0.0))), 1.0);
}
