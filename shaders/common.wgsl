// common.wgsl — shared by every pass (prepended by src/shaders.rs).
//
// Every struct here has a Rust mirror in src/types.rs with a layout test.

// One particle: 64 bytes.
// What a step reads and writes lies in the first 32 bytes (a GPU's memory sector): simulate
// without collision reads and writes one sector a particle. So the rotation is not stepped:
// it is kept as at age 0 and turned by the spin when drawn (rotation_now), and a dead
// particle is marked by its lifetime, negated, not by a flag in the second half.
struct Particle {
    pos: vec3<f32>,      // world position, metres
    age: f32,            // seconds since it was emitted
    vel: vec3<f32>,      // metres per second
    lifetime: f32,       // seconds; the particle dies when age >= lifetime. Negated when it
                         // dies: a slot is live while its lifetime is above zero
    color: u32,          // start colour, rgba8 unorm (pack4x8unorm), straight alpha
    size: f32,           // start diameter, metres
    rotation: f32,       // radians about the view axis at age 0 (rotation_now)
    spin: f32,           // radians per second
    id: u32,             // emission ordinal (wraps at 2^32): a stable key independent of the slot
    emitter: u32,        // index of the emitter that spawned it
    flags: u32,          // FLAG_SETTLED: at rest on the scene (depth collision, settle);
                         // bits FLAG_INSTANCE_SHIFT and up: the instance that spawned it
                         // (in a merged list's copies: the member, merge.wgsl)
    settled_at: f32,     // age when it settled
}

// A particle as the four 16-byte words it is laid out in (the same bytes as Particle), for
// the passes that read and write it a word at a time: on CPU drivers every access to
// storage is a loop over the SIMD lanes, so a word costs about what one field does (the
// simulate's step, step.wgsl).
struct ParticleWords {
    motion: vec4<f32>,     // pos, age
    velocity: vec4<f32>,   // vel, lifetime
    look: vec4<f32>,       // color (its bits), size, rotation, spin
    identity: vec4<u32>,   // id, emitter, flags, settled_at (its bits)
}

fn particle_of(w: ParticleWords) -> Particle {
    return Particle(
        w.motion.xyz, w.motion.w,
        w.velocity.xyz, w.velocity.w,
        bitcast<u32>(w.look.x), w.look.y, w.look.z, w.look.w,
        w.identity.x, w.identity.y, w.identity.z, bitcast<f32>(w.identity.w),
    );
}

// `p` as the words it is laid out in (written so, a struct costs a CPU driver four loops
// over the SIMD lanes, not one a field).
fn words_of(p: Particle) -> ParticleWords {
    return ParticleWords(
        vec4<f32>(p.pos, p.age),
        vec4<f32>(p.vel, p.lifetime),
        vec4<f32>(bitcast<f32>(p.color), p.size, p.rotation, p.spin),
        vec4<u32>(p.id, p.emitter, p.flags, bitcast<u32>(p.settled_at)),
    );
}

// Its rotation now: turned from its rotation at age 0 by its spin.
fn rotation_now(p: Particle) -> f32 {
    return p.rotation + p.spin * p.age;
}

// Its spin changed to `spin` at its age: its rotation now stays as it was.
fn respin(p: ptr<function, Particle>, spin: f32) {
    (*p).rotation = rotation_now(*p) - spin * (*p).age;
    (*p).spin = spin;
}

// Whether a slot holds a live particle (simulate over the slots finds them so).
fn is_live(p: Particle) -> bool {
    return p.lifetime > 0.0;
}

const FLAG_SETTLED: u32 = 1u;
// bits 1..=7: how much self-shadowing hides the particle from the light (shadow.wgsl),
// 0 none, 127 all of it
const FLAG_SHADOW_SHIFT: u32 = 1u;
const SHADOW_LEVELS: f32 = 127.0;

// The light reaching a particle through the others (1: all of it), from its flags.
fn particle_shadow(p: Particle) -> f32 {
    return 1.0 - f32((p.flags >> FLAG_SHADOW_SHIFT) & 127u) / SHADOW_LEVELS;
}

// `flags` holding `transmittance` (0..=1) of the light as its shadow bits.
fn with_shadow(flags: u32, transmittance: f32) -> u32 {
    let hidden = u32(round(clamp(1.0 - transmittance, 0.0, 1.0) * SHADOW_LEVELS));
    return (flags & ~(127u << FLAG_SHADOW_SHIFT)) | (hidden << FLAG_SHADOW_SHIFT);
}

// Atomic counters of one pool (128 bytes: a divisor of the 256 bytes a storage binding's
// offset may need, so that pools' counters lie in arrays). `killed` is not stored:
// killed = emitted - alive.
// The totals since creation are 64-bit, kept as a low word and a high word that the low
// word's wrap carries into (add_total): at a million spawns a second a 32-bit total wraps
// after 72 minutes.
struct Counters {
    dead: atomic<i32>,       // entries in the dead list (i32: a failed pop dips below zero briefly)
    alive: atomic<u32>,      // entries in the current alive list
    next_alive: atomic<u32>, // entries appended to the next alive list by simulate
    emitted: atomic<u32>,    // particles emitted since the pool was created (low word)
    dropped: atomic<u32>,    // spawn requests that found the dead list empty (low word)
    visible: atomic<u32>,    // entries of the visible list written by cull this frame
    hits: atomic<u32>,       // depth-collision hits since creation (low word)
    events: atomic<u32>,     // hit events written this frame (may exceed the event buffer)
    hit_spawned: atomic<u32>,// particles spawned by hit events since creation (low word)
    splatted: atomic<u32>,   // entries of the splat list written by cull this frame
    emitted_hi: atomic<u32>, // high words of the totals
    dropped_hi: atomic<u32>,
    hits_hi: atomic<u32>,
    hit_spawned_hi: atomic<u32>,
    requested: atomic<u32>,  // scheduled spawns the emit pass was asked for (low word)
    requested_hi: atomic<u32>,
    non_finite: atomic<u32>, // particles killed since creation for a number not finite (low word)
    non_finite_hi: atomic<u32>,
    _reserved: array<u32, 14>,
}

