// ribbon_pieces.wgsl — list the pieces of the ribbons and put them in the draw list.
//
// One thread per entry i of the sorted ribbon list (dispatched over the alive count, which
// is at least the ribbon count). A piece stands for a run of spans between neighbouring
// points of one ribbon: one span, or, where a ribbon is dense on screen, up to MOST_SPANS of
// them whose points all lie within a box PIECE_PIXELS a side (a piece for every span of a
// 62,000-point ribbon a pixel or two apart cost twice the triangles of its particles as
// dots). The runs are the cells of a binary tree over each ribbon's spans cut where they
// stop fitting: the run of 2^l spans that starts at i (i a multiple of 2^l from the
// ribbon's start) is a piece when it fits and the run of 2^(l+1) that holds it does not;
// fitting only gets harder as a run grows, so every span falls in exactly one piece and
// each thread decides its own without the others. A piece is drawn in as many straight
// parts as it is long on screen in PIECE_PIXELS, at most its emitter's subdivisions + 1,
// each appended to the piece list as (i, spans << 10 | parts << 5 | part) and to the
// visible list as (sort_key(its middle's distance), RIBBON_ENTRY | its place), where the
// draw (draw.wgsl) draws it among the billboards: sorted back to front with them when
// the effect sorts, so ribbons interleave with its other particles part by part. One
// global atomic per list per workgroup.
//
// Each thread also writes its entry's RibbonPoint (position, width and colour over life,
// ribbon), and the last one also a NO_RIBBON past it, so the draw reads a point's
// neighbours without the count. A textured ribbon's point gets its coordinate along the
// ribbon: 0 at the newest point, the look's ribbon_repeats at the oldest, evenly by point.
// The ribbon's ends are found by two binary searches of the sorted list (ribbon_of grows
// with the key).

// Longest straight part a piece is drawn in, and the side of the box a run of spans drawn
// as one piece fits in, in particle-target pixels (a part of 6 px strays from a curve of
// radius r by 36 / 8r px: under a pixel where r > 4.5 px).
const PIECE_PIXELS: f32 = 6.0;
// Most spans one piece stands for (a power of two).
const MOST_SPANS: u32 = 16u;

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

// Entry i's texture coordinate along its ribbon [first, end).
fn along(i: u32, first: u32, end: u32, look: EmitterLook) -> f32 {
    // a scheduled emitter's ribbon lists its newest point first, a trail its oldest
    let rank = select(i - first, end - 1u - i, look.trail == 1u);
    return look.ribbon_repeats * f32(rank) / f32(max(end - first, 2u) - 1u);
}

fn entry_pos(i: u32) -> vec3<f32> {
    return particles[ribbon_list[i].y].pos;
}

// Where x lands on the particle target, in pixels (only compared with other points).
fn on_screen(x: vec3<f32>) -> vec2<f32> {
    let origin = select(vec3<f32>(0.0), frame.eye, frame.perspective == 1u);
    let w = max(clip_w(frame, x), 1e-6);
    let d = x - origin;
    return vec2<f32>(dot(frame.cam_right, d), dot(frame.cam_up, d)) * frame.pixel_scale / w;
}

// Whether entries first..=last lie within a box PIECE_PIXELS a side on screen.
fn fits(first: u32, last: u32) -> bool {
    var lo = on_screen(entry_pos(first));
    var hi = lo;
    for (var j = first + 1u; j <= last; j++) {
        let s = on_screen(entry_pos(j));
        lo = min(lo, s);
        hi = max(hi, s);
    }
    return all(hi - lo < vec2<f32>(PIECE_PIXELS));
}

// The spans of the piece that starts at entry i of the ribbon [first, end), or 0 where
// none does (the cut of the tree described above).
fn piece_spans(i: u32, first: u32, end: u32) -> u32 {
    let last = end - 1u;
    let r = i - first;
    if i >= last {
        return 0u;
    }
    for (var size = 1u; size <= MOST_SPANS; size *= 2u) {
        if r % size != 0u {
            // a run this size would start before i, and the smaller one did not fit
            return 0u;
        }
        let run_end = min(i + size, last);
        if size > 1u && !fits(i, run_end) {
            return 0u;
        }
        let parent = first + r - r % (2u * size);
        if 2u * size > MOST_SPANS || !fits(parent, min(parent + 2u * size, last)) {
            return run_end - i;
        }
    }
    return 0u;
}

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    let count = atomicLoad(&draw_counters.ribbon_points);
    var parts = 0u;
    var spans = 0u;
    var local = 0u;
    var a = vec3<f32>();
    var b = vec3<f32>();
    if i < count {
        let p = particles[ribbon_list[i].y];
        let look = effect.looks[emitter_slot(p)];
        let ribbon = ribbon_of(ribbon_list[i].x);
        let first = ribbon_first(i, ribbon);
        let end = ribbon_end(i, ribbon, count);
        var point = RibbonPoint();
        point.pos = p.pos;
        point.radius = drawn_radius(p, look);
        point.color = particle_color(p, look, effect.settle_time);
        point.ribbon = ribbon;
        if look.ribbon_repeats > 0.0 {
            point.along = along(i, first, end, look);
            point.ribbon |= RIBBON_TEXTURED;
        }
        ribbon_points[i] = point;
        if i + 1u == count {
            ribbon_points[count].ribbon = NO_RIBBON;
        }
        spans = piece_spans(i, first, end);
        if spans > 0u {
            a = p.pos;
            b = entry_pos(i + spans);
            let w = max(min(clip_w(frame, a), clip_w(frame, b)), 1e-6);
            let length_px = length(b - a) * frame.pixel_scale / w;
            let most = look.subdivisions + 1u;
            parts = clamp(u32(ceil(length_px / PIECE_PIXELS)), 1u, most);
            local = atomicAdd(&wg_count, parts);
        }
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
    for (var k = 0u; k < parts; k++) {
        let piece = wg_base + local + k;
        pieces[piece] = vec2<u32>(i, (spans << 10u) | (parts << 5u) | k);
        // sorted by the middle of the part's chord
        let middle = mix(a, b, (f32(k) + 0.5) / f32(parts));
        let key = sort_key(view_distance(frame, middle));
        visible[wg_visible_base + local + k] = vec2<u32>(key, RIBBON_ENTRY | piece);
    }
}
