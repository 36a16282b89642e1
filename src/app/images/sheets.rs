//! The shipped sheets, each made from noise: a frame's texel is a function of the frame's
//! time and the texel's place on it (u right, v up, both -1..=1 across the frame).

use super::noise::{fbm, value};

/// A texel: linear light (straight, not premultiplied) and alpha.
type Texel = [f32; 4];

/// A sheet of `columns` × `rows` frames of `side` texels, frame `k`'s texels `texel(t, u,
/// v)` for t = k / (frames - 1), each the mean of 2 × 2 samples: 8-bit RGBA, colour
/// sRGB-encoded (`data`: as it is, 0..=1 to 0..=255: normals), alpha straight, rows from the
/// top.
pub fn sheet(
    (columns, rows, side): (u32, u32, u32),
    texel: impl Fn(f32, f32, f32) -> Texel,
    data: bool,
) -> Vec<u8> {
    let (width, height) = (columns * side, rows * side);
    let frames = columns * rows;
    let mut out = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            let k = (y / side) * columns + x / side;
            let t = k as f32 / (frames - 1).max(1) as f32;
            let (mut light, mut alpha) = ([0.0f32; 3], 0.0f32);
            for (ox, oy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                let u = ((x % side) as f32 + ox) / side as f32 * 2.0 - 1.0;
                let v = 1.0 - ((y % side) as f32 + oy) / side as f32 * 2.0;
                let [r, g, b, a] = texel(t, u, v);
                let a = a.clamp(0.0, 1.0);
                // averaged premultiplied, so that transparent samples lend no colour
                for (c, value) in light.iter_mut().zip([r, g, b]) {
                    *c += value * a / 4.0;
                }
                alpha += a / 4.0;
            }
            let straight = |c: f32| match (alpha > 0.0, data) {
                (false, _) => 0,
                (true, false) => encode(c / alpha),
                (true, true) => ((c / alpha).clamp(0.0, 1.0) * 255.0).round() as u8,
            };
            let a = (alpha * 255.0).round() as u8;
            out.extend([
                straight(light[0]),
                straight(light[1]),
                straight(light[2]),
                a,
            ]);
        }
    }
    out
}

/// Linear light (0..=1) sRGB-encoded.
fn encode(c: f32) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let s = match c <= 0.003_130_8 {
        true => c * 12.92,
        false => 1.055 * c.powf(1.0 / 2.4) - 0.055,
    };
    (s * 255.0).round() as u8
}

fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

fn mix3(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [0, 1, 2].map(|i| a[i] + (b[i] - a[i]) * t)
}

/// Fire's colour by temperature (0 cold, 1 hottest): dark red, orange, yellow, white.
fn fire(temperature: f32) -> [f32; 3] {
    let keys = [
        (0.0, [0.25, 0.02, 0.0]),
        (0.35, [0.9, 0.18, 0.02]),
        (0.65, [1.0, 0.55, 0.08]),
        (0.85, [1.0, 0.85, 0.35]),
        (1.0, [1.0, 0.97, 0.85]),
    ];
    let t = temperature.clamp(0.0, 1.0);
    for pair in keys.windows(2) {
        let ((a, ca), (b, cb)) = (pair[0], pair[1]);
        if t <= b {
            return mix3(ca, cb, (t - a) / (b - a));
        }
    }
    keys[keys.len() - 1].1
}

/// How far out a smoke puff has billowed at age t, and its billows' noise at (u, v).
fn puff(t: f32, u: f32, v: f32) -> (f32, f32) {
    let radius = 0.7 + 0.25 * t;
    (radius, fbm([u * 2.2, v * 2.2 - 0.6 * t, 1.7 * t], 5, 11))
}

/// A smoke puff that billows out and thins as it ages: white, its density from noise in a
/// soft round envelope; the particle's colour tints it.
pub fn smoke(t: f32, u: f32, v: f32) -> Texel {
    let r = (u * u + v * v).sqrt();
    let (radius, billow) = puff(t, u, v);
    let edge = r / radius + 0.35 * billow;
    let envelope = 1.0 - smoothstep(0.55, 1.0, edge);
    let density = envelope * (0.75 + 0.25 * fbm([u * 5.0, v * 5.0, 3.0 + t], 3, 12));
    // lighter where the puff bulges towards the top (a hint of light from above)
    let shade = 0.78 + 0.22 * smoothstep(-0.8, 0.8, v - 0.5 * billow);
    [shade, shade, shade, density * (1.0 - 0.55 * t)]
}

