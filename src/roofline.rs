//! The device's own ceilings, for judging a pass against what the same adapter can do in the
//! same run: the bandwidth of a plain copy kernel (every element read and written once,
//! buffers far larger than any cache) and the throughput of a kernel of independent fused
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
use crate::uniform_pages::BufferRange;
use std::num::NonZeroU64;

/// Fused multiply-adds per thread of the FMA kernel: 256 steps × 4 chains × 4 lanes.
const FMAS_PER_THREAD: u64 = 256 * 4 * 4;

/// Elements (vec4s) of each buffer the copy kernel copies, at most: 128 MiB a buffer, 256
/// MiB moved a run. Smaller buffers stay partly in a large last-level cache: on a machine
/// with a 480 MiB L3, a copy of 32 MiB ranged over 6.8–10.7 GB/s from one run of the program to
/// the next, and one of 128 MiB held at 7.0–7.4 GB/s (docs/measurements.md).
const COPY_ELEMENTS: u32 = 1 << 23;

/// Elements the FMA kernel runs over (a thread each): its time is in its registers, not in
/// memory, and 2,097,152 threads fill any device.
const FMA_ELEMENTS: u32 = 1 << 21;

/// roofline.wgsl's group 0, in binding order.
pub(crate) fn slots() -> [BufferSlot; 2] {
    [read_only::<[f32; 4]>(), read_write::<[f32; 4]>()]
}

/// What [`Roofline::measure`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Roofline {
    /// The copy kernel's bytes read plus written per second, in GB/s.
    pub copy_gb_s: f64,
    /// Bytes the copy kernel reads plus writes in one run: 256 MiB, or less on a device
    /// whose storage bindings are smaller than 128 MiB.
    pub copy_bytes: u64,
    /// The FMA kernel's floating-point operations per second (an FMA is two), in GFLOP/s.
    pub fma_gflop_s: f64,
}

/// The two kernels over a source and a destination of `elements` vec4s: the copy over all
/// of them, the FMA kernel over the first `fma_elements`.
struct Kernels {
    copy: Dispatch,
    fma: Dispatch,
    /// The destination, read back by the tests (the bind groups keep it alive otherwise).
    #[cfg(test)]
    dst: wgpu::Buffer,
}

/// A kernel, its bind group and its threads.
struct Dispatch {
    pipeline: wgpu::ComputePipeline,
    bind: wgpu::BindGroup,
    threads: u32,
}

impl Kernels {
    fn new(gpu: &GpuContext, elements: u32, fma_elements: u32) -> Self {
        let device = &gpu.device;
        let layout = buffer_layout(device, "roofline", wgpu::ShaderStages::COMPUTE, &slots());
        let compiler = crate::compiler::Compiler::new(device);
        let pipeline =
            |entry| compute_pipeline(&compiler, Shader::Roofline, entry, &[Some(&layout)], &[]);
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
        let fma_elements = fma_elements.min(elements);
        // the FMA kernel's threads are its buffers' lengths (arrayLength)
        let first = |buffer: &wgpu::Buffer| BufferRange {
            buffer: buffer.clone(),
            offset: 0,
            size: NonZeroU64::new(fma_elements.max(1) as u64 * 16).expect("at least one"),
        };
        Kernels {
            copy: Dispatch {
                pipeline: pipeline("copy"),
                bind: bind_buffers(device, "roofline", &layout, &[&src, &dst]),
                threads: elements,
            },
            fma: Dispatch {
                pipeline: pipeline("fma_chains"),
                bind: bind_buffers(device, "roofline", &layout, &[&first(&src), &first(&dst)]),
                threads: fma_elements,
            },
            #[cfg(test)]
            dst,
        }
    }

    /// Seconds one run of `kernel` takes, submitted on its own and waited for.
    fn time(&self, gpu: &GpuContext, kernel: &Dispatch) -> Result<f64> {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&kernel.pipeline);
            pass.set_bind_group(0, &kernel.bind, &[]);
            dispatch_threads(&mut pass, kernel.threads);
        }
        let start = Instant::now();
        gpu.queue.submit([encoder.finish()]);
        gpu.wait()?;
        Ok(start.elapsed().as_secs_f64())
    }

    /// The destination, read back (tests).
    #[cfg(test)]
    fn read(&self, gpu: &GpuContext) -> Result<Vec<[f32; 4]>> {
        let size = self.dst.size();
        let bytes = crate::readback::read_buffer(&gpu.device, &gpu.queue, &self.dst, 0, size)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }
}

/// Elements of each copy buffer on `device`: [`COPY_ELEMENTS`], or as many as one storage
/// binding and one buffer hold.
fn copy_elements(device: &wgpu::Device) -> u32 {
    let limits = device.limits();
    let bytes = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    (bytes / 16).min(COPY_ELEMENTS as u64) as u32
}

impl Roofline {
    /// Both ceilings on `gpu`'s adapter: each kernel once to warm up, then the median of
    /// `runs` (at least 1) dispatches, each submitted on its own and timed on the clock. The
    /// copy runs over two buffers of 128 MiB (or the largest storage binding the device
    /// allows), far past any cache; the FMA kernel over 2,097,152 threads.
    pub fn measure(gpu: &GpuContext, runs: u32) -> Result<Roofline> {
        let kernels = Kernels::new(gpu, copy_elements(&gpu.device), FMA_ELEMENTS);
        let median = |kernel| -> Result<f64> {
            kernels.time(gpu, kernel)?;
            let mut t = (0..runs.max(1))
                .map(|_| kernels.time(gpu, kernel))
                .collect::<Result<Vec<_>>>()?;
            t.sort_by(f64::total_cmp);
            Ok(t[t.len() / 2])
        };
        let copy_bytes = kernels.copy.threads as u64 * 32;
        let copy = median(&kernels.copy)?;
        let fma = median(&kernels.fma)?;
        let flops = kernels.fma.threads as f64 * (FMAS_PER_THREAD * 2) as f64;
        Ok(Roofline {
            copy_gb_s: copy_bytes as f64 / copy / 1e9,
            copy_bytes,
            fma_gflop_s: flops / fma / 1e9,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_kernel_copies_and_the_fma_kernel_computes_its_chains() {
        let gpu = crate::tests::gpu();
        // the FMA kernel over the first 600 of the copy's 1,000 elements
        let kernels = Kernels::new(&gpu, 1000, 600);
        kernels.time(&gpu, &kernels.copy).unwrap();
        let copied = kernels.read(&gpu).unwrap();
        for (i, v) in copied.iter().enumerate() {
            assert_eq!(*v, [i as f32, 1.0, 0.5, -(i as f32)], "element {i}");
        }
        kernels.time(&gpu, &kernels.fma).unwrap();
        let chains = kernels.read(&gpu).unwrap();
        for (i, v) in chains.iter().enumerate().skip(600) {
            assert_eq!(
                *v,
                [i as f32, 1.0, 0.5, -(i as f32)],
                "element {i}: copied only"
            );
        }
        let chains = &chains[..600];
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
        assert_eq!(r.copy_bytes, copy_elements(&gpu.device) as u64 * 32);
    }
}
