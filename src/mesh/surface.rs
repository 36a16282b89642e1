//! Meshes as the emit pass samples them: every triangle with its corners, its corner
//! normals and the running fraction of its mesh's area up to it, so a uniform number picks
//! a triangle with probability proportional to its area by a binary search.

use bytemuck::{Pod, Zeroable};
use glam::Vec4;

use super::{triangle_area, Mesh, MeshId};
use crate::effect::{EffectDesc, MeshSource};
use crate::error::{Error, Invalid, Result};

/// One triangle of a sampled surface (`SurfaceTriangle` in common.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct SurfaceTriangle {
    /// Corner a; w: the fraction of the mesh's area in triangles up to and including this
    /// one (the last triangle of a mesh holds exactly 1).
    pub a: Vec4,
    pub b: Vec4,
    pub c: Vec4,
    /// Unit corner normals (w unused).
    pub na: Vec4,
    pub nb: Vec4,
    pub nc: Vec4,
}

/// The built-in meshes followed by the host's, with every triangle laid out for sampling
/// and every vertex and index for drawing.
#[derive(Clone, Debug)]
pub(crate) struct MeshSet {
    meshes: Vec<Mesh>,
    triangles: Vec<SurfaceTriangle>,
    /// Per mesh: its first triangle and how many.
    ranges: Vec<(u32, u32)>,
    /// Every mesh's vertices (position, normal, bone), one after the other.
    vertices: Vec<[f32; 7]>,
    indices: Vec<u32>,
    /// Per mesh: its draw's first index, index count and base vertex.
    draws: Vec<MeshDraw>,
}

/// Where one mesh lies in [`MeshSet`]'s vertex and index lists.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MeshDraw {
    pub first_index: u32,
    pub index_count: u32,
    pub base_vertex: i32,
}

/// The built-ins, in [`MeshSource`] order.
const BUILT_IN: usize = 6;

impl Default for MeshSet {
    fn default() -> Self {
        let mut set = MeshSet {
            meshes: Vec::new(),
            triangles: Vec::new(),
            ranges: Vec::new(),
            vertices: Vec::new(),
            indices: Vec::new(),
            draws: Vec::new(),
        };
        for mesh in [
            Mesh::cube(),
            Mesh::tetrahedron(),
            Mesh::shard(),
            Mesh::leaf(),
            Mesh::bird(),
            Mesh::figure(),
        ] {
            set.push(mesh);
        }
        set
    }
}

impl MeshSet {
    /// Add a host's mesh; it is `Host(id)` from now on.
    pub fn add(&mut self, mesh: Mesh) -> MeshId {
        self.push(mesh);
        MeshId((self.meshes.len() - 1 - BUILT_IN) as u32)
    }

    fn push(&mut self, mesh: Mesh) {
        let first = self.triangles.len() as u32;
        let areas: Vec<f32> = (0..mesh.triangle_count())
            .map(|t| triangle_area(mesh.triangle(t)))
            .collect();
        let total: f64 = areas.iter().map(|&a| a as f64).sum();
        let mut running = 0f64;
        for (t, area) in areas.iter().enumerate() {
            running += *area as f64;
            let last = t + 1 == areas.len();
            let cdf = if last { 1.0 } else { (running / total) as f32 };
            let [a, b, c] = mesh.triangle(t);
            let [na, nb, nc] = mesh.corner_normals(t);
            self.triangles.push(SurfaceTriangle {
                a: a.extend(cdf),
                b: b.extend(0.0),
                c: c.extend(0.0),
                na: na.extend(0.0),
                nb: nb.extend(0.0),
                nc: nc.extend(0.0),
            });
        }
        self.ranges.push((first, mesh.triangle_count() as u32));
        self.draws.push(MeshDraw {
            first_index: self.indices.len() as u32,
            index_count: mesh.indices().len() as u32,
            base_vertex: self.vertices.len() as i32,
        });
        let corners = mesh
            .positions()
            .iter()
            .zip(mesh.normals())
            .zip(mesh.bones());
        self.vertices
            .extend(corners.map(|((p, n), &b)| [p[0], p[1], p[2], n[0], n[1], n[2], b as f32]));
        self.indices.extend_from_slice(mesh.indices());
        self.meshes.push(mesh);
    }

    fn index(source: MeshSource) -> usize {
        match source {
            MeshSource::Cube => 0,
            MeshSource::Tetrahedron => 1,
            MeshSource::Shard => 2,
            MeshSource::Leaf => 3,
            MeshSource::Bird => 4,
            MeshSource::Figure => 5,
            MeshSource::Host(MeshId(id)) => BUILT_IN + id as usize,
        }
    }

