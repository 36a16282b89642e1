//! The device's own ceilings, for judging a pass against what the same adapter can do in the
//! same run: the bandwidth of a plain copy kernel (every element read and written once, a
//! buffer far larger than any cache) and the throughput of a kernel of independent fused
//! multiply-adds in registers (`shaders/roofline.wgsl`), and what each pass moves and
//! computes in a frame ([`Traffic`], from [`crate::ParticleRenderer::traffic`]). `flurry
//! profile` reports both.

use std::time::Instant;

pub(crate) mod traffic;
pub use traffic::{line_bytes, Traffic};

use crate::error::Result;
use crate::gpu::GpuContext;
use crate::passes::{bind_buffers, buffer_layout, compute_pipeline, dispatch_threads};
use crate::passes::{read_only, read_write, BufferSlot};
use crate::shaders::Shader;

/// Fused multiply-adds per thread of the FMA kernel: 256 steps × 4 chains × 4 lanes.
const FMAS_PER_THREAD: u64 = 256 * 4 * 4;

/// roofline.wgsl's group 0, in binding order.
pub(crate) fn slots() -> [BufferSlot; 2] {
    [read_only::<[f32; 4]>(), read_write::<[f32; 4]>()]
}

/// What [`Roofline::measure`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Roofline {
    /// The copy kernel's bytes read plus written per second, in GB/s.
    pub copy_gb_s: f64,
    /// The FMA kernel's floating-point operations per second (an FMA is two), in GFLOP/s.
    pub fma_gflop_s: f64,
}

/// The two kernels over a source and a destination of `elements` vec4s.
struct Kernels {
    copy: wgpu::ComputePipeline,
    fma: wgpu::ComputePipeline,
    bind: wgpu::BindGroup,
    /// The destination, read back by the tests (the bind group keeps it alive otherwise).
    #[cfg(test)]
    dst: wgpu::Buffer,
    elements: u32,
}

impl Kernels {
    fn new(gpu: &GpuContext, elements: u32) -> Self {
        let device = &gpu.device;
        let layout = buffer_layout(device, "roofline", wgpu::ShaderStages::COMPUTE, &slots());
        let pipeline =
            |entry| compute_pipeline(device, Shader::Roofline, entry, &[Some(&layout)], &[]);
        let data: Vec<[f32; 4]> = (0..elements)
            .map(|i| [i as f32, 1.0, 0.5, -(i as f32)])
            .collect();
        use wgpu::util::DeviceExt;
        let src = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("flurry.roofline_src"),
            contents: bytemuck::cast_slice(&data),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let dst = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.roofline_dst"),
            size: elements as u64 * 16,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        Kernels {
            copy: pipeline("copy"),
            fma: pipeline("fma_chains"),
            bind: bind_buffers(device, "roofline", &layout, &[&src, &dst]),
            #[cfg(test)]
            dst,
            elements,
        }
    }

    /// Seconds one dispatch of `pipeline` takes, submitted on its own and waited for.
    fn time(&self, gpu: &GpuContext, pipeline: &wgpu::ComputePipeline) -> Result<f64> {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &self.bind, &[]);
            dispatch_threads(&mut pass, self.elements);
        }
        let start = Instant::now();
        gpu.queue.submit([encoder.finish()]);
        gpu.wait()?;
        Ok(start.elapsed().as_secs_f64())
    }

    /// The destination, read back (tests).
    #[cfg(test)]
    fn read(&self, gpu: &GpuContext) -> Result<Vec<[f32; 4]>> {
        let size = self.elements as u64 * 16;
        let bytes = crate::readback::read_buffer(&gpu.device, &gpu.queue, &self.dst, 0, size)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }
}

impl Roofline {
    /// Both ceilings on `gpu`'s adapter: each kernel once to warm up, then the median of
    /// `runs` (at least 1) dispatches, each submitted on its own and timed on the clock, over
    /// 2,097,152 elements (32 MiB a buffer).
    pub fn measure(gpu: &GpuContext, runs: u32) -> Result<Roofline> {
        let kernels = Kernels::new(gpu, 1 << 21);
        let median = |pipeline| -> Result<f64> {
            kernels.time(gpu, pipeline)?;
            let mut t = (0..runs.max(1))
                .map(|_| kernels.time(gpu, pipeline))
                .collect::<Result<Vec<_>>>()?;
            t.sort_by(f64::total_cmp);
            Ok(t[t.len() / 2])
        };
        let n = kernels.elements as f64;
        let copy = median(&kernels.copy)?;
        let fma = median(&kernels.fma)?;
        Ok(Roofline {
            copy_gb_s: n * 32.0 / copy / 1e9,
            fma_gflop_s: n * (FMAS_PER_THREAD * 2) as f64 / fma / 1e9,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_kernel_copies_and_the_fma_kernel_computes_its_chains() {
        let gpu = crate::tests::gpu();
        let kernels = Kernels::new(&gpu, 1000);
        kernels.time(&gpu, &kernels.copy).unwrap();
        let copied = kernels.read(&gpu).unwrap();
        for (i, v) in copied.iter().enumerate() {
            assert_eq!(*v, [i as f32, 1.0, 0.5, -(i as f32)], "element {i}");
        }
        kernels.time(&gpu, &kernels.fma).unwrap();
        let chains = kernels.read(&gpu).unwrap();
        // each chain x ↦ 0.999 x + 0.001, 256 times: 1 + (x − 1)·0.999^256
        let step = |x: f64| 1.0 + (x - 1.0) * 0.999f64.powi(256);
        for (i, v) in chains.iter().enumerate().step_by(97) {
            let x = [i as f64, 1.0, 0.5, -(i as f64)];
            for lane in 0..4 {
                let want: f64 = [0.0, 0.25, 0.5, 0.75]
                    .iter()
                    .map(|o| step(x[lane] + o))
                    .sum();
                let got = v[lane] as f64;
                assert!(
                    (got - want).abs() <= 1e-3 * want.abs().max(1.0),
                    "{i}.{lane}: {got} {want}"
                );
            }
        }
        let r = Roofline::measure(&gpu, 1).unwrap();
        assert!(r.copy_gb_s > 0.0 && r.fma_gflop_s > 0.0, "{r:?}");
    }
}
