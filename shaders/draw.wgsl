// draw.wgsl — the visible list (no per-particle vertex buffer), sorted back to front for
// alpha-blended effects, into the low-resolution particle target: camera-facing billboards
// and ribbon pieces (ribbon.wgsl) from one list, so that ribbons sort piece by piece among
// the other particles. Instance i draws draw_list[i].y: a particle as one triangle around
// its disc (3 vertices and 1 triangle instead of a quad's 4 and 2: measured 154 -> 137 ms
// for 262,144 snow particles at 1920x1080 on lavapipe, whose draw cost is per primitive far
// more than per pixel), a ribbon piece as two. An effect with ribbons draws two triangles
// an instance, indexed over four vertices (a billboard's fourth is its first, so its second
// triangle has no area): on lavapipe an instance costs far more than a vertex, so a piece
// is one instance, not two of one triangle, and indexing shades four of its vertices
// instead of six. The output is premultiplied so one blend state serves additive
// (One, One) and alpha (One, OneMinusSrcAlpha) effects.

// One effect's visible list, or a merged list of any number of effects of one blend
// (merge.wgsl): draw_list[i].y indexes `particles`, the effect's pool or the merged copies
// of every member's visible particles; the merged draw finds a copy's look in the
// members' table `member_looks` (members.wgsl). Only an effect's own draw lists ribbon pieces
// (RIBBON_ENTRY | piece).
@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> draw_list: array<vec2<u32>>; // (key, index), draw order
@group(0) @binding(2) var<uniform> frame: FrameUniforms;
@group(0) @binding(3) var<uniform> effect: EffectParams;              // an effect's own draw
@group(0) @binding(4) var<storage, read> ribbon_points: array<RibbonPoint>; // by sorted entry
@group(0) @binding(5) var<storage, read> ribbon_pieces: array<vec2<u32>>; // (entry, n << 5 | k)
@group(0) @binding(6) var member_looks: texture_2d<f32>;               // merged: by member

// 0 for an effect's own draw, 1 for the merged draw (members.wgsl). (With this
// specialisation, the two below and the returns in vs_main, the billboard draw became 3 to
// 4 times faster: docs/measurements.md.)
override MERGED: u32 = 1u;

// What the list may hold (1) or not (0), specialised in source per effect: for the same
// reason a draw pays for every kind its shader can draw (a ribbon piece's vertex carries
// a billboard's work too), so each draw can draw only the kinds its list holds.
override BILLBOARDS: u32 = 1u;
override RIBBONS: u32 = 1u;
// Some particle shows an image (SPRITE_IMAGE): its frames are sampled (members.wgsl reads
// this too).
override IMAGES: u32 = 1u;
// Some particle shows a snowflake (SPRITE_SNOWFLAKE): the snowflake array is sampled.
override FLAKES: u32 = 1u;

// the host's depth at the particle target's resolution as distances (downsample.wgsl),
// the snowflake sprites (src/sprites.rs) and the images' frames (src/image/layers.rs),
// premultiplied, through one sampler
@group(1) @binding(0) var scene_depth: texture_2d<f32>;
@group(1) @binding(1) var sprites: texture_2d_array<f32>;
@group(1) @binding(2) var sprite_sampler: sampler;
@group(1) @binding(3) var images: texture_2d_array<f32>;
// the effect's: its ribbons' image (a placeholder, never sampled, when they have none)
@group(2) @binding(0) var image: texture_2d<f32>;
@group(2) @binding(1) var image_sampler: sampler;