/// The normals of [`smoke`]'s puffs (x right, y up, z towards the viewer, each encoded
/// 0..=1): a sphere's over the puff's round envelope, bent along its billows (where the
/// noise swells the puff outwards its surface faces away from the swell's middle).
pub fn smoke_normals(t: f32, u: f32, v: f32) -> Texel {
    let (radius, billow) = puff(t, u, v);
    let h = 1.0 / 128.0;
    let slope = |du: f32, dv: f32| (puff(t, u + du, v + dv).1 - billow) / h;
    let (gu, gv) = (slope(h, 0.0), slope(0.0, h));
    let (x, y) = (u / radius, v / radius);
    let z = (1.0 - x * x - y * y).max(0.0).sqrt();
    let n = [x + 0.25 * gu, y + 0.25 * gv, z + 0.35];
    let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    let [r, g, b] = n.map(|c| 0.5 + 0.5 * c / length);
    [r, g, b, 1.0]
}

/// A flame's tongue licking upwards: round at its root, widest low down, narrowing to a
/// flickering tip, hottest low in its core; where it is cool it is thin, so no dark edge
/// shows over what is behind it.
pub fn flame(t: f32, u: f32, v: f32) -> Texel {
    let phase = t * 3.0;
    let h = 0.5 * (v + 1.0); // 0 at the bottom, 1 at the top
    let sway = 0.2 * h * h * fbm([0.0, v * 1.5 - phase * 2.0, phase], 3, 21);
    let turbulence = fbm([u * 3.0, v * 3.0 - phase * 4.0, phase], 4, 22);
    // a teardrop: a round root below 0.25 of the height, a taper above it
    let root = (1.0 - ((0.25 - h) / 0.2).powi(2)).max(0.0).sqrt();
    let taper = ((1.0 - h) / 0.75).clamp(0.0, 1.0).powf(1.2);
    let width = 0.48 * if h < 0.25 { root } else { taper };
    let across = (u - sway).abs() + 0.12 * turbulence * h;
    let body = 1.0 - smoothstep(0.3 * width, width + 1e-3, across);
    let tip = 1.0 - smoothstep(0.5, 0.95, h + 0.25 * turbulence);
    let density = (body * tip).clamp(0.0, 1.0);
    let temperature = density * (0.95 - 0.55 * h) + 0.1 * turbulence;
    let [r, g, b] = fire(temperature);
    [r, g, b, density * smoothstep(0.1, 0.45, temperature)]
}

/// A fireball that swells from a white-hot core through orange to dark red, breaking up at
/// its rim and fading as it cools.
pub fn fireball(t: f32, u: f32, v: f32) -> Texel {
    let r = (u * u + v * v).sqrt();
    let radius = 0.35 + 0.58 * t.powf(0.6);
    let churn = fbm([u * 2.6, v * 2.6, 2.0 * t], 5, 31);
    let edge = r / radius + 0.3 * churn;
    let density = 1.0 - smoothstep(0.6, 1.0, edge);
    let heat = (1.0 - t).powf(1.3) * (1.1 - 0.7 * (r / radius).min(1.0)) + 0.15 * churn;
    // cooling to soot: the colour darkens towards grey as it burns out
    let soot = smoothstep(0.55, 1.0, t);
    let [r, g, b] = mix3(
        fire(heat),
        [0.08, 0.07, 0.065],
        soot * (1.0 - heat).max(0.0),
    );
    [r, g, b, density * (1.0 - 0.6 * t.powi(3))]
}

/// A spark's glint: a hot core and four thin rays, turning from frame to frame.
pub fn spark(t: f32, u: f32, v: f32) -> Texel {
    let r = (u * u + v * v).sqrt();
    let turn = t * std::f32::consts::FRAC_PI_4;
    let (s, c) = turn.sin_cos();
    let (x, y) = (c * u + s * v, -s * u + c * v);
    let core = (-r * r / 0.02).exp();
    let ray = |along: f32, across: f32| {
        (-across.abs() / 0.02).exp() * (1.0 - along.abs()).max(0.0).powi(2)
    };
    let rays = ray(x, y) + ray(y, x) * 0.7;
    let halo = 0.35 * (-r * r / 0.12).exp();
    let glow = (core + 0.8 * rays + halo).min(1.0);
    let flicker = 0.85 + 0.15 * value([t * 5.0, 0.0, 0.0], 41);
    [1.0, 0.92, 0.75, glow * flicker]
}