// The mesh draw's indirect arguments, the ribbons' counts and the indexed draw of an effect
// with ribbons (ParticlePool::draw_counters), laid out like Counters (of its size) so that the
// sort reads the ribbon count where it reads `visible`.
struct DrawCounters {
    mesh_index_count: u32,          // draw_indexed_indirect of the mesh particles, offset 0
    mesh_instances: atomic<u32>,    // mesh particles listed (mesh_cull.wgsl)
    mesh_first_index: u32,
    mesh_base_vertex: i32,
    mesh_first_instance: u32,
    ribbon_points: atomic<u32>,     // the ribbon list's length (cull.wgsl), Counters.visible
    ribbon_pieces: atomic<u32>,     // pieces listed (ribbon_pieces.wgsl)
    dots: atomic<u32>,              // splat list entries from its back: the dots (cull_test DOTS)
    draw_index_count: u32,          // draw_indexed_indirect of an effect with ribbons, offset 32
    draw_instances: u32,            // its visible list's length (args.wgsl, after cull)
    draw_first_index: u32,
    draw_base_vertex: i32,
    draw_first_instance: u32,
    dots_x: u32,                    // dispatch_workgroups_indirect of the dots' splat, offset 52
    dots_y: u32,
    dots_z: u32,
    _reserved: array<u32, 16>,     // to Counters' size
}

// Whether adding n to a low word that was `old` wrapped it (the high word takes the carry).
fn carries(old: u32, n: u32) -> bool {
    return old > 0xffffffffu - n;
}

// A depth-collision hit, for passes that react to it (splashes): where, the surface
// normal, and the particle. 32 bytes.
struct HitEvent {
    pos: vec3<f32>,
    particle: u32,
    normal: vec3<f32>,
    speed: f32,              // speed into the surface at the hit
}

// An event for the host (simulate.wgsl report): a particle's hit or death. 48 bytes.
const EVENT_HIT: u32 = 0u;
const EVENT_DEATH: u32 = 1u;
struct HostEvent {
    pos: vec3<f32>,          // on the surface (a hit), where it died (a death)
    kind: u32,               // EVENT_*
    vel: vec3<f32>,          // arriving (a hit), at the end of its last step (a death)
    emitter: u32,
    normal: vec3<f32>,       // the surface's, facing where it came from (zero for a death)
    time: f32,               // the effect's time at the end of the frame's step
}

// The head of an effect's host-event buffer, its events following. `count` is zeroed each
// time the buffer is read back; `total` never is, so that the host can count the events
// of a frame it could not read.
struct EventHeader {
    count: atomic<u32>,      // events since the last read-back (may exceed the buffer)
    total: atomic<u32>,      // events since the effect began listening (low word)
    total_hi: atomic<u32>,
    _pad: u32,
}

// Indirect arguments written on the GPU from the counters (112 bytes).
struct IndirectArgs {
    sim_x: u32,              // dispatch_workgroups_indirect over the alive list, offset 0
                             // (the passes before simulate, relist)
    sim_y: u32,
    sim_z: u32,
    _pad0: u32,
    draw_vertex_count: u32,  // draw_indirect, offset 16
    draw_instance_count: u32,
    draw_first_vertex: u32,
    draw_first_instance: u32,
    cull_x: u32,             // dispatch_workgroups_indirect for cull, offset 32
    cull_y: u32,
    cull_z: u32,
    _pad1: u32,
    spawn_x: u32,            // dispatch_workgroups_indirect for hit spawns, offset 48
    spawn_y: u32,
    spawn_z: u32,
    spawn_request: u32,      // particles the hit spawns ask for this frame
    splat_x: u32,            // dispatch_workgroups_indirect for the splat, offset 64
    splat_y: u32,
    splat_z: u32,
    _pad2: u32,
    step_list_x: u32,        // simulate over the alive list, offset 80 (none where
    step_list_y: u32,        // simulated_by_slot)
    step_list_z: u32,
    _pad3: u32,
    step_slots_x: u32,       // simulate over every slot, offset 96 (none where not)
    step_slots_y: u32,
    step_slots_z: u32,
    _pad4: u32,
    relist_x: u32,           // relist after simulate, offset 112 (none after a step over
    relist_y: u32,           // the slots, which listed its survivors in place)
    relist_z: u32,
    _pad5: u32,
}

// A pool at least this full is simulated slot by slot: each thread's particle at its own
// slot, read and written in order, which costs less than the same particles reached
// through the alive list (docs/measurements.md); a free slot costs a test of its lifetime.
const SIMULATED_BY_SLOT: f32 = 0.75;

// Whether a pool of `capacity` with `alive` particles is simulated slot by slot, if its
// variant may be (args.wgsl sizes simulate's two dispatches so: the one over the list, or
// the one over the slots; a variant with depth collision always runs over the list,
// src/passes/simulate.rs).
fn simulated_by_slot(alive: u32, capacity: u32) -> bool {
    return alive > 0u && f32(alive) >= SIMULATED_BY_SLOT * f32(capacity);
}

// `args` drawing `visible` particles, one triangle each, and splatting `splatted` (one
// thread each); the rest as it was.
fn with_draw_and_splat(args: IndirectArgs, visible: u32, splatted: u32) -> IndirectArgs {
    var a = args;
    let splat = dispatch_size(splatted);
    a.splat_x = splat.x;
    a.splat_y = splat.y;
    a.splat_z = splat.z;
    a.draw_vertex_count = 3u;
    a.draw_instance_count = visible;
    a.draw_first_vertex = 0u;
    a.draw_first_instance = 0u;
    return a;
}

