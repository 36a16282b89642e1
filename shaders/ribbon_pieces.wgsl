// ribbon_pieces.wgsl — list the pieces the ribbon draw draws.
//
// One thread per entry i of the sorted ribbon list (dispatched over the alive count, which
// is at least the ribbon count): when entries i and i + 1 belong to one ribbon, the span
// between them is drawn in as many straight pieces as it is long on screen in
// PIECE_PIXELS, at most its emitter's subdivisions + 1, and each piece is appended to the
// piece list as (i, pieces << 5 | k). The draw then submits exactly the triangles it needs:
// on lavapipe every triangle submitted costs, even one that covers nothing, so a draw of
// subdivisions + 1 pieces for every span cost about three times the pieces it needed.
// The count is the ribbon draw's instance count (draw_counters.ribbon_pieces); one global
// atomic per workgroup.

// Longest straight piece a span is drawn in, in particle-target pixels (a piece of 6 px
// strays from a curve of radius r by 36 / 8r px: under a pixel where r > 4.5 px).
const PIECE_PIXELS: f32 = 6.0;

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> ribbon_list: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> draw_counters: DrawCounters;
@group(0) @binding(3) var<storage, read_write> pieces: array<vec2<u32>>;
@group(0) @binding(4) var<uniform> frame: FrameUniforms;
@group(0) @binding(5) var<uniform> effect: EffectParams;

var<workgroup> wg_count: atomic<u32>;
var<workgroup> wg_base: u32;

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
    if i + 1u < count && ribbon_of(ribbon_list[i].x) == ribbon_of(ribbon_list[i + 1u].x) {
        let a = particles[ribbon_list[i].y];
        let b = particles[ribbon_list[i + 1u].y];
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
        }
    }
    workgroupBarrier();
    for (var k = 0u; k < n; k++) {
        pieces[wg_base + local + k] = vec2<u32>(i, (n << 5u) | k);
    }
}
