// splat.wgsl — small particles drawn by compute instead of the rasteriser.
//
// On a CPU rasteriser (lavapipe) a particle costs far more per triangle than per pixel, so
// particles a few pixels across are cheaper as a compute splat: one thread per particle
// walks the pixels of its projected quad and adds its coverage to per-pixel accumulators
// with integer atomics. Order-independent by construction (weighted blended OIT, McGuire &
// Bavoil 2013, with equal weights): alpha-blended particles add premultiplied colour,
// alpha and -ln(1 - alpha); `resolve` turns the sums into the target's premultiplied
// colour, exact for one particle per pixel and for overlaps of one colour (snow), an
// average of colours otherwise. Additive particles add their light. Cull sends particles
// whose projected radius is at most frame.splat_radius target pixels here; larger ones
// are drawn over the resolved splats by draw.wgsl, sorted.
//
// Each effect gets its own variant (src/passes/splat.rs, SplatVariant), and a merged list's
// list one of its own: CPU drivers run every branch under a mask, so the blend it does not
// use and a sprite no emitter shows would cost their work for every covered pixel.
override ADDITIVE: u32 = 0u;    // 1: additive blending, 0: alpha
override FLAKES: u32 = 1u;      // some emitter shows the snowflake sprites
override MERGED: u32 = 0u;      // 1: a merged list's splat list (members.wgsl)

// an effect's own pool and splat list, or a merged list's copies of its members'
// particles, its splat list of them and the members' looks (merge.wgsl, members.wgsl)
@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> splat_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
@group(0) @binding(3) var<uniform> frame: FrameUniforms;
@group(0) @binding(4) var<uniform> effect: EffectParams;              // an effect's own splat
@group(0) @binding(5) var member_looks: texture_2d<f32>;               // merged: by member

// the particle target: the host's depth at its resolution as distances (downsample.wgsl), the
// accumulators (ACCUM_CHANNELS u32 per texel, zero between frames) and the colour
@group(1) @binding(0) var scene_depth: texture_2d<f32>;
@group(1) @binding(1) var<storage, read_write> accum: array<atomic<u32>>;
@group(1) @binding(3) var sprites: texture_2d_array<f32>;
@group(1) @binding(4) var sprite_sampler: sampler;
@group(1) @binding(2) var particle_target: texture_storage_2d<rgba16float, write>;

// accumulator channels: 0-2 alpha-blended sum of a * rgb, 3 sum of a, 4 sum of
// -ln(1 - a), 5-7 additive sum of a * rgb; fixed point, ACCUM_ONE = 1.0
const ACCUM_CHANNELS: u32 = 8u;
const ACCUM_ONE: f32 = 4096.0;
// one contribution at most (keeps 2^32 / (64 * 4096) = 16,384 overlaps from overflowing)
const ACCUM_MAX: f32 = 64.0;

fn fixed(x: f32) -> u32 {
    return u32(clamp(x, 0.0, ACCUM_MAX) * ACCUM_ONE + 0.5);
}