// VsOut.sprite.x of a ribbon piece (its .y: 1 textured, 0 not)
const RIBBON_FRAGMENT: u32 = 0xffu;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    // the disc's corner; a ribbon's (along, across)
    @location(0) uv: vec2<f32>,
    @location(1) color: vec4<f32>,
    // the particle's effect: soft distance, additive (1.0) or not
    @location(2) @interpolate(flat) blend: vec2<f32>,
    // SPRITE_*, its layer (a snowflake's or a frame's), the next frame's; or
    // RIBBON_FRAGMENT, textured
    @location(3) @interpolate(flat) sprite: vec3<u32>,
    // distance along the view axis (affine in the world, so interpolated exactly)
    @location(4) distance: f32,
    // lit billboards: the light in the quad's frame (light_in_quad) and the wrap; w UNLIT:
    // unlit
    @location(5) @interpolate(flat) light: vec4<f32>,
    // a flipbook's blend towards its next frame
    @location(6) @interpolate(flat) frame_blend: f32,
    // lit billboards: the light reaching it through the others (self-shadowing)
    @location(7) @interpolate(flat) shadow: f32,
    // images with normals: the layers of its frame's normals and the next's + 1 (0: none)
    @location(8) @interpolate(flat) normals: vec2<u32>,
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> VsOut {
    // returns, not a VsOut assigned in branches: lavapipe stores every assignment of a
    // branch not taken under a mask (a ribbon's draw took 252 ms that way against 168 ms,
    // in one round of the scribble bench)
    let entry = draw_list[ii].y;
    if BILLBOARDS == 0u || (RIBBONS == 1u && (entry & RIBBON_ENTRY) != 0u) {
        return ribbon_piece(entry, vi);
    }
    // (drawn with ribbons, a billboard's fourth vertex is its first)
    return billboard(entry, select(vi, 0u, vi == 3u));
}

// Corner vi (0..3) of the billboard of the particle an entry names.
fn billboard(entry: u32, vi: u32) -> VsOut {
    let p = particles[entry];
    let a = appearance_of(p);
    let sprite = sprite_of(p, a.look);
    // one triangle circumscribing the unit disc: corners at radius 2, 120° apart; an
    // image fills the square, which a right triangle with its corner at (-1, -1) covers
    let angle = 1.5707963 + 2.0943951 * f32(vi);
    var corner = 2.0 * vec2<f32>(cos(angle), sin(angle));
    if IMAGES == 1u && sprite.kind == SPRITE_IMAGE {
        corner = vec2<f32>(select(-1.0, 3.0, vi == 1u), select(-1.0, 3.0, vi == 2u));
    }
    let q = particle_quad(p, a.look, frame);
    // pixel coverage (common.wgsl): at least a pixel's radius, its light spread
    let gx = coverage_growth(screen_pixels(frame, q.center, q.x));
    let gy = coverage_growth(screen_pixels(frame, q.center, q.y));
    let world = q.center + q.x * (gx * corner.x) + q.y * (gy * corner.y);
    var out: VsOut;
    out.blend = vec2<f32>(a.soft_distance, f32(a.additive));
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.distance = view_distance(frame, world);
    out.uv = corner;
    out.color = particle_color(p, a.look, a.settle_time);
    out.color.a /= gx * gy;
    out.light = vec4<f32>(0.0, 0.0, 0.0, UNLIT);
    out.shadow = particle_shadow(p);
    if a.light_wrap != UNLIT {
        out.light = vec4<f32>(light_in_quad(q, frame), a.light_wrap);
    }
    out.sprite = vec3<u32>(sprite.kind, sprite.layer, sprite.next);
    out.frame_blend = sprite.blend;
    out.normals = vec2<u32>(sprite.normal, sprite.normal_next);
    return out;
}

// Corner vi (0..4) of the ribbon piece an entry names.
fn ribbon_piece(entry: u32, vi: u32) -> VsOut {
    let v = ribbon_vertex(ribbon_pieces[entry & RIBBON_PIECE_MASK], vi);
    var out: VsOut;
    out.blend = vec2<f32>(effect.soft_distance, f32(effect.additive));
    out.clip = frame.view_proj * vec4<f32>(v.world, 1.0);
    out.distance = view_distance(frame, v.world);
    out.uv = vec2<f32>(v.along, v.across);
    out.color = v.color;
    out.sprite = vec3<u32>(RIBBON_FRAGMENT, u32(v.textured), 0u);
    out.light = vec4<f32>(0.0, 0.0, 0.0, UNLIT);
    out.frame_blend = 0.0;
    out.shadow = 1.0;
    out.normals = vec2<u32>(0u);
    return out;
}

