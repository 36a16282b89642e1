// post.wgsl — the program's HDR host finishing its image: a bloom (the light above white
// spread round its source, as a lens and an eye spread it) and a filmic tonemap (ACES,
// Narkowicz's fit) into the LDR output.
//
// The bloom: `prefilter` keeps what is brighter than the threshold at half the image's
// size, `down` halves it level by level (each texel the mean of a 4 × 4 box: four bilinear
// taps), `up` adds each level's tent-filtered upsampling into the level above, and
// `finish` adds the largest level to the image, scaled by the strength, and tonemaps.

struct PostParams {
    // one texel of the source, in its coordinates
    texel: vec2<f32>,
    // light above which a pixel blooms (linear; 1 is white)
    threshold: f32,
    // how much of the bloom is added
    strength: f32,
    // multiplies the light before the tonemap
    exposure: f32,
}

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var bilinear: sampler;
@group(0) @binding(2) var<uniform> params: PostParams;
// `finish`: the HDR image (the source is the bloom's largest level)
@group(0) @binding(3) var image: texture_2d<f32>;

// (vs_main and VsOut: fullscreen.wgsl, put before this file)

// The mean of the 4 × 4 source texels round uv (four bilinear taps).
fn box4(uv: vec2<f32>) -> vec3<f32> {
    let t = params.texel;
    var sum = vec3<f32>(0.0);
    for (var k = 0u; k < 4u; k++) {
        let o = vec2<f32>(f32(k & 1u) * 2.0 - 1.0, f32(k >> 1u) * 2.0 - 1.0) * t;
        sum += textureSample(source, bilinear, uv + o).rgb;
    }
    return 0.25 * sum;
}

@fragment
fn prefilter(in: VsOut) -> @location(0) vec4<f32> {
    let c = box4(in.uv);
    // what lies above the threshold, by the brightest channel (so hue is kept)
    let peak = max(c.r, max(c.g, c.b));
    let kept = max(peak - params.threshold, 0.0) / max(peak, 1e-4);
    return vec4<f32>(c * kept, 1.0);
}

@fragment
fn down(in: VsOut) -> @location(0) vec4<f32> {
    return vec4<f32>(box4(in.uv), 1.0);
}

// The source (a level half the target's size) tent-filtered up: nine taps weighted 1 2 1.
@fragment
fn up(in: VsOut) -> @location(0) vec4<f32> {
    let t = params.texel;
    var sum = vec3<f32>(0.0);
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let w = f32((2 - abs(x)) * (2 - abs(y)));
            sum += w * textureSample(source, bilinear, in.uv + vec2<f32>(f32(x), f32(y)) * t).rgb;
        }
    }
    return vec4<f32>(sum / 16.0, 1.0);
}

// Narkowicz's fit of the ACES filmic curve: a toe, a soft shoulder, white at about 10.
fn aces(x: vec3<f32>) -> vec3<f32> {
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), vec3<f32>(0.0), vec3<f32>(1.0));
}

@fragment
fn finish(in: VsOut) -> @location(0) vec4<f32> {
    let hdr = textureSample(image, bilinear, in.uv).rgb;
    let bloom = textureSample(source, bilinear, in.uv).rgb;
    return vec4<f32>(aces((hdr + params.strength * bloom) * params.exposure), 1.0);
}
