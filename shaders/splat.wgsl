// splat.wgsl — small particles drawn by compute instead of the rasteriser.
//
// On a CPU rasteriser (lavapipe) a particle costs far more per triangle than per pixel, so
// particles a few pixels across are cheaper as a compute splat: one thread per particle
// walks the pixels of its projected quad and adds its coverage to per-pixel accumulators
// with integer atomics. Order-independent by construction (weighted blended OIT, McGuire &
// Bavoil 2013, with equal weights): alpha-blended particles add premultiplied colour,
// alpha and -ln(1 - alpha); `resolve` turns the sums into the target's premultiplied
// colour, exact for one particle per pixel and for overlaps of one colour (snow), an
// average of colours otherwise, over the rectangle of texels the splats touched (`touch`,
// `bound`; the target is cleared before them). Additive particles add their light. Cull
// sends particles whose projected radius is at most frame.splat_radius target pixels here;
// larger ones are drawn over the resolved splats by draw.wgsl, sorted.
//
// Each effect gets its own variant (src/passes/splat.rs, SplatVariant), and a merged list's
// list one of its own: CPU drivers run every branch under a mask, so the blend it does not
// use and a sprite no emitter shows would cost their work for every covered pixel.
override ADDITIVE: u32 = 0u;    // 1: additive blending, 0: alpha, 2: each particle's own
                                //    (a merged list of both)
override FLAKES: u32 = 1u;      // some emitter shows the snowflake sprites
override RINGS: u32 = 1u;       // some emitter shows the ring sprite
override MERGED: u32 = 0u;      // 1: a merged list's splat list (members.wgsl)
override LIT: u32 = 0u;         // some effect's billboards are lit (Appearance.light_wrap)
override IMAGES: u32 = 0u;      // some emitter shows an image (SPRITE_IMAGE)
// the resolve's: which accumulators the frame's splats added to, 1 the alpha-blended ones,
// 2 the additive ones, 3 both, 0 none (src/passes/splat.rs Accumulated); the resolve reads
// and clears only those (a channel read took 0.45 ms a frame at 960 × 540 on lavapipe)
override RESOLVED: u32 = 3u;

// an effect's own pool and splat list, or a merged list's copies of its members'
// particles, its splat list of them and the members' looks (merge.wgsl, members.wgsl)
// (as ParticleWords: lavapipe reads storage at a per-particle index lane by lane, a field at
// a time, and four words cost it less than thirteen fields: the splat of a million galaxy
// stars took 5 % less)
@group(0) @binding(0) var<storage, read> particles: array<ParticleWords>;
@group(0) @binding(1) var<storage, read> splat_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
@group(0) @binding(3) var<uniform> frame: FrameUniforms;
@group(0) @binding(4) var<uniform> effect: EffectParams;              // an effect's own splat
// an effect's own splat: its pool's draw counters as words, read only (the dots' splat takes
// its dispatch from them), the dots' count at DOTS_WORD (DrawCounters.dots, cull_test.wgsl DOTS)
@group(0) @binding(5) var<storage, read> draw_words: array<u32>;
const DOTS_WORD: u32 = 7u;
@group(0) @binding(6) var member_looks: texture_2d<f32>;               // merged: by member

