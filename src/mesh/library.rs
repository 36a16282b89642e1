//! A renderer's meshes on the GPU: the sampled surfaces every effect's emit pass binds.

use wgpu::util::DeviceExt;

use super::{Mesh, MeshId, MeshSet, SurfaceTriangle};
use crate::error::{Invalid, Result};

/// The built-in meshes and the host's, with their surfaces in one storage buffer.
pub(crate) struct Meshes {
    set: MeshSet,
    surface: wgpu::Buffer,
}

impl Meshes {
    /// The built-ins only.
    pub fn new(device: &wgpu::Device) -> Self {
        let set = MeshSet::default();
        Meshes {
            surface: upload(device, set.triangles()),
            set,
        }
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
        Ok(id)
    }

    pub fn set(&self) -> &MeshSet {
        &self.set
    }

    pub fn surface(&self) -> &wgpu::Buffer {
        &self.surface
    }
}

fn upload(device: &wgpu::Device, triangles: &[SurfaceTriangle]) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("flurry.surfaces"),
        contents: bytemuck::cast_slice(triangles),
        usage: wgpu::BufferUsages::STORAGE,
    })
}
