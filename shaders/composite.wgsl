// composite.wgsl — upsample the low-resolution particle image and blend it (premultiplied,
// One / OneMinusSrcAlpha) onto the host's colour target.
//
// Bilinear upsampling bleeds particle colour across depth edges (a halo on the near
// object). Nearest-depth upsampling (Cantlay, GPU Gems 3 ch. 23) compares the four
// low-resolution depths around the pixel with the host's full-resolution depth: where they
// all agree it samples bilinearly, otherwise it takes the texel whose depth is closest.
// On an LDR host the particle colour is tonemapped (ACES fit); an HDR host gets it as is.
//
// The composite covers whatever viewport the host's pass has set (an editor's viewport is
// a rectangle of its window): each fragment finds its host pixel from where it lies in the
// triangle, not from its position in the attachment.

struct CompositeParams {
    depth: DepthMapping,
    threshold: f32,   // relative view-depth difference that marks an edge
    width: u32,       // host target size, pixels
    height: u32,
    _pad0: u32,
}

// samples per host pixel; a multisampled host's variant reads a
// texture_depth_multisampled_2d (src/passes/composite.rs)
override SAMPLES: u32 = 1u;

// 1: the host's target stores colour as it is given, to be shown as gamma-encoded (a UNORM
// format without its sRGB twin, as a UI toolkit's window: egui's Bgra8Unorm). The particle
// colour is then encoded here, so it is exact over black; the blending happens in gamma
// space, as the toolkit's own does.
override GAMMA_TARGET: u32 = 0u;

// 1: the particle target has the host's size (Scale::Full): each pixel takes its own texel,
// which is what either upsampling gives there, without the filtering and the depth tests
// (lavapipe runs both sides of a choice, and they made the composite three times dearer)
override SAME_SIZE: u32 = 0u;

// 1: nearest-depth upsampling (the host has a depth and the settings ask for it); 0:
// bilinear. 1: the particle colour is tonemapped for an LDR host. Specialised, not read from
// the uniforms: lavapipe (Mesa 22) compiles a shader again at every draw where a branch on a
// uniform decides most of it, with the uniform's value inlined, and keeps every copy (0.6 MB
// a frame).
override NEAREST_DEPTH: u32 = 0u;
override TONEMAP: u32 = 0u;

@group(0) @binding(0) var low_color: texture_2d<f32>;
@group(0) @binding(1) var low_depth: texture_2d<f32>; // distances (downsample.wgsl)
@group(0) @binding(2) var host_depth: texture_depth_2d;
@group(0) @binding(3) var bilinear: sampler;
@group(0) @binding(4) var<uniform> params: CompositeParams;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    // 0..1 across the viewport, y up
    @location(0) uv: vec2<f32>,
}

// One triangle covering the screen.
@vertex
fn vs_main(@builtin(vertex_index) vi: u32) -> VsOut {
    let uv = vec2<f32>(f32((vi << 1u) & 2u), f32(vi & 2u));
    var out: VsOut;
    out.clip = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    out.uv = uv;
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

// The host's distance along the view axis at a pixel: the nearest of its samples (on a
// multisampled host the pixel's colour is mostly the nearer surface's at an edge).
fn host_distance(pixel: vec2<u32>) -> f32 {
    var d = FAR_AWAY;
    for (var s = 0u; s < SAMPLES; s++) {
        d = min(d, depth_distance(textureLoad(host_depth, pixel, s), params.depth));
    }
    return d;
}

fn upsample(pixel: vec2<u32>) -> vec4<f32> {
    if SAME_SIZE == 1u {
        return textureLoad(low_color, pixel, 0);
    }
    let low = vec2<i32>(textureDimensions(low_color));
    let uv = (vec2<f32>(pixel) + 0.5) / vec2<f32>(f32(params.width), f32(params.height));
    let blended = textureSampleLevel(low_color, bilinear, uv, 0.0);
    if NEAREST_DEPTH == 0u {
        return blended;
    }
    let here = host_distance(pixel);
    let q = uv * vec2<f32>(low) - 0.5;
    let origin = vec2<i32>(floor(q));
    // the first texel unless another is closer (a diff against FAR_AWAY is as large as
    // 1e30: starting from it would keep texel (0, 0) of the whole target)
    var best = clamp(origin, vec2<i32>(0), low - 1);
    var best_diff = 3.4e38;
    var worst_diff = 0.0;
    for (var i = 0; i < 4; i++) {
        let t = clamp(origin + vec2<i32>(i & 1, i >> 1), vec2<i32>(0), low - 1);
        let diff = abs(textureLoad(low_depth, t, 0).r - here);
        if diff < best_diff {
            best_diff = diff;
            best = t;
        }
        worst_diff = max(worst_diff, diff);
    }
    if worst_diff <= params.threshold * abs(here) {
        return blended;
    }
    return textureLoad(low_color, best, 0);
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    // the host pixel under the fragment, counted from the viewport's top left
    let size = vec2<f32>(f32(params.width), f32(params.height));
    let at = vec2<f32>(in.uv.x, 1.0 - in.uv.y) * size;
    let pixel = min(vec2<u32>(max(at, vec2<f32>(0.0))), vec2<u32>(params.width, params.height) - 1u);
    var c = upsample(pixel);
    if TONEMAP == 1u {
        c = vec4<f32>(aces(max(c.rgb, vec3<f32>(0.0))), c.a);
    }
    if GAMMA_TARGET == 1u {
        c = vec4<f32>(srgb_encode(clamp(c.rgb, vec3<f32>(0.0), vec3<f32>(1.0))), c.a);
    }
    return c;
}