// the particle target: the host's depth at its resolution as distances (downsample.wgsl), the
// accumulators (ACCUM_CHANNELS u32 per texel, zero between frames) and the colour
@group(1) @binding(0) var scene_depth: texture_2d<f32>;
@group(1) @binding(1) var<storage, read_write> accum: array<atomic<u32>>;
@group(1) @binding(3) var sprites: texture_2d_array<f32>;
@group(1) @binding(4) var sprite_sampler: sampler;
@group(1) @binding(5) var images: texture_2d_array<f32>;      // the images' frames
// (nearest, clamped: the tent's gather of scene_depth, four texels exactly)
@group(1) @binding(10) var depth_sampler: sampler;
@group(1) @binding(2) var particle_target: texture_storage_2d<rgba16float, write>;
// The texels the frame's splats touched: the bounds every splat widens (texel coordinates,
// the ends one past), which `bound` turns into the resolve's rectangle and empties.
struct Touched {
    lo_x: atomic<u32>,
    lo_y: atomic<u32>,
    end_x: atomic<u32>,
    end_y: atomic<u32>,
}
@group(1) @binding(6) var<storage, read_write> touched: Touched;
// the resolve's dispatch and rectangle (its first texel, and one past its last), written by
// `bound`; the resolve reads the rectangle as a uniform, the same for every invocation
@group(1) @binding(7) var<storage, read_write> resolve_args: array<u32, 3>;
@group(1) @binding(9) var<storage, read_write> rect_written: vec4<u32>;
@group(1) @binding(8) var<uniform> rect: vec4<u32>;

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

// The mean coverage of each sprite over its square (uv in [-1, 1]²), what its light is per
// unit of its quad's area: the soft disc's ∫ 2πr (1 − smoothstep(0.25, 1, r²)) dr =
// π (0.25 + 0.75 / 2), over 4; the ring's 2π · 0.8 · 0.12 (a band of mean width 0.12 at
// radius 0.8), over 4; a snowflake's is its texture's top mip level (the mean of its
// texels, nothing outside the disc), an image's its frames' top mip levels' alpha.
const DISC_MEAN: f32 = 0.49087385;
// Pixels a side of the largest box whose samples are scaled to its light (see main): a quad
// about five pixels across (its box has two more).
const SAMPLED_SPAN: i32 = 7;
const RING_MEAN: f32 = 0.15079645;

// (tint, mean coverage): an image's tint is its frames' mean colour, what a particle too
// small to show its picture shows; every other sprite's is white.
fn sprite_mean(sprite: SpriteFrame) -> vec4<f32> {
    if FLAKES == 1u && sprite.kind == SPRITE_SNOWFLAKE {
        let top = f32(textureNumLevels(sprites) - 1u);
        let mean = textureSampleLevel(sprites, sprite_sampler, vec2<f32>(0.5), sprite.layer, top);
        return vec4<f32>(1.0, 1.0, 1.0, mean.r);
    }
    if IMAGES == 1u && sprite.kind == SPRITE_IMAGE {
        let top = f32(textureNumLevels(images) - 1u);
        let mean = picture(sprite, vec2<f32>(0.5), top);
        return vec4<f32>(mean.rgb / max(mean.a, 1.0 / 512.0), mean.a);
    }
    return vec4<f32>(1.0, 1.0, 1.0, select(DISC_MEAN, RING_MEAN, sprite.kind == SPRITE_RING));
}

// An image sprite's premultiplied texel at t, mip level lod: its frame's, mixed with the
// next frame's by its blend.
fn picture(sprite: SpriteFrame, t: vec2<f32>, lod: f32) -> vec4<f32> {
    let now = textureSampleLevel(images, sprite_sampler, t, sprite.layer, lod);
    if sprite.blend <= 0.0 {
        return now;
    }
    let next = textureSampleLevel(images, sprite_sampler, t, sprite.next, lod);
    return mix(now, next, sprite.blend);
}

// One particle as the splat sees it: its quad on screen (centre c, axes ax and ay in
// pixels, det their determinant), its sprite and mip level, distance and colour.
struct Splat {
    c: vec2<f32>,
    ax: vec2<f32>,
    ay: vec2<f32>,
    det: f32,
    sprite: SpriteFrame,
    lod: f32,
    distance: f32,
    color: vec4<f32>,
    soft_distance: f32,
    // lit: the light in the quad's frame (light_in_quad) and the wrap; UNLIT: unlit
    light: vec3<f32>,
    wrap: f32,
    // the light reaching it through the others (self-shadowing)
    shadow: f32,
    // 1: its light adds up (additive), 0: alpha-blended
    additive: u32,
}

