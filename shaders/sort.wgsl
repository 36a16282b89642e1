// sort.wgsl — bitonic sort of (key, index) pairs, ascending by key (back to front, see
// sort_key in common.wgsl), over the first `count` pairs, count read on the GPU.
//
// The sorted length n is count rounded up to a power of two (at least MIN_LEN); pairs past
// count are padding with SORT_SENTINEL keys, written by chunk_sort. Each thread keeps a
// group of 2^STEPS pairs in registers (as quads of vec4s: one comparison orders four
// pairs) and runs STEPS compare-exchange steps on them, so a pass over memory does STEPS
// steps of the network instead of one:
//   chunk_sort            sorts every run of 128 pairs (stages k = 2 .. 128)
//   fused_steps(k, j)     steps j, j/2, ..., j/2^(STEPS-1) of stage k
// STEPS is a pipeline constant: the tail of a stage uses a pipeline with fewer steps.
// sort_args writes every dispatch's indirect arguments from the count, so steps of stages
// beyond n dispatch no workgroups.

override STEPS: u32 = 7u;      // 1 ..= 7
const MAX_GROUP: u32 = 128u;   // 2^STEPS at most; chunk_sort's run length
const SORT_THREADS: u32 = 64u;
const MIN_LEN: u32 = 8192u;    // MAX_GROUP * SORT_THREADS: one workgroup at least

struct SortStep {
    k: u32,
    j: u32,      // largest stride of the dispatch
    kind: u32,   // 0 chunk_sort, 1 fused_steps
    steps: u32,  // STEPS of the pipeline it uses
}

@group(0) @binding(0) var<storage, read_write> pairs: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read_write> counters: Counters;
@group(0) @binding(2) var<uniform> step: SortStep; // dynamic offset, one slot per dispatch
@group(0) @binding(3) var<storage, read> steps: array<SortStep>;
@group(0) @binding(4) var<storage, read_write> dispatch: array<u32>; // 3 per dispatch

fn next_pow2(x: u32) -> u32 {
    if x <= 1u {
        return 1u;
    }
    return 1u << (32u - countLeadingZeros(x - 1u));
}

@compute @workgroup_size(64)
fn sort_args(@builtin(global_invocation_id) gid: vec3<u32>) {
    let s = gid.x;
    if s >= arrayLength(&steps) {
        return;
    }
    let count = atomicLoad(&counters.visible);
    let n = max(next_pow2(count), MIN_LEN);
    let st = steps[s];
    var threads = 0u;
    if count > 0u && st.k <= n {
        threads = n >> st.steps;
    }
    // past 65,535 workgroups (over 2^22 groups of pairs) the dispatch goes two-dimensional
    let d = dispatch_size(threads);
    dispatch[3u * s] = d.x;
    dispatch[3u * s + 1u] = d.y;
    dispatch[3u * s + 2u] = d.z;
}

// Groups of pairs held in registers: Q4 is four pairs as two vectors (one comparison
// orders four pairs), each larger group two of the one below. Only constant indices are
// used, so nothing spills to per-lane (gathered) memory.
struct Q4 {
    k: vec4<u32>,
    i: vec4<u32>,
}
struct Q8 {
    a: Q4,
    b: Q4,
}
struct Q16 {
    a: Q8,
    b: Q8,
}
struct Q32 {
    a: Q16,
    b: Q16,
}
struct Q64 {
    a: Q32,
    b: Q32,
}
struct Q128 {
    a: Q64,
    b: Q64,
}

// Lane-wise compare-exchange of a against b: lanes whose direction `up` is set end with
// the smaller key in the first half of the result.
fn cx4(a: Q4, b: Q4, up: vec4<bool>) -> Q8 {
    let swap = (a.k > b.k) == up;
    return Q8(
        Q4(select(a.k, b.k, swap), select(a.i, b.i, swap)),
        Q4(select(b.k, a.k, swap), select(b.i, a.i, swap)),
    );
}
fn cx8(a: Q8, b: Q8, up: vec4<bool>) -> Q16 {
    let x = cx4(a.a, b.a, up);
    let y = cx4(a.b, b.b, up);
    return Q16(Q8(x.a, y.a), Q8(x.b, y.b));
}
fn cx16(a: Q16, b: Q16, up: vec4<bool>) -> Q32 {
    let x = cx8(a.a, b.a, up);
    let y = cx8(a.b, b.b, up);
    return Q32(Q16(x.a, y.a), Q16(x.b, y.b));
}
fn cx32(a: Q32, b: Q32, up: vec4<bool>) -> Q64 {
    let x = cx16(a.a, b.a, up);
    let y = cx16(a.b, b.b, up);
    return Q64(Q32(x.a, y.a), Q32(x.b, y.b));
}
fn cx64(a: Q64, b: Q64, up: vec4<bool>) -> Q128 {
    let x = cx32(a.a, b.a, up);
    let y = cx32(a.b, b.b, up);
    return Q128(Q64(x.a, y.a), Q64(x.b, y.b));
}

