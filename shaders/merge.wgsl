// merge.wgsl — alpha-blended effects sorted together, any number of them. Each member's
// cull lists its particles straight into one renderer-level list: a copy of each particle
// it keeps, with (key, index of the copy) for the ones it draws, the index of the copy for
// the ones it splats; the copy's instance bits name the member it came from (a copy is
// drawn, never simulated). The list is then sorted and drawn in one draw (draw.wgsl reads
// the copy, and how its member draws it from the members' table, members.wgsl), the splat
// list splatted in one dispatch (splat.wgsl).

struct MergeParams {
    member: u32,
    copies: u32,             // room for copies: the drawn fill it from the front, the
                             // splatted from the back (a particle is in one list at most,
                             // and no member lists more than its capacity)
    _pad0: u32,
    _pad1: u32,
}

// the member's particles, alive list and counters (its visible and splatted counts are
// kept for its statistics)
@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
// the merged lists and the copies
@group(0) @binding(3) var<storage, read_write> pairs: array<vec2<u32>>;
@group(0) @binding(4) var<uniform> frame: FrameUniforms;
@group(0) @binding(5) var<uniform> effect: EffectParams;
@group(0) @binding(6) var<storage, read_write> merged_splat: array<u32>;
@group(0) @binding(7) var<storage, read_write> copies: array<Particle>;
@group(0) @binding(8) var<storage, read_write> merged: Counters; // (visible, splatted)
// the member's instances (src/instances.rs): an instance's particles are culled with it
@group(0) @binding(9) var<storage, read> instances: array<InstanceGpu>;
@group(0) @binding(10) var<uniform> params: MergeParams;
// the merged draw's and splat's indirect arguments (write_args only, in a layout of its
// own with `merged`: the cull binds the most storage buffers a stage may, and a dispatch
// cannot read as indirect arguments a buffer it binds for writing)
@group(0) @binding(11) var<storage, read_write> merged_args: IndirectArgs;

// this workgroup's drawn (0) and splatted (1) particles, and where they start in the
// merged lists
var<workgroup> wg_count: array<atomic<u32>, 2>;
var<workgroup> wg_base: array<u32, 2>;

// `p` copied as the member's.
fn copy_of(p: Particle) -> Particle {
    var c = p;
    c.flags = (p.flags & ((1u << FLAG_INSTANCE_SHIFT) - 1u)) | (params.member << FLAG_INSTANCE_SHIFT);
    return c;
}

// One thread per alive particle of the member (dispatched from its cull arguments), culled
// as cull.wgsl culls (the variant has no ribbons: a member never has them), appended with
// one atomic a list a workgroup, to the merged lists and to the member's counts.
@compute @workgroup_size(64)
fn cull(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    clear_scratch_count(i);
    var culled = Culled(CULLED_OUT, 0u);
    var p: Particle;
    var local = 0u;
    if i < atomicLoad(&counters.alive) {
        p = particles[alive_list[i]];
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
            atomicAdd(&counters.visible, c);
        }
        let s = atomicLoad(&wg_count[1]);
        if s > 0u {
            wg_base[1] = atomicAdd(&merged.splatted, s);
            atomicAdd(&counters.splatted, s);
        }
    }
    workgroupBarrier();
    if culled.list == CULLED_DRAWN {
        let at = wg_base[0] + local;
        pairs[at] = vec2<u32>(culled.key, at);
        copies[at] = copy_of(p);
    } else if culled.list == CULLED_SPLAT {
        let at = wg_base[1] + local;
        let copy = params.copies - 1u - at;
        merged_splat[at] = copy;
        copies[copy] = copy_of(p);
    }
}

// After the culls and the sort: the merged draw takes one instance per listed particle,
// the merged splat one thread per listed splat.
@compute @workgroup_size(1)
fn write_args() {
    let visible = atomicLoad(&merged.visible);
    merged_args = with_draw_and_splat(merged_args, visible, atomicLoad(&merged.splatted));
}
