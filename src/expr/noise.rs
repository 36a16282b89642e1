//! The noises, random numbers and table reads of the language on the CPU: the twins of
//! `shaders/expr.wgsl`, operation for operation, over f32 (what the GPU computes) or f64
//! (the reference a test measures both against).

use std::ops::{Add, Div, Mul, Neg, Sub};

pub(crate) use crate::hash::pcg_hash;

/// The float type a twin computes in.
pub(crate) trait Real:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    fn of(x: f64) -> Self;
    fn get(self) -> f64;
    fn floor(self) -> Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
}

impl Real for f32 {
    fn of(x: f64) -> Self {
        x as f32
    }
    fn get(self) -> f64 {
        self as f64
    }
    fn floor(self) -> Self {
        f32::floor(self)
    }
    fn sin(self) -> Self {
        f32::sin(self)
    }
    fn cos(self) -> Self {
        f32::cos(self)
    }
}

impl Real for f64 {
    fn of(x: f64) -> Self {
        x
    }
    fn get(self) -> f64 {
        self
    }
    fn floor(self) -> Self {
        f64::floor(self)
    }
    fn sin(self) -> Self {
        f64::sin(self)
    }
    fn cos(self) -> Self {
        f64::cos(self)
    }
}

/// Uniform in [0, 1) from the top 24 bits.
fn unit(h: u32) -> f64 {
    (h >> 8) as f64 * (1.0 / 16777216.0)
}

/// `rand()` at call site `site` of an evaluation seeded `seed` (expr_rand).
pub(crate) fn rand(seed: u32, site: u32) -> f64 {
    unit(pcg_hash(seed.wrapping_add(pcg_hash(site))))
}

/// `particle_rand(k)` of a particle seeded `seed` (expr_particle_rand).
pub(crate) fn particle_rand(seed: u32, k: u32) -> f64 {
    unit(pcg_hash(seed ^ pcg_hash(k ^ 0x85eb_ca6b)))
}

/// A lattice point's hash (expr_hash3).
fn hash3(c: [i32; 3]) -> u32 {
    let z = pcg_hash(c[2] as u32);
    let y = pcg_hash((c[1] as u32).wrapping_add(z));
    pcg_hash((c[0] as u32).wrapping_add(y))
}

/// Ken Perlin's quintic fade 6t⁵ − 15t⁴ + 10t³ and its derivative 30t²(t − 1)².
fn fade<R: Real>(t: R) -> (R, R) {
    let f = t * t * t * (t * (t * R::of(6.0) - R::of(15.0)) + R::of(10.0));
    let d = R::of(30.0) * t * t * (t * (t - R::of(2.0)) + R::of(1.0));
    (f, d)
}

/// The cell of `p` and where `p` lies in it.
fn cell<R: Real>(p: [R; 3]) -> ([i32; 3], [R; 3]) {
    let i = p.map(|x| x.floor());
    let f = [p[0] - i[0], p[1] - i[1], p[2] - i[2]];
    (i.map(|x| x.get() as i32), f)
}

/// The eight corners of a cell, in the order (x fastest).
const CORNERS: [[i32; 3]; 8] = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [1, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [0, 1, 1],
    [1, 1, 1],
];

fn corner(i: [i32; 3], c: [i32; 3]) -> [i32; 3] {
    [
        i[0].wrapping_add(c[0]),
        i[1].wrapping_add(c[1]),
        i[2].wrapping_add(c[2]),
    ]
}

/// a + (b − a)·t
fn lerp<R: Real>(a: R, b: R, t: R) -> R {
    a + (b - a) * t
}

/// Value noise (expr_value_noise): the lattice's values in [−1, 1] blended by the fade.
pub(crate) fn value_noise<R: Real>(p: [R; 3]) -> R {
    let (i, f) = cell(p);
    let u = [fade(f[0]).0, fade(f[1]).0, fade(f[2]).0];
    let v = CORNERS.map(|c| R::of(unit(hash3(corner(i, c))) * 2.0 - 1.0));
    let x00 = lerp(v[0], v[1], u[0]);
    let x10 = lerp(v[2], v[3], u[0]);
    let x01 = lerp(v[4], v[5], u[0]);
    let x11 = lerp(v[6], v[7], u[0]);
    lerp(lerp(x00, x10, u[1]), lerp(x01, x11, u[1]), u[2])
}

