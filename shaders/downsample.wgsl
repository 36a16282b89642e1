// downsample.wgsl — the host's depth at the particle target's resolution, as distances.
//
// Each low-resolution texel keeps the farthest (r) and nearest (g) distance along the view
// axis of the host depth samples it covers (every sample of every pixel of its footprint
// on a multisampled host), FAR_AWAY where the host shows its background. Distances make
// every later pass independent of the host's depth convention (standard or reversed Z,
// finite or infinite far, perspective or orthographic): the host's depth is read here and
// in the composite, nowhere else.
//
// The draw hides a particle only behind the farthest, so particles never vanish next to an
// edge; the colour they leave on the near side of an edge is removed by nearest-depth
// upsampling in composite.wgsl. Depth collision treats the whole [nearest, farthest]
// interval as the surface, so on ground seen at a grazing angle, where one texel spans a
// long depth range, a falling particle cannot jump from in front of the texel's surface to
// beyond the collision thickness in one step.

struct DownsampleParams {
    depth: DepthMapping,
}

// samples per host pixel; a multisampled host's variant reads a
// texture_depth_multisampled_2d (src/passes/downsample.rs)
override SAMPLES: u32 = 1u;
// host texels per low-resolution texel, per axis (1, 2 or 4): specialised, so that the
// footprint's loops have fixed bounds (read from the uniforms, they made the full-scale
// downsample of 960 × 540 take 6.1 ms on lavapipe rather than 3.7)
override FACTOR: u32 = 1u;
// 1: mesh particles are drawn into drawn_depth this frame, so the host's own distances are
// kept apart in low_depth for the next frame's collisions; 0: drawn_depth holds the host's
// alone and serves both (a second store of every texel cost 0.8 of 3.7 ms at 960 × 540 on
// lavapipe)
override APART: u32 = 1u;
// 0: the host gave no depth, and everything is far away. Specialised, not read from the
// uniforms: lavapipe (Mesa 22) compiles a shader again at every dispatch where a branch on a
// uniform decides most of it, with the uniform's value inlined, and keeps every copy.
override HAS_DEPTH: u32 = 1u;

@group(0) @binding(0) var host_depth: texture_depth_2d;
@group(0) @binding(1) var low_depth: texture_storage_2d<rg32float, write>; // APART only
@group(0) @binding(2) var<uniform> params: DownsampleParams;
// the same distances, into which mesh particles then draw theirs (mesh.wgsl): what the
// particles are drawn against, while low_depth stays the host's own for collisions
@group(0) @binding(3) var drawn_depth: texture_storage_2d<rg32float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let size = textureDimensions(low_depth);
    if gid.x >= size.x || gid.y >= size.y {
        return;
    }
    var far = FAR_AWAY;
    var near = FAR_AWAY;
    if HAS_DEPTH == 1u {
        // the extremes of the raw depth, then their distances (the mapping is monotonic)
        var lo = 2.0;
        var hi = -1.0;
        let full = textureDimensions(host_depth);
        for (var y = 0u; y < FACTOR; y++) {
            for (var x = 0u; x < FACTOR; x++) {
                let p = gid.xy * FACTOR + vec2<u32>(x, y);
                if p.x < full.x && p.y < full.y {
                    for (var s = 0u; s < SAMPLES; s++) {
                        let d = textureLoad(host_depth, p, s);
                        lo = min(lo, d);
                        hi = max(hi, d);
                    }
                }
            }
        }
        if hi >= lo {
            let a = depth_distance(lo, params.depth);
            let b = depth_distance(hi, params.depth);
            far = max(a, b);
            near = min(a, b);
        }
    }
    if APART == 1u {
        textureStore(low_depth, gid.xy, vec4<f32>(far, near, 0.0, 1.0));
    }
    textureStore(drawn_depth, gid.xy, vec4<f32>(far, near, 0.0, 1.0));
}