// Per-frame camera and clock, from the host's view and projection (src/view.rs).
struct FrameUniforms {
    view_proj: mat4x4<f32>,
    eye: vec3<f32>,          // the view's origin
    dt: f32,
    cam_right: vec3<f32>,
    time: f32,
    cam_up: vec3<f32>,
    frame: u32,
    // left, right, bottom, top, and the two depth planes: inside where
    // dot(xyz, p) + w >= 0 (|xyz| = 1; a plane at infinity is (0, 0, 0, 1))
    planes: array<vec4<f32>, 6>,
    // distance of x along the view axis: dot(view_depth, vec4(x, 1))
    view_depth: vec4<f32>,
    // particle target pixels per metre at clip w = 1 (perspective: 1 m from the eye;
    // orthographic: everywhere)
    pixel_scale: f32,
    // particles whose projected radius is at most this many target pixels are splatted
    // (splat.wgsl), larger ones drawn (draw.wgsl); 0: every particle is drawn
    splat_radius: f32,
    perspective: u32,        // 0: orthographic (no eye; billboards face along the view axis)
    id_end: u32,             // the id the next spawn gets: ribbon points are ordered by
                             // how many spawns before it they were born
    light_dir: vec3<f32>,    // towards the renderer's light (unit), for mesh particles
    substeps: u32,           // simulate steps this frame, each of dt
    light_color: vec3<f32>,  // linear RGB
    events: u32,             // the events the host hears this frame: a bit per kind (EVENT_*)
    ambient: vec3<f32>,      // linear RGB
    // mesh particles whose mesh spans at most this many target pixels in radius are drawn
    // as lit discs (mesh_impostor; src/lod.rs); 0: never
    mesh_lod: f32,
}

// Distance of a world point along the view axis (metres; negative behind the view's
// origin, which only an orthographic view shows).
fn view_distance(frame: FrameUniforms, x: vec3<f32>) -> f32 {
    return dot(frame.view_depth, vec4<f32>(x, 1.0));
}

// Clip-space w of a world point: the divide that makes sizes shrink with distance (1 for
// an orthographic view).
fn clip_w(frame: FrameUniforms, x: vec3<f32>) -> f32 {
    let m = frame.view_proj;
    return m[0].w * x.x + m[1].w * x.y + m[2].w * x.z + m[3].w;
}

// Where the scene has no surface (the host's depth is the far plane or there is none):
// farther than anything, finite so that arithmetic on it stays finite.
const FAR_AWAY: f32 = 1e30;

