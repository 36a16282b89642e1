// blit.wgsl — the viewport's scene image into the editor's window: a triangle covering the
// viewport the pass has set, each fragment copying the texel of its own viewport pixel.
// The image has the window's format, so it is copied as it is stored (an sRGB image is
// decoded and encoded again, exactly).

@group(0) @binding(0) var image: texture_2d<f32>;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    // 0..1 across the viewport, y up
    @location(0) uv: vec2<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32) -> VsOut {
    let uv = vec2<f32>(f32((vi << 1u) & 2u), f32(vi & 2u));
    var out: VsOut;
    out.clip = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    let size = textureDimensions(image);
    let at = vec2<f32>(in.uv.x, 1.0 - in.uv.y) * vec2<f32>(size);
    let pixel = min(vec2<u32>(max(at, vec2<f32>(0.0))), size - 1u);
    return textureLoad(image, pixel, 0);
}
