// downsample.wgsl — the host's depth at the particle target's resolution.
//
// Each low-resolution texel keeps the farthest (r) and nearest (g) depth of the host
// texels it covers (depth 1 = far). The draw hides a particle only behind the farthest,
// so particles never vanish next to an edge; the colour they leave on the near side of an
// edge is removed by nearest-depth upsampling in composite.wgsl. Depth collision treats
// the whole [nearest, farthest] interval as the surface, so on ground seen at a grazing
// angle, where one texel spans a long depth range, a falling particle cannot jump from in
// front of the texel's surface to beyond the collision thickness in one step.

struct DownsampleParams {
    factor: u32,      // host texels per low-resolution texel, per axis (1, 2 or 4)
    has_depth: u32,   // 0: the host gave no depth; everything is far
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var host_depth: texture_depth_2d;
@group(0) @binding(1) var low_depth: texture_storage_2d<rg32float, write>;
@group(0) @binding(2) var<uniform> params: DownsampleParams;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let size = textureDimensions(low_depth);
    if gid.x >= size.x || gid.y >= size.y {
        return;
    }
    var far = 1.0;
    var near = 1.0;
    if params.has_depth == 1u {
        far = 0.0;
        let full = textureDimensions(host_depth);
        for (var y = 0u; y < params.factor; y++) {
            for (var x = 0u; x < params.factor; x++) {
                let p = gid.xy * params.factor + vec2<u32>(x, y);
                if p.x < full.x && p.y < full.y {
                    let d = textureLoad(host_depth, p, 0);
                    far = max(far, d);
                    near = min(near, d);
                }
            }
        }
    }
    textureStore(low_depth, gid.xy, vec4<f32>(far, near, 0.0, 1.0));
}
