// merge_list.wgsl — how a cull into a merged list (merge.wgsl for one effect,
// batch_merge.wgsl for many small ones a dispatch) lists a particle it keeps: a copy of
// it, with (key, index of the copy) for the drawn, the index of the copy for the splatted,
// appended with one atomic a list a workgroup. The copy's instance bits name the member it
// came from (a copy is drawn, never simulated).
//
// The splatted go to one of two splat lists, each splatted by a variant of its own
// (src/renderer/merged.rs): the plain list, of particles whose splat samples no texture
// and lights nothing (discs and rings, unlit), and the rich list of the others (snowflakes,
// images, lit billboards). A CPU driver runs what a variant compiles in for every lane,
// so one splat of both made every disc of a list with one snowflake effect pay a texture
// sample a pixel (11.5 of the 31 ms of 100 mixed effects' splat on lavapipe).
//
// The includer declares `pairs`, `merged_splat` (the plain list, then the rich list from
// rich_splat_start), `copies` (as ParticleWords) and `merged` (the lists' counts,
// COUNTERS_APART Counters apart), and supplies `look(p)` (the look of p's emitter),
// `count_member(drawn, splatted)` (the member's own counts, kept for its statistics) and
// `light_wrap()` (the member's lighting, EffectParams.light_wrap).

// The lists' counts in `merged`, each at a 256-byte boundary (the most a binding's offset
// must be aligned to), so that the sort and each splat bind theirs as their Counters:
// the drawn list's (visible) and the plain splat list's (splatted) in the first, the rich
// splat list's (splatted) in the next, and in the third the copies both splat lists took
// (splatted), from the back.
const COUNTERS_APART: u32 = 2u;
const RICH_SPLAT: u32 = COUNTERS_APART;
const SPLAT_COPIES: u32 = 2u * COUNTERS_APART;

// Where the rich splat list starts in `merged_splat`, the merged lists holding `room`
// copies: past the plain list's `room` entries, at a 256-byte boundary (a binding's offset).
fn rich_splat_start(room: u32) -> u32 {
    return (room + 63u) / 64u * 64u;
}

// Whether a particle of `look`, its effect lit with `wrap`, goes to the rich splat list:
// its splat samples a texture or lights it (splat.wgsl FLAKES, IMAGES, LIT).
fn splats_rich(look: EmitterLook, wrap: f32) -> bool {
    return look.sprite == SPRITE_SNOWFLAKE || look.sprite == SPRITE_IMAGE
        || drawn_wrap(look, wrap) != UNLIT;
}

// this workgroup's drawn (0), plain splatted (1) and rich splatted (2) particles, and where
// they start in their merged lists
const LISTED_DRAWN: u32 = 0u;
const LISTED_PLAIN: u32 = 1u;
const LISTED_RICH: u32 = 2u;
const LISTED_NONE: u32 = 3u;
var<workgroup> wg_count: array<atomic<u32>, 3>;
// (and at LISTED_NONE the first of its splatted copies, counted from the back)
var<workgroup> wg_base: array<u32, 4>;

// `p` copied as member `member`'s.
fn copy_of(p: Particle, member: u32) -> Particle {
    var c = p;
    c.flags = (p.flags & ((1u << FLAG_INSTANCE_SHIFT) - 1u)) | (member << FLAG_INSTANCE_SHIFT);
    return c;
}

// Cull particle `p` of member `member` (when `listed`: a thread past the alive list has
// none) as cull.wgsl culls, and list it. `room`: the copies the merged lists hold, the
// drawn filling them from the front and the splatted from the back (a particle is in one
// list at most, and no member lists more than its capacity). Every thread of the
// workgroup calls it.
fn list_merged(lid: u32, listed: bool, p: Particle, member: u32, room: u32) {
    var list = LISTED_NONE;
    var key = 0u;
    var local = 0u;
    if listed {
        let look = look(p);
        let culled = cull_particle(p, look);
        key = culled.key;
        if culled.list == CULLED_DRAWN {
            list = LISTED_DRAWN;
        } else if culled.list == CULLED_SPLAT {
            list = select(LISTED_PLAIN, LISTED_RICH, splats_rich(look, light_wrap()));
        }
        if list != LISTED_NONE {
            local = atomicAdd(&wg_count[list], 1u);
        }
    }
    workgroupBarrier();
    if lid == 0u {
        let c = atomicLoad(&wg_count[LISTED_DRAWN]);
        if c > 0u {
            wg_base[LISTED_DRAWN] = atomicAdd(&merged[0].visible, c);
        }
        let plain = atomicLoad(&wg_count[LISTED_PLAIN]);
        if plain > 0u {
            wg_base[LISTED_PLAIN] = atomicAdd(&merged[0].splatted, plain);
        }
        let rich = atomicLoad(&wg_count[LISTED_RICH]);
        if rich > 0u {
            wg_base[LISTED_RICH] = atomicAdd(&merged[RICH_SPLAT].splatted, rich);
        }
        if plain + rich > 0u {
            // the workgroup's splatted copies, the plain ones first
            wg_base[LISTED_NONE] = atomicAdd(&merged[SPLAT_COPIES].splatted, plain + rich);
        }
        count_member(c, plain + rich);
    }
    workgroupBarrier();
    // (one write of the copy for either list: lavapipe runs a branch's writes for every
    // lane, taken or not)
    var copy = 0u;
    if list == LISTED_DRAWN {
        let at = wg_base[LISTED_DRAWN] + local;
        pairs[at] = vec2<u32>(key, at);
        copy = at;
    } else if list != LISTED_NONE {
        var at = wg_base[list] + local;
        var from_back = wg_base[LISTED_NONE] + local;
        if list == LISTED_RICH {
            from_back += atomicLoad(&wg_count[LISTED_PLAIN]);
            at += rich_splat_start(room);
        }
        copy = room - 1u - from_back;
        merged_splat[at] = copy;
    }
    if list != LISTED_NONE {
        copies[copy] = words_of(copy_of(p, member));
    }
}