// Target pixel coordinates of a world point (y down, pixel centres at +0.5).
fn to_pixels(world: vec3<f32>, size: vec2<f32>) -> vec2<f32> {
    let clip = frame.view_proj * vec4<f32>(world, 1.0);
    let ndc = clip.xy / clip.w;
    return vec2<f32>((0.5 + 0.5 * ndc.x) * size.x, (0.5 - 0.5 * ndc.y) * size.y);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(gid, groups);
    if i >= atomicLoad(&counters.splatted) {
        return;
    }
    let p = particles[splat_list[i]];
    let a = appearance_of(p);
    let q = particle_quad(p, a.look, frame);
    let dims = textureDimensions(scene_depth);
    let size = vec2<f32>(dims);
    let c = to_pixels(q.center, size);
    let distance = view_distance(frame, q.center);
    // a quad a few pixels across is affine on screen: uv = M^-1 (pixel - centre)
    let ax = to_pixels(q.center + q.x, size) - c;
    let ay = to_pixels(q.center + q.y, size) - c;
    let det = ax.x * ay.y - ay.x * ax.y;
    if abs(det) < 1e-8 {
        return; // edge-on: covers no pixel centre
    }
    let half = min(abs(ax) + abs(ay), vec2<f32>(frame.splat_radius + 1.0));
    let lo = vec2<i32>(max(floor(c - half), vec2<f32>(0.0)));
    let hi = vec2<i32>(min(ceil(c + half), size - 1.0));
    let color = particle_color(p, a.look, a.settle_time);
    let rgb = color.rgb;
    // a snowflake's mip level: its texels per target pixel
    let sprite = sprite_of(p, a.look);
    let lod = log2(max(SPRITE_SIZE / (2.0 * max(length(ax), length(ay))), 1.0));
    for (var y = lo.y; y <= hi.y; y++) {
        for (var x = lo.x; x <= hi.x; x++) {
            let d = vec2<f32>(f32(x), f32(y)) + 0.5 - c;
            let uv = vec2<f32>(ay.y * d.x - ay.x * d.y, ax.x * d.y - ax.y * d.x) / det;
            var flake = 0.0;
            if FLAKES == 1u && sprite.x == SPRITE_SNOWFLAKE {
                let t = clamp(uv * 0.5 + 0.5, vec2<f32>(0.0), vec2<f32>(1.0));
                flake = textureSampleLevel(sprites, sprite_sampler, t, sprite.y, lod).r;
            }
            let cover = sprite_cover(sprite.x, uv, flake);
            if cover <= 0.0 {
                continue;
            }
            let scene = textureLoad(scene_depth, vec2<i32>(x, y), 0).r;
            if distance > scene {
                continue; // behind the scene
            }
            let alpha = color.a * cover * soft_fade(scene, distance, a.soft_distance);
            if alpha < 0.5 / 255.0 {
                continue;
            }
            let base = ACCUM_CHANNELS * (u32(y) * dims.x + u32(x));
            if ADDITIVE == 1u {
                atomicAdd(&accum[base + 5u], fixed(alpha * rgb.r));
                atomicAdd(&accum[base + 6u], fixed(alpha * rgb.g));
                atomicAdd(&accum[base + 7u], fixed(alpha * rgb.b));
            } else {
                atomicAdd(&accum[base], fixed(alpha * rgb.r));
                atomicAdd(&accum[base + 1u], fixed(alpha * rgb.g));
                atomicAdd(&accum[base + 2u], fixed(alpha * rgb.b));
                atomicAdd(&accum[base + 3u], fixed(alpha));
                atomicAdd(&accum[base + 4u], fixed(-log(1.0 - min(alpha, 0.999))));
            }
        }
    }
}

// One thread per target texel: the splats' premultiplied colour into the particle target
// (every texel is written: this is the target's clear), accumulators back to zero.
@compute @workgroup_size(8, 8)
fn resolve(@builtin(global_invocation_id) gid: vec3<u32>) {
    let dims = textureDimensions(particle_target);
    if gid.x >= dims.x || gid.y >= dims.y {
        return;
    }
    let base = ACCUM_CHANNELS * (gid.y * dims.x + gid.x);
    var sums: array<f32, 8>;
    var touched = 0u;
    for (var k = 0u; k < ACCUM_CHANNELS; k++) {
        let v = atomicLoad(&accum[base + k]);
        touched |= v;
        sums[k] = f32(v) / ACCUM_ONE;
    }
    var out = vec4<f32>(0.0);
    if touched != 0u {
        for (var k = 0u; k < ACCUM_CHANNELS; k++) {
            atomicStore(&accum[base + k], 0u);
        }
        // coverage of the alpha-blended splats: 1 - prod(1 - a)
        let alpha = 1.0 - exp(-sums[4]);
        var rgb = vec3<f32>(sums[5], sums[6], sums[7]);
        if sums[3] > 0.0 {
            rgb += vec3<f32>(sums[0], sums[1], sums[2]) * (alpha / sums[3]);
        }
        out = vec4<f32>(rgb, alpha);
    }
    textureStore(particle_target, gid.xy, out);
}
