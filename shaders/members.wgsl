// members.wgsl — how a drawn particle looks, for the passes that draw either an effect's
// own list or a merged list's copies of many effects' particles (draw.wgsl,
// splat.wgsl). The includer declares MERGED (0: an effect's own list, 1: the merged list;
// specialised in source), the effect's uniform `effect` and, for the merged list,
// `member_looks` (the members' table; a copy's instance bits name its member, merge.wgsl).
// Lavapipe evaluates both sides of a choice, so a lookup where one effect is bound would
// be work every particle does for nothing: the specialisation compiles it out.
//
// The table holds what drawing takes (Appearance), not the members' EffectParams: lavapipe
// reads a storage buffer lane by lane, and a whole EffectParams a particle read that way
// took half the merged splat's time (100 effects of 1,024 particles); a texel fetch a
// field group is one gather for the SIMD group. Member m's row of MEMBER_TEXELS texels
// starts at texel m * MEMBER_TEXELS, MEMBER_ROW texels a texture row: first (settle_time,
// soft_distance, additive, light_wrap), then per emitter its colour at the end of life and
// (size_end, (render_mode * SPRITE_KINDS + sprite) * 2 + unlit, stretch, emission) and its image
// (image_layer, image_frames, frame_rate, flipbook), the integers as floats
// (src/passes/members.rs). The includer declares IMAGES too (0: no member shows an image,
// whose texel is then not fetched).

const SPRITE_KINDS: u32 = 4u;

const MEMBER_ROW: u32 = 256u;
const MEMBER_TEXELS: u32 = 1u + 3u * MAX_EMITTERS;

fn member_texel(m: u32, k: u32) -> vec4<f32> {
    let t = m * MEMBER_TEXELS + k;
    return textureLoad(member_looks, vec2<u32>(t % MEMBER_ROW, t / MEMBER_ROW), 0);
}

// How the particle `p` (of the list's particles) is drawn.
fn appearance_of(p: Particle) -> Appearance {
    if MERGED == 0u {
        let look = effect.looks[emitter_slot(p)];
        let soft = effect.soft_distance;
        return appearance(look, effect.settle_time, soft, effect.additive, effect.light_wrap);
    }
    let m = instance_of(p);
    let e = emitter_slot(p);
    let fades = member_texel(m, 0u);
    let shape = member_texel(m, 2u + 3u * e);
    var look = EmitterLook();
    look.color_end = member_texel(m, 1u + 3u * e);
    look.size_end = shape.x;
    let kinds = u32(shape.y);
    look.unlit = kinds & 1u;
    look.render_mode = (kinds >> 1u) / SPRITE_KINDS;
    look.sprite = (kinds >> 1u) % SPRITE_KINDS;
    look.stretch = shape.z;
    look.emission = shape.w;
    if IMAGES == 1u {
        let image = member_texel(m, 3u + 3u * e);
        look.image_layer = u32(image.x);
        look.image_frames = u32(image.y);
        look.frame_rate = image.z;
        look.flipbook = u32(image.w);
    }
    return appearance(look, fades.x, fades.y, u32(fades.z), fades.w);
}
