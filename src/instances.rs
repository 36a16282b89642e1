//! Effect instances: one effect placed many times (a torch on every wall) shares one pool and
//! one chain of dispatches. Each instance spawns what the effect alone would, where the host
//! put it, into the shared pool; its particles carry its index, and cull drops those of an
//! instance whose bounds lie outside the view without testing them one by one. The host
//! sets the list through [`crate::ParticleRenderer::set_instances`], every frame if its
//! instances move: the next recorded frame copies it in (144 bytes an instance, with the
//! frame's other uploads: [`crate::uploads`]) and records nothing more.

use glam::Mat4;

use crate::error::{Invalid, Result};
use crate::types::InstanceGpu;

/// One placement of an effect.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instance {
    /// Where the instance is: its emitters' shapes and velocities are carried from the
    /// effect's own space (after the effect's and the emitters' transforms) by it.
    pub transform: Mat4,
    /// Radius in metres, about the instance's origin, of a sphere that holds every particle
    /// it spawns: while that sphere is outside the view, none of them is drawn. 0: never
    /// culled as a whole.
    pub radius: f32,
}

impl Instance {
    /// An instance at `transform` with bounds of `radius` metres.
    pub fn new(transform: Mat4, radius: f32) -> Self {
        Instance { transform, radius }
    }
}

/// Most instances of one effect: their index shares a particle's `flags` with its state
/// (bits 8 and up; the all-ones value marks a particle no instance spawned, see
/// [`crate::Particle::instance`]).
pub const MAX_INSTANCES: u32 = (1 << (32 - FLAG_INSTANCE_SHIFT)) - 1;

/// Where a particle's instance index starts in its `flags`.
pub(crate) const FLAG_INSTANCE_SHIFT: u32 = 8;

/// An effect's instances on the GPU: the list, where each was at the last upload (this
/// frame's spawns travel from there), and the buffer the emit and cull passes read.
pub(crate) struct Instances {
    list: Vec<Instance>,
    before: Vec<Mat4>,
    buffer: wgpu::Buffer,
    /// What the buffer holds is not this list at rest: set anew, or moving last frame.
    stale: bool,
    /// This frame's instances as the GPU reads them, for the next recorded frame to copy
    /// in (empty: nothing to copy).
    due: std::sync::Mutex<Vec<InstanceGpu>>,
}

fn buffer(device: &wgpu::Device, slots: u32) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("flurry.instances"),
        size: slots.max(1) as u64 * std::mem::size_of::<InstanceGpu>() as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

impl Instances {
    /// None yet: the effect spawns once, at its own transform.
    pub fn none(device: &wgpu::Device) -> Self {
        Instances {
            list: Vec::new(),
            before: Vec::new(),
            buffer: buffer(device, 1),
            stale: false,
            due: Default::default(),
        }
    }

    /// Instances set (0: the effect is not instanced).
    pub fn count(&self) -> u32 {
        self.list.len() as u32
    }

    /// The instances set (empty: the effect is not instanced).
    pub fn list(&self) -> &[Instance] {
        &self.list
    }

    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    /// `list` checked for a pool of `capacity` on `device`: each instance's transform finite
    /// and invertible and its radius finite and at least 0, at most `capacity` instances
    /// (each needs a slot) and what one storage binding holds.
    pub fn check(device: &wgpu::Device, list: &[Instance], capacity: u32) -> Result<()> {
        let binding = device.limits().max_storage_buffer_binding_size;
        let fits = binding / std::mem::size_of::<InstanceGpu>() as u64;
        let most = (capacity as u64).min(fits).min(MAX_INSTANCES as u64);
        if list.len() as u64 > most {
            let allowed = format!(
                "0..={most} (one pool slot each, of {capacity}, and what a storage binding holds)"
            );
            return Err(Invalid::new("instances", list.len(), allowed).into());
        }
        for (i, instance) in list.iter().enumerate() {
            let m = instance.transform;
            let finite = m.to_cols_array().iter().all(|x| x.is_finite());
            if !finite || m.determinant().abs() < 1e-12 {
                let field = format!("instances[{i}].transform");
                let allowed = "a finite, invertible matrix";
                return Err(Invalid::new(field, format!("{m:?}"), allowed).into());
            }
            let r = instance.radius;
            if !(r.is_finite() && r >= 0.0) {
                let field = format!("instances[{i}].radius");
                return Err(Invalid::new(field, r, "a finite number of metres >= 0").into());
            }
        }
        Ok(())
    }

    /// Take `list` (checked) from the next update on; true when the buffer was made anew
    /// (the bind groups over it must be too). An instance that was there before moves from
    /// where it was; a new one starts where it is put.
    pub fn set(&mut self, device: &wgpu::Device, list: &[Instance]) -> bool {
        self.before.truncate(list.len());
        if list.is_empty() {
            self.due.lock().expect("not poisoned").clear();
        }
        self.list.clear();
        self.list.extend_from_slice(list);
        self.stale = true;
        // the instances the buffer holds
        let slots = self.buffer.size() / std::mem::size_of::<InstanceGpu>() as u64;
        let n = list.len() as u32;
        if n as u64 <= slots {
            return false;
        }
        self.buffer = buffer(device, n.next_power_of_two());
        true
    }

    /// This frame's instances, each one's transforms at the frame's start and end and its
    /// bounds, for [`Instances::copy`] to write; the end is remembered as the next frame's
    /// start. Instances at rest that were written so already are not written again.
    pub fn update(&mut self) {
        if self.list.is_empty() || !self.stale {
            return;
        }
        // (into the buffers of the frames before: nothing is allocated at rest)
        let mut due = self.due.lock().expect("not poisoned");
        due.clear();
        let mut moving = false;
        for (i, inst) in self.list.iter().enumerate() {
            let end = inst.transform;
            let start = self.before.get(i).copied().unwrap_or(end);
            moving |= start != end;
            // the radius in world units: the transform's largest scale
            let scale = [end.x_axis, end.y_axis, end.z_axis]
                .iter()
                .map(|a| a.truncate().length_squared())
                .fold(0.0f32, f32::max)
                .sqrt();
            let bounds = end.w_axis.truncate().extend(inst.radius * scale);
            due.push(InstanceGpu { start, end, bounds });
        }
        // moving instances are written again next frame (their start becomes their end)
        self.stale = moving;
        self.before.clear();
        self.before.extend(self.list.iter().map(|i| i.transform));
    }

    /// Upload this frame's instances, if the update made new ones, with the frame's
    /// `uploads`.
    pub fn copy(&self, uploads: &mut crate::uploads::Uploads) {
        let mut due = self.due.lock().expect("not poisoned");
        if !due.is_empty() {
            uploads.write_bytes(&self.buffer, 0, bytemuck::cast_slice(&due));
            due.clear();
        }
    }
}
