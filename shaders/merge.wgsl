// merge.wgsl — alpha-blended effects sorted together, any number of them: each member's
// visible particles are copied into one renderer-level list, (key, index of the copy), the
// copy's instance bits naming the member it came from (a copy is drawn, never simulated);
// the list is then sorted and drawn in one draw (draw.wgsl reads the copy and its member's
// constants from the table of them). The particles cull sent to the splat are copied too,
// into a splat list of its own splatted in one dispatch (splat.wgsl).

struct MergeParams {
    member: u32,
    copies: u32,             // room for copies: the visible fill it from the front, the
                             // splatted from the back (a particle is in one list at most,
                             // and no member lists more than its capacity)
    _pad0: u32,
    _pad1: u32,
}

// a member's lists and particles
@group(0) @binding(0) var<storage, read> src: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read_write> src_counters: Counters;
@group(0) @binding(2) var<storage, read> src_particles: array<Particle>;
@group(0) @binding(3) var<storage, read> src_splat: array<u32>;
// the merged lists and the copies
@group(0) @binding(4) var<storage, read_write> dst: array<vec2<u32>>;
@group(0) @binding(5) var<storage, read_write> dst_splat: array<u32>;
@group(0) @binding(6) var<storage, read_write> merged: Counters; // (visible, splatted)
@group(0) @binding(7) var<storage, read_write> copies: array<Particle>;
@group(0) @binding(8) var<uniform> params: MergeParams;
// the merged draw's and splat's indirect arguments (write_args only, in a layout of its
// own with `merged`: the gather's binds the most storage buffers a stage may, and a
// dispatch cannot read as indirect arguments a buffer it binds for writing)
@group(0) @binding(9) var<storage, read_write> merged_args: IndirectArgs;

// this workgroup's entries of the visible list (0) and of the splat list (1)
var<workgroup> wg_count: array<atomic<u32>, 2>;
var<workgroup> wg_base: array<u32, 2>;

// `p` copied as the member's.
fn copy_of(p: Particle) -> Particle {
    var c = p;
    c.flags = (p.flags & ((1u << FLAG_INSTANCE_SHIFT) - 1u)) | (params.member << FLAG_INSTANCE_SHIFT);
    return c;
}

// One thread per particle the member's cull took (dispatched from its cull's arguments;
// each of its lists holds some of them): its visible pair and its splat entry, where it has
// them, each appended with one atomic a workgroup.
@compute @workgroup_size(64)
fn gather(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    let drawn = i < atomicLoad(&src_counters.visible);
    let splatted = i < atomicLoad(&src_counters.splatted);
    var local = vec2<u32>(0u);
    if drawn {
        local.x = atomicAdd(&wg_count[0], 1u);
    }
    if splatted {
        local.y = atomicAdd(&wg_count[1], 1u);
    }
    workgroupBarrier();
    if lid == 0u {
        let c = vec2<u32>(atomicLoad(&wg_count[0]), atomicLoad(&wg_count[1]));
        if c.x > 0u {
            wg_base[0] = atomicAdd(&merged.visible, c.x);
        }
        if c.y > 0u {
            wg_base[1] = atomicAdd(&merged.splatted, c.y);
        }
    }
    workgroupBarrier();
    if drawn {
        let at = wg_base[0] + local.x;
        let pair = src[i];
        dst[at] = vec2<u32>(pair.x, at);
        copies[at] = copy_of(src_particles[pair.y]);
    }
    if splatted {
        let at = wg_base[1] + local.y;
        let copy = params.copies - 1u - at;
        dst_splat[at] = copy;
        copies[copy] = copy_of(src_particles[src_splat[i]]);
    }
}

// After the gathers: the merged draw takes one instance per listed particle, the merged
// splat one thread per listed splat.
@compute @workgroup_size(1)
fn write_args() {
    let visible = atomicLoad(&merged.visible);
    merged_args = with_draw_and_splat(merged_args, visible, atomicLoad(&merged.splatted));
}
