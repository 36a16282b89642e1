// What generated expressions call (src/expr/wgsl.rs): random numbers, noises and the reads of
// the baked curve and gradient table. Mirrored operation for operation in src/expr/noise.rs.
// Needs pcg_hash (common.wgsl) and, from the pass that composes it, expr_table_texel(i), the
// i-th texel of the renderer's shared table.

// rand() at a call site of an evaluation seeded `seed`: uniform in [0, 1).
fn expr_rand(seed: u32, site: u32) -> f32 {
    return f32(pcg_hash(seed + pcg_hash(site)) >> 8u) * (1.0 / 16777216.0);
}

// particle_rand(k) of a particle seeded `seed`: uniform in [0, 1), the same all its life.
fn expr_particle_rand(seed: u32, k: u32) -> f32 {
    return f32(pcg_hash(seed ^ pcg_hash(k ^ 0x85ebca6bu)) >> 8u) * (1.0 / 16777216.0);
}

fn expr_hash3(c: vec3<i32>) -> u32 {
    let z = pcg_hash(bitcast<u32>(c.z));
    let y = pcg_hash(bitcast<u32>(c.y) + z);
    return pcg_hash(bitcast<u32>(c.x) + y);
}

// Perlin's quintic fade 6t^5 - 15t^4 + 10t^3 (x) and its derivative 30t^2 (t - 1)^2 (y).
fn expr_fade(t: f32) -> vec2<f32> {
    let f = t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    let d = 30.0 * t * t * (t * (t - 2.0) + 1.0);
    return vec2<f32>(f, d);
}

fn expr_lattice(c: vec3<i32>) -> f32 {
    return f32(expr_hash3(c) >> 8u) * (1.0 / 16777216.0) * 2.0 - 1.0;
}

fn expr_lerp(a: f32, b: f32, t: f32) -> f32 {
    return a + (b - a) * t;
}

// Value noise: the lattice's values in [-1, 1] blended by the fade, one cell per unit.
fn expr_value_noise(p: vec3<f32>) -> f32 {
    let cell = floor(p);
    let f = p - cell;
    let i = vec3<i32>(cell);
    let ux = expr_fade(f.x).x;
    let uy = expr_fade(f.y).x;
    let uz = expr_fade(f.z).x;
    let x00 = expr_lerp(expr_lattice(i), expr_lattice(i + vec3<i32>(1, 0, 0)), ux);
    let x10 = expr_lerp(expr_lattice(i + vec3<i32>(0, 1, 0)), expr_lattice(i + vec3<i32>(1, 1, 0)), ux);
    let x01 = expr_lerp(expr_lattice(i + vec3<i32>(0, 0, 1)), expr_lattice(i + vec3<i32>(1, 0, 1)), ux);
    let x11 = expr_lerp(expr_lattice(i + vec3<i32>(0, 1, 1)), expr_lattice(i + vec3<i32>(1, 1, 1)), ux);
    return expr_lerp(expr_lerp(x00, x10, uy), expr_lerp(x01, x11, uy), uz);
}

// One of the twelve edge directions of a cube, Perlin's gradients.
fn expr_gradient(h: u32) -> vec3<f32> {
    switch h % 12u {
        case 0u: { return vec3<f32>(1.0, 1.0, 0.0); }
        case 1u: { return vec3<f32>(-1.0, 1.0, 0.0); }
        case 2u: { return vec3<f32>(1.0, -1.0, 0.0); }
        case 3u: { return vec3<f32>(-1.0, -1.0, 0.0); }
        case 4u: { return vec3<f32>(1.0, 0.0, 1.0); }
        case 5u: { return vec3<f32>(-1.0, 0.0, 1.0); }
        case 6u: { return vec3<f32>(1.0, 0.0, -1.0); }
        case 7u: { return vec3<f32>(-1.0, 0.0, -1.0); }
        case 8u: { return vec3<f32>(0.0, 1.0, 1.0); }
        case 9u: { return vec3<f32>(0.0, -1.0, 1.0); }
        case 10u: { return vec3<f32>(0.0, 1.0, -1.0); }
        default: { return vec3<f32>(0.0, -1.0, -1.0); }
    }
}

