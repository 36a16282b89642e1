// splat_strategies.wgsl — four ways of adding small soft discs into a picture, for
// benches/splat_strategies.rs: the splat as flurry builds it (a thread a particle, a global
// atomic add per covered pixel and channel), the same without its atomics (a floor, not a
// picture), and two binned by screen tiles (a workgroup a tile adding into workgroup memory,
// and a thread a pixel summing the particles its tile lists). Every disc is additive,
// soft-edged and depth-tested against a scene depth, as the renderer's are.

struct Disc {
    centre: vec2<f32>,  // pixels
    radius: f32,        // pixels
    distance: f32,      // along the view axis
    color: vec4<f32>,   // rgb, alpha
}

// a tile's run of entries
struct Run {
    start: u32,
    count: u32,
}

@group(0) @binding(0) var<storage, read> discs: array<Disc>;
@group(0) @binding(1) var<storage, read> depth: array<f32>;
@group(0) @binding(2) var<storage, read_write> accum: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read> runs: array<Run>;
@group(0) @binding(4) var<storage, read> entries: array<u32>;
@group(0) @binding(5) var<storage, read_write> picture: array<vec4<f32>>;

// the picture's size and the tiles' side (the bench writes them in)
const WIDTH: u32 = WIDTH_PIXELSu;
const HEIGHT: u32 = HEIGHT_PIXELSu;
const TILE: u32 = TILE_SIDEu;

fn fixed(x: f32) -> u32 {
    return u32(clamp(x, 0.0, 64.0) * 4096.0 + 0.5);
}

fn cover(d: Disc, pixel: vec2<f32>) -> f32 {
    let uv = (pixel - d.centre) / d.radius;
    return 1.0 - smoothstep(0.25, 1.0, dot(uv, uv));
}

// The light disc d adds to pixel (x, y): zero off the picture, behind the scene or off the
// disc.
fn light(d: Disc, x: i32, y: i32) -> vec3<f32> {
    if x < 0 || y < 0 || x >= i32(WIDTH) || y >= i32(HEIGHT) {
        return vec3<f32>(0.0);
    }
    let c = max(cover(d, vec2<f32>(f32(x), f32(y)) + 0.5), 0.0);
    let hidden = d.distance > depth[u32(y) * WIDTH + u32(x)];
    return select(c * d.color.a * d.color.rgb, vec3<f32>(0.0), hidden);
}

// The pixels a disc's box spans (a pixel round it).
fn box_of(d: Disc) -> vec4<i32> {
    return vec4<i32>(vec2<i32>(floor(d.centre - d.radius - 1.0)), vec2<i32>(ceil(d.centre + d.radius + 1.0)));
}

// A thread a disc: three atomic adds per pixel it covers.
@compute @workgroup_size(64)
fn scatter(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x >= arrayLength(&discs) {
        return;
    }
    let d = discs[gid.x];
    let b = box_of(d);
    for (var y = b.y; y <= b.w; y++) {
        for (var x = b.x; x <= b.z; x++) {
            let l = light(d, x, y);
            if any(l > vec3<f32>(0.0)) {
                let k = 8u * (u32(y) * WIDTH + u32(x));
                atomicAdd(&accum[k + 5u], fixed(l.r));
                atomicAdd(&accum[k + 6u], fixed(l.g));
                atomicAdd(&accum[k + 7u], fixed(l.b));
            }
        }
    }
}

// The same work with the adds summed in the thread, one atomic a disc: what the atomics
// cost (its picture is meaningless).
@compute @workgroup_size(64)
fn scatter_without_atomics(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x >= arrayLength(&discs) {
        return;
    }
    let d = discs[gid.x];
    let b = box_of(d);
    var total = 0u;
    for (var y = b.y; y <= b.w; y++) {
        for (var x = b.x; x <= b.z; x++) {
            let l = light(d, x, y);
            total += fixed(l.r) + fixed(l.g) + fixed(l.b);
        }
    }
    atomicAdd(&accum[gid.x % 1024u], total);
}

var<workgroup> tile_light: array<atomic<u32>, 3 * TILE * TILE>;

// A workgroup a tile: its threads take the tile's discs in turn and add their pixels in the
// tile into workgroup memory, then write the tile's pixels once.
@compute @workgroup_size(64)
fn tile_accumulate(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3<u32>) {
    let run = runs[wg.y * ((WIDTH + TILE - 1u) / TILE) + wg.x];
    let origin = vec2<i32>(wg.xy * TILE);
    for (var j = li; j < run.count; j += 64u) {
        let d = discs[entries[run.start + j]];
        let b = box_of(d);
        let lo = max(b.xy, origin);
        let hi = min(b.zw, origin + i32(TILE) - 1);
        for (var y = lo.y; y <= hi.y; y++) {
            for (var x = lo.x; x <= hi.x; x++) {
                let l = light(d, x, y);
                let k = 3u * (u32(y - origin.y) * TILE + u32(x - origin.x));
                atomicAdd(&tile_light[k], fixed(l.r));
                atomicAdd(&tile_light[k + 1u], fixed(l.g));
                atomicAdd(&tile_light[k + 2u], fixed(l.b));
            }
        }
    }
    workgroupBarrier();
    for (var k = li; k < TILE * TILE; k += 64u) {
        let p = vec2<u32>(origin) + vec2<u32>(k % TILE, k / TILE);
        let l = vec3<u32>(atomicLoad(&tile_light[3u * k]), atomicLoad(&tile_light[3u * k + 1u]), atomicLoad(&tile_light[3u * k + 2u]));
        if p.x < WIDTH && p.y < HEIGHT {
            picture[p.y * WIDTH + p.x] = vec4<f32>(vec3<f32>(l) / 4096.0, 1.0);
        }
    }
}

// A thread a pixel of a TILE² workgroup: it sums every disc its tile lists.
@compute @workgroup_size(TILE, TILE)
fn tile_gather(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
    let run = runs[wg.y * ((WIDTH + TILE - 1u) / TILE) + wg.x];
    var sum = vec3<f32>(0.0);
    for (var j = 0u; j < run.count; j++) {
        sum += light(discs[entries[run.start + j]], i32(gid.x), i32(gid.y));
    }
    if gid.x < WIDTH && gid.y < HEIGHT {
        picture[gid.y * WIDTH + gid.x] = vec4<f32>(sum, 1.0);
    }
}
