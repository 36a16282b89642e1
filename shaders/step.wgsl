// step.wgsl — one particle's step, shared by the simulate of one pool (simulate.wgsl) and
// of many small pools in one dispatch (batch_simulate.wgsl), composed into both.
//
// Forces: gravity plus linear drag towards the wind velocity, a = g + k·(wind − v), plus
// what the kernel adds (`pull`: massive bodies, a pass's acceleration); then what the
// scene does to the particle (`meet_scene`: depth collision) and its death as an event
// (`on_death`, where deaths spawn; `on_end`, whatever ended it, for the host). The velocity takes the exact solution of v' = a over the step with every
// force but the drag held where it was: v' = v + a·dt·φ(k·dt), φ(x) = (1 − e^(−x))/x, so
// the drag relaxes v towards wind + (g + pull)/k by the factor e^(−k·dt) and never past it
// (explicit Euler's v + a·dt overshoots once k·dt > 1 and diverges once k·dt > 2: a drag of
// 400/s at 1/60 s filled a pool with NaN). Without drag φ = 1: explicit Euler's v + a·dt
// exactly. The position: x' = x + v·dt (the old v), explicit Euler; symplectic Euler uses
// v'. The kernel that composes this file declares `effect` (EffectParams) and `frame`
// (dt, time and eye), the particles (as ParticleWords), `put_dead` (the dead list's entry k
// becomes a slot), COLLIDE, those three functions and `claim` (where the workgroup's
// survivors and dead go in the lists, and the count of its particles a step left not
// finite), and writes each survivor's slot where `list` says.
override SETTLE: u32 = 1u;      // the settle response: particles at rest, fading out
override ANCHORED: u32 = 1u;    // some emitter's particles stay where they are born
override TURBULENCE: u32 = 1u;  // curl-noise wind
override BOUNDS: u32 = 2u;      // BOUNDS_*: none, kill outside, wrap

// The workgroup's threads (64: a bit each over two words) that list no survivor (no
// particle, or one that died) and those whose particle died. Only those threads set their
// bit, so a workgroup whose particles all live takes no atomic at all (one a thread cost
// as much as the rest of the listing on lavapipe: docs/measurements.md), and a survivor's
// place is the count of survivors before it: the lists keep the workgroup's order. (wgpu
// zeroes workgroup memory at the start of each workgroup: src/passes/mod.rs
// compute_pipeline keeps that default.)
var<workgroup> wg_holes: array<atomic<u32>, 2>;
var<workgroup> wg_dead: array<atomic<u32>, 2>;
var<workgroup> wg_alive_base: u32;
var<workgroup> wg_dead_base: u32;
// the workgroup's particles a step left not finite (`advance`), counted once by `claim`
var<workgroup> wg_non_finite: atomic<u32>;

// Whether every component is a number (not inf or NaN), by its bits: a compiler may assume
// floats finite and fold `x == x` away, never an integer test.
fn all_finite(v: vec4<f32>) -> bool {
    let exponent = vec4<u32>(0x7f800000u);
    return all((bitcast<vec4<u32>>(v) & exponent) != exponent);
}

// Whether the numbers a step and the update stack write are all finite.
fn numbers_finite(p: Particle) -> bool {
    return all_finite(vec4<f32>(p.pos, p.age)) && all_finite(vec4<f32>(p.vel, p.size))
        && all_finite(vec4<f32>(p.rotation));
}

// Periodic wrap of one coordinate into [lo, hi].
fn wrap1(x: f32, lo: f32, hi: f32) -> f32 {
    if x >= lo && x <= hi {
        return x;
    }
    let extent = hi - lo;
    return x - extent * floor((x - lo) / extent);
}

// Curl-noise wind at x (m/s): curl_octaves (common.wgsl) over eddies of turbulence_scale
// metres, drifting in time; each component within +-turbulence. Mirrored in src/cpu/mod.rs.
fn turbulence(x: vec3<f32>, time: f32) -> vec3<f32> {
    let q = x / effect.turbulence_scale;
    let t = time * effect.turbulence / effect.turbulence_scale;
    return curl_octaves(q, t) * (effect.turbulence / 3.555);
}

// φ(x) = (1 − e^(−x))/x for x = k·dt ≥ 0: the share of a step's acceleration a linear drag
// of k lets through (1 without drag, 1/x for a strong one); by its series below 1/64, where
// 1 − e^(−x) would lose its digits. Mirrored in src/cpu/mod.rs.
fn drag_share(x: f32) -> f32 {
    let series = 1.0 - x * (0.5 - x * (1.0 / 6.0 - x / 24.0));
    return select((1.0 - exp(-x)) / max(x, 1e-30), series, x < 0.015625);
}