// The expansion k0 + k1 ux + k2 uy + k3 uz + k4 ux uy + k5 uy uz + k6 uz ux + k7 ux uy uz of
// a trilinear blend of corner values v (x fastest), evaluated at u.
struct ExprCorners {
    v0: f32, v1: f32, v2: f32, v3: f32, v4: f32, v5: f32, v6: f32, v7: f32,
}

struct ExprK {
    k0: f32, k1: f32, k2: f32, k3: f32, k4: f32, k5: f32, k6: f32, k7: f32,
}

fn expr_ks(v: ExprCorners) -> ExprK {
    return ExprK(
        v.v0,
        v.v1 - v.v0,
        v.v2 - v.v0,
        v.v4 - v.v0,
        v.v0 - v.v1 - v.v2 + v.v3,
        v.v0 - v.v2 - v.v4 + v.v6,
        v.v0 - v.v1 - v.v4 + v.v5,
        -v.v0 + v.v1 + v.v2 - v.v3 + v.v4 - v.v5 - v.v6 + v.v7,
    );
}

fn expr_blend(k: ExprK, u: vec3<f32>) -> f32 {
    return k.k0 + k.k1 * u.x + k.k2 * u.y + k.k3 * u.z + k.k4 * u.x * u.y + k.k5 * u.y * u.z
        + k.k6 * u.z * u.x + k.k7 * u.x * u.y * u.z;
}

// Gradient noise at p and its derivative: (value, d/dx, d/dy, d/dz).
fn expr_noise_d(p: vec3<f32>) -> vec4<f32> {
    let cell = floor(p);
    let f = p - cell;
    let i = vec3<i32>(cell);
    let fx = expr_fade(f.x);
    let fy = expr_fade(f.y);
    let fz = expr_fade(f.z);
    let u = vec3<f32>(fx.x, fy.x, fz.x);
    let g0 = expr_gradient(expr_hash3(i));
    let g1 = expr_gradient(expr_hash3(i + vec3<i32>(1, 0, 0)));
    let g2 = expr_gradient(expr_hash3(i + vec3<i32>(0, 1, 0)));
    let g3 = expr_gradient(expr_hash3(i + vec3<i32>(1, 1, 0)));
    let g4 = expr_gradient(expr_hash3(i + vec3<i32>(0, 0, 1)));
    let g5 = expr_gradient(expr_hash3(i + vec3<i32>(1, 0, 1)));
    let g6 = expr_gradient(expr_hash3(i + vec3<i32>(0, 1, 1)));
    let g7 = expr_gradient(expr_hash3(i + vec3<i32>(1, 1, 1)));
    let v = ExprCorners(
        g0.x * f.x + g0.y * f.y + g0.z * f.z,
        g1.x * (f.x - 1.0) + g1.y * f.y + g1.z * f.z,
        g2.x * f.x + g2.y * (f.y - 1.0) + g2.z * f.z,
        g3.x * (f.x - 1.0) + g3.y * (f.y - 1.0) + g3.z * f.z,
        g4.x * f.x + g4.y * f.y + g4.z * (f.z - 1.0),
        g5.x * (f.x - 1.0) + g5.y * f.y + g5.z * (f.z - 1.0),
        g6.x * f.x + g6.y * (f.y - 1.0) + g6.z * (f.z - 1.0),
        g7.x * (f.x - 1.0) + g7.y * (f.y - 1.0) + g7.z * (f.z - 1.0),
    );
    let k = expr_ks(v);
    let gx = expr_ks(ExprCorners(g0.x, g1.x, g2.x, g3.x, g4.x, g5.x, g6.x, g7.x));
    let gy = expr_ks(ExprCorners(g0.y, g1.y, g2.y, g3.y, g4.y, g5.y, g6.y, g7.y));
    let gz = expr_ks(ExprCorners(g0.z, g1.z, g2.z, g3.z, g4.z, g5.z, g6.z, g7.z));
    let ddx = expr_blend(gx, u) + fx.y * (k.k1 + k.k4 * u.y + k.k6 * u.z + k.k7 * u.y * u.z);
    let ddy = expr_blend(gy, u) + fy.y * (k.k2 + k.k4 * u.x + k.k5 * u.z + k.k7 * u.x * u.z);
    let ddz = expr_blend(gz, u) + fz.y * (k.k3 + k.k5 * u.y + k.k6 * u.x + k.k7 * u.x * u.y);
    return vec4<f32>(expr_blend(k, u), ddx, ddy, ddz);
}

