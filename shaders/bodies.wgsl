// bodies.wgsl — move the effect's massive bodies (galaxy cores) under each other's
// softened gravity, with the effect's integrator. One workgroup; runs after simulate, so
// particles of a step feel the bodies where they were at its start.

@group(0) @binding(0) var<storage, read_write> bodies: array<Body>;
@group(0) @binding(1) var<uniform> frame: FrameUniforms;
@group(0) @binding(2) var<uniform> effect: EffectParams;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    let n = effect.body_count;
    var b: Body;
    var a = vec3<f32>(0.0);
    if i < n {
        b = bodies[i];
        for (var j = 0u; j < n; j++) {
            if j != i {
                a += body_accel(bodies[j], b.pos, effect.body_g);
            }
        }
    }
    // every body has read the old positions before any is written
    workgroupBarrier();
    if i < n {
        let v_new = b.vel + a * frame.dt;
        if effect.integrator == INTEGRATOR_SYMPLECTIC {
            b.pos = b.pos + v_new * frame.dt;
        } else {
            b.pos = b.pos + b.vel * frame.dt;
        }
        b.vel = v_new;
        bodies[i] = b;
    }
}