    /// The mesh `source` names, if this set has it.
    pub fn mesh(&self, source: MeshSource) -> Option<&Mesh> {
        self.meshes.get(Self::index(source))
    }

    /// `source`'s first triangle and triangle count, if this set has it.
    pub fn range(&self, source: MeshSource) -> Option<(u32, u32)> {
        self.ranges.get(Self::index(source)).copied()
    }

    /// Where `source` lies in the vertex and index lists, if this set has it.
    pub fn draw(&self, source: MeshSource) -> Option<MeshDraw> {
        self.draws.get(Self::index(source)).copied()
    }

    pub fn vertices(&self) -> &[[f32; 7]] {
        &self.vertices
    }

    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// How many meshes the host added.
    pub fn host_count(&self) -> usize {
        self.meshes.len() - BUILT_IN
    }

    pub fn triangles(&self) -> &[SurfaceTriangle] {
        &self.triangles
    }

    /// Every emitter of `desc` naming a mesh this set lacks (to spawn on or to draw), as
    /// an invalid effect.
    pub fn check(&self, desc: &EffectDesc) -> Result<()> {
        let problems: Vec<_> = desc
            .named_meshes()
            .into_iter()
            .filter(|&(_, mesh)| self.mesh(mesh).is_none())
            .map(|(field, mesh)| Invalid::new(field, mesh, self.allowed()))
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Error::EffectInvalid {
                path: None,
                problems,
            })
        }
    }

    /// What a mesh source may be, for an error.
    fn allowed(&self) -> String {
        match self.host_count() {
            0 => "Cube, Tetrahedron, Shard, Leaf, Bird or Figure (no mesh added to this renderer)"
                .into(),
            n => format!(
                "Cube, Tetrahedron, Shard, Leaf, Bird, Figure or Host(0..{n}) (the meshes added)"
            ),
        }
    }
}

/// Where on `t` the uniform numbers `r1`, `r2` in [0, 1) land (a uniform point on the
/// triangle: the square's half past the diagonal folded back), and the normal there:
/// `(position, normal)` as the emit pass computes them (the CPU twin's).
#[cfg(test)]
pub(crate) fn surface_point(t: &SurfaceTriangle, r1: f32, r2: f32) -> (glam::Vec3, glam::Vec3) {
    let (r1, r2) = if r1 + r2 > 1.0 {
        (1.0 - r1, 1.0 - r2)
    } else {
        (r1, r2)
    };
    let (a, b, c) = (t.a.truncate(), t.b.truncate(), t.c.truncate());
    let pos = a + (b - a) * r1 + (c - a) * r2;
    let n = t.na.truncate() * (1.0 - r1 - r2) + t.nb.truncate() * r1 + t.nc.truncate() * r2;
    // opposite corner normals may cancel: the face's own normal then
    let n = if n.length() > 1e-6 {
        n
    } else {
        (b - a).cross(c - a)
    };
    (pos, n.normalize())
}

/// The triangle of `triangles[first..first + count]` a uniform `u` in [0, 1) picks: the
/// first whose running area fraction exceeds `u` (the CPU twin's).
#[cfg(test)]
pub(crate) fn pick(triangles: &[SurfaceTriangle], (first, count): (u32, u32), u: f32) -> usize {
    let (mut lo, mut hi) = (first as usize, (first + count - 1) as usize);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if triangles[mid].a.w > u {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mesh_s_running_area_rises_to_exactly_one() {
        let set = MeshSet::default();
        for source in [
            MeshSource::Cube,
            MeshSource::Tetrahedron,
            MeshSource::Shard,
            MeshSource::Leaf,
            MeshSource::Bird,
            MeshSource::Figure,
        ] {
            let (first, count) = set.range(source).unwrap();
            let t = &set.triangles()[first as usize..(first + count) as usize];
            assert!(t.windows(2).all(|w| w[0].a.w <= w[1].a.w), "{source:?}");
            assert_eq!(t.last().unwrap().a.w, 1.0, "{source:?}");
        }
    }

    #[test]
    fn a_pick_chooses_a_triangle_by_its_share_of_the_area() {
        // areas 1, 0 (degenerate: never picked), 3
        let tri = |cdf: f32| SurfaceTriangle {
            a: Vec4::new(0.0, 0.0, 0.0, cdf),
            ..Default::default()
        };
        let t = [tri(0.25), tri(0.25), tri(1.0)];
        assert_eq!(pick(&t, (0, 3), 0.0), 0);
        assert_eq!(pick(&t, (0, 3), 0.2499), 0);
        assert_eq!(pick(&t, (0, 3), 0.25), 2);
        assert_eq!(pick(&t, (0, 3), 0.99999), 2);
        assert_eq!(pick(&t[2..], (0, 1), 0.5), 0);
    }
}
