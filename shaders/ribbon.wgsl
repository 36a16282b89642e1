// ribbon.wgsl — the geometry of ribbon pieces, composed into draw.wgsl (which declares
// ribbon_list, ribbon_pieces and ribbon_along, and particles0, the effect's own pool). No
// bindings or entry points of its own.
//
// Ribbons: the living particles of a scheduled ribbon emitter, or of one particle's trail,
// are the control points of one strip, joined in the order they were laid. cull.wgsl lists
// every ribbon point as (ribbon_key, index), the bitonic sort orders the list ribbon by
// ribbon and point by point along each, and ribbon_pieces.wgsl lists the pieces of every
// span between two neighbours of one ribbon and puts each piece's two triangles in the
// draw list. A triangle's corners are those of piece k of the n straight pieces of the
// span from entry i to entry i + 1, along the centripetal Catmull-Rom spline through
// entries i - 1 .. i + 2 (a missing neighbour at a ribbon's end is the reflection of the
// far point). A point that dies leaves the list, so its neighbours become adjacent and are
// joined. The strip turns about its own direction to face the viewer; width (the
// particles' size) and colour (theirs, over life) are blended between the two points along
// the span, and so is the image's coordinate along the ribbon that ribbon_pieces.wgsl wrote
// per entry.

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

// Read from the pool directly, not through particle_at's choice of four: lavapipe reads
// all four where a switch chooses one (a ribbon draw took 3 times as long).
fn ribbon_point(i: u32) -> Particle {
    return particles0[ribbon_list[i].y];
}

fn same_ribbon(i: u32, j: u32) -> bool {
    return ribbon_of(ribbon_list[i].x) == ribbon_of(ribbon_list[j].x);
}

// Where the two triangles of a piece put their corner c (0..6): (along the piece 0 | 1,
// side -1 | 1).
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

struct RibbonVertex {
    world: vec3<f32>,
    color: vec4<f32>,
    // the image's coordinate along the ribbon (0 without one)
    along: f32,
    // -1 .. 1 across the strip
    across: f32,
    textured: bool,
}

// Corner c (0..6) of piece `piece` (ribbon_pieces: (entry, n << 5 | k)).
fn ribbon_vertex(piece: vec2<u32>, c: u32, effect: EffectParams) -> RibbonVertex {
    let i = piece.x;
    let len = arrayLength(&ribbon_list);
    let a = ribbon_point(i);
    let b = ribbon_point(i + 1u);
    let count = piece.y >> 5u;
    let k = piece.y & 31u;
    var p0 = 2.0 * a.pos - b.pos;
    if i > 0u && same_ribbon(i - 1u, i) {
        p0 = ribbon_point(i - 1u).pos;
    }
    var p3 = 2.0 * b.pos - a.pos;
    if i + 2u < len && same_ribbon(i + 1u, i + 2u) {
        p3 = ribbon_point(i + 2u).pos;
    }
    let corner = piece_corner(c);
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
    var out: RibbonVertex;
    out.world = x + side * (corner.y * width);
    out.color = mix(particle_color(a, effect), particle_color(b, effect), u);
    out.across = corner.y;
    out.textured = look_of(effect, a).ribbon_repeats > 0.0;
    if out.textured {
        out.along = mix(ribbon_along[i], ribbon_along[i + 1u], u);
    }
    return out;
}

// How much of a ribbon's colour a fragment shows (its image's texel, or without one white
// fading over the outer quarter of the width on each side), `texel` sampled at
// (along, 0.5 + 0.5 across).
fn ribbon_tint(across: f32, textured: bool, texel: vec4<f32>) -> vec4<f32> {
    let edge = 1.0 - smoothstep(0.5, 1.0, abs(across));
    return select(vec4<f32>(1.0, 1.0, 1.0, edge), texel, textured);
}