// Whether a billboard's corner uv lies on its sprite: an image's square, or the unit disc
// round every other sprite. (Its triangle is larger, and a pixel off the sprite is discarded
// before anything is sampled: a CPU rasteriser skips a block of pixels all discarded.)
fn on_sprite(kind: u32, uv: vec2<f32>) -> bool {
    if IMAGES == 1u && kind == SPRITE_IMAGE {
        return on_square(uv);
    }
    return dot(uv, uv) <= 1.0;
}

// Off its sprite, or hidden behind the scene: discarded. In front of it: faded over
// soft_distance metres (soft particles).
@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    // the corner's derivatives first, while every pixel of the quad is alive (a discarded
    // neighbour leaves derivatives undefined): every texture below is sampled with them,
    // so only what the particle shows is sampled
    let du = dpdx(in.uv);
    let dv = dpdy(in.uv);
    let scene = textureLoad(scene_depth, vec2<i32>(in.clip.xy), 0).r;
    if in.distance > scene {
        discard;
    }
    let fade = soft_fade(scene, in.distance, in.blend.x);
    if BILLBOARDS == 0u || (RIBBONS == 1u && in.sprite.x == RIBBON_FRAGMENT) {
        var texel = vec4<f32>(1.0);
        if in.sprite.y == 1u {
            // (its image's coordinate is (along, 0.5 + 0.5 across))
            let coord = vec2<f32>(in.uv.x, 0.5 + 0.5 * in.uv.y);
            let half = vec2<f32>(1.0, 0.5);
            texel = textureSampleGrad(image, image_sampler, coord, du * half, dv * half);
        }
        let tint = ribbon_tint(in.uv.y, in.sprite.y == 1u, texel);
        let a = in.color.a * tint.a * fade;
        return premultiplied(in.color.rgb * tint.rgb, a, in.blend.y > 0.5);
    }
    if !on_sprite(in.sprite.x, in.uv) {
        discard;
    }
    var rgb = in.color.rgb;
    var cover = 0.0;
    // an image's normal (none: a sphere's)
    var normal = vec3<f32>(0.0);
    if IMAGES == 1u && in.sprite.x == SPRITE_IMAGE {
        // (an image's coordinate is (0.5 + 0.5 u, 0.5 - 0.5 v))
        let t = image_coord(in.uv);
        let half = vec2<f32>(0.5, -0.5);
        let dx = du * half;
        let dy = dv * half;
        let now = textureSampleGrad(images, sprite_sampler, t, in.sprite.y, dx, dy);
        let next = textureSampleGrad(images, sprite_sampler, t, in.sprite.z, dx, dy);
        let shown = image_cover(mix(now, next, in.frame_blend), in.uv);
        cover = shown.a;
        rgb *= shown.rgb;
        if in.normals.x != 0u && in.light.w != UNLIT {
            let a = textureSampleGrad(images, sprite_sampler, t, in.normals.x - 1u, dx, dy);
            let b = textureSampleGrad(images, sprite_sampler, t, in.normals.y - 1u, dx, dy);
            normal = decoded_normal(mix(a, b, in.frame_blend));
        }
    } else {
        var flake = 0.0;
        if FLAKES == 1u && in.sprite.x == SPRITE_SNOWFLAKE {
            let t = in.uv * 0.5 + 0.5;
            let layer = in.sprite.y;
            flake = textureSampleGrad(sprites, sprite_sampler, t, layer, du * 0.5, dv * 0.5).r;
        }
        cover = sprite_cover(in.sprite.x, in.uv, flake);
    }
    let a = in.color.a * cover * fade;
    if in.light.w != UNLIT {
        if IMAGES == 1u && in.normals.x != 0u {
            rgb *= normal_light(in.light.xyz, normal, in.light.w, in.shadow, frame);
        } else {
            rgb *= sphere_light(in.light.xyz, in.uv, in.light.w, in.shadow, frame);
        }
    }
    return premultiplied(rgb, a, in.blend.y > 0.5);
}