// Compare-exchange inside a quad at stride 2 (lanes 0-2, 1-3) or 1 (lanes 0-1, 2-3);
// `up` holds each pair's direction in both of its lanes.
fn cx_within(a: Q4, stride: u32, up: vec4<bool>) -> Q4 {
    var partner: Q4;
    var lower: vec4<bool>;
    if stride == 2u {
        partner = Q4(a.k.zwxy, a.i.zwxy);
        lower = vec4<bool>(true, true, false, false);
    } else {
        partner = Q4(a.k.yxwz, a.i.yxwz);
        lower = vec4<bool>(true, false, true, false);
    }
    // both lanes of a pair see the same test: is the lower key greater?
    let greater = select(partner.k > a.k, a.k > partner.k, lower);
    let take = greater == up;
    return Q4(select(a.k, partner.k, take), select(a.i, partner.i, take));
}

// Bitonic merge: every step from half the group's size down to 1, one direction.
fn merge4(x: Q4, up: vec4<bool>) -> Q4 {
    return cx_within(cx_within(x, 2u, up), 1u, up);
}
fn merge8(x: Q8, up: vec4<bool>) -> Q8 {
    let y = cx4(x.a, x.b, up);
    return Q8(merge4(y.a, up), merge4(y.b, up));
}
fn merge16(x: Q16, up: vec4<bool>) -> Q16 {
    let y = cx8(x.a, x.b, up);
    return Q16(merge8(y.a, up), merge8(y.b, up));
}
fn merge32(x: Q32, up: vec4<bool>) -> Q32 {
    let y = cx16(x.a, x.b, up);
    return Q32(merge16(y.a, up), merge16(y.b, up));
}
fn merge64(x: Q64, up: vec4<bool>) -> Q64 {
    let y = cx32(x.a, x.b, up);
    return Q64(merge32(y.a, up), merge32(y.b, up));
}
fn merge128(x: Q128, up: vec4<bool>) -> Q128 {
    let y = cx64(x.a, x.b, up);
    return Q128(merge64(y.a, up), merge64(y.b, up));
}

// Bitonic sort of a whole group: halves sorted in opposite directions, then merged.
fn sort4(x: Q4, up: vec4<bool>) -> Q4 {
    let d = up.x;
    return merge4(cx_within(x, 1u, vec4<bool>(d, d, !d, !d)), up);
}
fn sort8(x: Q8, up: vec4<bool>) -> Q8 {
    return merge8(Q8(sort4(x.a, up), sort4(x.b, !up)), up);
}
fn sort16(x: Q16, up: vec4<bool>) -> Q16 {
    return merge16(Q16(sort8(x.a, up), sort8(x.b, !up)), up);
}
fn sort32(x: Q32, up: vec4<bool>) -> Q32 {
    return merge32(Q32(sort16(x.a, up), sort16(x.b, !up)), up);
}
fn sort64(x: Q64, up: vec4<bool>) -> Q64 {
    return merge64(Q64(sort32(x.a, up), sort32(x.b, !up)), up);
}
fn sort128(x: Q128, up: vec4<bool>) -> Q128 {
    return merge128(Q128(sort64(x.a, up), sort64(x.b, !up)), up);
}

