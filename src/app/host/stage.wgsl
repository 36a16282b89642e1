// stage.wgsl — a stand-in for a host application's scene in the demos and tests: opaque,
// flat-coloured quads and an optional procedural heightfield terrain (rolling hills),
// written to the host's colour and depth targets.

const MAX_QUADS: u32 = 16u;

struct HostQuad {
    center: vec4<f32>,   // xyz, w unused
    u: vec4<f32>,        // half extent along the first axis
    v: vec4<f32>,        // half extent along the second axis
    color: vec4<f32>,    // linear RGB, a = 1
}

struct HostUniforms {
    view_proj: mat4x4<f32>,
    // x: half size (metres), y: height amplitude (metres), z: cells per side
    terrain: vec4<f32>,
    quads: array<HostQuad, MAX_QUADS>,
}

@group(0) @binding(0) var<uniform> host: HostUniforms;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> VsOut {
    let q = host.quads[ii];
    let corner = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    )[vi];
    let world = q.center.xyz + q.u.xyz * corner.x + q.v.xyz * corner.y;
    var out: VsOut;
    out.clip = host.view_proj * vec4<f32>(world, 1.0);
    out.color = q.color;
    return out;
}

// Terrain height at (x, z): a few smooth hills within +-amplitude. Mirrored in
// stage.rs (terrain_height).
fn terrain_height(x: f32, z: f32, amplitude: f32) -> f32 {
    let h = 0.6 * sin(0.11 * x + 0.4) * cos(0.09 * z)
        + 0.3 * sin(0.23 * z + 1.3) * cos(0.19 * x)
        + 0.1 * sin(0.51 * x + 0.37 * z);
    return amplitude * h;
}

// Terrain: `cells` x `cells` squares over [-half, half]^2, two triangles each,
// dark blue-grey, lit from the upper left by the slope of the surface.
@vertex
fn vs_terrain(@builtin(vertex_index) vi: u32) -> VsOut {
    let half = host.terrain.x;
    let amplitude = host.terrain.y;
    let cells = u32(host.terrain.z);
    let corner = array<vec2<u32>, 6>(
        vec2<u32>(0u, 0u), vec2<u32>(1u, 0u), vec2<u32>(1u, 1u),
        vec2<u32>(0u, 0u), vec2<u32>(1u, 1u), vec2<u32>(0u, 1u),
    )[vi % 6u];
    let cell = vi / 6u;
    let ij = vec2<u32>(cell % cells, cell / cells) + corner;
    let xz = (vec2<f32>(ij) / f32(cells) * 2.0 - 1.0) * half;
    let y = terrain_height(xz.x, xz.y, amplitude);
    // the normal from central differences of the height
    let e = 0.05;
    let dx = terrain_height(xz.x + e, xz.y, amplitude) - terrain_height(xz.x - e, xz.y, amplitude);
    let dz = terrain_height(xz.x, xz.y + e, amplitude) - terrain_height(xz.x, xz.y - e, amplitude);
    let n = normalize(vec3<f32>(-dx, 2.0 * e, -dz));
    let light = normalize(vec3<f32>(-0.5, 1.0, 0.3));
    let shade = 0.35 + 0.65 * max(dot(n, light), 0.0);
    var out: VsOut;
    out.clip = host.view_proj * vec4<f32>(xz.x, y, xz.y, 1.0);
    out.color = vec4<f32>(vec3<f32>(0.055, 0.06, 0.075) * shade, 1.0);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    return in.color;
}

// A crowd's city: upright boxes (buildings), each drawn as 36 vertices of six faces,
// lit from the upper left by its face's normal.
struct HostBox {
    min: vec4<f32>,      // xyz, w unused
    max: vec4<f32>,
    color: vec4<f32>,    // linear RGB, a = 1
}

@group(1) @binding(0) var<storage, read> boxes: array<HostBox>;

@vertex
fn vs_box(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> VsOut {
    let b = boxes[ii];
    // faces +x, -x, +y, -y, +z, -z; two triangles each over the face's square
    let face = vi / 6u;
    let axis = face / 2u;
    let side = select(1.0, -1.0, (face & 1u) == 1u);
    let corner = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    )[vi % 6u];
    var local = vec3<f32>(0.0);
    local[axis] = side;
    local[(axis + 1u) % 3u] = corner.x;
    local[(axis + 2u) % 3u] = corner.y;
    var n = vec3<f32>(0.0);
    n[axis] = side;
    let centre = 0.5 * (b.min.xyz + b.max.xyz);
    let half = 0.5 * (b.max.xyz - b.min.xyz);
    let light = normalize(vec3<f32>(-0.5, 1.0, 0.3));
    let shade = 0.35 + 0.65 * max(dot(n, light), 0.0);
    var out: VsOut;
    out.clip = host.view_proj * vec4<f32>(centre + local * half, 1.0);
    out.color = vec4<f32>(b.color.rgb * shade, 1.0);
    return out;
}
