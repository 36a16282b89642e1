//! The all-pairs gravity kernel's accelerations against a CPU O(N²) sum.

use glam::Vec3;

use super::{held, still, Solo};
use crate::effect::*;
use crate::{Camera, GpuContext};

/// `n` stars at rest in a ball of radius 2, pulling each other.
fn cluster(n: u32) -> EffectDesc {
    let ball = Shape::Sphere {
        center: [0.0; 3],
        radius: 2.0,
        surface: false,
    };
    EffectDesc {
        blend: Blend::Additive,
        self_gravity: Some(SelfGravity {
            g: 1.0,
            mass: 1.0 / n as f32,
            softening: 0.05,
        }),
        ..still("cluster", vec![held(ball, n)])
    }
}

#[test]
fn tiled_accelerations_equal_the_cpu_sum() {
    // both kernels: through subgroups where the device has them, and the tiled one through
    // workgroup memory on a device without
    let gpu = super::gpu();
    let subgroups = gpu.device.features().contains(wgpu::Features::SUBGROUP);
    let without = gpu.lacking(wgpu::Features::SUBGROUP).unwrap();
    assert!(!without.device.features().contains(wgpu::Features::SUBGROUP));
    accelerations_equal_the_cpu_sum(without);
    if subgroups {
        accelerations_equal_the_cpu_sum(gpu);
    }
}

fn accelerations_equal_the_cpu_sum(gpu: crate::GpuContext) {
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, 1.0);
    // a whole number of rows of the bodies texture and of lavapipe's subgroups, then neither
    for n in [1024u32, 1003] {
        let gpu = GpuContext {
            instance: gpu.instance.clone(),
            adapter: gpu.adapter.clone(),
            device: gpu.device.clone(),
            queue: gpu.queue.clone(),
        };
        let mut solo = Solo::on(gpu, &cluster(n), n, 9);
        // one explicit Euler step from rest moves nothing: the positions read back are the
        // ones the accelerations were computed from
        solo.frame(0.01, &camera);
        let snap = solo.snapshot();
        let accel = solo
            .system
            .read_nbody_accel(&solo.gpu.device, &solo.gpu.queue)
            .unwrap();
        assert_eq!(snap.alive.len() as u32, n);
        let (m, eps2) = (1.0 / n as f64, 0.05f64 * 0.05);
        let pos: Vec<[f64; 3]> = snap
            .alive
            .iter()
            .map(|&i| snap.particles[i as usize].pos.to_array().map(|c| c as f64))
            .collect();
        for (k, &i) in snap.alive.iter().enumerate() {
            let mut a = [0.0f64; 3];
            for p in &pos {
                let d = [p[0] - pos[k][0], p[1] - pos[k][1], p[2] - pos[k][2]];
                let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
                let f = m / (r2 * r2.sqrt());
                for c in 0..3 {
                    a[c] += d[c] * f;
                }
            }
            let g = accel[i as usize];
            let err = ((g[0] as f64 - a[0]).powi(2)
                + (g[1] as f64 - a[1]).powi(2)
                + (g[2] as f64 - a[2]).powi(2))
            .sqrt();
            let norm = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
            assert!(
                err <= 1e-4 * norm.max(1e-3),
                "n {n}, particle {i}: {g:?} against {a:?}"
            );
        }
    }
}