// Pair `first + l` of a group at `base` with spacing `stride`; sentinels at or past count.
fn load1(base: u32, stride: u32, first: u32, count: u32) -> vec2<u32> {
    let at = base + first * stride;
    if at < count {
        return pairs[at];
    }
    return vec2<u32>(SORT_SENTINEL, SORT_SENTINEL);
}
fn load4(base: u32, stride: u32, first: u32, count: u32) -> Q4 {
    let p0 = load1(base, stride, first, count);
    let p1 = load1(base, stride, first + 1u, count);
    let p2 = load1(base, stride, first + 2u, count);
    let p3 = load1(base, stride, first + 3u, count);
    return Q4(vec4<u32>(p0.x, p1.x, p2.x, p3.x), vec4<u32>(p0.y, p1.y, p2.y, p3.y));
}
fn load8(base: u32, stride: u32, first: u32, count: u32) -> Q8 {
    return Q8(load4(base, stride, first, count), load4(base, stride, first + 4u, count));
}
fn load16(base: u32, stride: u32, first: u32, count: u32) -> Q16 {
    return Q16(load8(base, stride, first, count), load8(base, stride, first + 8u, count));
}
fn load32(base: u32, stride: u32, first: u32, count: u32) -> Q32 {
    return Q32(load16(base, stride, first, count), load16(base, stride, first + 16u, count));
}
fn load64(base: u32, stride: u32, first: u32, count: u32) -> Q64 {
    return Q64(load32(base, stride, first, count), load32(base, stride, first + 32u, count));
}
fn load128(base: u32, stride: u32, first: u32, count: u32) -> Q128 {
    return Q128(load64(base, stride, first, count), load64(base, stride, first + 64u, count));
}

fn store4(x: Q4, base: u32, stride: u32, first: u32) {
    pairs[base + first * stride] = vec2<u32>(x.k.x, x.i.x);
    pairs[base + (first + 1u) * stride] = vec2<u32>(x.k.y, x.i.y);
    pairs[base + (first + 2u) * stride] = vec2<u32>(x.k.z, x.i.z);
    pairs[base + (first + 3u) * stride] = vec2<u32>(x.k.w, x.i.w);
}
fn store8(x: Q8, base: u32, stride: u32, first: u32) {
    store4(x.a, base, stride, first);
    store4(x.b, base, stride, first + 4u);
}
fn store16(x: Q16, base: u32, stride: u32, first: u32) {
    store8(x.a, base, stride, first);
    store8(x.b, base, stride, first + 8u);
}
fn store32(x: Q32, base: u32, stride: u32, first: u32) {
    store16(x.a, base, stride, first);
    store16(x.b, base, stride, first + 16u);
}
fn store64(x: Q64, base: u32, stride: u32, first: u32) {
    store32(x.a, base, stride, first);
    store32(x.b, base, stride, first + 32u);
}
fn store128(x: Q128, base: u32, stride: u32, first: u32) {
    store64(x.a, base, stride, first);
    store64(x.b, base, stride, first + 64u);
}

// Sort every run of 128 pairs in the direction stage k = 128 gives it.
@compute @workgroup_size(64)
fn chunk_sort(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let count = atomicLoad(&counters.visible);
    let base = linear_index(gid, groups) * MAX_GROUP;
    let up = vec4<bool>((base & MAX_GROUP) == 0u);
    store128(sort128(load128(base, 1u, 0u, count), up), base, 1u, 0u);
}

// STEPS steps of stage k from stride step.j down, on a group of 2^STEPS pairs spaced
// jmin = step.j / 2^(STEPS-1) apart (all pairs of the group share one direction).
@compute @workgroup_size(64)
fn fused_steps(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let jmin = step.j >> (STEPS - 1u);
    let lj = countTrailingZeros(jmin);
    let t = linear_index(gid, groups);
    let base = ((t >> lj) << (lj + STEPS)) | (t & (jmin - 1u));
    let d = (base & step.k) == 0u;
    let up = vec4<bool>(d);
    let all = 0xffffffffu;
    switch STEPS {
        case 1u: {
            let x = pairs[base];
            let y = pairs[base + jmin];
            if (x.x > y.x) == d {
                pairs[base] = y;
                pairs[base + jmin] = x;
            }
        }
        case 2u: {
            store4(merge4(load4(base, jmin, 0u, all), up), base, jmin, 0u);
        }
        case 3u: {
            store8(merge8(load8(base, jmin, 0u, all), up), base, jmin, 0u);
        }
        case 4u: {
            store16(merge16(load16(base, jmin, 0u, all), up), base, jmin, 0u);
        }
        case 5u: {
            store32(merge32(load32(base, jmin, 0u, all), up), base, jmin, 0u);
        }
        case 6u: {
            store64(merge64(load64(base, jmin, 0u, all), up), base, jmin, 0u);
        }
        default: {
            store128(merge128(load128(base, jmin, 0u, all), up), base, jmin, 0u);
        }
    }
}