// Whether the splat adds its light (else it is alpha-blended).
fn adds_light(s: Splat) -> bool {
    if ADDITIVE == 2u {
        return s.additive == 1u;
    }
    return ADDITIVE == 1u;
}

// Where the centre of pixel (x, y) lies on the particle's quad (uv in [-1, 1]² on it).
fn uv_at(s: Splat, x: i32, y: i32) -> vec2<f32> {
    let d = vec2<f32>(f32(x), f32(y)) + 0.5 - s.c;
    return vec2<f32>(s.ay.y * d.x - s.ay.x * d.y, s.ax.x * d.y - s.ax.y * d.x) / s.det;
}

// An image sprite's (tint, cover) at the centre of pixel (x, y) (common.wgsl image_cover).
fn image_at(s: Splat, x: i32, y: i32) -> vec4<f32> {
    let uv = uv_at(s, x, y);
    let t = clamp(image_coord(uv), vec2<f32>(0.0), vec2<f32>(1.0));
    return image_cover(picture(s.sprite, t, s.lod), uv);
}

// What the sprite shows at the centre of pixel (x, y) (anywhere: on the target or not):
// (tint, coverage), the tint white but an image's.
fn shown_at(s: Splat, x: i32, y: i32) -> vec4<f32> {
    if IMAGES == 1u && s.sprite.kind == SPRITE_IMAGE {
        return image_at(s, x, y);
    }
    let uv = uv_at(s, x, y);
    var flake = 0.0;
    if FLAKES == 1u && s.sprite.kind == SPRITE_SNOWFLAKE {
        let t = clamp(uv * 0.5 + 0.5, vec2<f32>(0.0), vec2<f32>(1.0));
        flake = textureSampleLevel(sprites, sprite_sampler, t, s.sprite.layer, s.lod).r;
    }
    // (a disc where the variant shows no other sprite: the falloff alone, every other
    // sprite's coverage compiled out; the ring's cost a cloud of discs 5 % of its splat)
    let kind = select(SPRITE_DISC, s.sprite.kind, FLAKES == 1u || RINGS == 1u);
    return vec4<f32>(1.0, 1.0, 1.0, sprite_cover(kind, uv, flake));
}

// The scene's distance at `pixel` of the target (the host's depth, downsampled).
fn scene_distance(pixel: vec2<i32>) -> f32 {
    return textureLoad(scene_depth, pixel, 0).r;
}

// `cover` of pixel (x, y), tinted by `tint`, to its accumulators, where the pixel is on the
// target and the particle in front of `scene` (the scene's distance it is tested at). (The
// tint is kept beside the coverage, not sampled again here: an image's two frames sampled
// a pixel, not four.)
fn deposit(s: Splat, x: i32, y: i32, cover: f32, tint: vec3<f32>, dims: vec2<u32>, scene: f32) {
    if cover <= 0.0 || x < 0 || y < 0 || x >= i32(dims.x) || y >= i32(dims.y) {
        return;
    }
    if s.distance > scene {
        return; // behind the scene
    }
    // (however faint: a thousand dots of a thousandth of a pixel are a pixel's light)
    let alpha = s.color.a * min(cover, 1.0) * soft_fade(scene, s.distance, s.soft_distance);
    var rgb = s.color.rgb * tint;
    if LIT == 1u && s.wrap != UNLIT {
        let uv = uv_at(s, x, y);
        if IMAGES == 1u && s.sprite.normal != 0u {
            // the frame's normals at the pixel, at the picture's mip level
            let t = clamp(image_coord(uv), vec2<f32>(0.0), vec2<f32>(1.0));
            var texel = textureSampleLevel(images, sprite_sampler, t, s.sprite.normal - 1u, s.lod);
            if s.sprite.blend > 0.0 {
                let next = s.sprite.normal_next - 1u;
                let b = textureSampleLevel(images, sprite_sampler, t, next, s.lod);
                texel = mix(texel, b, s.sprite.blend);
            }
            rgb *= normal_light(s.light, decoded_normal(texel), s.wrap, s.shadow, frame);
        } else {
            rgb *= sphere_light(s.light, uv, s.wrap, s.shadow, frame);
        }
    }
    let base = ACCUM_CHANNELS * (u32(y) * dims.x + u32(x));
    // its colour's three adds go to the additive channels or the alpha-blended ones, as one
    // set of atomics either way: lavapipe runs each atomic as a loop over the SIMD lanes,
    // taken or not, and a list of both blends paid for both sets at every pixel
    let adds = adds_light(s);
    let colour = base + select(0u, 5u, adds);
    atomicAdd(&accum[colour], fixed(alpha * rgb.r));
    atomicAdd(&accum[colour + 1u], fixed(alpha * rgb.g));
    atomicAdd(&accum[colour + 2u], fixed(alpha * rgb.b));
    if !adds {
        atomicAdd(&accum[base + 3u], fixed(alpha));
        atomicAdd(&accum[base + 4u], fixed(-log(1.0 - min(alpha, 0.999))));
    }
}