/// The twelve edge directions of a cube, Perlin's gradients (expr_gradient).
fn gradient(h: u32) -> [i32; 3] {
    const G: [[i32; 3]; 12] = [
        [1, 1, 0],
        [-1, 1, 0],
        [1, -1, 0],
        [-1, -1, 0],
        [1, 0, 1],
        [-1, 0, 1],
        [1, 0, -1],
        [-1, 0, -1],
        [0, 1, 1],
        [0, -1, 1],
        [0, 1, -1],
        [0, -1, -1],
    ];
    G[(h % 12) as usize]
}

/// Gradient noise and its derivative at `p` (expr_noise_d): (value, d/dx, d/dy, d/dz).
pub(crate) fn noise_d<R: Real>(p: [R; 3]) -> [R; 4] {
    let (i, f) = cell(p);
    let (ux, dx) = fade(f[0]);
    let (uy, dy) = fade(f[1]);
    let (uz, dz) = fade(f[2]);
    let g = CORNERS.map(|c| gradient(hash3(corner(i, c))).map(|x| R::of(x as f64)));
    let v: [R; 8] = std::array::from_fn(|k| {
        let c = CORNERS[k].map(|x| R::of(x as f64));
        let d = [f[0] - c[0], f[1] - c[1], f[2] - c[2]];
        g[k][0] * d[0] + g[k][1] * d[1] + g[k][2] * d[2]
    });
    // n = k0 + k1·ux + k2·uy + k3·uz + k4·ux·uy + k5·uy·uz + k6·uz·ux + k7·ux·uy·uz, and the
    // same expansion of the corners' gradients gives the part of the derivative from them
    let ks = |v: [R; 8]| {
        [
            v[0],
            v[1] - v[0],
            v[2] - v[0],
            v[4] - v[0],
            v[0] - v[1] - v[2] + v[3],
            v[0] - v[2] - v[4] + v[6],
            v[0] - v[1] - v[4] + v[5],
            -v[0] + v[1] + v[2] - v[3] + v[4] - v[5] - v[6] + v[7],
        ]
    };
    let k = ks(v);
    let blend = |k: [R; 8]| {
        k[0] + k[1] * ux
            + k[2] * uy
            + k[3] * uz
            + k[4] * ux * uy
            + k[5] * uy * uz
            + k[6] * uz * ux
            + k[7] * ux * uy * uz
    };
    let value = blend(k);
    let along = |a: usize| blend(ks(g.map(|g| g[a])));
    let ddx = along(0) + dx * (k[1] + k[4] * uy + k[6] * uz + k[7] * uy * uz);
    let ddy = along(1) + dy * (k[2] + k[4] * ux + k[5] * uz + k[7] * ux * uz);
    let ddz = along(2) + dz * (k[3] + k[5] * uy + k[6] * ux + k[7] * ux * uy);
    [value, ddx, ddy, ddz]
}

/// Offsets of the second and third potentials of the curl noise (expr_curl_noise).
const CURL_B: [f64; 3] = [31.416, -47.853, 12.793];
const CURL_C: [f64; 3] = [-23.145, 11.408, -18.531];

/// The curl of the potential (n(p), n(p + B), n(p + C)) (expr_curl_noise).
pub(crate) fn curl_noise<R: Real>(p: [R; 3]) -> [R; 3] {
    let shift = |o: [f64; 3]| [p[0] + R::of(o[0]), p[1] + R::of(o[1]), p[2] + R::of(o[2])];
    let a = noise_d(p);
    let b = noise_d(shift(CURL_B));
    let c = noise_d(shift(CURL_C));
    [c[2] - b[3], a[3] - c[1], b[1] - a[2]]
}

/// Curl of the potential ψ(q, t) = (sin(y + t)·cos(1.37 z), sin(z + 1.7 t)·cos(1.37 x),
/// sin(x + 1.3 t)·cos(1.37 y)): divergence-free, each component within ±2.37
/// (`curl_octave` in common.wgsl, operation for operation).
fn curl_octave<R: Real>(q: [R; 3], t: R) -> [R; 3] {
    let c = R::of(1.37);
    let (x, y, z) = (q[0] + R::of(1.3) * t, q[1] + t, q[2] + R::of(1.7) * t);
    let (sx, sy, sz) = (x.sin(), y.sin(), z.sin());
    let (cx, cy, cz) = (x.cos(), y.cos(), z.cos());
    [
        -c * sx * (c * q[1]).sin() - cz * (c * q[0]).cos(),
        -c * sy * (c * q[2]).sin() - cx * (c * q[1]).cos(),
        -c * sz * (c * q[0]).sin() - cy * (c * q[2]).cos(),
    ]
}

