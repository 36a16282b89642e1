// ribbon_pieces.wgsl — list the pieces of the ribbons and put their triangles in the draw
// list.
//
// One thread per entry i of the sorted ribbon list (dispatched over the alive count, which
// is at least the ribbon count): when entries i and i + 1 belong to one ribbon, the span
// between them is drawn in as many straight pieces as it is long on screen in
// PIECE_PIXELS, at most its emitter's subdivisions + 1. Each piece is appended to the piece
// list as (i, pieces << 5 | k), and to the visible list as (sort_key(its middle's
// distance), RIBBON_ENTRY | piece), where the draw (draw.wgsl) draws it among the
// billboards: sorted back to front with them when the effect sorts, so ribbons interleave
// with its other particles piece by piece. The draw submits exactly the triangles it
// needs: on lavapipe every triangle submitted costs, even one that covers nothing, so
// drawing subdivisions + 1 pieces for every span cost about three times the pieces it
// needed. One global atomic per list per workgroup.
//
// Each thread also writes its entry's RibbonPoint (position, width and colour over life,
// ribbon), and the last one also a NO_RIBBON past it, so the draw reads a point's
// neighbours without the count. A textured ribbon's point gets its coordinate
// along the ribbon: 0 at the newest point, the look's ribbon_repeats at the oldest, evenly
// by point. The ribbon's ends are found by two binary searches of the sorted list
// (ribbon_of grows with the key), so the coordinate needs no pass of its own.

// Longest straight piece a span is drawn in, in particle-target pixels (a piece of 6 px
// strays from a curve of radius r by 36 / 8r px: under a pixel where r > 4.5 px).
const PIECE_PIXELS: f32 = 6.0;

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> ribbon_list: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> draw_counters: DrawCounters;
@group(0) @binding(3) var<storage, read_write> pieces: array<vec2<u32>>;
@group(0) @binding(4) var<uniform> frame: FrameUniforms;
@group(0) @binding(5) var<uniform> effect: EffectParams;
@group(0) @binding(6) var<storage, read_write> ribbon_points: array<RibbonPoint>;
@group(0) @binding(7) var<storage, read_write> visible: array<vec2<u32>>;
@group(0) @binding(8) var<storage, read_write> counters: Counters;

var<workgroup> wg_count: atomic<u32>;
var<workgroup> wg_base: u32;
var<workgroup> wg_visible_base: u32;

// The first entry of ribbon r, which holds entry i.
fn ribbon_first(i: u32, r: u32) -> u32 {
    var lo = 0u;
    var hi = i;
    while lo < hi {
        let mid = (lo + hi) / 2u;
        if ribbon_of(ribbon_list[mid].x) < r {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// One past the last entry of ribbon r, which holds entry i, among the first `count`.
fn ribbon_end(i: u32, r: u32, count: u32) -> u32 {
    var lo = i + 1u;
    var hi = count;
    while lo < hi {
        let mid = (lo + hi) / 2u;
        if ribbon_of(ribbon_list[mid].x) <= r {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Entry i's texture coordinate along its ribbon.
fn along(i: u32, count: u32, look: EmitterLook) -> f32 {
    let r = ribbon_of(ribbon_list[i].x);
    let first = ribbon_first(i, r);
    let end = ribbon_end(i, r, count);
    // a scheduled emitter's ribbon lists its newest point first, a trail its oldest
    let rank = select(i - first, end - 1u - i, look.trail == 1u);
    return look.ribbon_repeats * f32(rank) / f32(max(end - first, 2u) - 1u);
}

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    let count = atomicLoad(&draw_counters.ribbon_points);
    var n = 0u;
    var local = 0u;
    var a = Particle();
    var b = Particle();
    if i < count {
        let p = particles[ribbon_list[i].y];
        let look = look_of(effect, p);
        var point = RibbonPoint();
        point.pos = p.pos;
        point.radius = drawn_radius(p, effect);
        point.color = particle_color(p, effect);
        point.ribbon = ribbon_of(ribbon_list[i].x);
        if look.ribbon_repeats > 0.0 {
            point.along = along(i, count, look);
            point.ribbon |= RIBBON_TEXTURED;
        }
        ribbon_points[i] = point;
        if i + 1u == count {
            ribbon_points[count].ribbon = NO_RIBBON;
        }
    }
    if i + 1u < count && ribbon_of(ribbon_list[i].x) == ribbon_of(ribbon_list[i + 1u].x) {
        a = particles[ribbon_list[i].y];
        b = particles[ribbon_list[i + 1u].y];
        let w = max(min(clip_w(frame, a.pos), clip_w(frame, b.pos)), 1e-6);
        let span_px = length(b.pos - a.pos) * frame.pixel_scale / w;
        let most = look_of(effect, a).subdivisions + 1u;
        n = clamp(u32(ceil(span_px / PIECE_PIXELS)), 1u, most);
        local = atomicAdd(&wg_count, n);
    }
    workgroupBarrier();
    if lid == 0u {
        let c = atomicLoad(&wg_count);
        if c > 0u {
            wg_base = atomicAdd(&draw_counters.ribbon_pieces, c);
            wg_visible_base = atomicAdd(&counters.visible, c);
        }
    }
    workgroupBarrier();
    for (var k = 0u; k < n; k++) {
        let piece = wg_base + local + k;
        pieces[piece] = vec2<u32>(i, (n << 5u) | k);
        // sorted by the middle of the piece's chord
        let middle = mix(a.pos, b.pos, (f32(k) + 0.5) / f32(n));
        let key = sort_key(view_distance(frame, middle));
        visible[wg_visible_base + local + k] = vec2<u32>(key, RIBBON_ENTRY | piece);
    }
}
