//! What each pass of a frame moved and computed, for profilers: every effect's counts read
//! back and put through each pass's model ([`crate::roofline::traffic`]).

use super::{ParticleRenderer, Pass};
use crate::error::{Invalid, Result};
use crate::roofline::traffic::{self as model, Traffic, Work};

impl ParticleRenderer {
    /// What each pass of the last recorded frame moved and computed, in the order
    /// [`ParticleRenderer::passes`] lists them: counted from each pass's kernel
    /// ([`crate::roofline::Traffic`] says how) with the counts the GPU kept, memory moved
    /// `line` bytes at a time ([`crate::roofline::line_bytes`]: 32 for a GPU, 64 for a CPU).
    /// Reads every effect's counters back, so it blocks: for profilers, never the frame
    /// loop. Refuses a `line` that is not a power of two from 4 to 256.
    pub fn traffic(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        line: u32,
    ) -> Result<Vec<(Pass, Traffic)>> {
        if !(line.is_power_of_two() && (4..=256).contains(&line)) {
            let allowed = "a power of two from 4 to 256 bytes";
            return Err(Invalid::new("line", line, allowed).into());
        }
        let line = line as u64;
        let work = self
            .entries
            .iter()
            .map(|e| e.system.work(device, queue))
            .collect::<Result<Vec<Work>>>()?;
        let sum = |f: &dyn Fn(&Work) -> Traffic| {
            work.iter().map(f).fold(Traffic::default(), |a, b| a + b)
        };
        let total = |f: &dyn Fn(&Work) -> u64| work.iter().map(f).sum::<u64>();
        let host = self.size.0 as u64 * self.size.1 as u64;
        let samples = self.targets.sample_count as u64;
        let (lw, lh) = self.target_size(self.size);
        let low = lw as u64 * lh as u64;
        let resolved = match self.low.as_ref().and_then(|l| l.splat.as_ref()) {
            Some(target) => target.resolved_texels(device, queue)?,
            None => 0,
        };
        let steps = |w: &Work, t: Traffic| Traffic {
            bytes: t.bytes * w.substeps as f64,
            flops: t.flops * w.substeps as f64,
        };
        let traffic = |pass: Pass| match pass {
            Pass::Emit => sum(&model::emit),
            Pass::Gravity => sum(&|w| match w.gravity {
                true => steps(w, model::gravity(w.alive, line)),
                false => Traffic::default(),
            }),
            Pass::Grid => sum(&|w| match w.grid_buckets {
                0 => Traffic::default(),
                b => model::grid(w.alive, b, line),
            }),
            Pass::Shadow => sum(&|w| match w.shadow_cells {
                0 => Traffic::default(),
                cells => model::shadow(w.alive, cells, line),
            }),
            Pass::Flock => sum(&|w| match w.flock {
                true => model::flock(w.alive),
                false => Traffic::default(),
            }),
            Pass::Crowd => sum(&|w| match w.crowd {
                true => steps(w, model::crowd(w.alive)),
                false => Traffic::default(),
            }),
            // computed once, at a crowd's first frame (not modelled)
            Pass::Navigation => Traffic::default(),
            Pass::Simulate => sum(&|w| model::simulate(w, line)),
            Pass::Cull => sum(&|w| model::cull(w, line)),
            Pass::Sort => {
                let pieces = sum(&|w| model::ribbon_pieces(w.ribbon_points, w.ribbon_pieces));
                model::sort(total(&|w| w.sorted)) + pieces
            }
            Pass::Merge => self.merged.iter().fold(Traffic::default(), |t, m| {
                let members = work.iter().enumerate().filter(|(i, _)| m.has(*i));
                let visible = members.map(|(_, w)| w.visible).sum();
                t + model::merge(m.sorted(visible))
            }),
            Pass::Downsample => model::downsample(host, samples, low, self.has_meshes()),
            Pass::Meshes => sum(&|w| model::meshes(w.meshes, w.mesh_vertices)),
            Pass::Splat => {
                let splatted = total(&|w| w.splatted);
                model::splat(splatted, (low, resolved), self.accumulated().channels())
            }
            Pass::Draw => model::draw(total(&|w| w.visible)),
            Pass::Composite => model::composite(host, samples, low, self.composites_same_size()),
        };
        Ok(self.passes().into_iter().map(|p| (p, traffic(p))).collect())
    }
}
