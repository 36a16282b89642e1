//! The mesh particles' passes of a frame: lit into the host's colour and depth, then their
//! distances into the particle target's, after the downsample kept the host's own for
//! collisions (a mesh particle never collides with itself) and before the particles are
//! splatted and drawn against them (a mesh particle hides what is behind it).

use super::target::LowRes;
use super::{color_attachment, pass_desc, FrameTargets, ParticleRenderer};
use crate::profiler::{render_pass_in, Scopes};

impl ParticleRenderer {
    /// Whether any effect has mesh particles (a frame then records [`super::Pass::Meshes`]).
    pub(super) fn has_meshes(&self) -> bool {
        self.entries.iter().any(|e| e.system.has_meshes())
    }

    /// Record both mesh passes of every effect with mesh particles.
    pub(super) fn record_meshes(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameTargets,
        low: &LowRes,
        profiler: Scopes<'_>,
    ) {
        let reversed = self.reversed;
        // the depth cleared where flurry owns the buffer: the far plane's
        let far = if reversed { 0.0 } else { 1.0 };
        let with_meshes = || self.entries.iter().filter(|e| e.system.has_meshes());
        let (p, meshes) = (&self.pipelines, &self.meshes);

        let attachments = [Some(color_attachment(frame.color, wgpu::LoadOp::Load))];
        let mut desc = pass_desc("meshes", &attachments);
        let (depth, load) = match (frame.depth, &low.host_mesh_depth) {
            (Some(host), _) => (host, wgpu::LoadOp::Load),
            (None, Some(own)) => (own, wgpu::LoadOp::Clear(far)),
            (None, None) => unreachable!("LowRes has a depth buffer for a host without one"),
        };
        desc.depth_stencil_attachment = Some(depth_attachment(depth, load));
        render_pass_in(encoder, profiler, desc, "meshes", |r| {
            for e in with_meshes() {
                e.system.record_meshes(p, (true, reversed), r, meshes);
            }
        });

        let attachments = [Some(color_attachment(&low.drawn, wgpu::LoadOp::Load))];
        let mut desc = pass_desc("mesh_distances", &attachments);
        let clear = wgpu::LoadOp::Clear(far);
        desc.depth_stencil_attachment = Some(depth_attachment(&low.mesh_depth, clear));
        render_pass_in(encoder, profiler, desc, "mesh_distances", |r| {
            r.set_bind_group(1, &low.mesh_bind, &[]);
            for e in with_meshes() {
                e.system.record_meshes(p, (false, reversed), r, meshes);
            }
        });
    }
}

fn depth_attachment(
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<f32>,
) -> wgpu::RenderPassDepthStencilAttachment<'_> {
    wgpu::RenderPassDepthStencilAttachment {
        view,
        depth_ops: Some(wgpu::Operations {
            load,
            store: wgpu::StoreOp::Store,
        }),
        stencil_ops: None,
    }
}
