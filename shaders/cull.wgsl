// cull.wgsl — frustum culling of the alive list into the effect's own lists.
//
// Each alive particle goes where cull_test.wgsl says: visible ones to the visible list as
// (key, index), small ones to the splat list, ribbon points to the ribbon list as
// (ribbon key, index); one global atomic per list a workgroup. (An effect sorted with
// others is culled into the merged list instead, merge.wgsl.)

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> visible: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> counters: Counters;
@group(0) @binding(4) var<uniform> frame: FrameUniforms;
@group(0) @binding(5) var<uniform> effect: EffectParams;
@group(0) @binding(6) var<storage, read_write> splat_list: array<u32>;
@group(0) @binding(7) var<storage, read_write> ribbon_list: array<vec2<u32>>;
// its ribbon_points counts the ribbon list (the sort reads it as Counters.visible)
@group(0) @binding(8) var<storage, read_write> draw_counters: DrawCounters;
// the effect's instances (src/instances.rs): an instance's particles are culled with it
@group(0) @binding(9) var<storage, read> instances: array<InstanceGpu>;

fn look(p: Particle) -> EmitterLook {
    return effect.looks[emitter_slot(p)];
}

fn instance_bounds(k: u32) -> vec4<f32> {
    return instances[k].bounds;
}

// this workgroup's entries of each list (indexed by Culled.list - 1, the dots last) and
// where they start
var<workgroup> wg_count: array<atomic<u32>, 4>;
var<workgroup> wg_base: array<u32, 4>;

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if i == 0u {
        // the survivors' scratch count back to zero for the next step (args.wgsl
        // after_simulate clears it for a counted pool; for a pool sized per slot relist
        // read it last)
        atomicStore(&counters.next_alive, 0u);
    }
    var culled = Culled(CULLED_OUT, 0u);
    var index = 0u;
    var local = 0u;
    if i < atomicLoad(&counters.alive) {
        index = alive_list[i];
        let p = particles[index];
        culled = cull_particle(p, look(p));
        if culled.list != CULLED_OUT {
            local = atomicAdd(&wg_count[culled.list - 1u], 1u);
        }
    }
    workgroupBarrier();
    if lid == 0u {
        let c = atomicLoad(&wg_count[0]);
        if c > 0u {
            wg_base[0] = atomicAdd(&counters.visible, c);
        }
        let s = atomicLoad(&wg_count[1]);
        if s > 0u {
            wg_base[1] = atomicAdd(&counters.splatted, s);
        }
        let r = atomicLoad(&wg_count[2]);
        if r > 0u {
            wg_base[2] = atomicAdd(&draw_counters.ribbon_points, r);
        }
        if DOTS == 1u {
            let d = atomicLoad(&wg_count[3]);
            if d > 0u {
                wg_base[3] = atomicAdd(&draw_counters.dots, d);
            }
        }
    }
    workgroupBarrier();
    switch culled.list {
        case CULLED_DRAWN: {
            visible[wg_base[0] + local] = vec2<u32>(culled.key, index);
        }
        case CULLED_SPLAT: {
            splat_list[wg_base[1] + local] = index;
        }
        case CULLED_RIBBON: {
            ribbon_list[wg_base[2] + local] = vec2<u32>(culled.key, index);
        }
        case CULLED_DOT: {
            splat_list[effect.capacity - 1u - (wg_base[3] + local)] = index;
        }
        default: {}
    }
}