/// Two octaves of [`curl_octave`], the second about half the size and faster: each
/// component within ±3.555 (`curl_octaves` in common.wgsl). The built-in turbulence and the
/// language's `turbulence` read it.
pub(crate) fn curl_octaves<R: Real>(q: [R; 3], t: R) -> [R; 3] {
    let shift = [1.7, 4.1, 2.9];
    let k = R::of(2.03);
    let fine = std::array::from_fn(|i| k * q[i] + R::of(shift[i]));
    let a = curl_octave(q, t);
    let b = curl_octave(fine, R::of(1.9) * t);
    std::array::from_fn(|i| a[i] + R::of(0.5) * b[i])
}

/// The language's `turbulence(q, t)`: [`curl_octaves`] within ±1 (`expr_turbulence`).
pub(crate) fn turbulence<R: Real>(q: [R; 3], t: R) -> [R; 3] {
    curl_octaves(q, t).map(|x| x / R::of(3.555))
}

/// Texels of one baked row: its head (domain start, 1 / domain length, step?, 0) and the
/// samples. Mirrored in shaders/expr.wgsl.
pub(crate) const TABLE_SAMPLES: u32 = 127;
pub(crate) const TABLE_STRIDE: u32 = TABLE_SAMPLES + 1;

/// A baked row read at `x` (expr_table): linearly between samples, or the sample at or
/// before `x` for a row of steps; outside the domain the end samples.
pub(crate) fn table<R: Real>(table: &[[f32; 4]], row: u32, x: R) -> [R; 4] {
    let base = row as usize * TABLE_STRIDE as usize;
    let texel = |i: usize| {
        table
            .get(base + i)
            .copied()
            .unwrap_or([0.0; 4])
            .map(|c| R::of(c as f64))
    };
    let head = texel(0);
    let t = (x - head[0]) * head[1];
    let clamped = if t.get() > 0.0 { t } else { R::of(0.0) };
    let clamped = if clamped.get() < 1.0 {
        clamped
    } else {
        R::of(1.0)
    };
    let u = clamped * R::of((TABLE_SAMPLES - 1) as f64);
    let whole = u.floor();
    let i = (whole.get() as u32).min(TABLE_SAMPLES - 2) as usize;
    if head[2].get() != 0.0 {
        return texel(1 + (whole.get() as usize).min(TABLE_SAMPLES as usize - 1));
    }
    let (a, b) = (texel(1 + i), texel(2 + i));
    let f = u - R::of(i as f64);
    std::array::from_fn(|c| lerp(a[c], b[c], f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noises_stay_in_range_and_are_continuous() {
        let mut worst = 0.0f64;
        for n in 0..4000 {
            let t = n as f64 * 0.0137;
            let p = [t.sin() * 7.3, t * 0.71 - 5.0, (t * 1.9).cos() * 3.1];
            let q = p.map(|x| x + 1e-4);
            let v = value_noise(p);
            assert!((-1.0..=1.0).contains(&v), "{p:?}: {v}");
            let g = noise_d(p);
            assert!(g[0].abs() <= 1.5, "{p:?}: {}", g[0]);
            // the derivative predicts the change over a small step
            let step = noise_d(q)[0] - g[0];
            let predicted = (g[1] + g[2] + g[3]) * 1e-4;
            worst = worst.max((step - predicted).abs());
            assert!((value_noise(q) - v).abs() < 1e-2);
        }
        assert!(worst < 1e-6, "derivative off by {worst}");
    }

    #[test]
    fn curl_noise_is_divergence_free() {
        let h = 1e-4;
        for n in 0..200 {
            let t = n as f64 * 0.37;
            let p = [t.sin() * 4.0, t.cos() * 3.0, t * 0.2];
            let at = |d: usize, s: f64| {
                let mut q = p;
                q[d] += s;
                curl_noise(q)[d]
            };
            let div: f64 = (0..3).map(|d| (at(d, h) - at(d, -h)) / (2.0 * h)).sum();
            assert!(div.abs() < 1e-5, "{p:?}: divergence {div}");
        }
    }

    #[test]
    fn random_numbers_are_uniform() {
        let n = 100_000;
        let mean: f64 = (0..n).map(|i| rand(i, 3)).sum::<f64>() / n as f64;
        assert!((mean - 0.5).abs() < 0.005, "{mean}");
        let mean: f64 = (0..n).map(|i| particle_rand(i, 1)).sum::<f64>() / n as f64;
        assert!((mean - 0.5).abs() < 0.005, "{mean}");
        assert_ne!(rand(7, 0), rand(7, 1));
        assert_ne!(particle_rand(7, 0), particle_rand(7, 1));
    }
}
