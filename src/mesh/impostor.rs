//! A disc standing in for a mesh seen from afar (`crate::Lod::mesh_pixels`): upright over
//! the mesh's box, as wide as the mesh is on average as it turns about its up axis, and
//! as large as its silhouette, so that it carries as much light as the mesh would.

use glam::{Vec2, Vec3};

use super::Mesh;

/// The light a soft disc sprite carries over its square (`DISC_MEAN` in splat.wgsl: the
/// mean of 1 − smoothstep(0.25, 1, r²) over [-1, 1]²).
const DISC_MEAN: f32 = 0.490_873_85;

/// Cells along each side of the grid a silhouette is measured on.
const GRID: usize = 48;

impl Mesh {
    /// The disc standing in for it (`EmitterLook::impostor`): its half width, half height
    /// and its centre's height, at scale 1.
    pub(crate) fn impostor(&self) -> Vec3 {
        let (lo, hi) = self.positions.iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(Vec3::from(*p)), hi.max(Vec3::from(*p))),
        );
        let half = (hi - lo) / 2.0;
        // seen from the front and from the side, as it turns about its up axis
        let front = self.silhouette(|p| Vec2::new(p.x, p.y), (lo.x, hi.x), (lo.y, hi.y));
        let side = self.silhouette(|p| Vec2::new(p.z, p.y), (lo.z, hi.z), (lo.y, hi.y));
        let area = (front * half.x + side * half.z) * 2.0 * half.y;
        let width = (half.x + half.z) / 2.0;
        // the disc's light over its square is DISC_MEAN of it: as much as the silhouette's
        let scale = (area / (DISC_MEAN * 4.0 * width * half.y)).sqrt();
        Vec3::new(width * scale, half.y * scale, (lo.y + hi.y) / 2.0)
    }

    /// The share of its box's face that its outline covers, projected by `onto` into the
    /// face spanning `u` and `v`.
    fn silhouette(&self, onto: impl Fn(Vec3) -> Vec2, u: (f32, f32), v: (f32, f32)) -> f32 {
        let (du, dv) = ((u.1 - u.0).max(1e-6), (v.1 - v.0).max(1e-6));
        let mut covered = vec![false; GRID * GRID];
        for t in 0..self.triangle_count() {
            let [a, b, c] = self.triangle(t).map(&onto);
            let cell = |x: f32, d: f32, o: f32| ((x - o) / d * GRID as f32).floor();
            let (x0, x1) = (a.x.min(b.x).min(c.x), a.x.max(b.x).max(c.x));
            let (y0, y1) = (a.y.min(b.y).min(c.y), a.y.max(b.y).max(c.y));
            let last = (GRID - 1) as f32;
            let (i0, i1) = (
                cell(x0, du, u.0).clamp(0.0, last),
                cell(x1, du, u.0).clamp(0.0, last),
            );
            let (j0, j1) = (
                cell(y0, dv, v.0).clamp(0.0, last),
                cell(y1, dv, v.0).clamp(0.0, last),
            );
            for j in j0 as usize..=j1 as usize {
                for i in i0 as usize..=i1 as usize {
                    let p = Vec2::new(
                        u.0 + (i as f32 + 0.5) / GRID as f32 * du,
                        v.0 + (j as f32 + 0.5) / GRID as f32 * dv,
                    );
                    if inside(p, a, b, c) {
                        covered[j * GRID + i] = true;
                    }
                }
            }
        }
        covered.iter().filter(|&&c| c).count() as f32 / (GRID * GRID) as f32
    }
}

/// Whether p lies in the triangle abc (either winding).
fn inside(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool {
    let side = |e0: Vec2, e1: Vec2| (e1 - e0).perp_dot(p - e0);
    let (s0, s1, s2) = (side(a, b), side(b, c), side(c, a));
    (s0 >= 0.0 && s1 >= 0.0 && s2 >= 0.0) || (s0 <= 0.0 && s1 <= 0.0 && s2 <= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cubes_disc_is_as_large_as_its_square_face_and_a_figures_is_slimmer() {
        let cube = Mesh::cube();
        let i = cube.impostor();
        // the unit cube's face is full: the disc grows to carry as much light
        let grown = (1.0 / DISC_MEAN).sqrt() * 0.5;
        assert!(
            (i.x - grown).abs() < 0.02 && (i.y - grown).abs() < 0.02,
            "{i}"
        );
        assert!(i.z.abs() < 1e-6, "centred: {i}");
        let figure = Mesh::figure().impostor();
        assert!(figure.y > 2.0 * figure.x, "a standing figure: {figure}");
    }
}