// `mass` (coverage × pixels) over the four pixels nearest the particle's centre, each by
// how near (a tent filter a pixel wide): the total is the mass wherever the centre is, and
// it moves smoothly as the particle does. Its colour is `tint`, the sprite's mean. The
// scene's distances at the four come in one gather (a read a pixel cost a million galaxy
// stars 3.5 ms more of their 47 ms of splat on lavapipe).
fn deposit_tent(s: Splat, mass: f32, tint: vec3<f32>, dims: vec2<u32>) {
    let at = s.c - 0.5;
    let corner = vec2<i32>(floor(at));
    let f = at - floor(at);
    // the four pixels' distances: (x, y + 1), (x + 1, y + 1), (x + 1, y), (x, y)
    let at_corner = (vec2<f32>(corner) + 1.0) / vec2<f32>(dims);
    let scene = textureGather(0, scene_depth, depth_sampler, at_corner);
    deposit(s, corner.x, corner.y, mass * (1.0 - f.x) * (1.0 - f.y), tint, dims, scene.w);
    deposit(s, corner.x + 1, corner.y, mass * f.x * (1.0 - f.y), tint, dims, scene.z);
    deposit(s, corner.x, corner.y + 1, mass * (1.0 - f.x) * f.y, tint, dims, scene.x);
    deposit(s, corner.x + 1, corner.y + 1, mass * f.x * f.y, tint, dims, scene.y);
}

// A particle lights the pixels by its area: its sprite's coverage integrated over its quad
// (the mass: its quad's 4 |det| pixels times the sprite's mean coverage). Sampling the
// sprite at pixel centres alone is right on average but not particle by particle: a dot
// smaller than a pixel covers one centre or none, and a few pixels' samples add up to more
// or less as it moves, so small particles flicker. A particle within two pixels' square
// gives its mass to the four pixels nearest its centre by a tent filter, which moves it
// smoothly. A larger one is grown to a pixel's radius at least along each axis (as the
// draw grows it: a thin streak), and its centres' samples shape the mass and are scaled to
// add up to it (counting the centres off the target too, so that a particle at the edge
// loses what falls outside rather than brightening what is inside); where no centre sees
// the sprite (a thin ring or flake between them) the mass goes to the four nearest pixels.
// Above about five pixels across the samples alone hold its light within a few per cent
// and are used as they are.
// A particle ready to splat: its Splat, its mass and its sprite's mean tint, its quad's
// on-screen axes before they were grown, and their area (0: edge-on, nothing to splat).
struct Prepared {
    s: Splat,
    mass: f32,
    tint: vec3<f32>,
    on_screen_x: vec2<f32>,
    on_screen_y: vec2<f32>,
    area: f32,
}

