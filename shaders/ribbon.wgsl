// ribbon.wgsl — ribbons: the living particles of a scheduled ribbon emitter, or of one
// particle's trail, are the control points of one strip, joined in the order they were laid.
//
// cull.wgsl lists every ribbon point as (ribbon_key, index), the bitonic sort orders the
// list ribbon by ribbon and point by point along each, and ribbon_pieces.wgsl lists the pieces of
// every span between two neighbours of one ribbon. Instance j draws piece j: piece k of
// the n straight pieces (two triangles) of the span from entry i to entry i + 1, along the
// centripetal Catmull-Rom spline through entries i - 1 .. i + 2 (a missing neighbour at a
// ribbon's end is the reflection of the far point). A point that dies leaves the list, so
// its neighbours become adjacent and are joined. The strip turns about its own direction
// to face the viewer; width (the particles' size) and colour (theirs, over life) are
// blended between the two points along the span. A textured ribbon's colour is tinted by
// its image, at the coordinate along it that ribbon_pieces.wgsl wrote per entry (blended
// along the span like the rest) and across it from 0 on one edge to 1 on the other.

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> ribbon_list: array<vec2<u32>>; // sorted (key, index)
@group(0) @binding(2) var<storage, read> pieces: array<vec2<u32>>; // (entry, n << 5 | k)
@group(0) @binding(3) var<uniform> frame: FrameUniforms;
@group(0) @binding(4) var<uniform> effect: EffectParams;
@group(0) @binding(5) var<storage, read> ribbon_along: array<f32>;
// the draw's: the host's depth as distances at the particle target's resolution (the
// sprites and their sampler are not used by ribbons)
@group(1) @binding(0) var scene_depth: texture_2d<f32>;
// the effect's: its ribbons' image (a placeholder, never sampled, when they have none)
@group(2) @binding(0) var image: texture_2d<f32>;
@group(2) @binding(1) var image_sampler: sampler;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    // -1 .. 1 across the strip
    @location(0) across: f32,
    @location(1) color: vec4<f32>,
    // distance along the view axis (affine in the world, so interpolated exactly)
    @location(2) distance: f32,
    // soft distance, additive (1.0) or not, textured (1.0) or not
    @location(3) @interpolate(flat) blend: vec3<f32>,
    // the image's coordinate along the ribbon
    @location(4) along: f32,
}

// Knot spacing of the centripetal parametrisation (alpha = 1/2): the square root of the
// distance, kept above zero where two points coincide.
fn knot(a: vec3<f32>, b: vec3<f32>) -> f32 {
    return max(sqrt(length(b - a)), 1e-4);
}

// The centripetal Catmull-Rom spline (Barry and Goldman's pyramid) through p1 (u = 0) and
// p2 (u = 1), shaped by p0 and p3. With knots spaced by the square root of the distances
// it has no cusp or self-intersection within a span (Yuksel, Schaefer and Keyser 2011).
fn catmull_rom(p0: vec3<f32>, p1: vec3<f32>, p2: vec3<f32>, p3: vec3<f32>, u: f32) -> vec3<f32> {
    let t0 = 0.0;
    let t1 = t0 + knot(p0, p1);
    let t2 = t1 + knot(p1, p2);
    let t3 = t2 + knot(p2, p3);
    let t = mix(t1, t2, u);
    let a1 = ((t1 - t) * p0 + (t - t0) * p1) / (t1 - t0);
    let a2 = ((t2 - t) * p1 + (t - t1) * p2) / (t2 - t1);
    let a3 = ((t3 - t) * p2 + (t - t2) * p3) / (t3 - t2);
    let b1 = ((t2 - t) * a1 + (t - t0) * a2) / (t2 - t0);
    let b2 = ((t3 - t) * a2 + (t - t1) * a3) / (t3 - t1);
    return ((t2 - t) * b1 + (t - t1) * b2) / (t2 - t1);
}

fn point_at(i: u32) -> Particle {
    return particles[ribbon_list[i].y];
}

fn same_ribbon(i: u32, j: u32) -> bool {
    return ribbon_of(ribbon_list[i].x) == ribbon_of(ribbon_list[j].x);
}

// Where the two triangles of a piece put its vertex c: (along the piece 0 | 1, side -1 | 1).
fn piece_corner(c: u32) -> vec2<f32> {
    switch c {
        case 0u: { return vec2<f32>(0.0, -1.0); }
        case 1u: { return vec2<f32>(1.0, -1.0); }
        case 2u: { return vec2<f32>(1.0, 1.0); }
        case 3u: { return vec2<f32>(0.0, -1.0); }
        case 4u: { return vec2<f32>(1.0, 1.0); }
        default: { return vec2<f32>(0.0, 1.0); }
    }
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> VsOut {
    var out: VsOut;
    let piece = pieces[ii];
    let i = piece.x;
    let len = arrayLength(&ribbon_list);
    let a = point_at(i);
    let b = point_at(i + 1u);
    let count = piece.y >> 5u;
    let k = piece.y & 31u;
    var p0 = 2.0 * a.pos - b.pos;
    if i > 0u && same_ribbon(i - 1u, i) {
        p0 = point_at(i - 1u).pos;
    }
    var p3 = 2.0 * b.pos - a.pos;
    if i + 2u < len && same_ribbon(i + 1u, i + 2u) {
        p3 = point_at(i + 2u).pos;
    }
    let corner = piece_corner(vi);
    let u = (f32(k) + corner.x) / f32(count);
    let x = catmull_rom(p0, a.pos, b.pos, p3, u);
    // the strip's direction there (a central difference within the span), and the side
    // that faces the viewer across it
    let h = 0.5 / f32(count);
    var dir = catmull_rom(p0, a.pos, b.pos, p3, min(u + h, 1.0))
        - catmull_rom(p0, a.pos, b.pos, p3, max(u - h, 0.0));
    if length(dir) < 1e-9 {
        dir = b.pos - a.pos;
    }
    let to_eye = select(-frame.view_depth.xyz, frame.eye - x, frame.perspective == 1u);
    let across = cross(dir, to_eye);
    let side = select(frame.cam_right, normalize(across), length(across) > 1e-12);
    let width = mix(drawn_radius(a, effect), drawn_radius(b, effect), u);
    let world = x + side * (corner.y * width);
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.distance = view_distance(frame, world);
    out.across = corner.y;
    out.color = mix(particle_color(a, effect), particle_color(b, effect), u);
    let textured = look_of(effect, a).ribbon_repeats > 0.0;
    if textured {
        out.along = mix(ribbon_along[i], ribbon_along[i + 1u], u);
    }
    out.blend = vec3<f32>(effect.soft_distance, f32(effect.additive), f32(textured));
    return out;
}

// Depth-tested and soft against the scene like every particle. Without an image the edges
// fade over the outer quarter of the width on each side; with one, its alpha shapes them.
@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    // sampled before the discard: implicit derivatives need uniform control flow
    let texel = textureSample(image, image_sampler, vec2<f32>(in.along, 0.5 + 0.5 * in.across));
    let scene = textureLoad(scene_depth, vec2<i32>(in.clip.xy), 0).r;
    if in.distance > scene {
        discard;
    }
    let fade = soft_fade(scene, in.distance, in.blend.x);
    let edge = 1.0 - smoothstep(0.5, 1.0, abs(in.across));
    let tint = select(vec4<f32>(1.0, 1.0, 1.0, edge), texel, in.blend.z > 0.5);
    let a = in.color.a * tint.a * fade;
    return premultiplied(in.color.rgb * tint.rgb, a, in.blend.y > 0.5);
}