// How the host's depth buffer relates to the distance along the view axis, for any
// projection (standard or reversed Z, finite or infinite far, perspective or
// orthographic): depth = (a z + b) / (c z + d) for view-space z = -distance, from rows 2
// and 3 of the projection (DepthMapping in src/view.rs).
struct DepthMapping {
    coeffs: vec4<f32>,       // a, b, c, d
    background: f32,         // depth of the far plane, where the host clears: 1 or 0
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

// Distance along the view axis of a host depth; FAR_AWAY for the background (and where
// the denominator vanishes, whose quotient the select discards).
fn depth_distance(depth: f32, m: DepthMapping) -> f32 {
    let den = m.coeffs.x - depth * m.coeffs.z;
    let distance = clamp((m.coeffs.y - depth * m.coeffs.w) / den, -FAR_AWAY, FAR_AWAY);
    return select(distance, FAR_AWAY, depth == m.background || abs(den) < 1e-30);
}

// The host depth of a distance along the view axis (inverse of depth_distance).
fn distance_depth(distance: f32, m: DepthMapping) -> f32 {
    let z = -distance;
    return (m.coeffs.x * z + m.coeffs.y) / (m.coeffs.z * z + m.coeffs.w);
}

// Per-effect constants: forces, bounds, over-life curves.
struct EffectParams {
    gravity: vec3<f32>,
    drag: f32,               // linear drag towards the wind velocity, 1/s
    wind: vec3<f32>,         // air velocity, m/s
    integrator: u32,         // INTEGRATOR_*
    bounds_min: vec3<f32>,
    bounds_mode: u32,        // BOUNDS_*: none, kill outside, wrap (periodic box)
    bounds_max: vec3<f32>,
    seed: u32,
    light_wrap: f32,         // lit billboards: how far the light wraps round (0..=1); UNLIT: unlit
    capacity: u32,
    soft_distance: f32,      // metres over which a particle fades in front of the scene (0: hard)
    additive: u32,           // 1 for additive blending (leaves the target's alpha alone)
    collision: u32,          // COLLIDE_*: response to the scene's depth
    restitution: f32,        // bounce: normal speed kept
    friction: f32,           // bounce: fraction of tangential speed lost
    thickness: f32,          // metres behind the stored surface that still count as a hit
    settle_time: f32,        // settle: seconds at rest, fading out, before dying
    body_g: f32,             // gravitational constant of the massive bodies
    body_count: u32,         // massive bodies (0: none)
    pass_accel: u32,         // 1: simulate adds the acceleration a pass before it wrote per
                             // particle (gravity.wgsl's all-pairs pull, flock.wgsl's steering)
    nbody_g: f32,
    nbody_mass: f32,         // mass of each particle in N-body mode
    nbody_softening: f32,
    hit_emitter: u32,        // emitter that spawns at every event (its particles never collide)
    hit_count: u32,          // particles it spawns per event (0: none)
    death_source: u32,       // deaths of this emitter's particles are events too (NO_EMITTER: none)
    turbulence: f32,         // curl-noise wind speed, m/s (0: none)
    turbulence_scale: f32,   // size of its eddies, metres
    follow_camera: u32,      // 1: bounds relative to the camera's x and z (frame.eye)
    hit_emitter2: u32,       // a second emitter that spawns at every event (rain's ripples)
    hit_count2: u32,         // particles it spawns per event (0: none)
    trail_emitter: u32,      // the emitter that lays trails (emit.wgsl spawn_trails)
    trail_source: u32,       // whose particles leave them (NO_EMITTER: none)
    trail_every: f32,        // seconds between two points of a trail
    shadow_cells: u32,       // self-shadowing: the density grid's cells along each axis (0: none)
    shadow_strength: f32,    // self-shadowing: multiplies the optical depth
    looks: array<EmitterLook, MAX_EMITTERS>,
}

// How an emitter's particles look and move (its own settings, else the effect's). 64 bytes.
struct EmitterLook {
    color_end: vec4<f32>,    // multiplies the start colour at the end of life
    size_end: f32,           // multiplies the start size at the end of life
    render_mode: u32,        // RENDER_*: how the quad is oriented
    stretch: f32,            // RENDER_STRETCHED: seconds of motion the streak covers
    sprite: u32,             // SPRITE_*: what is drawn on the quad
    image_layer: u32,        // SPRITE_IMAGE: the first layer of its frames in the image array
    image_frames: u32,       // SPRITE_IMAGE: frames (1: a still image)
    frame_rate: f32,         // SPRITE_IMAGE: frames a second of age, looping (0: once over life)
    flipbook: u32,           // SPRITE_IMAGE: FLIPBOOK_RANDOM_START | FLIPBOOK_BLEND
    unlit: u32,              // 1: not lit by the effect's lighting (a flame among lit smoke)
    anchored: u32,           // 1: its particles stay where they are born (ripples)
    subdivisions: u32,       // RENDER_RIBBON: extra pieces per span between two points
    ribbon_repeats: f32,     // RENDER_RIBBON: times its image repeats along it (0: none)
    trail: u32,              // 1: trail points, whose id is their ribbon key
    mesh_radius: f32,        // RENDER_MESH: the mesh's bounding radius at scale 1, metres
    flap_hz: f32,            // RENDER_MESH, flying: wing beats per second
    flap_angle: f32,         // RENDER_MESH, flying: radians the wings beat either side of rest
    flies: u32,              // RENDER_MESH: 1 turned along its velocity, its wings beating
    walks: u32,              // RENDER_MESH: 1 a crowd's walker, turned along its velocity, posed
    emission: f32,           // multiplies its colour's RGB as drawn (above 1: brighter than white)
    impostor: vec3<f32>,     // RENDER_MESH drawn as a disc (mesh_impostor): half width, half
                             // height, centre's lift at scale 1 (0: a disc of its size)
}

// A ribbon point's sort key, so that sorted keys list the points ribbon by ribbon in the
// order they were laid. A scheduled emitter's points form one ribbon: the emitter in the
// top four bits (the top bit clear), and in the rest how many spawns of the effect before
// frame.id_end the point was born (wrapping, capped): newest first. A trail point's key
// is its id (trail_key): the top bit set, its parent's id in the next 19 bits and its
// place along the trail in the low 12: oldest first. Never SORT_SENTINEL.
fn ribbon_key(p: Particle, look: EmitterLook, frame: FrameUniforms) -> u32 {
    if look.trail == 1u {
        return p.id;
    }
    let before = frame.id_end - 1u - p.id;
    return (p.emitter << 28u) | min(before, 0x0fffffffu);
}

// The key (and id) of point `seq` (0 ..= TRAIL_POINTS - 1) of the trail behind the
// particle of id `parent`: trails of parents 2^19 - 1 ids apart would share keys.
fn trail_key(parent: u32, seq: u32) -> u32 {
    return 0x80000000u | ((parent % 0x7ffffu) << 12u) | seq;
}

// Points one trail keeps at most (its place along the trail has 12 bits).
const TRAIL_POINTS: u32 = 4096u;

// Which ribbon a ribbon key belongs to.
fn ribbon_of(key: u32) -> u32 {
    return select(key >> 28u, key >> 12u, key >= 0x80000000u);
}

// Where p's emitter's look is in EffectParams.looks. Index the bound uniform itself with it
// (`effect.looks[emitter_slot(p)]`), never an EffectParams passed by value: a struct passed
// by value is copied whole, and indexing the copy by a per-particle index made every
// particle copy 2.3 KiB on lavapipe (a million galaxy stars' splat took twice as long).
fn emitter_slot(p: Particle) -> u32 {
    return min(p.emitter, MAX_EMITTERS - 1u);
}

const NO_EMITTER: u32 = 0xffffffffu;

const RENDER_BILLBOARD: u32 = 0u;
const RENDER_UPRIGHT: u32 = 1u;
const RENDER_STRETCHED: u32 = 2u;
const RENDER_TUMBLING: u32 = 3u;
const RENDER_FLAT: u32 = 4u;
const RENDER_RIBBON: u32 = 5u;
const RENDER_MESH: u32 = 6u;

const SPRITE_DISC: u32 = 0u;
const SPRITE_SNOWFLAKE: u32 = 1u;
const SPRITE_RING: u32 = 2u;
const SPRITE_IMAGE: u32 = 3u;
const FLIPBOOK_RANDOM_START: u32 = 1u;
const FLIPBOOK_BLEND: u32 = 2u;
// EmitterLook.flipbook from this bit up: the first layer of its normals + 1 (0: none)
const FLIPBOOK_NORMALS_SHIFT: u32 = 2u;
// layers of the snowflake array (src/sprites.rs)
const SNOWFLAKES: u32 = 6u;
const SPRITE_SIZE: f32 = 64.0;
// side of a layer of the images' array, texels (src/image/layers.rs)
const IMAGE_SIDE: f32 = 256.0;

const MAX_BODIES: u32 = 64u;

// A massive body (a galaxy core): attracts every particle and the other bodies with
// Plummer-softened gravity. 32 bytes.
struct Body {
    pos: vec3<f32>,
    mass: f32,
    vel: vec3<f32>,
    softening: f32,
}

// Acceleration at x from body b: G m (b - x) / (|b - x|^2 + eps^2)^(3/2).
fn body_accel(b: Body, x: vec3<f32>, g: f32) -> vec3<f32> {
    let d = b.pos - x;
    let r2 = dot(d, d) + b.softening * b.softening;
    return d * (g * b.mass / (r2 * sqrt(r2)));
}

const INTEGRATOR_EXPLICIT: u32 = 0u;   // v' = v + a dt; x' = x + v dt
const INTEGRATOR_SYMPLECTIC: u32 = 1u;  // v' = v + a dt; x' = x + v' dt

const UNLIT: f32 = -1.0;           // EffectParams.light_wrap of an unlit effect (src/types.rs)
const STANDING: f32 = -2.0;        // the wrap of a mesh particle drawn as a disc (drawn_wrap)
const BOUNDS_NONE: u32 = 0u;
const BOUNDS_KILL: u32 = 1u;
const BOUNDS_WRAP: u32 = 2u;

const COLLIDE_NONE: u32 = 0u;
const COLLIDE_BOUNCE: u32 = 1u;
const COLLIDE_KILL: u32 = 2u;
const COLLIDE_SETTLE: u32 = 3u;

const MAX_EMITTERS: u32 = 8u;

const SHAPE_POINT: u32 = 0u;
const SHAPE_BOX: u32 = 1u;
const SHAPE_SPHERE: u32 = 2u;
const SHAPE_SPHERE_SURFACE: u32 = 3u;
const SHAPE_DISK: u32 = 4u;

const SHAPE_EXP_DISK: u32 = 5u;
const SHAPE_MESH: u32 = 6u;

const VELOCITY_LINEAR: u32 = 0u;
const VELOCITY_RADIAL: u32 = 1u;
const VELOCITY_ORBIT: u32 = 2u;
const VELOCITY_NORMAL: u32 = 3u;

// One triangle of a mesh a Mesh-shaped emitter spawns on (mesh/surface.rs).
struct SurfaceTriangle {
    a: vec4<f32>,            // corner a; w: fraction of the mesh's area up to this triangle
    b: vec4<f32>,
    c: vec4<f32>,
    na: vec4<f32>,           // unit corner normals
    nb: vec4<f32>,
    nc: vec4<f32>,
}

// One emitter as the emit pass sees it this frame.
struct EmitterParams {
    shape: u32,
    spawn_first: u32,        // first spawn ordinal of this emitter within this frame's request
    spawn_count: u32,
    velocity_mode: u32,
    burst_count: u32,        // the first burst_count spawns are born together at burst_at
    burst_at: f32,           // (a fraction of the frame), the rest evenly over the frame
    _pad0: u32,
    _pad1: u32,
    p0: vec4<f32>,           // point / centre / box min (xyz); radius (w)
    p1: vec4<f32>,           // box max / disk normal (xyz); exp disk: scale length (w);
                             // mesh: first triangle, triangle count (bits), scale
    vel_mean: vec4<f32>,     // linear: xyz; radial, normal: w = speed; orbit: x = body
    vel_var: vec4<f32>,
    color_mean: vec4<f32>,
    color_var: vec4<f32>,
    life_size: vec4<f32>,    // lifetime mean, var, size mean, var
    rot_spin: vec4<f32>,     // rotation mean, var, spin mean, var
    // where the host had the emitter at the frame's start and end (effect × emitter
    // transform): a spawn born at fraction f of the frame is born f of the way, so a fast
    // emitter draws a line, not clumps (the identity for an emitter that does not move)
    start: mat4x4<f32>,
    end: mat4x4<f32>,
}

// An effect's parameters (src/effect/graph): one 16-byte slot each, its value's words.
struct GraphParams {
    slots: array<vec4<u32>, 16>,
    transform: mat4x4<f32>,  // where the effect is: its transform (world)
    eye: vec3<f32>,          // the camera's position (world)
    _pad1: u32,
    view_dir: vec3<f32>,     // the direction the camera looks along (unit)
    _pad2: u32,
    emitters: array<mat4x4<f32>, MAX_EMITTERS>, // each emitter's space (world: the effect's transform times the emitter's)
}

struct EmitUniforms {
    request: u32,            // spawns requested this frame, all emitters (and instances)
    id_base: u32,            // id of the first spawn this frame (spawns requested before it)
    emitter_count: u32,
    step: f32,               // seconds of one simulate step (trails lay their points by it)
    frame: f32,              // seconds of the frame the spawns are born over
    instances: u32,          // instances of the effect (0: not instanced, src/instances.rs)
    per_instance: u32,       // spawns each instance asks for (the emitters' spawn_count sum)
    time: f32,               // seconds since the effect started, at the frame's start
    emitters: array<EmitterParams, MAX_EMITTERS>,
}

// One instance of an effect (src/instances.rs): where the host had it at the frame's start
// and end, and its bounding sphere (xyz centre, w radius in world units; 0: never culled).
struct InstanceGpu {
    start: mat4x4<f32>,
    end: mat4x4<f32>,
    bounds: vec4<f32>,
}

// A particle's instance: its flags from bit FLAG_INSTANCE_SHIFT up; all ones for one no
// instance spawned (a hit's splash) or an effect without instances.
const FLAG_INSTANCE_SHIFT: u32 = 8u;
const NO_INSTANCE: u32 = 0xffffffu;

fn instance_of(p: Particle) -> u32 {
    return p.flags >> FLAG_INSTANCE_SHIFT;
}

const WORKGROUP: u32 = 64u;

// Most workgroups in one dimension of a dispatch (the limit WebGPU guarantees; a dispatch
// past it is dropped whole). Passes over lists are laid out in x and then y so they cover
// any count a pool allows: dispatch_size writes the layout, linear_index reads it back.
const MAX_GROUPS_X: u32 = 65535u;
// Workgroups per row once a dispatch needs more than one: a power of two, so a power-of-two
// count of workgroups (the sort's) is covered exactly, with no thread past it.
const GROUPS_PER_ROW: u32 = 32768u;

// The dispatch of WORKGROUP-wide workgroups covering `threads` threads (src/types.rs
// dispatch_size is its twin for dispatches sized on the CPU).
fn dispatch_size(threads: u32) -> vec3<u32> {
    let groups = (threads / WORKGROUP) + select(0u, 1u, threads % WORKGROUP != 0u);
    if groups <= MAX_GROUPS_X {
        return vec3<u32>(groups, 1u, 1u);
    }
    return vec3<u32>(GROUPS_PER_ROW, (groups + GROUPS_PER_ROW - 1u) / GROUPS_PER_ROW, 1u);
}

// Spawns this frame's hit events ask for (emit.wgsl spawn_on_hit): hit_count +
// hit_count2 for each of at most min(capacity, 4096) events.
fn hit_spawns_wanted(events: u32, effect: EffectParams) -> u32 {
    return min(events, min(effect.capacity, 4096u)) * (effect.hit_count + effect.hit_count2);
}

// The hit spawns dispatched: no more than the pool holds (the rest could never find a
// free slot: spawn_on_hit counts them as dropped without a thread each).
fn hit_spawn_request(events: u32, effect: EffectParams) -> u32 {
    return min(hit_spawns_wanted(events, effect), effect.capacity);
}

// The thread's index among all threads of its dispatch (x fastest, then y), from its
// global id and the dispatch's workgroup counts.
fn linear_index(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return gid.x + gid.y * groups.x * WORKGROUP;
}

// Texels a row of the staged bodies of all-pairs gravity (gravity_stage.wgsl writes them,
// gravity_pairs.wgsl reads them): 256 rows hold the most bodies an effect may have.
const BODY_ROW: u32 = 256u;

// The texel of body j (the alive list's j-th particle), row by row.
fn body_texel(j: u32) -> vec2<u32> {
    return vec2<u32>(j % BODY_ROW, j / BODY_ROW);
}
const TAU: f32 = 6.283185307179586;

// PCG hash (Jarzynski & Olano 2020). Mirrored in src/cpu.rs.
fn pcg_hash(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// Uniform float in [0, 1) from 24 bits; advances the state.
fn rand01(state: ptr<function, u32>) -> f32 {
    *state = pcg_hash(*state);
    return f32(*state >> 8u) * (1.0 / 16777216.0);
}

// mean ± variance, uniform (mean + rand·variance with rand in [-1, 1]).
fn rand_range(state: ptr<function, u32>, mean: f32, variance: f32) -> f32 {
    return mean + variance * (2.0 * rand01(state) - 1.0);
}

fn unit_vector(state: ptr<function, u32>) -> vec3<f32> {
    let z = 2.0 * rand01(state) - 1.0;
    let phi = TAU * rand01(state);
    let r = sqrt(max(0.0, 1.0 - z * z));
    return vec3<f32>(r * cos(phi), r * sin(phi), z);
}

// Sort key of a visible particle: ascending keys are back to front (largest distance
// first). The f32 bits are made monotonic for either sign (an orthographic view sees
// negative distances); real keys stay below the padding sentinel 0xffffffff.
const SORT_SENTINEL: u32 = 0xffffffffu;

// A ribbon point as the draw needs it, written for every entry of the sorted ribbon list by
// ribbon_pieces.wgsl (ParticlePool::ribbon_points; 48 bytes): where a piece's vertices each
// read two 64-byte particles and their emitter's look and evaluated both over life, they
// read this, evaluated once per point.
struct RibbonPoint {
    pos: vec3<f32>,
    radius: f32,       // drawn half width over life, metres
    color: vec4<f32>,  // colour over life
    along: f32,        // the image's coordinate along the ribbon (textured ribbons)
    ribbon: u32,       // ribbon_of(its key) | RIBBON_TEXTURED; NO_RIBBON past the last
}

const RIBBON_TEXTURED: u32 = 0x80000000u;
const NO_RIBBON: u32 = 0x7fffffffu;

// A visible-list entry that is a ribbon piece (the low bits its place in the piece list)
// rather than a particle: ribbon_pieces.wgsl lists them, draw.wgsl draws them.
const RIBBON_ENTRY: u32 = 0x80000000u;
const RIBBON_PIECE_MASK: u32 = 0x7fffffffu;

fn sort_key(distance: f32) -> u32 {
    let b = bitcast<u32>(distance);
    let ordered = select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
    return min(~ordered, 0xfffffffeu);
}

// Normalised age in [0, 1].
fn life_t(p: Particle) -> f32 {
    return clamp(p.age / p.lifetime, 0.0, 1.0);
}

// What drawing a particle takes from its effect: its emitter's look, the settled fade and
// the soft edge and blend of its effect. The drawing helpers below take the look alone, so
// that a merged list's splat and draw can read a member's from a compact table
// (members.wgsl) instead of a whole EffectParams per particle.
struct Appearance {
    look: EmitterLook,
    settle_time: f32,
    soft_distance: f32,
    additive: u32,
    light_wrap: f32,
}

// The appearance of a particle of `look` whose effect has these fades, blend and lighting.
fn appearance(
    look: EmitterLook, settle_time: f32, soft_distance: f32, additive: u32, light_wrap: f32,
) -> Appearance {
    return Appearance(look, settle_time, soft_distance, additive, drawn_wrap(look, light_wrap));
}

// How a drawn particle of `look` is lit, its effect's billboards lit with `wrap`: not at
// all where its emitter is unlit; a mesh particle drawn as a disc (mesh_impostor) as its
// mesh is, STANDING (sphere_light).
fn drawn_wrap(look: EmitterLook, wrap: f32) -> f32 {
    if look.unlit == 1u {
        return UNLIT;
    }
    return select(wrap, STANDING, look.render_mode == RENDER_MESH);
}

// Whether mesh particle p (`look` its emitter's) is drawn as a lit disc rather than its
// mesh: its mesh spans at most frame.mesh_lod target pixels in radius (src/lod.rs).
fn mesh_impostor(p: Particle, look: EmitterLook, frame: FrameUniforms) -> bool {
    let w = clip_w(frame, p.pos);
    let radius = look.mesh_radius * mesh_scale(p, look);
    return frame.mesh_lod > 0.0 && w > 0.0 && radius * frame.pixel_scale <= frame.mesh_lod * w;
}

// Drawn radius (half the diameter, with size over life), `look` the particle's emitter's.
fn drawn_radius(p: Particle, look: EmitterLook) -> f32 {
    return 0.5 * p.size * mix(1.0, look.size_end, life_t(p));
}

// A mesh particle's scale: its size over life (the built-in meshes are 1 m across).
fn mesh_scale(p: Particle, look: EmitterLook) -> f32 {
    return 2.0 * drawn_radius(p, look);
}

// A particle's quad: centre, and the world-space half axes of its unit disc (uv in
// [-1, 1]^2 maps to centre + uv.x * x + uv.y * y), by its emitter's render mode.
struct Quad {
    center: vec3<f32>,
    x: vec3<f32>,
    y: vec3<f32>,
}

fn particle_quad(p: Particle, look: EmitterLook, frame: FrameUniforms) -> Quad {
    let radius = drawn_radius(p, look);
    var axis_x = frame.cam_right;
    var axis_y = frame.cam_up;
    var angle_2d = rotation_now(p);
    var extent = vec2<f32>(radius);
    var lift = 0.0;
    // towards the viewer: the eye, or back along the view axis for an orthographic view
    let to_eye = select(-frame.view_depth.xyz, frame.eye - p.pos, frame.perspective == 1u);
    switch look.render_mode {
        case RENDER_UPRIGHT: {
            axis_y = vec3<f32>(0.0, 1.0, 0.0);
            let side = cross(axis_y, to_eye);
            axis_x = select(frame.cam_right, normalize(side), length(side) > 1e-6);
            angle_2d = 0.0;
        }
        case RENDER_STRETCHED: {
            let speed = length(p.vel);
            let side = cross(p.vel, to_eye);
            if speed > 1e-5 && length(side) > 1e-9 {
                axis_y = p.vel / speed;
                axis_x = normalize(side);
                extent.y = radius + 0.5 * speed * look.stretch;
            }
            angle_2d = 0.0;
        }
        case RENDER_TUMBLING: {
            // spinning about its own X axis by the rotation, and about Y a little slower
            let a = rotation_now(p);
            let b = 0.73 * a + f32(p.id & 255u) * 0.1;
            axis_x = vec3<f32>(cos(b), 0.0, -sin(b));
            axis_y = vec3<f32>(sin(a) * sin(b), cos(a), sin(a) * cos(b));
            angle_2d = 0.0;
        }
        case RENDER_FLAT: {
            // lying on the ground (ripples), turned about the up axis by the rotation
            axis_x = vec3<f32>(1.0, 0.0, 0.0);
            axis_y = vec3<f32>(0.0, 0.0, 1.0);
        }
        case RENDER_MESH: {
            // a mesh particle drawn as a disc (mesh_impostor): upright over its mesh's box
            if look.impostor.x > 0.0 {
                axis_y = vec3<f32>(0.0, 1.0, 0.0);
                let side = cross(axis_y, to_eye);
                axis_x = select(frame.cam_right, normalize(side), length(side) > 1e-6);
                extent = look.impostor.xy * mesh_scale(p, look);
                lift = look.impostor.z * mesh_scale(p, look);
            }
            angle_2d = 0.0;
        }
        default: {}
    }
    let c = cos(angle_2d);
    let s = sin(angle_2d);
    var q: Quad;
    q.center = p.pos + vec3<f32>(0.0, lift, 0.0);
    q.x = axis_x * (c * extent.x) + axis_y * (s * extent.y);
    q.y = axis_y * (c * extent.y) - axis_x * (s * extent.x);
    return q;
}

// Largest world-space half extent of a particle's quad (the stretched streak's length).
fn quad_extent(p: Particle, look: EmitterLook) -> f32 {
    let radius = drawn_radius(p, look);
    if look.render_mode == RENDER_STRETCHED {
        return radius + 0.5 * length(p.vel) * look.stretch;
    }
    return radius;
}

// Premultiplied-ready straight colour of a particle (colour over life, settled fade).
fn particle_color(p: Particle, look: EmitterLook, settle_time: f32) -> vec4<f32> {
    var color = unpack4x8unorm(p.color) * mix(vec4<f32>(1.0), look.color_end, life_t(p));
    color = vec4<f32>(color.rgb * look.emission, color.a);
    if (p.flags & FLAG_SETTLED) != 0u {
        // settled on the scene: fade out over settle_time
        color.a *= clamp(1.0 - (p.age - p.settled_at) / settle_time, 0.0, 1.0);
    }
    return color;
}

// What a particle's quad shows: its SPRITE_*, the array layer it samples (a snowflake's,
// or an image's frame now), the next frame's layer and how far towards it the picture is
// (flipbooks that blend; 0 otherwise), and the layers of those frames' normals + 1 (0:
// none, a sphere's).
struct SpriteFrame {
    kind: u32,
    layer: u32,
    next: u32,
    blend: f32,
    normal: u32,
    normal_next: u32,
}

fn sprite_of(p: Particle, look: EmitterLook) -> SpriteFrame {
    if look.sprite != SPRITE_IMAGE {
        return SpriteFrame(look.sprite, p.id % SNOWFLAKES, 0u, 0.0, 0u, 0u);
    }
    let frames = max(look.image_frames, 1u);
    let n = f32(frames);
    // frames played so far: at a rate, or once over its life
    var played = life_t(p) * n;
    if look.frame_rate > 0.0 {
        played = p.age * look.frame_rate;
    }
    let random_start = (look.flipbook & FLIPBOOK_RANDOM_START) != 0u;
    if random_start {
        played += floor(f32(pcg_hash(p.id ^ 0x9e3779b9u) >> 8u) / 16777216.0 * n);
    }
    let whole = floor(played);
    var now = u32(whole) % frames;
    var next = (now + 1u) % frames;
    if look.frame_rate <= 0.0 && !random_start {
        // once over its life: the last frame holds at its end
        now = min(u32(whole), frames - 1u);
        next = min(now + 1u, frames - 1u);
    }
    let blend = select(0.0, played - whole, (look.flipbook & FLIPBOOK_BLEND) != 0u);
    let normals = look.flipbook >> FLIPBOOK_NORMALS_SHIFT;
    let has_normals = normals != 0u;
    return SpriteFrame(
        SPRITE_IMAGE, look.image_layer + now, look.image_layer + next, blend,
        select(0u, normals + now, has_normals), select(0u, normals + next, has_normals),
    );
}

// A normal map's texel (premultiplied; each component encoded 0..1 for -1..1) as a unit
// normal in the quad's frame.
fn decoded_normal(texel: vec4<f32>) -> vec3<f32> {
    let encoded = texel.rgb / max(texel.a, 1.0 / 512.0);
    let n = encoded * 2.0 - 1.0;
    return select(vec3<f32>(0.0, 0.0, 1.0), normalize(n), dot(n, n) > 1e-6);
}

// Whether uv lies on a quad's square (an image fills it corner to corner).
fn on_square(uv: vec2<f32>) -> bool {
    return max(abs(uv.x), abs(uv.y)) <= 1.0;
}

// Where uv of a quad lies on its image (rows from the top: uv.y = 1 is the quad's top).
fn image_coord(uv: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(0.5 + 0.5 * uv.x, 0.5 - 0.5 * uv.y);
}

// An image sprite's coverage and the colour its premultiplied texel tints the particle
// by (so that colour × cover is the texel's light): (tint, cover).
fn image_cover(texel: vec4<f32>, uv: vec2<f32>) -> vec4<f32> {
    let cover = select(0.0, texel.a, on_square(uv));
    return vec4<f32>(texel.rgb / max(texel.a, 1.0 / 512.0), cover);
}

// Coverage of a sprite of kind `kind` at uv, `flake` being the snowflake array's sample
// there: nothing outside the unit disc (at coarse mip levels the clamped edge texels hold
// the flake's mean).
fn sprite_cover(kind: u32, uv: vec2<f32>, flake: f32) -> f32 {
    let r2 = dot(uv, uv);
    switch kind {
        case SPRITE_SNOWFLAKE: {
            return select(0.0, flake, r2 <= 1.0);
        }
        case SPRITE_RING: {
            // a thin ring at 80 % of the radius (ripples)
            let r = sqrt(r2);
            return 1.0 - smoothstep(0.0, 0.12, abs(r - 0.8));
        }
        default: {
            return sprite_falloff(uv);
        }
    }
}

// Lit billboards (EffectDesc.lighting): the light's direction in a quad's own frame, x and y
// along its axes and z towards the viewer, in which the pixel at uv of its sprite has the
// normal of a sphere's visible half, (uv, sqrt(1 − |uv|²)).
fn light_in_quad(q: Quad, frame: FrameUniforms) -> vec3<f32> {
    let x = normalize(q.x);
    let y = normalize(q.y);
    var z = normalize(cross(x, y));
    let to_eye = select(-frame.view_depth.xyz, frame.eye - q.center, frame.perspective == 1u);
    if dot(z, to_eye) < 0.0 {
        z = -z;
    }
    let l = frame.light_dir;
    return vec3<f32>(dot(l, x), dot(l, y), dot(l, z));
}

// What the light makes of a lit sprite's colour at uv (`l`: light_in_quad): its ambient
// plus its colour times the wrapped diffuse term max(0, (n·l + wrap) / (1 + wrap)), times
// what reaches it through the other particles (`shadow`: particle_shadow).
fn sphere_light(
    l: vec3<f32>, uv: vec2<f32>, wrap: f32, shadow: f32, frame: FrameUniforms,
) -> vec3<f32> {
    if wrap == STANDING {
        // a mesh standing upright drawn as a disc: lit as the plain diffuse term over a
        // standing cylinder's visible half, whose normals never face up or down (over a
        // sphere's, a figure's disc seen 20° from above came out about 15 % brighter than
        // the figure; over an upright ellipsoid's of the disc's shape, a 16-pixel block was
        // 0.041 off against the cylinder's 0.033: tests/mesh_particles.rs far_mesh)
        let x = clamp(uv.x, -1.0, 1.0);
        return normal_light(l, vec3<f32>(x, 0.0, sqrt(1.0 - x * x)), 0.0, shadow, frame);
    }
    let r2 = dot(uv, uv);
    let n = vec3<f32>(uv / max(sqrt(r2), 1.0), sqrt(max(1.0 - r2, 0.0)));
    return normal_light(l, n, wrap, shadow, frame);
}

// The same where the sprite's normal is `n` (a normal map's, in the quad's frame).
fn normal_light(
    l: vec3<f32>, n: vec3<f32>, wrap: f32, shadow: f32, frame: FrameUniforms,
) -> vec3<f32> {
    let diffuse = max((dot(n, l) + wrap) / (1.0 + wrap), 0.0);
    return frame.ambient + frame.light_color * (diffuse * shadow);
}

// Pixel coverage: a quad is drawn at least MIN_PIXEL_RADIUS target pixels along each axis,
// its light divided by how much it grew, so a particle smaller than a pixel lights the
// pixels by its area (a faint smudge) rather than a whole pixel when it happens to cover
// its centre and none when it does not (the sparkle of sub-pixel particles).
const MIN_PIXEL_RADIUS: f32 = 1.0;

// How much an axis `pixels` target pixels long grows (1: not at all).
fn coverage_growth(pixels: f32) -> f32 {
    return max(1.0, MIN_PIXEL_RADIUS / max(pixels, 1e-6));
}

// Target pixels a world vector at `x` spans on screen (its part across the view, at x's
// distance): what the draw grows a quad's axes by (the splat projects them exactly).
fn screen_pixels(frame: FrameUniforms, x: vec3<f32>, v: vec3<f32>) -> f32 {
    let view = normalize(frame.view_depth.xyz);
    return length(v - dot(v, view) * view) * frame.pixel_scale / clip_w(frame, x);
}

// The soft disc sprite's coverage at uv (|uv| = 1 at the rim).
fn sprite_falloff(uv: vec2<f32>) -> f32 {
    return 1.0 - smoothstep(0.25, 1.0, dot(uv, uv));
}

// A particle fragment's output, premultiplied (one blend state serves both modes): an
// additive particle leaves the target's alpha alone, so the composite adds its light to the
// host without darkening it.
fn premultiplied(rgb: vec3<f32>, a: f32, additive: bool) -> vec4<f32> {
    return vec4<f32>(rgb * a, select(a, 0.0, additive));
}

// Soft particles: fade over soft_distance metres in front of the scene (both distances
// along the view axis).
fn soft_fade(scene: f32, distance: f32, soft_distance: f32) -> f32 {
    if soft_distance <= 0.0 {
        return 1.0;
    }
    return clamp((scene - distance) / soft_distance, 0.0, 1.0);
}

// Curl of the potential psi(q, t) = (sin(y + t) cos(1.37 z), sin(z + 1.7 t) cos(1.37 x),
// sin(x + 1.3 t) cos(1.37 y)): divergence-free, each component within +-2.37.
fn curl_octave(q: vec3<f32>, t: f32) -> vec3<f32> {
    let c = 1.37;
    let sx = sin(q.x + 1.3 * t);
    let sy = sin(q.y + t);
    let sz = sin(q.z + 1.7 * t);
    let cx = cos(q.x + 1.3 * t);
    let cy = cos(q.y + t);
    let cz = cos(q.z + 1.7 * t);
    return vec3<f32>(
        -c * sx * sin(c * q.y) - cz * cos(c * q.x),
        -c * sy * sin(c * q.z) - cx * cos(c * q.y),
        -c * sz * sin(c * q.x) - cy * cos(c * q.z),
    );
}

// Two octaves of curl_octave, the second about half the size and faster: each component
// within +-3.555. The built-in turbulence (step.wgsl) and the language's `turbulence`
// (expr.wgsl) read it. Mirrored in src/expr/noise.rs.
fn curl_octaves(q: vec3<f32>, t: f32) -> vec3<f32> {
    return curl_octave(q, t) + 0.5 * curl_octave(2.03 * q + vec3<f32>(1.7, 4.1, 2.9), 1.9 * t);
}

// The sRGB transfer function, linear to encoded, of a colour in 0..1 (what a
// host's gamma-encoded target shows: composite.wgsl, mesh.wgsl).
fn srgb_encode(c: vec3<f32>) -> vec3<f32> {
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3<f32>(0.0031308));
}
