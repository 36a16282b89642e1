// simulate.wgsl — advance every particle of the current alive list by one step.
//
// Forces: gravity plus linear drag towards the wind velocity, a = g + k·(wind − v).
// Explicit Euler: v' = v + a·dt, x' = x + v·dt (the old v); symplectic Euler uses v'.
// Survivors are appended to the next alive list, the dead to the dead list, each with one
// global atomic per workgroup (a per-particle global atomic doubles the pass on CPU drivers).

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> alive_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> dead_list: array<u32>;
@group(0) @binding(4) var<storage, read_write> counters: Counters;
@group(0) @binding(5) var<uniform> frame: FrameUniforms;
@group(0) @binding(6) var<uniform> effect: EffectParams;

var<workgroup> wg_alive: atomic<u32>;
var<workgroup> wg_dead: atomic<u32>;
var<workgroup> wg_alive_base: u32;
var<workgroup> wg_dead_base: u32;

// Periodic wrap of one coordinate into [lo, hi].
fn wrap1(x: f32, lo: f32, hi: f32) -> f32 {
    if x >= lo && x <= hi {
        return x;
    }
    let extent = hi - lo;
    return x - extent * floor((x - lo) / extent);
}

// One step for one particle; returns false when it dies.
fn step(p: ptr<function, Particle>) -> bool {
    let dt = frame.dt;
    let v = (*p).vel;
    let a = effect.gravity + effect.drag * (effect.wind - v);
    let v_new = v + a * dt;
    var x: vec3<f32>;
    if effect.integrator == 1u {
        x = (*p).pos + v_new * dt;
    } else {
        x = (*p).pos + v * dt;
    }
    (*p).vel = v_new;
    (*p).age = (*p).age + dt;
    (*p).rotation = (*p).rotation + (*p).spin * dt;
    var alive = (*p).age < (*p).lifetime;
    let lo = effect.bounds_min;
    let hi = effect.bounds_max;
    if effect.bounds_mode == 1u {
        alive = alive && all(x >= lo) && all(x <= hi);
    } else if effect.bounds_mode == 2u {
        x = vec3<f32>(wrap1(x.x, lo.x, hi.x), wrap1(x.y, lo.y, hi.y), wrap1(x.z, lo.z, hi.z));
    }
    (*p).pos = x;
    return alive;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let n = atomicLoad(&counters.alive);
    let in_range = gid.x < n;
    var index = 0u;
    var survives = false;
    var local = 0u;
    if in_range {
        index = alive_in[gid.x];
        var p = particles[index];
        survives = step(&p);
        particles[index] = p;
        if survives {
            local = atomicAdd(&wg_alive, 1u);
        } else {
            local = atomicAdd(&wg_dead, 1u);
        }
    }
    workgroupBarrier();
    if lid == 0u {
        let a = atomicLoad(&wg_alive);
        let d = atomicLoad(&wg_dead);
        if a > 0u {
            wg_alive_base = atomicAdd(&counters.next_alive, a);
        }
        if d > 0u {
            wg_dead_base = u32(atomicAdd(&counters.dead, i32(d)));
        }
    }
    workgroupBarrier();
    if in_range {
        if survives {
            alive_out[wg_alive_base + local] = index;
        } else {
            dead_list[wg_dead_base + local] = index;
        }
    }
}
