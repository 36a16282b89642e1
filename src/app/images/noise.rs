//! Value noise for the generated images: a lattice of hashed values smoothly interpolated,
//! summed over octaves. Integer hashing and plain float arithmetic only, so a run gives the
//! same texels on every machine.

/// A lattice point's value in [-1, 1].
fn lattice(x: i32, y: i32, z: i32, seed: u32) -> f32 {
    let mut h = seed
        ^ (x as u32).wrapping_mul(0x8da6_b343)
        ^ (y as u32).wrapping_mul(0xd816_3841)
        ^ (z as u32).wrapping_mul(0xcb1a_b31f);
    // PCG's output permutation
    h = h.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    h = ((h >> ((h >> 28) + 4)) ^ h).wrapping_mul(277_803_737);
    h = (h >> 22) ^ h;
    (h >> 8) as f32 / 8_388_607.5 - 1.0
}

/// Quintic fade: the interpolation's first and second derivatives vanish at lattice points.
fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// Smooth noise at `p` in [-1, 1].
pub fn value(p: [f32; 3], seed: u32) -> f32 {
    let cell = p.map(|c| c.floor());
    let [x, y, z] = cell.map(|c| c as i32);
    let [u, v, w] = [0, 1, 2].map(|i| fade(p[i] - cell[i]));
    let lerp = |a: f32, b: f32, t: f32| a + (b - a) * t;
    let at = |dx, dy, dz| lattice(x + dx, y + dy, z + dz, seed);
    let front = lerp(
        lerp(at(0, 0, 0), at(1, 0, 0), u),
        lerp(at(0, 1, 0), at(1, 1, 0), u),
        v,
    );
    let back = lerp(
        lerp(at(0, 0, 1), at(1, 0, 1), u),
        lerp(at(0, 1, 1), at(1, 1, 1), u),
        v,
    );
    lerp(front, back, w)
}

/// `octaves` of noise, each twice the frequency and half the amplitude of the last,
/// normalised to about [-1, 1].
pub fn fbm(p: [f32; 3], octaves: u32, seed: u32) -> f32 {
    let (mut sum, mut amplitude, mut total, mut scale) = (0.0, 1.0, 0.0, 1.0);
    for k in 0..octaves {
        let q = p.map(|c| c * scale);
        sum += amplitude * value(q, seed.wrapping_add(k.wrapping_mul(0x9e37_79b9)));
        total += amplitude;
        amplitude *= 0.5;
        scale *= 2.03;
    }
    sum / total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_smooth_bounded_and_seeded() {
        let mut last = value([0.0, 0.3, 0.7], 1);
        for i in 1..1000 {
            let x = i as f32 * 0.01;
            let v = value([x, 0.3, 0.7], 1);
            assert!((-1.0..=1.0).contains(&v));
            assert!((v - last).abs() < 0.1, "a jump at {x}");
            last = v;
        }
        assert_ne!(value([0.5, 0.5, 0.5], 1), value([0.5, 0.5, 0.5], 2));
        assert_eq!(lattice(3, -4, 5, 9), lattice(3, -4, 5, 9));
    }
}
