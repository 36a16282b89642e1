// spawn.wgsl — how a spawn is born: where on its emitter's shape, with what velocity,
// lifetime, colour, size and spin (each its mean ± variance, from a random stream that
// follows from its id), and when within the frame, composed into emit.wgsl (one effect)
// and batch_emit.wgsl (many small ones a dispatch).
//
// The includer declares `surface` (every mesh's triangles, the renderer's), sets
// `spawning` before it spawns, and supplies `emitter(e)` (the frame's parameters of emitter
// e), `anchored(e)` (whether emitter e's particles stay where they are born), `body(k)`
// (massive body k) and `instance_at(k)` (instance k of the effect).

// What the spawns read of the frame's request and of the effect.
struct Spawning {
    id_base: u32,        // id of the frame's first spawn
    emitter_count: u32,
    frame: f32,          // seconds of the frame the spawns are born over
    instances: u32,      // instances of the effect (0: not instanced)
    per_instance: u32,   // spawns each instance asks for
    seed: u32,           // the effect's
    body_g: f32,         // the effect's gravitational constant (orbits)
}

var<private> spawning: Spawning;

fn emitter_of(ordinal: u32) -> u32 {
    var e = 0u;
    for (var i = 1u; i < spawning.emitter_count; i++) {
        if ordinal >= emitter(i).spawn_first {
            e = i;
        }
    }
    return e;
}

// Where a particle is born, and the surface normal there (zero where the shape has none).
struct SpawnPoint {
    pos: vec3<f32>,
    normal: vec3<f32>,
}

fn spawn_point(em: EmitterParams, state: ptr<function, u32>) -> SpawnPoint {
    switch em.shape {
        case SHAPE_BOX: {
            let ux = rand01(state);
            let uy = rand01(state);
            let uz = rand01(state);
            return SpawnPoint(mix(em.p0.xyz, em.p1.xyz, vec3<f32>(ux, uy, uz)), vec3<f32>(0.0));
        }
        case SHAPE_SPHERE: {
            let dir = unit_vector(state);
            let u = rand01(state);
            return SpawnPoint(em.p0.xyz + dir * (em.p0.w * pow(u, 1.0 / 3.0)), dir);
        }
        case SHAPE_SPHERE_SURFACE: {
            let dir = unit_vector(state);
            return SpawnPoint(em.p0.xyz + dir * em.p0.w, dir);
        }
        case SHAPE_DISK: {
            let n = normalize(em.p1.xyz);
            let helper = select(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), abs(n.x) > 0.9);
            let t = normalize(cross(n, helper));
            let b = cross(n, t);
            let u = rand01(state);
            let phi = TAU * rand01(state);
            let r = em.p0.w * sqrt(u);
            return SpawnPoint(em.p0.xyz + (t * cos(phi) + b * sin(phi)) * r, n);
        }
        case SHAPE_EXP_DISK: {
            // p0 = (normal, max radius), p1 = (thickness, body, -, scale length)
            let b = body(u32(em.p1.y));
            let n = normalize(em.p0.xyz);
            let helper = select(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), abs(n.x) > 0.9);
            let t = normalize(cross(n, helper));
            let bt = cross(n, t);
            // exponential surface density: r = -h ln(u1 u2) (a Gamma(2) draw), cut at max
            let u1 = rand01(state);
            let u2 = rand01(state);
            let r = min(-em.p1.w * log(max(u1 * u2, 1e-12)), em.p0.w);
            let phi = TAU * rand01(state);
            let h = em.p1.x * (rand01(state) - 0.5);
            return SpawnPoint(b.pos + (t * cos(phi) + bt * sin(phi)) * r + n * h, n);
        }
        case SHAPE_MESH: {
            // p0 = (centre, -), p1 = (first triangle, count as bits, scale, -)
            let u = rand01(state);
            let t = surface[pick_triangle(bitcast<u32>(em.p1.x), bitcast<u32>(em.p1.y), u)];
            let r1 = rand01(state);
            let r2 = rand01(state);
            let on = surface_point(t, r1, r2);
            return SpawnPoint(em.p0.xyz + on.pos * em.p1.z, on.normal);
        }
        default: {
            return SpawnPoint(em.p0.xyz, vec3<f32>(0.0));
        }
    }
}

// The triangle of surface[first .. first + count] a uniform u in [0, 1) picks: the first
// whose running area fraction exceeds u, so each is picked by its share of the area.
fn pick_triangle(first: u32, count: u32, u: f32) -> u32 {
    var lo = first;
    var hi = first + count - 1u;
    while lo < hi {
        let mid = (lo + hi) / 2u;
        if surface[mid].a.w > u {
            hi = mid;
        } else {
            lo = mid + 1u;
        }
    }
    return lo;
}

// A uniform point on t for uniform r1, r2 in [0, 1) (the half of the square past the
// diagonal folded back) and the corner normals interpolated there.
fn surface_point(t: SurfaceTriangle, u1: f32, u2: f32) -> SpawnPoint {
    var r1 = u1;
    var r2 = u2;
    if r1 + r2 > 1.0 {
        r1 = 1.0 - r1;
        r2 = 1.0 - r2;
    }
    let pos = t.a.xyz + (t.b.xyz - t.a.xyz) * r1 + (t.c.xyz - t.a.xyz) * r2;
    var n = t.na.xyz * (1.0 - r1 - r2) + t.nb.xyz * r1 + t.nc.xyz * r2;
    if length(n) <= 1e-6 {
        // opposite corner normals cancel here: the face's own normal
        n = cross(t.b.xyz - t.a.xyz, t.c.xyz - t.a.xyz);
    }
    return SpawnPoint(pos, normalize(n));
}

