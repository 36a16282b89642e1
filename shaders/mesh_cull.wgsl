// mesh_cull.wgsl — list the mesh particles on screen.
//
// One thread per alive particle: a particle of a mesh emitter (RENDER_MESH) whose bounding
// sphere (its mesh's bounding radius times its size) meets the frustum is appended to the
// mesh list, the mesh draw's instances (draw_counters.mesh_instances), one global atomic
// per workgroup. Cull leaves them out of the visible and splat lists: they are drawn
// opaque, unsorted, by mesh.wgsl.

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
@group(0) @binding(3) var<storage, read_write> mesh_list: array<u32>;
@group(0) @binding(4) var<storage, read_write> draw_counters: DrawCounters;
@group(0) @binding(5) var<uniform> frame: FrameUniforms;
@group(0) @binding(6) var<uniform> effect: EffectParams;

var<workgroup> wg_count: atomic<u32>;
var<workgroup> wg_base: u32;

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    var shown = false;
    var local = 0u;
    var index = 0u;
    if i < atomicLoad(&counters.alive) {
        index = alive_list[i];
        let p = particles[index];
        let look = effect.looks[emitter_slot(p)];
        // (a mesh too small on screen is drawn as a disc: cull.wgsl lists it)
        if look.render_mode == RENDER_MESH && !mesh_impostor(p, look, frame) {
            let radius = look.mesh_radius * mesh_scale(p, look);
            var inside = true;
            for (var k = 0u; k < 6u; k++) {
                let plane = frame.planes[k];
                inside = inside && dot(plane.xyz, p.pos) + plane.w >= -radius;
            }
            if inside {
                shown = true;
                local = atomicAdd(&wg_count, 1u);
            }
        }
    }
    workgroupBarrier();
    if lid == 0u {
        let c = atomicLoad(&wg_count);
        if c > 0u {
            wg_base = atomicAdd(&draw_counters.mesh_instances, c);
        }
    }
    workgroupBarrier();
    if shown {
        mesh_list[wg_base + local] = index;
    }
}