// Particle `index` of the list's particles, projected into a target of `dims` texels.
fn prepare(index: u32, dims: vec2<u32>) -> Prepared {
    let p = particle_of(particles[index]);
    let a = appearance_of(p);
    let q = particle_quad(p, a.look, frame);
    let size = vec2<f32>(dims);
    let c = to_pixels(q.center, size);
    // a quad a few pixels across is affine on screen: uv = M^-1 (pixel - centre)
    let on_screen_x = to_pixels(q.center + q.x, size) - c;
    let on_screen_y = to_pixels(q.center + q.y, size) - c;
    var area = abs(on_screen_x.x * on_screen_y.y - on_screen_y.x * on_screen_x.y);
    if area < 1e-8 {
        area = 0.0; // edge-on: no area
    }
    let sprite = sprite_of(p, a.look);
    let mean = sprite_mean(sprite);
    let mass = 4.0 * area * mean.a;
    let color = particle_color(p, a.look, a.settle_time);
    let distance = view_distance(frame, q.center);
    // pixel coverage (common.wgsl): at least a pixel's radius, its light (the mass) spread
    // over it
    let ax = on_screen_x * coverage_growth(length(on_screen_x));
    let ay = on_screen_y * coverage_growth(length(on_screen_y));
    let det = ax.x * ay.y - ay.x * ax.y;
    // a snowflake's or an image's mip level: its texels per target pixel
    let side = select(SPRITE_SIZE, IMAGE_SIDE, sprite.kind == SPRITE_IMAGE);
    let lod = log2(max(side / (2.0 * max(length(ax), length(ay))), 1.0));
    var light = vec3<f32>(0.0);
    if LIT == 1u && a.light_wrap != UNLIT {
        light = light_in_quad(q, frame);
    }
    let s = Splat(
        c, ax, ay, det, sprite, lod, distance, color, a.soft_distance, light, a.light_wrap,
        particle_shadow(p), a.additive,
    );
    return Prepared(s, mass, mean.rgb, on_screen_x, on_screen_y, area);
}

// Pixels of the box first..last (none if last < first along either axis).
fn pixels_in(first: vec2<i32>, last: vec2<i32>) -> i32 {
    let side = max(last - first + 1, vec2<i32>(0));
    return side.x * side.y;
}

// The pixel after `pixel` in the box first..last, row by row.
fn next_pixel(pixel: vec2<i32>, first: vec2<i32>, last: vec2<i32>) -> vec2<i32> {
    let wrap = pixel.x >= last.x;
    return vec2<i32>(select(pixel.x + 1, first.x, wrap), select(pixel.y, pixel.y + 1, wrap));
}

// Widen the frame's touched bounds to texels first..last (none if last < first).
fn touch(first: vec2<i32>, last: vec2<i32>) {
    if any(last < first) {
        return;
    }
    // (each read first: once the bounds hold most of the frame's particles, few widen
    // them, and the atomics of the rest, all on four words, would take turns between the
    // threads for nothing)
    let lo = vec2<u32>(first);
    let end = vec2<u32>(last + 1);
    if lo.x < atomicLoad(&touched.lo_x) {
        atomicMin(&touched.lo_x, lo.x);
    }
    if lo.y < atomicLoad(&touched.lo_y) {
        atomicMin(&touched.lo_y, lo.y);
    }
    if end.x > atomicLoad(&touched.end_x) {
        atomicMax(&touched.end_x, end.x);
    }
    if end.y > atomicLoad(&touched.end_y) {
        atomicMax(&touched.end_y, end.y);
    }
}