// Circular velocity about body b at x in the plane facing n (softened point mass).
fn orbit_velocity(b: Body, x: vec3<f32>, n: vec3<f32>) -> vec3<f32> {
    let d = x - b.pos;
    let axis = normalize(n);
    let radial = d - axis * dot(d, axis);
    let r = length(radial);
    if r < 1e-6 {
        return b.vel;
    }
    let r2 = r * r + b.softening * b.softening;
    let speed = sqrt(spawning.body_g * b.mass * r * r / (r2 * sqrt(r2)));
    return b.vel + normalize(cross(axis, radial)) * speed;
}

// When within the frame spawn k of an emitter is born, as a fraction of the frame: its
// bursts together when they are due, then the rest one after another at even intervals.
fn birth_fraction(em: EmitterParams, k: u32) -> f32 {
    if k < em.burst_count {
        return em.burst_at;
    }
    let spread = max(em.spawn_count - em.burst_count, 1u);
    return (f32(k - em.burst_count) + 0.5) / f32(spread);
}

fn spawn_particle(ordinal: u32) -> Particle {
    // an instanced effect's request is its instances' in turn, each per_instance long
    var instance = NO_INSTANCE;
    var k = ordinal;
    if spawning.instances > 0u {
        instance = ordinal / spawning.per_instance;
        k = ordinal - instance * spawning.per_instance;
    }
    let e = emitter_of(k);
    graph_instance = instance;
    var p = spawn_from(e, spawning.id_base + ordinal);
    p.flags = instance << FLAG_INSTANCE_SHIFT;
    // born at its own time in the frame, where the host's transform had the emitter then
    let em = emitter(e);
    let f = birth_fraction(em, k - em.spawn_first);
    var start = em.start;
    var end = em.end;
    if spawning.instances > 0u {
        let placed = instance_at(instance);
        start = placed.start * start;
        end = placed.end * end;
    }
    // a + (b - a) f rather than mix: exact where the emitter stood still (a = b), as in
    // the CPU twin
    let local = vec4<f32>(p.pos, 1.0);
    let pos0 = (start * local).xyz;
    p.pos = pos0 + ((end * local).xyz - pos0) * f;
    let vel0 = (start * vec4<f32>(p.vel, 0.0)).xyz;
    p.vel = vel0 + ((end * vec4<f32>(p.vel, 0.0)).xyz - vel0) * f;
    // simulate steps every particle by the whole frame: one born later starts that much
    // younger and that much further back along its flight, so a frame's spawns leave the
    // emitter as a stream rather than one clump
    let late = f * spawning.frame;
    p.age = -late; // (its rotation, turned by its spin over its age, follows: rotation_now)
    if !anchored(e) {
        p.pos -= p.vel * late;
    }
    return p;
}

// A particle of emitter e with id `id` (its random stream follows from the id).
fn spawn_from(e: u32, id: u32) -> Particle {
    let em = emitter(e);
    var state = pcg_hash(id ^ pcg_hash(spawning.seed));

    var p: Particle;
    let at = spawn_point(em, &state);
    p.pos = at.pos;
    if em.velocity_mode == VELOCITY_NORMAL {
        p.vel = at.normal * rand_range(&state, em.vel_mean.w, em.vel_var.w);
    } else if em.velocity_mode == VELOCITY_RADIAL {
        let dir = unit_vector(&state);
        let speed = rand_range(&state, em.vel_mean.w, em.vel_var.w);
        p.vel = dir * speed;
    } else if em.velocity_mode == VELOCITY_ORBIT {
        // mean = (body, dispersion), var = (normal)
        let b = body(u32(em.vel_mean.x));
        let sx = rand_range(&state, 0.0, em.vel_mean.y);
        let sy = rand_range(&state, 0.0, em.vel_mean.y);
        let sz = rand_range(&state, 0.0, em.vel_mean.y);
        p.vel = orbit_velocity(b, p.pos, em.vel_var.xyz) + vec3<f32>(sx, sy, sz);
    } else {
        let vx = rand_range(&state, em.vel_mean.x, em.vel_var.x);
        let vy = rand_range(&state, em.vel_mean.y, em.vel_var.y);
        let vz = rand_range(&state, em.vel_mean.z, em.vel_var.z);
        p.vel = vec3<f32>(vx, vy, vz);
    }
    p.age = 0.0;
    p.lifetime = max(rand_range(&state, em.life_size.x, em.life_size.y), 1e-6);
    let cr = rand_range(&state, em.color_mean.x, em.color_var.x);
    let cg = rand_range(&state, em.color_mean.y, em.color_var.y);
    let cb = rand_range(&state, em.color_mean.z, em.color_var.z);
    let ca = rand_range(&state, em.color_mean.w, em.color_var.w);
    p.color = pack4x8unorm(vec4<f32>(cr, cg, cb, ca));
    p.size = max(rand_range(&state, em.life_size.z, em.life_size.w), 0.0);
    p.rotation = rand_range(&state, em.rot_spin.x, em.rot_spin.y);
    p.spin = rand_range(&state, em.rot_spin.z, em.rot_spin.w);
    p.id = id;
    p.emitter = e;
    p.flags = graph_instance << FLAG_INSTANCE_SHIFT;
    p.settled_at = 0.0;
    if GRAPH_INIT == 1u {
        graph_init(&p, spawning.seed);
    }
    return p;
}

