// merge_list.wgsl — how a cull into a merged list (merge.wgsl for one effect,
// batch_merge.wgsl for many small ones a dispatch) lists a particle it keeps: a copy of
// it, with (key, index of the copy) for the drawn, the index of the copy for the splatted,
// appended with one atomic a list a workgroup. The copy's instance bits name the member it
// came from (a copy is drawn, never simulated).
//
// The includer declares `pairs`, `merged_splat`, `copies` and `merged` (the merged lists'
// (visible, splatted) counts), and supplies `count_member(drawn, splatted)`: the member's
// own counts, kept for its statistics.

// this workgroup's drawn (0) and splatted (1) particles, and where they start in the
// merged lists
var<workgroup> wg_count: array<atomic<u32>, 2>;
var<workgroup> wg_base: array<u32, 2>;

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
    var culled = Culled(CULLED_OUT, 0u);
    var local = 0u;
    if listed {
        culled = cull_particle(p);
        if culled.list == CULLED_DRAWN || culled.list == CULLED_SPLAT {
            local = atomicAdd(&wg_count[culled.list - 1u], 1u);
        }
    }
    workgroupBarrier();
    if lid == 0u {
        let c = atomicLoad(&wg_count[0]);
        if c > 0u {
            wg_base[0] = atomicAdd(&merged.visible, c);
        }
        let s = atomicLoad(&wg_count[1]);
        if s > 0u {
            wg_base[1] = atomicAdd(&merged.splatted, s);
        }
        count_member(c, s);
    }
    workgroupBarrier();
    if culled.list == CULLED_DRAWN {
        let at = wg_base[0] + local;
        pairs[at] = vec2<u32>(culled.key, at);
        copies[at] = copy_of(p, member);
    } else if culled.list == CULLED_SPLAT {
        let at = wg_base[1] + local;
        let copy = room - 1u - at;
        merged_splat[at] = copy;
        copies[copy] = copy_of(p, member);
    }
}
