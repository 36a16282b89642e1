// cull.wgsl — frustum culling of the alive list.
//
// Each alive particle's bounding sphere (position, drawn radius) is tested against the six
// frustum planes; visible ones are appended to the visible list as (key, index) with
// key = sort_key(distance along the view axis), one global atomic per workgroup. Particles whose
// projected radius is at most frame.splat_radius target pixels go to the splat list
// instead (splat.wgsl draws them by compute, unsorted). Ribbon points, on screen or not
// (a span between two points off screen may cross it), go to the ribbon list as
// (ribbon_key, index), to be sorted into ribbons and drawn by ribbon.wgsl.
//
// Each effect gets its own variant (src/passes/cull.rs, CullVariant): the render modes it
// does not use are compiled out (CPU drivers run every branch under a mask).
override RIBBONS: u32 = 1u;    // some emitter's particles are ribbon points
override MESHES: u32 = 1u;     // some emitter's particles are meshes
override STRETCHED: u32 = 1u;  // some emitter's particles are streaks
override INSTANCED: u32 = 1u;  // the effect is placed as instances, each with its bounds

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

var<workgroup> wg_count: atomic<u32>;
var<workgroup> wg_base: u32;
var<workgroup> wg_splat_count: atomic<u32>;
var<workgroup> wg_splat_base: u32;
var<workgroup> wg_ribbon_count: atomic<u32>;
var<workgroup> wg_ribbon_base: u32;

// Whether the instance that spawned p (if one did) may show it: its bounds meet the view, or
// it has none.
fn instance_shown(p: Particle) -> bool {
    let k = instance_of(p);
    if k == NO_INSTANCE {
        return true;
    }
    let bounds = instances[k].bounds;
    return bounds.w <= 0.0 || in_frustum(bounds.xyz, bounds.w);
}

fn in_frustum(center: vec3<f32>, radius: f32) -> bool {
    for (var i = 0u; i < 6u; i++) {
        let plane = frame.planes[i];
        if dot(plane.xyz, center) + plane.w < -radius {
            return false;
        }
    }
    return true;
}

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    let n = atomicLoad(&counters.alive);
    var shown = false;
    var splat = false;
    var ribbon = false;
    var local = 0u;
    var index = 0u;
    var key = 0u;
    if i < n {
        index = alive_list[i];
        let p = particles[index];
        var mode = RENDER_BILLBOARD;
        if RIBBONS == 1u || MESHES == 1u {
            mode = look_of(effect, p).render_mode;
        }
        let radius = drawn_radius(p, effect);
        if RIBBONS == 1u && mode == RENDER_RIBBON {
            ribbon = true;
            key = ribbon_key(p, effect, frame);
            local = atomicAdd(&wg_ribbon_count, 1u);
        } else if MESHES == 1u && mode == RENDER_MESH {
            // mesh_cull.wgsl lists them
        } else if (INSTANCED == 0u || instance_shown(p)) && in_frustum(p.pos, radius) {
            let w = clip_w(frame, p.pos);
            var extent = radius;
            if STRETCHED == 1u {
                extent = quad_extent(p, effect);
            }
            let radius_px = extent * frame.pixel_scale / max(w, 1e-6);
            if frame.splat_radius > 0.0 && radius_px <= frame.splat_radius {
                splat = true;
                local = atomicAdd(&wg_splat_count, 1u);
            } else {
                shown = true;
                key = sort_key(view_distance(frame, p.pos));
                local = atomicAdd(&wg_count, 1u);
            }
        }
    }
    workgroupBarrier();
    if lid == 0u {
        let c = atomicLoad(&wg_count);
        if c > 0u {
            wg_base = atomicAdd(&counters.visible, c);
        }
        let s = atomicLoad(&wg_splat_count);
        if s > 0u {
            wg_splat_base = atomicAdd(&counters.splatted, s);
        }
        let r = atomicLoad(&wg_ribbon_count);
        if r > 0u {
            wg_ribbon_base = atomicAdd(&draw_counters.ribbon_points, r);
        }
    }
    workgroupBarrier();
    if ribbon {
        ribbon_list[wg_ribbon_base + local] = vec2<u32>(key, index);
    }
    if shown {
        visible[wg_base + local] = vec2<u32>(key, index);
    }
    if splat {
        splat_list[wg_splat_base + local] = index;
    }
}