// One step for one particle; returns false when it dies.
fn step_particle(p: ptr<function, Particle>, slot: u32) -> bool {
    let dt = frame.dt;
    if SETTLE == 1u && ((*p).flags & FLAG_SETTLED) != 0u {
        // at rest on the scene: it fades over settle_time (draw.wgsl), then dies
        (*p).age = (*p).age + dt;
        return (*p).age - (*p).settled_at < effect.settle_time;
    }
    if ANCHORED == 1u && effect.looks[emitter_slot(*p)].anchored == 1u {
        // where it was born, at rest: only its clock runs
        (*p).vel = vec3<f32>(0.0);
        (*p).age = (*p).age + dt;
        return (*p).age < (*p).lifetime;
    }
    // the update stack first (graph.wgsl): what it writes, the force it adds, its kills
    var force = vec3<f32>(0.0);
    var kept = true;
    if GRAPH_UPDATE == 1u {
        graph_slot = slot;
        kept = graph_update(p, &force, effect.seed);
    }
    let v = (*p).vel;
    var wind = effect.wind;
    if TURBULENCE == 1u {
        wind += turbulence((*p).pos, frame.time);
    }
    var a = effect.gravity + effect.drag * (wind - v) + pull((*p).pos, slot);
    if GRAPH_UPDATE == 1u {
        a += force;
    }
    let v_new = v + a * (dt * drag_share(effect.drag * dt));
    // (a select, not a branch: CPU drivers pay for every branch of the step, taken or not)
    let symplectic = effect.integrator == INTEGRATOR_SYMPLECTIC;
    var x = (*p).pos + select(v, v_new, symplectic) * dt;
    (*p).age = (*p).age + dt;
    var v_out = v_new;
    // (the scene first: its response runs whether or not the particle's life is over)
    let alive = meet_scene(p, &x, &v_out) && (*p).age < (*p).lifetime && kept;
    (*p).vel = v_out;
    if !alive {
        on_death(*p, x, v_out);
    }
    var inside = true;
    if BOUNDS != BOUNDS_NONE {
        let camera = vec3<f32>(frame.eye.x, 0.0, frame.eye.z);
        let offset = select(vec3<f32>(0.0), camera, effect.follow_camera == 1u);
        let lo = effect.bounds_min + offset;
        let hi = effect.bounds_max + offset;
        if BOUNDS == BOUNDS_KILL {
            inside = all(x >= lo) && all(x <= hi);
        } else {
            x = vec3<f32>(wrap1(x.x, lo.x, hi.x), wrap1(x.y, lo.y, hi.y), wrap1(x.z, lo.z, hi.z));
        }
    }
    (*p).pos = x;
    return alive && inside;
}

// One particle's step written back at `at` in `particles` (what a step changes, and
// nothing else: the bytes src/roofline/traffic.rs counts), a whole word where it can
// (ParticleWords): its motion, and its velocity with its lifetime, negated if it died (the
// slot is free). A collision's changes follow in the particle's second half. `found`: the
// invocation has a particle. Returns whether it survives.
fn advance(slot: u32, at: u32, found: bool, particle: Particle) -> bool {
    var p = particle;
    var survives = false;
    if found {
        survives = step_particle(&p, slot);
        if !numbers_finite(p) {
            // a stack computed inf or NaN (a division by a zero met at run time): such a
            // particle can be neither drawn, sorted nor aged out, so it dies, and is
            // counted (Stats::non_finite_total), never kept as if it were fine
            survives = false;
            atomicAdd(&wg_non_finite, 1u);
        }
        if !survives {
            on_end(p);
        }
        if GRAPH_DRAW == 1u {
            // how it is drawn now (graph.wgsl): the look word the draw stacks set
            graph_slot = slot;
            graph_draw(&p);
        }
        particles[at].motion = vec4<f32>(p.pos, p.age);
        particles[at].velocity = vec4<f32>(p.vel, select(-p.lifetime, p.lifetime, survives));
        if GRAPH_LOOK == 1u {
            particles[at].look = vec4<f32>(bitcast<f32>(p.color), p.size, p.rotation, p.spin);
        } else if COLLIDE != COLLIDE_NONE {
            particles[at].look.z = p.rotation;
            particles[at].look.w = p.spin;
        }
        if COLLIDE != COLLIDE_NONE {
            particles[at].identity.z = p.flags;
            particles[at].identity.w = bitcast<u32>(p.settled_at);
        }
    }
    return survives;
}

// The bits of `mask` (a bit a thread of the workgroup) below thread `lid`'s.
fn bits_below(mask: vec2<u32>, lid: u32) -> u32 {
    let high = lid >= 32u;
    let below = (1u << (lid & 31u)) - 1u;
    let low_word = select(below, 0xffffffffu, high);
    let high_word = select(0u, below, high);
    return countOneBits(mask.x & low_word) + countOneBits(mask.y & high_word);
}

// The workgroup's particles listed, each with one atomic a workgroup (`claim`: a
// per-particle global atomic doubles the pass on CPU drivers): a dead particle's `slot`
// goes into the dead list; returns where a survivor's goes in the alive list it joins,
// which the kernel writes (the next list, or the current one for a step over the slots).
// Called by every invocation of the workgroup after `advance`, in uniform control flow.
fn list(lid: u32, slot: u32, found: bool, survives: bool) -> u32 {
    let word = lid >> 5u;
    let bit = 1u << (lid & 31u);
    if !(found && survives) {
        atomicOr(&wg_holes[word], bit);
        if found {
            atomicOr(&wg_dead[word], bit);
        }
    }
    workgroupBarrier();
    let holes = vec2<u32>(atomicLoad(&wg_holes[0]), atomicLoad(&wg_holes[1]));
    let dead = vec2<u32>(atomicLoad(&wg_dead[0]), atomicLoad(&wg_dead[1]));
    if lid == 0u {
        let survivors = 64u - countOneBits(holes.x) - countOneBits(holes.y);
        let dead_n = countOneBits(dead.x) + countOneBits(dead.y);
        let bases = claim(survivors, dead_n, atomicLoad(&wg_non_finite));
        wg_alive_base = bases.x;
        wg_dead_base = bases.y;
    }
    workgroupBarrier();
    if found && !survives {
        put_dead(wg_dead_base + bits_below(dead, lid), slot);
    }
    return wg_alive_base + lid - bits_below(holes, lid);
}
