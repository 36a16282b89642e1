// ribbon.wgsl — the geometry of ribbon pieces, composed into draw.wgsl (which declares
// ribbon_points and ribbon_pieces). No bindings or entry points of its own.
//
// Ribbons: the living particles of a scheduled ribbon emitter, or of one particle's trail,
// are the control points of one strip, joined in the order they were laid. cull.wgsl lists
// every ribbon point as (ribbon_key, index), the bitonic sort orders the list ribbon by
// ribbon and point by point along each, and ribbon_pieces.wgsl cuts each ribbon into
// pieces (a span between neighbours, or a run of spans within a few pixels on screen), each
// drawn in one or more straight parts, and puts the parts in the draw list. An instance
// draws part k of the n parts (two triangles) of the piece from entry i to entry
// i + spans, along the centripetal Catmull-Rom spline through them shaped by entries i - 1
// and i + spans + 1 (a missing neighbour at a ribbon's end is the reflection of the far
// point). A point that dies leaves the list, so its neighbours become adjacent and are
// joined. The strip turns about its own direction to face the viewer; width (the
// particles' size) and colour (theirs, over life) are blended between the piece's ends,
// and so is the image's coordinate along the ribbon (each as ribbon_pieces.wgsl wrote it
// in the entry's RibbonPoint).

// Knot spacing of the centripetal parametrisation (alpha = 1/2): the square root of the
// distance, kept above zero where two points coincide.
fn knot(a: vec3<f32>, b: vec3<f32>) -> f32 {
    return max(sqrt(length(b - a)), 1e-4);
}

// One span of the centripetal Catmull-Rom spline: through p1 and p2, shaped by p0 and
// p3, with its knots (t0 = 0), computed once for every point a vertex takes on it.
struct Span {
    p0: vec3<f32>,
    p1: vec3<f32>,
    p2: vec3<f32>,
    p3: vec3<f32>,
    t1: f32,
    t2: f32,
    t3: f32,
}

fn span(p0: vec3<f32>, p1: vec3<f32>, p2: vec3<f32>, p3: vec3<f32>) -> Span {
    let t1 = knot(p0, p1);
    let t2 = t1 + knot(p1, p2);
    let t3 = t2 + knot(p2, p3);
    return Span(p0, p1, p2, p3, t1, t2, t3);
}

// A point of a span and the span's direction there (the derivative, any length).
struct SpanPoint {
    pos: vec3<f32>,
    tangent: vec3<f32>,
}

// The span at u (0 at p1, 1 at p2), by Barry and Goldman's pyramid, and its derivative by
// the product rule through the pyramid (every level is linear in t). With knots spaced by
// the square root of the distances it has no cusp or self-intersection within a span
// (Yuksel, Schaefer and Keyser 2011).
fn catmull_rom(s: Span, u: f32) -> SpanPoint {
    let t = mix(s.t1, s.t2, u);
    let a1 = ((s.t1 - t) * s.p0 + t * s.p1) / s.t1;
    let a2 = ((s.t2 - t) * s.p1 + (t - s.t1) * s.p2) / (s.t2 - s.t1);
    let a3 = ((s.t3 - t) * s.p2 + (t - s.t2) * s.p3) / (s.t3 - s.t2);
    let da1 = (s.p1 - s.p0) / s.t1;
    let da2 = (s.p2 - s.p1) / (s.t2 - s.t1);
    let da3 = (s.p3 - s.p2) / (s.t3 - s.t2);
    let b1 = ((s.t2 - t) * a1 + t * a2) / s.t2;
    let b2 = ((s.t3 - t) * a2 + (t - s.t1) * a3) / (s.t3 - s.t1);
    let db1 = ((s.t2 - t) * da1 + a2 - a1 + t * da2) / s.t2;
    let db2 = ((s.t3 - t) * da2 + a3 - a2 + (t - s.t1) * da3) / (s.t3 - s.t1);
    var out: SpanPoint;
    out.pos = ((s.t2 - t) * b1 + (t - s.t1) * b2) / (s.t2 - s.t1);
    out.tangent = (s.t2 - t) * db1 + b2 - b1 + (t - s.t1) * db2;
    return out;
}

fn same_ribbon(a: RibbonPoint, b: RibbonPoint) -> bool {
    return a.ribbon == b.ribbon;
}

// Corner c (0..4) of a piece, as its two triangles (0, 1, 2) and (0, 2, 3) index them:
// (along the piece 0 | 1, side -1 | 1).
fn piece_corner(c: u32) -> vec2<f32> {
    return vec2<f32>(f32(c == 1u || c == 2u), select(-1.0, 1.0, c >= 2u));
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

// Narrowest half width a ribbon is drawn at, in particle-target pixels.
const MIN_HALF_WIDTH: f32 = 1.0;

// Corner c (0..4) of part `piece` (ribbon_pieces: (entry, spans << 10 | parts << 5 |
// part)): along the spline from entry i to entry i + spans, shaped by their neighbours.
fn ribbon_vertex(piece: vec2<u32>, c: u32) -> RibbonVertex {
    let i = piece.x;
    let spans = piece.y >> 10u;
    let a = ribbon_points[i];
    let b = ribbon_points[i + spans];
    let count = (piece.y >> 5u) & 31u;
    let k = piece.y & 31u;
    var p0 = 2.0 * a.pos - b.pos;
    if i > 0u {
        let before = ribbon_points[i - 1u];
        if same_ribbon(before, a) {
            p0 = before.pos;
        }
    }
    // (the entry after the last is NO_RIBBON: a span's far neighbour always exists)
    var p3 = 2.0 * b.pos - a.pos;
    let after = ribbon_points[i + spans + 1u];
    if same_ribbon(b, after) {
        p3 = after.pos;
    }
    let s = span(p0, a.pos, b.pos, p3);
    let corner = piece_corner(c);
    let u = (f32(k) + corner.x) / f32(count);
    let point = catmull_rom(s, u);
    let x = point.pos;
    // the strip's direction there, and the side that faces the viewer across it
    var dir = point.tangent;
    if length(dir) < 1e-9 {
        dir = b.pos - a.pos;
    }
    let to_eye = select(-frame.view_depth.xyz, frame.eye - x, frame.perspective == 1u);
    let across = cross(dir, to_eye);
    let side = select(frame.cam_right, normalize(across), length(across) > 1e-12);
    // a strip thinner than MIN_HALF_WIDTH pixels is drawn that wide and as much fainter:
    // thinner, it falls between pixel centres and shows as dots
    let width = mix(a.radius, b.radius, u);
    let width_px = width * frame.pixel_scale / max(clip_w(frame, x), 1e-6);
    let widen = max(MIN_HALF_WIDTH / max(width_px, 1e-6), 1.0);
    var out: RibbonVertex;
    out.world = x + side * (corner.y * width * widen);
    out.color = mix(a.color, b.color, u);
    out.color.a /= widen;
    out.across = corner.y;
    out.textured = (a.ribbon & RIBBON_TEXTURED) != 0u;
    out.along = mix(a.along, b.along, u);
    return out;
}

// How much of a ribbon's colour a fragment shows (its image's texel, or without one white
// fading over the outer quarter of the width on each side), `texel` sampled at
// (along, 0.5 + 0.5 across).
fn ribbon_tint(across: f32, textured: bool, texel: vec4<f32>) -> vec4<f32> {
    let edge = 1.0 - smoothstep(0.5, 1.0, abs(across));
    return select(vec4<f32>(1.0, 1.0, 1.0, edge), texel, textured);
}