fn expr_noise(p: vec3<f32>) -> f32 {
    return expr_noise_d(p).x;
}

// The curl of the potential (n(p), n(p + B), n(p + C)): divergence-free.
fn expr_curl_noise(p: vec3<f32>) -> vec3<f32> {
    let a = expr_noise_d(p);
    let b = expr_noise_d(p + vec3<f32>(31.416, -47.853, 12.793));
    let c = expr_noise_d(p + vec3<f32>(-23.145, 11.408, -18.531));
    return vec3<f32>(c.z - b.w, a.w - c.y, b.y - a.z);
}

// The built-in turbulence's field at q drifting by t, each component within +-1
// (curl_octaves, common.wgsl).
fn expr_turbulence(q: vec3<f32>, t: f32) -> vec3<f32> {
    return curl_octaves(q, t) / 3.555;
}

// A baked row: its head (domain start, 1 / domain length, 1 for steps, 0) then the samples.
const EXPR_TABLE_SAMPLES: u32 = 127u;
const EXPR_TABLE_STRIDE: u32 = 128u;

// Row `row` of the table read at x: linearly between samples, or the sample at or before x for
// a row of steps; outside the domain, the end samples.
fn expr_table(row: u32, x: f32) -> vec4<f32> {
    let base = row * EXPR_TABLE_STRIDE;
    let head = expr_table_texel(base);
    let t = (x - head.x) * head.y;
    let clamped = select(0.0, t, t > 0.0);
    let u = select(1.0, clamped, clamped < 1.0) * f32(EXPR_TABLE_SAMPLES - 1u);
    let whole = floor(u);
    if head.z != 0.0 {
        return expr_table_texel(base + 1u + min(u32(whole), EXPR_TABLE_SAMPLES - 1u));
    }
    let i = min(u32(whole), EXPR_TABLE_SAMPLES - 2u);
    let a = expr_table_texel(base + 1u + i);
    let b = expr_table_texel(base + 2u + i);
    return a + (b - a) * (u - f32(i));
}

// The inverse trigonometric functions, written out: drivers' own may be far coarser than f32
// (on lavapipe asin is off by 4e-4 near 0.95), and expressions promise the same value on every
// device to about 1e-6. Mirrored in src/expr/eval.rs by the exact functions.
const EXPR_PI: f32 = 3.14159265358979;
const EXPR_HALF_PI: f32 = 1.57079632679490;

// atan on [0, 1]: Cephes' atanf polynomial after a reduction by pi/4 above tan(pi/8).
fn expr_atan_unit(t: f32) -> f32 {
    let big = t > 0.41421356;
    let x = select(t, (t - 1.0) / (t + 1.0), big);
    let z = x * x;
    let p = (((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z
        - 3.33329491539e-1) * z * x + x;
    return select(p, p + 0.785398163397448, big);
}

// atan2(y, x) in [-pi, pi]; a zero y counts as positive (atan2(-0, -1) = pi).
fn expr_atan2(y: f32, x: f32) -> f32 {
    let ax = abs(x);
    let ay = abs(y);
    let hi = max(ax, ay);
    let t = select(min(ax, ay) / hi, 0.0, hi == 0.0);
    var a = expr_atan_unit(t);
    a = select(a, EXPR_HALF_PI - a, ay > ax);
    a = select(a, EXPR_PI - a, x < 0.0);
    return select(a, -a, y < 0.0);
}

fn expr_atan(x: f32) -> f32 {
    return expr_atan2(x, 1.0);
}

fn expr_asin(x: f32) -> f32 {
    return expr_atan2(x, sqrt((1.0 - x) * (1.0 + x)));
}

fn expr_acos(x: f32) -> f32 {
    return expr_atan2(sqrt((1.0 - x) * (1.0 + x)), x);
}