// The entries of the splat list `main` takes: an effect's own lists its dots apart, from the
// back (cull_test.wgsl DOTS), for `dots`.
fn listed_apart_from_dots() -> u32 {
    let splatted = atomicLoad(&counters.splatted);
    if MERGED == 1u {
        return splatted;
    }
    return splatted - draw_words[DOTS_WORD];
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(gid, groups);
    if i >= listed_apart_from_dots() {
        return;
    }
    let dims = textureDimensions(scene_depth);
    let prepared = prepare(splat_list[i], dims);
    if prepared.area == 0.0 {
        return;
    }
    let s = prepared.s;
    let mass = prepared.mass;
    let c = s.c;
    // within two pixels' square: its mass to its four nearest pixels by the tent (the
    // draw's grown quad lights about as many, by its sprite; a star field of such dots
    // splats in little more than half the time sampling their grown quads takes: 33
    // against 58 ms, the galaxy's 262,144 stars on lavapipe)
    let whole = abs(prepared.on_screen_x) + abs(prepared.on_screen_y);
    var tent = max(whole.x, whole.y) < 1.0;
    let half = min(abs(s.ax) + abs(s.ay), vec2<f32>(frame.splat_radius + 1.0));
    // the pixels whose centres lie in the quad's bounding box, the only ones its sprite can
    // cover (a box a pixel wider each way, as before, took a disc 2 to 3 pixels across 16
    // to 25 pixels where 4 to 9 can be covered, each a depth read and three atomics)
    var lo = vec2<i32>(ceil(c - half - 0.5));
    var hi = vec2<i32>(floor(c + half - 0.5));
    // what each centre's sample is scaled by: above SAMPLED_SPAN its centres' samples hold
    // its light within a few per cent (a long streak grown across gives back what it grew
    // by); within it, the samples of every centre of its box are scaled to add up to its
    // mass (the span counted as the box a pixel wider each way counts it, which
    // SAMPLED_SPAN was chosen by)
    let span = vec2<i32>(ceil(c + half)) - vec2<i32>(floor(c - half)) + 1;
    var scale = prepared.area / abs(s.det);
    if !tent && span.x <= SAMPLED_SPAN && span.y <= SAMPLED_SPAN {
        var samples = 0.0;
        var at_pixel = lo;
        for (var k = 0; k < pixels_in(lo, hi); k++) {
            samples += shown_at(s, at_pixel.x, at_pixel.y).a;
            at_pixel = next_pixel(at_pixel, lo, hi);
        }
        // where no centre sees the sprite (a thin ring or flake between them): the tent
        tent = samples <= 0.0;
        scale = mass / samples;
    }
    let at = c - 0.5;
    if tent {
        lo = vec2<i32>(floor(at));
        hi = lo + 1;
    }
    let first = max(lo, vec2<i32>(0));
    let last = min(hi, vec2<i32>(dims) - 1);
    touch(first, last);
    // One loop and one deposit for both ways, each pixel's cover and tint chosen between
    // them: lavapipe runs a branch's every path for every invocation, and the tent's own
    // four deposits (and the fallback's four more) cost every particle their atomics.
    // (Each centre is sampled again rather than kept from the sum: a sample kept in an
    // array indexed per particle costs lavapipe a scatter and a gather per pixel, and
    // sampling again made the splat of a cloud of 65,536 particles 2 to 3 pixels across
    // 15 % faster.)
    var pixel = first;
    for (var k = 0; k < pixels_in(first, last); k++) {
        let shown = shown_at(s, pixel.x, pixel.y);
        let near = max(vec2<f32>(1.0) - abs(vec2<f32>(pixel) - at), vec2<f32>(0.0));
        let cover = select(shown.a * scale, mass * near.x * near.y, tent);
        let scene = scene_distance(pixel);
        deposit(s, pixel.x, pixel.y, cover, select(shown.rgb, prepared.tint, tent), dims, scene);
        pixel = next_pixel(pixel, first, last);
    }
}

// One thread per dot an effect's cull listed apart (cull_test.wgsl DOTS), from the back of its
// splat list: each by the tent path alone, which `main` would take for it too. Lavapipe
// runs every branch of a kernel for every invocation, and main's box path, which no dot
// takes, cost a million galaxy stars 13 of their 59 ms.
@compute @workgroup_size(64)
fn dots(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(gid, groups);
    if i >= draw_words[DOTS_WORD] {
        return;
    }
    let dims = textureDimensions(scene_depth);
    let prepared = prepare(splat_list[effect.capacity - 1u - i], dims);
    // (their touched bounds are the whole target: dots_touch)
    if prepared.area > 0.0 {
        deposit_tent(prepared.s, prepared.mass, prepared.tint, dims);
    }
}

