// blit.wgsl — the viewport's scene image into the editor's window: a triangle covering the
// viewport the pass has set, each fragment copying the texel of its own viewport pixel.
// The image has the window's format, so it is copied as it is stored (an sRGB image is
// decoded and encoded again, exactly).

@group(0) @binding(0) var image: texture_2d<f32>;

// (vs_main and VsOut: fullscreen.wgsl, put before this file)

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    let size = textureDimensions(image);
    let at = in.uv * vec2<f32>(size);
    let pixel = min(vec2<u32>(max(at, vec2<f32>(0.0))), size - 1u);
    return textureLoad(image, pixel, 0);
}
