//! The built-in meshes, each about one metre across and centred on the origin, so that a
//! mesh particle's size is its extent and an emitter's `scale` its size in metres.

use glam::Vec3;

use super::Mesh;

impl Mesh {
    /// A box `size` metres along x, y and z, centred on the origin, with flat faces.
    /// Refuses a size that is not finite and positive up to 1e6 m.
    pub fn cuboid(size: [f32; 3]) -> crate::Result<Mesh> {
        if !size
            .iter()
            .all(|s| s.is_finite() && *s > 0.0 && *s <= super::MAX_COORD)
        {
            let allowed = "three finite sizes in (0, 1e6] metres";
            return Err(crate::Invalid::new("size", format!("{size:?}"), allowed).into());
        }
        let h = Vec3::from(size) * 0.5;
        let mut faces = Vec::new();
        // each face: its normal axis and two in-plane axes with u × v = normal
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            for sign in [1.0, -1.0] {
                let n = axis * sign;
                let u = n.any_orthonormal_vector();
                let v = n.cross(u);
                let corner = |a: f32, b: f32| (n + u * a + v * b) * h;
                let (c00, c10, c11, c01) = (
                    corner(-1.0, -1.0),
                    corner(1.0, -1.0),
                    corner(1.0, 1.0),
                    corner(-1.0, 1.0),
                );
                faces.push([c00, c10, c11]);
                faces.push([c00, c11, c01]);
            }
        }
        Ok(flat(&faces))
    }

    /// The unit cube, centred on the origin.
    pub fn cube() -> Mesh {
        Mesh::cuboid([1.0; 3]).expect("a unit size is valid")
    }

    /// A regular tetrahedron on alternate corners of the unit cube (edges √2 m).
    pub fn tetrahedron() -> Mesh {
        let [a, b, c, d] = [
            Vec3::new(0.5, 0.5, 0.5),
            Vec3::new(0.5, -0.5, -0.5),
            Vec3::new(-0.5, 0.5, -0.5),
            Vec3::new(-0.5, -0.5, 0.5),
        ];
        flat(&[[a, b, c], [a, d, b], [a, c, d], [b, d, c]])
    }

    /// A flat shard: an irregular triangle one metre long, 0.08 m thick (broken glass,
    /// metal splinters).
    pub fn shard() -> Mesh {
        let outline = [
            Vec3::new(-0.5, 0.0, -0.12),
            Vec3::new(0.5, 0.0, 0.02),
            Vec3::new(-0.2, 0.0, 0.3),
        ];
        let up = Vec3::new(0.0, 0.04, 0.0);
        let (t, b) = (outline.map(|p| p + up), outline.map(|p| p - up));
        let mut faces = vec![[t[0], t[2], t[1]], [b[0], b[1], b[2]]];
        for i in 0..3 {
            let j = (i + 1) % 3;
            faces.push([b[i], t[j], b[j]]);
            faces.push([b[i], t[i], t[j]]);
        }
        flat(&faces)
    }

    /// A leaf: a pointed oval one metre long along z, its two halves folded up a little
    /// along the midrib; it faces up (+y).
    pub fn leaf() -> Mesh {
        let rib = |z: f32| Vec3::new(0.0, 0.0, z);
        // half-widths along the leaf, its edges raised: the fold
        let edge = |x: f32, z: f32| Vec3::new(x, 0.05, z);
        let (tip, stem) = (rib(0.5), rib(-0.5));
        let ribs = [rib(-0.25), rib(0.0), rib(0.25)];
        let mut faces = Vec::new();
        for side in [1.0f32, -1.0] {
            let e = [
                edge(0.2 * side, -0.25),
                edge(0.25 * side, 0.0),
                edge(0.17 * side, 0.25),
            ];
            let mut half = vec![[stem, ribs[0], e[0]]];
            for k in 0..2 {
                half.push([ribs[k], ribs[k + 1], e[k + 1]]);
                half.push([ribs[k], e[k + 1], e[k]]);
            }
            half.push([ribs[2], tip, e[2]]);
            // wound to face up on both sides
            for [a, b, c] in half {
                let up = (b - a).cross(c - a).y > 0.0;
                faces.push(if up { [a, b, c] } else { [a, c, b] });
            }
        }
        flat(&faces)
    }
}

impl Mesh {
    /// A bird one metre across the wings: two triangles from its body (along z, the nose at
    /// +z) out to the wing tips (along ±x), facing up (+y). A flying mesh particle
    /// ([`Flight`](crate::effect::Flight)) beats them about the body.
    pub fn bird() -> Mesh {
        let (nose, tail) = (Vec3::new(0.0, 0.0, 0.35), Vec3::new(0.0, 0.0, -0.35));
        let tip = |x: f32| Vec3::new(x, 0.0, -0.08);
        // wound to face up
        flat(&[[nose, tail, tip(-0.5)], [tail, nose, tip(0.5)]])
    }
}

/// The figure's bones: the body (torso and head), then the left and right leg and arm.
pub(crate) const FIGURE_BONES: usize = 5;

/// Where each of the figure's bones turns (y, z), metres: the body about the hips, the legs
/// at the hips, the arms at the shoulders.
pub(crate) const FIGURE_PIVOTS: [[f32; 2]; FIGURE_BONES] =
    [[0.9, 0.0], [0.9, 0.0], [0.9, 0.0], [1.42, 0.0], [1.42, 0.0]];

