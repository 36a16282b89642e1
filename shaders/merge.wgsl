// merge.wgsl — effects drawn together from one list, any number of them: the alpha-blended
// sorted ones, and apart from them the additive unsorted ones. Each member's cull lists its
// particles straight into a renderer-level list (merge_list.wgsl), which is then sorted
// (alpha-blended members) and drawn in one draw (draw.wgsl reads the copy, and how its
// member draws it from the members' table, members.wgsl), the splat lists splatted in a
// dispatch each (splat.wgsl). Many small members are culled a dispatch for all
// (batch_merge.wgsl).

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
@group(0) @binding(0) var<storage, read> particles: array<ParticleWords>;
@group(0) @binding(1) var<storage, read> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
// the merged lists and the copies
@group(0) @binding(3) var<storage, read_write> pairs: array<vec2<u32>>;
@group(0) @binding(4) var<uniform> frame: FrameUniforms;
@group(0) @binding(5) var<uniform> effect: EffectParams;
@group(0) @binding(6) var<storage, read_write> merged_splat: array<u32>;
@group(0) @binding(7) var<storage, read_write> copies: array<ParticleWords>;
// the merged lists' counts (merge_list.wgsl)
@group(0) @binding(8) var<storage, read_write> merged: array<Counters>;
// the member's instances (src/instances.rs): an instance's particles are culled with it
@group(0) @binding(9) var<storage, read> instances: array<InstanceGpu>;
@group(0) @binding(10) var<uniform> params: MergeParams;
// the merged draw's and plain splat's indirect arguments, then the rich splat's (write_args
// only, in a layout of its own with `merged`: the cull binds the most storage buffers a
// stage may, and a dispatch cannot read as indirect arguments a buffer it binds for
// writing)
@group(0) @binding(11) var<storage, read_write> merged_args: array<IndirectArgs>;

fn look(p: Particle) -> EmitterLook {
    return effect.looks[emitter_slot(p)];
}

fn light_wrap() -> f32 {
    return effect.light_wrap;
}

fn instance_bounds(k: u32) -> vec4<f32> {
    return instances[k].bounds;
}

fn count_member(drawn: u32, splatted: u32) {
    if drawn > 0u {
        atomicAdd(&counters.visible, drawn);
    }
    if splatted > 0u {
        atomicAdd(&counters.splatted, splatted);
    }
}

// One thread per alive particle of the member (dispatched from its cull arguments), culled
// as cull.wgsl culls (the variant has no ribbons: a member never has them) into the merged
// lists.
@compute @workgroup_size(64)
fn cull(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i == 0u {
        // the survivors' scratch count back to zero for the next step (as cull.wgsl does)
        atomicStore(&counters.next_alive, 0u);
    }
    let listed = i < atomicLoad(&counters.alive);
    var p: Particle;
    if listed {
        p = particle_of(particles[alive_list[i]]);
    }
    list_merged(lid, listed, p, params.member, params.copies);
}

// After the culls and the sort: the merged draw takes one instance per listed particle,
// each splat one thread per entry of its list.
@compute @workgroup_size(1)
fn write_args() {
    let visible = atomicLoad(&merged[0].visible);
    let plain = atomicLoad(&merged[0].splatted);
    merged_args[0] = with_draw_and_splat(merged_args[0], visible, plain);
    let rich = atomicLoad(&merged[RICH_SPLAT].splatted);
    merged_args[1] = with_draw_and_splat(merged_args[1], 0u, rich);
}
