// mesh.wgsl — mesh particles: each listed particle (mesh_cull.wgsl) is an instance of its
// effect's mesh, scaled by its size over life, turned by its rotation about its own random
// axis (or, for fliers, along its velocity with its wings beating) and moved to its
// position.
//
// fs_lit draws it into the host's colour and depth (opaque, depth-tested and written):
// its colour over life × (ambient + light × max(n · l, 0)), n turned to face the viewer on
// a back face (a leaf is one-sided). fs_distance draws it, at the particle target's
// resolution, into the scene distances the billboards, ribbons and splat test against, so
// that a mesh particle hides the particles behind it; the host-only distances it reads
// stay what depth collision uses (a particle never collides with itself).

@group(0) @binding(0) var<storage, read> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> mesh_list: array<u32>;
@group(0) @binding(2) var<uniform> frame: FrameUniforms;
@group(0) @binding(3) var<uniform> effect: EffectParams;
// the figure's poses (src/mesh/gait.rs): a row per frame of a gait's cycle, gait by gait; a
// texel per bone: (radians about the figure's x axis, the pivot's y and z, the figure's lift)
@group(0) @binding(4) var poses: texture_2d<f32>;
// fs_distance only: the host's own distances at the particle target's resolution
@group(1) @binding(0) var host_distance: texture_2d<f32>;

struct VertexIn {
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) bone: f32,
}

// 1: the host's target shows what it stores as gamma-encoded (a UNORM format without its
// sRGB twin, a UI toolkit's window): fs_lit encodes its colour (opaque, so exactly).
override GAMMA_TARGET: u32 = 0u;

// Frames a gait's cycle is baked into (GAIT_FRAMES in src/mesh/gait.rs).
const GAIT_FRAMES: u32 = 16u;

// v turned about the x axis by `angle` (a bone's swing).
fn about_x(v: vec3<f32>, angle: f32) -> vec3<f32> {
    let c = cos(angle);
    let s = sin(angle);
    return vec3<f32>(v.x, v.y * c - v.z * s, v.y * s + v.z * c);
}

// A bone's pose for a walker whose rotation is `pose` (crowd.wgsl: its gait plus the
// fraction of its cycle), blended between the two baked frames around it.
fn bone_pose(bone: u32, pose: f32) -> vec4<f32> {
    let gait = u32(max(floor(pose), 0.0));
    let at = fract(pose) * f32(GAIT_FRAMES);
    let f0 = u32(floor(at)) % GAIT_FRAMES;
    let f1 = (f0 + 1u) % GAIT_FRAMES;
    let a = textureLoad(poses, vec2<u32>(bone, gait * GAIT_FRAMES + f0), 0);
    let b = textureLoad(poses, vec2<u32>(bone, gait * GAIT_FRAMES + f1), 0);
    return mix(a, b, fract(at));
}

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec3<f32>,
    // distance along the view axis (affine in the world, so interpolated exactly)
    @location(2) distance: f32,
}

// v turned by `angle` about the unit `axis` (Rodrigues).
fn rotate(v: vec3<f32>, axis: vec3<f32>, angle: f32) -> vec3<f32> {
    let c = cos(angle);
    let s = sin(angle);
    return v * c + cross(axis, v) * s + axis * (dot(axis, v) * (1.0 - c));
}

// A particle's own axis of rotation, from its id.
fn spin_axis(p: Particle) -> vec3<f32> {
    var state = pcg_hash(p.id ^ 0x9e3779b9u);
    return unit_vector(&state);
}

// A mesh-space vector turned about the z axis by `angle` radians (a wing's beat).
fn about_z(v: vec3<f32>, angle: f32) -> vec3<f32> {
    let c = cos(angle);
    let s = sin(angle);
    return vec3<f32>(v.x * c - v.y * s, v.x * s + v.y * c, v.z);
}

// A flier's frame: z along its velocity, y as near the world's up as that allows.
fn flight_frame(vel: vec3<f32>) -> mat3x3<f32> {
    let speed = length(vel);
    let z = select(vec3<f32>(0.0, 0.0, 1.0), vel / speed, speed > 1e-6);
    var x = cross(vec3<f32>(0.0, 1.0, 0.0), z);
    // flying straight up or down: any side will do
    x = select(vec3<f32>(1.0, 0.0, 0.0), normalize(x), length(x) > 1e-4);
    return mat3x3<f32>(x, cross(z, x), z);
}

@vertex
fn vs_main(v: VertexIn, @builtin(instance_index) ii: u32) -> VsOut {
    let p = particles[mesh_list[ii]];
    let look = effect.looks[emitter_slot(p)];
    var offset: vec3<f32>;
    var normal: vec3<f32>;
    let scaled = v.pos * mesh_scale(p, look);
    if look.walks == 1u {
        // each vertex turned with its bone about the bone's pivot, the figure lifted, then
        // the whole turned to face where the walker goes (upright: its velocity is level)
        let pose = bone_pose(u32(v.bone), rotation_now(p));
        let pivot = vec3<f32>(0.0, pose.y, pose.z);
        let posed = pivot + about_x(v.pos - pivot, pose.x) + vec3<f32>(0.0, pose.w, 0.0);
        let turn = flight_frame(p.vel);
        offset = turn * (posed * mesh_scale(p, look));
        normal = turn * about_x(v.normal, pose.x);
    } else if look.flies == 1u {
        // its own phase, from its id, so that a flock does not beat as one
        let phase = f32(pcg_hash(p.id) & 0xffffu) / 65536.0;
        let beat = look.flap_angle * sin(6.2831853 * (look.flap_hz * frame.time + phase));
        // the wings (the halves x > 0 and x < 0) both up for beat > 0
        let wing = select(-beat, beat, v.pos.x > 0.0);
        let turn = flight_frame(p.vel);
        offset = turn * about_z(scaled, wing);
        normal = turn * about_z(v.normal, wing);
    } else {
        let axis = spin_axis(p);
        let angle = rotation_now(p);
        offset = rotate(scaled, axis, angle);
        normal = rotate(v.normal, axis, angle);
    }
    let world = p.pos + offset;
    var out: VsOut;
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.normal = normal;
    out.color = particle_color(p, look, effect.settle_time).rgb;
    out.distance = view_distance(frame, world);
    return out;
}

@fragment
fn fs_lit(in: VsOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let n = normalize(in.normal) * select(-1.0, 1.0, front);
    let lit = frame.ambient + frame.light_color * max(dot(n, frame.light_dir), 0.0);
    var c = in.color * lit;
    if GAMMA_TARGET == 1u {
        c = srgb_encode(clamp(c, vec3<f32>(0.0), vec3<f32>(1.0)));
    }
    return vec4<f32>(c, 1.0);
}

// The nearest of the host's surfaces and this fragment, as the downsample writes them
// (farthest, nearest of the footprint).
@fragment
fn fs_distance(in: VsOut) -> @location(0) vec4<f32> {
    let host = textureLoad(host_distance, vec2<i32>(in.clip.xy), 0);
    return vec4<f32>(min(host.r, in.distance), min(host.g, in.distance), 0.0, 1.0);
}
