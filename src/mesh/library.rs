//! A renderer's meshes on the GPU: the sampled surfaces every effect's emit pass binds.

use wgpu::util::DeviceExt;

use super::{Mesh, MeshId, MeshSet, SurfaceTriangle};
use crate::error::{Invalid, Result};

/// The built-in meshes and the host's, with their surfaces in one storage buffer and
/// their vertices and indices in a vertex and an index buffer (mesh particles).
pub(crate) struct Meshes {
    set: MeshSet,
    surface: wgpu::Buffer,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    /// The figure's poses ([`super::figure_poses`]), uploaded when a mesh effect first
    /// needs them.
    poses: std::sync::OnceLock<wgpu::TextureView>,
}

impl Meshes {
    /// The built-ins only.
    pub fn new(device: &wgpu::Device) -> Self {
        let set = MeshSet::default();
        let (vertices, indices) = upload_geometry(device, &set);
        Meshes {
            surface: upload(device, set.triangles()),
            vertices,
            indices,
            set,
            poses: std::sync::OnceLock::new(),
        }
    }

    /// The figure's poses as a texture (rgba32float, a texel per bone, a row per gait's
    /// frame), uploaded the first time.
    pub fn poses(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> &wgpu::TextureView {
        self.poses.get_or_init(|| {
            let size = (
                super::FIGURE_BONES as u32,
                (super::GAITS * super::GAIT_FRAMES) as u32,
            );
            let texels = super::figure_poses();
            crate::passes::table_texture(device, queue, "flurry.figure_poses", size, &texels)
        })
    }

    /// Add a host's mesh: the surface buffer is made anew (every effect's emit pass must
    /// bind the new one). Refuses a mesh whose triangles would not fit one storage binding.
    pub fn add(&mut self, device: &wgpu::Device, mesh: Mesh) -> Result<MeshId> {
        let per = std::mem::size_of::<SurfaceTriangle>() as u64;
        let limit = device.limits().max_storage_buffer_binding_size;
        let now = self.set.triangles().len() as u64;
        let fits = limit / per - now;
        if mesh.triangle_count() as u64 > fits {
            let allowed = format!(
                "at most {fits} more triangles ({limit} bytes per storage binding, {per} per triangle)"
            );
            let value = format!("{} triangles", mesh.triangle_count());
            return Err(Invalid::new("mesh", value, allowed).into());
        }
        let id = self.set.add(mesh);
        self.surface = upload(device, self.set.triangles());
        (self.vertices, self.indices) = upload_geometry(device, &self.set);
        Ok(id)
    }

    pub fn set(&self) -> &MeshSet {
        &self.set
    }

    pub fn surface(&self) -> &wgpu::Buffer {
        &self.surface
    }

    /// Every mesh's vertices: position, normal and bone (an f32), 28 bytes each.
    pub fn vertices(&self) -> &wgpu::Buffer {
        &self.vertices
    }

    /// Every mesh's indices (u32).
    pub fn indices(&self) -> &wgpu::Buffer {
        &self.indices
    }
}

fn upload_geometry(device: &wgpu::Device, set: &MeshSet) -> (wgpu::Buffer, wgpu::Buffer) {
    let buffer = |label, contents: &[u8], usage| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents,
            usage,
        })
    };
    (
        buffer(
            "flurry.mesh_vertices",
            bytemuck::cast_slice(set.vertices()),
            wgpu::BufferUsages::VERTEX,
        ),
        buffer(
            "flurry.mesh_indices",
            bytemuck::cast_slice(set.indices()),
            wgpu::BufferUsages::INDEX,
        ),
    )
}

fn upload(device: &wgpu::Device, triangles: &[SurfaceTriangle]) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("flurry.surfaces"),
        contents: bytemuck::cast_slice(triangles),
        usage: wgpu::BufferUsages::STORAGE,
    })
}
