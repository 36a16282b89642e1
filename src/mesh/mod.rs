//! Triangle meshes: the surfaces a [`Shape::Mesh`](crate::effect::Shape::Mesh) emitter spawns
//! on. Four are built in ([`MeshSource`](crate::effect::MeshSource): a cube, a tetrahedron, a
//! flat shard, a leaf); a host adds its own with
//! [`ParticleRenderer::add_mesh`](crate::ParticleRenderer::add_mesh) and names it by the
//! [`MeshId`] it gets back.

mod builtin;
mod gait;
mod impostor;
mod library;
pub(crate) mod surface;

pub(crate) use builtin::FIGURE_BONES;
pub(crate) use gait::{figure_poses, GAITS, GAIT_FRAMES};
pub(crate) use library::Meshes;
pub(crate) use surface::{MeshDraw, MeshSet, SurfaceTriangle};

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::error::{Invalid, Result};

/// Largest coordinate a mesh may have, metres (the range of every position in an effect).
const MAX_COORD: f32 = 1e6;

/// A mesh a host added to a renderer: `Host(MeshId)` in an emitter's
/// [`MeshSource`](crate::effect::MeshSource); in an effect file `Host(0)` is the first mesh
/// the host added, `Host(1)` the second, and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MeshId(pub u32);

/// An indexed triangle mesh with a normal per vertex, checked when made: finite positions
/// within ±1e6 m, a non-zero finite normal per position (stored unit length), a whole number
/// of triangles whose indices name positions, and some area.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    indices: Vec<u32>,
    /// The bone each position follows (0 for a rigid mesh).
    bones: Vec<u32>,
}

impl Mesh {
    /// A mesh of `positions` (metres), `normals` (one per position, any non-zero length) and
    /// `indices` (three per triangle, counter-clockwise seen from the side the normals face).
    /// A bad one is an error naming the first offending field (`mesh.indices[7]`), its value
    /// and what is allowed.
    pub fn new(
        positions: Vec<[f32; 3]>,
        normals: Vec<[f32; 3]>,
        indices: Vec<u32>,
    ) -> Result<Mesh> {
        for (i, p) in positions.iter().enumerate() {
            if !p.iter().all(|x| x.is_finite() && x.abs() <= MAX_COORD) {
                let allowed = "finite coordinates within ±1e6 metres";
                return Err(Invalid::new(
                    format!("mesh.positions[{i}]"),
                    format!("{p:?}"),
                    allowed,
                )
                .into());
            }
        }
        if normals.len() != positions.len() {
            let allowed = format!("{} normals, one per position", positions.len());
            return Err(Invalid::new(
                "mesh.normals",
                format!("{} normals", normals.len()),
                allowed,
            )
            .into());
        }
        let mut unit = Vec::with_capacity(normals.len());
        for (i, n) in normals.iter().enumerate() {
            let v = Vec3::from(*n);
            if !v.is_finite() || v.length() < 1e-6 {
                let allowed = "a finite non-zero vector";
                return Err(
                    Invalid::new(format!("mesh.normals[{i}]"), format!("{n:?}"), allowed).into(),
                );
            }
            unit.push(v.normalize().to_array());
        }
        if indices.is_empty() || !indices.len().is_multiple_of(3) {
            let allowed = "a whole, non-zero number of triangles (a multiple of 3 indices)";
            return Err(Invalid::new(
                "mesh.indices",
                format!("{} indices", indices.len()),
                allowed,
            )
            .into());
        }
        if let Some((i, &index)) = indices
            .iter()
            .enumerate()
            .find(|(_, &k)| k as usize >= positions.len())
        {
            let allowed = format!("0..{} (the positions)", positions.len());
            return Err(Invalid::new(format!("mesh.indices[{i}]"), index, allowed).into());
        }
        let mesh = Mesh {
            bones: vec![0; positions.len()],
            positions,
            normals: unit,
            indices,
        };
        if mesh.area().is_nan() || mesh.area() <= 0.0 {
            let allowed = "triangles with some area (every one is degenerate)";
            return Err(Invalid::new("mesh", "zero area", allowed).into());
        }
        Ok(mesh)
    }

    /// Positions, metres.
    pub fn positions(&self) -> &[[f32; 3]] {
        &self.positions
    }

    /// Unit normals, one per position.
    pub fn normals(&self) -> &[[f32; 3]] {
        &self.normals
    }

    /// Three indices per triangle.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// The bone each position follows: 0 for every position of a rigid mesh; the
    /// [`Figure`](crate::effect::MeshSource::Figure)'s body, legs and arms are bones 0 to 4.
    pub fn bones(&self) -> &[u32] {
        &self.bones
    }

    /// How many triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Triangle `t`'s corners.
    pub fn triangle(&self, t: usize) -> [Vec3; 3] {
        let corner = |k: usize| Vec3::from(self.positions[self.indices[3 * t + k] as usize]);
        [corner(0), corner(1), corner(2)]
    }

    /// Triangle `t`'s corner normals.
    pub(crate) fn corner_normals(&self, t: usize) -> [Vec3; 3] {
        let normal = |k: usize| Vec3::from(self.normals[self.indices[3 * t + k] as usize]);
        [normal(0), normal(1), normal(2)]
    }

    /// Whether the surface is closed and consistently wound: every edge (by where its
    /// ends are, to 10 µm) is crossed once each way by two triangles. Mesh particles of a
    /// closed mesh skip the faces turned away from the viewer (hidden anyway); an open one
    /// (a leaf) is drawn from both sides.
    pub fn is_closed(&self) -> bool {
        let key = |p: Vec3| (p * 1e5).round().as_ivec3().to_array();
        let mut edges = std::collections::HashMap::new();
        for t in 0..self.triangle_count() {
            let c = self.triangle(t).map(key);
            for k in 0..3 {
                *edges.entry((c[k], c[(k + 1) % 3])).or_insert(0u32) += 1;
            }
        }
        edges
            .iter()
            .all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1))
    }

    /// The largest distance of a position from the origin, metres.
    pub(crate) fn bounding_radius(&self) -> f32 {
        self.positions
            .iter()
            .map(|p| Vec3::from(*p).length())
            .fold(0.0, f32::max)
    }

    /// The surface's area, square metres.
    pub fn area(&self) -> f32 {
        (0..self.triangle_count())
            .map(|t| triangle_area(self.triangle(t)))
            .sum()
    }
}

/// Half the length of the cross product of two edges.
pub(crate) fn triangle_area([a, b, c]: [Vec3; 3]) -> f32 {
    0.5 * (b - a).cross(c - a).length()
}