impl Mesh {
    /// A person 1.75 m tall standing on the origin, facing +z, made of boxes: a torso and
    /// head (bone 0), two legs (bones 1 and 2, left at +x) and two arms (bones 3 and 4),
    /// each vertex following its part's bone.
    pub fn figure() -> Mesh {
        // (min, max, bone) of each box
        let parts = [
            ([-0.17, 0.9, -0.1], [0.17, 1.45, 0.1], 0),
            ([-0.1, 1.5, -0.1], [0.1, 1.75, 0.11], 0),
            ([0.02, 0.0, -0.07], [0.15, 0.92, 0.07], 1),
            ([-0.15, 0.0, -0.07], [-0.02, 0.92, 0.07], 2),
            ([0.18, 0.82, -0.05], [0.26, 1.43, 0.05], 3),
            ([-0.26, 0.82, -0.05], [-0.18, 1.43, 0.05], 4),
        ];
        let mut faces = Vec::new();
        let mut bones = Vec::new();
        for (min, max, bone) in parts {
            let (min, max) = (Vec3::from(min), Vec3::from(max));
            let size = max - min;
            let centre = 0.5 * (min + max);
            let part = Mesh::cuboid(size.to_array()).expect("the figure's boxes are valid");
            for t in 0..part.triangle_count() {
                faces.push(part.triangle(t).map(|p| p + centre));
                bones.extend([bone; 3]);
            }
        }
        let mut mesh = flat(&faces);
        mesh.bones = bones;
        mesh
    }
}

/// A mesh of separate triangles, each with its own face normal (hard edges).
fn flat(faces: &[[Vec3; 3]]) -> Mesh {
    let mut positions = Vec::with_capacity(faces.len() * 3);
    let mut normals = Vec::with_capacity(faces.len() * 3);
    for &[a, b, c] in faces {
        let n = (b - a).cross(c - a).normalize();
        positions.extend([a, b, c].map(|p| p.to_array()));
        normals.extend([n.to_array(); 3]);
    }
    let indices = (0..positions.len() as u32).collect();
    Mesh::new(positions, normals, indices).expect("the built-in meshes are valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twice the signed volume the surface encloses (the divergence theorem): positive for
    /// a closed mesh whose triangles face out.
    fn volume(m: &Mesh) -> f32 {
        (0..m.triangle_count())
            .map(|t| {
                let [a, b, c] = m.triangle(t);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }

    #[test]
    fn the_closed_built_in_meshes_face_out_and_enclose_their_volume() {
        assert!((volume(&Mesh::cube()) - 1.0).abs() < 1e-5);
        assert!((Mesh::cube().area() - 6.0).abs() < 1e-5);
        // a regular tetrahedron of edge a: volume a³ / (6√2)
        let a = 2f32.sqrt();
        assert!((volume(&Mesh::tetrahedron()) - a.powi(3) / (6.0 * 2f32.sqrt())).abs() < 1e-5);
        let box_ = Mesh::cuboid([2.0, 0.5, 0.1]).unwrap();
        assert!((volume(&box_) - 0.1).abs() < 1e-5);
        assert!(volume(&Mesh::shard()) > 0.0);
    }

    #[test]
    fn every_built_in_normal_faces_away_from_the_centre_or_up() {
        for (name, m, up) in [
            ("cube", Mesh::cube(), false),
            ("tetrahedron", Mesh::tetrahedron(), false),
            ("shard", Mesh::shard(), false),
            ("leaf", Mesh::leaf(), true),
            ("bird", Mesh::bird(), true),
        ] {
            for t in 0..m.triangle_count() {
                let [a, b, c] = m.triangle(t);
                let n = m.corner_normals(t)[0];
                let outward = if up { Vec3::Y } else { (a + b + c) / 3.0 };
                assert!(n.dot(outward) > 0.0, "{name} triangle {t} faces in");
            }
        }
    }

    #[test]
    fn the_solid_built_ins_are_closed_and_the_leaf_is_not() {
        for m in [Mesh::cube(), Mesh::tetrahedron(), Mesh::shard()] {
            assert!(m.is_closed(), "{m:?}");
        }
        assert!(!Mesh::leaf().is_closed());
        assert!(!Mesh::bird().is_closed());
        // a cube missing a face is open; one with a face wound backwards is not closed
        let cube = Mesh::cube();
        let open = Mesh::new(
            cube.positions().to_vec(),
            cube.normals().to_vec(),
            cube.indices()[6..].to_vec(),
        )
        .unwrap();
        assert!(!open.is_closed());
        let mut flipped = cube.indices().to_vec();
        flipped.swap(0, 1);
        let flipped = Mesh::new(cube.positions().to_vec(), cube.normals().to_vec(), flipped);
        assert!(!flipped.unwrap().is_closed());
    }

    #[test]
    fn a_cuboid_of_a_bad_size_is_refused_by_field() {
        let e = Mesh::cuboid([1.0, 0.0, 1.0]).unwrap_err().to_string();
        assert!(e.contains("size") && e.contains("(0, 1e6]"), "{e}");
    }
}
