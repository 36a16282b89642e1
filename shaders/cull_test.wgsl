// cull_test.wgsl — what cull does with one alive particle, shared by the cull into an
// effect's own lists (cull.wgsl) and the cull into a merged list (merge.wgsl).
//
// The particle's bounding sphere (position, drawn radius) is tested against the six
// frustum planes. A visible one is drawn, keyed by sort_key(distance along the view axis),
// or splatted when its projected radius is at most frame.splat_radius target pixels
// (splat.wgsl draws those by compute, unsorted). A ribbon point, on screen or not (a span
// between two points off screen may cross it), goes to the ribbon list keyed by
// ribbon_key, to be sorted into ribbons and drawn by ribbon.wgsl.
//
// The includer declares `frame` (the view's FrameUniforms) and supplies `instance_bounds(k)`
// (instance k's bounding sphere; w <= 0: none); it passes each particle's look (its
// emitter's, from its effect's constants), which a merged cull reads again to choose its
// splat list. Each effect gets its own variant (src/passes/cull.rs,
// CullVariant): the render modes it does not use are compiled out (CPU drivers run every
// branch under a mask).
override RIBBONS: u32 = 1u;    // some emitter's particles are ribbon points
override MESHES: u32 = 1u;     // some emitter's particles are meshes
override STRETCHED: u32 = 1u;  // some emitter's particles are streaks
override INSTANCED: u32 = 1u;  // the effect is placed as instances, each with its bounds
// 1: the splatted particles whose quads lie within two pixels' square (is_dot) are dots,
// listed apart (cull.wgsl, for an effect's own lists: from the back of its splat list,
// counted in draw_counters.dots; args.wgsl after_cull then adds them to counters.splatted,
// which counts the rest until then). Splat.wgsl's `dots` splats them by its tent path
// alone, which its main kernel takes for them too: lavapipe runs a kernel's every branch
// for every invocation, and the box path no dot takes cost a million galaxy stars 13 of 59
// ms. A merged list lists none (0).
override DOTS: u32 = 0u;

// What cull does with a particle (Culled.list).
const CULLED_OUT: u32 = 0u;     // off screen, or a mesh particle drawn as its mesh
                                // (mesh_cull.wgsl lists those; the others are discs)
const CULLED_DRAWN: u32 = 1u;   // to the visible list, sorted and drawn as a triangle
const CULLED_SPLAT: u32 = 2u;   // to the splat list
const CULLED_RIBBON: u32 = 3u;  // to the ribbon list
const CULLED_DOT: u32 = 4u;     // to the splat list's back, a dot (DOTS only)

// Whether a splatted particle of `look`, `radius_px` target pixels in radius, is a dot: its
// quad within two pixels' square, where splat.wgsl spreads it over its four nearest pixels
// (its half axes on screen adding up to under a pixel along x and along y). A quad facing
// the view is its radius along axes turned by its rotation: |cos| + |sin| of it times the
// radius along each (a hair under 1, for rounding). Any other is one within 0.6 px, under
// 1/sqrt(2) with a margin for the perspective of a quad turned from the view (not always
// enough: 21 pixels of the snow demo's 640 × 400 picture changed, by up to 27 levels,
// most likely tumbling flakes that took the box path before). (The exact
// test, the quad projected, made the cull of a million galaxy stars cost as much as the
// dots saved the splat.)
fn is_dot(p: Particle, look: EmitterLook, radius_px: f32) -> bool {
    if look.render_mode == RENDER_BILLBOARD {
        let a = rotation_now(p);
        return radius_px * (abs(cos(a)) + abs(sin(a))) < 0.999;
    }
    return radius_px < 0.6;
}

struct Culled {
    list: u32,
    key: u32, // its sort key (drawn) or ribbon key (ribbon points)
}

fn in_frustum(center: vec3<f32>, radius: f32) -> bool {
    for (var i = 0u; i < 6u; i++) {
        let plane = frame.planes[i];
        if dot(plane.xyz, center) + plane.w < -radius {
            return false;
        }
    }
    return true;
}

// Whether the instance that spawned p (if one did) may show it: its bounds meet the view, or
// it has none.
fn instance_shown(p: Particle) -> bool {
    let k = instance_of(p);
    if k == NO_INSTANCE {
        return true;
    }
    let bounds = instance_bounds(k);
    return bounds.w <= 0.0 || in_frustum(bounds.xyz, bounds.w);
}

// Where the alive particle p, of an emitter that looks as `look`, goes this frame.
fn cull_particle(p: Particle, look: EmitterLook) -> Culled {
    var mode = RENDER_BILLBOARD;
    if RIBBONS == 1u || MESHES == 1u {
        mode = look.render_mode;
    }
    let radius = drawn_radius(p, look);
    if RIBBONS == 1u && mode == RENDER_RIBBON {
        return Culled(CULLED_RIBBON, ribbon_key(p, look, frame));
    }
    if MESHES == 1u && mode == RENDER_MESH && !mesh_impostor(p, look, frame) {
        return Culled(CULLED_OUT, 0u);
    }
    if (INSTANCED == 1u && !instance_shown(p)) || !in_frustum(p.pos, radius) {
        return Culled(CULLED_OUT, 0u);
    }
    let w = clip_w(frame, p.pos);
    var extent = radius;
    if STRETCHED == 1u {
        extent = quad_extent(p, look);
    }
    let radius_px = extent * frame.pixel_scale / max(w, 1e-6);
    if frame.splat_radius > 0.0 && radius_px <= frame.splat_radius {
        if DOTS == 1u && is_dot(p, look, radius_px) {
            return Culled(CULLED_DOT, 0u);
        }
        return Culled(CULLED_SPLAT, 0u);
    }
    return Culled(CULLED_DRAWN, sort_key(view_distance(frame, p.pos)));
}