// After an effect's dots, one thread: where it has any, the whole target is touched. (Its
// dots lie anywhere; widening the bounds in `dots`, even from one of its threads, cost a
// million galaxy stars about 2 ms on lavapipe, which runs that thread's atomics for every
// invocation; and a field of stars that small covers the target anyway.)
@compute @workgroup_size(1)
fn dots_touch() {
    if draw_words[DOTS_WORD] > 0u {
        touch(vec2<i32>(0), vec2<i32>(textureDimensions(scene_depth)) - 1);
    }
}

// One thread, after the frame's splats: the resolve's rectangle and dispatch from the touched
// bounds, which it empties for the next frame.
@compute @workgroup_size(1)
fn bound() {
    let lo = vec2<u32>(atomicLoad(&touched.lo_x), atomicLoad(&touched.lo_y));
    let end = vec2<u32>(atomicLoad(&touched.end_x), atomicLoad(&touched.end_y));
    var groups = vec2<u32>(0u);
    if all(end > lo) {
        groups = (end - lo + 7u) / 8u;
    }
    resolve_args[0] = groups.x;
    resolve_args[1] = groups.y;
    resolve_args[2] = 1u;
    rect_written = vec4<u32>(lo, end);
    atomicStore(&touched.lo_x, 0xffffffffu);
    atomicStore(&touched.lo_y, 0xffffffffu);
    atomicStore(&touched.end_x, 0u);
    atomicStore(&touched.end_y, 0u);
}

// One thread per texel of the rectangle the splats touched: their premultiplied colour into
// the particle target (cleared before the splats), accumulators back to zero.
@compute @workgroup_size(8, 8)
fn resolve(@builtin(global_invocation_id) gid_in_rect: vec3<u32>) {
    let dims = textureDimensions(particle_target);
    let gid = gid_in_rect.xy + rect.xy;
    if gid.x >= rect.z || gid.y >= rect.w {
        return;
    }
    let base = ACCUM_CHANNELS * (gid.y * dims.x + gid.x);
    // the alpha-blended sums of a * rgb and of a, and of -ln(1 - a); the additive light
    var blended = vec4<u32>(0u);
    var optical_depth = 0u;
    var light = vec3<u32>(0u);
    if (RESOLVED & 1u) != 0u {
        blended = vec4<u32>(
            atomicLoad(&accum[base]), atomicLoad(&accum[base + 1u]),
            atomicLoad(&accum[base + 2u]), atomicLoad(&accum[base + 3u]),
        );
        optical_depth = atomicLoad(&accum[base + 4u]);
        if any(blended != vec4<u32>(0u)) || optical_depth != 0u {
            for (var k = 0u; k < 5u; k++) {
                atomicStore(&accum[base + k], 0u);
            }
        }
    }
    if (RESOLVED & 2u) != 0u {
        light = vec3<u32>(
            atomicLoad(&accum[base + 5u]), atomicLoad(&accum[base + 6u]),
            atomicLoad(&accum[base + 7u]),
        );
        if any(light != vec3<u32>(0u)) {
            for (var k = 5u; k < ACCUM_CHANNELS; k++) {
                atomicStore(&accum[base + k], 0u);
            }
        }
    }
    // coverage of the alpha-blended splats: 1 - prod(1 - a)
    let alpha = 1.0 - exp(-f32(optical_depth) / ACCUM_ONE);
    var rgb = vec3<f32>(light) / ACCUM_ONE;
    let sums = vec4<f32>(blended) / ACCUM_ONE;
    if sums.w > 0.0 {
        rgb += sums.xyz * (alpha / sums.w);
    }
    textureStore(particle_target, gid.xy, vec4<f32>(rgb, alpha));
}
