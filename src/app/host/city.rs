//! A crowd's city in the stand-in host: its buildings as lit boxes (`vs_box` in
//! stage.wgsl) on a street-grey ground, so that a picture shows where walkers may go.

use encase::ShaderType;
use flurry::glam::{Vec3, Vec4};
use flurry::nav::CityMap;
use flurry::wgpu;
use wgpu::util::DeviceExt;

/// One building (`HostBox` in stage.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub struct HostBox {
    pub min: Vec4,
    pub max: Vec4,
    pub color: Vec4,
}

/// The boxes of a map's buildings: its blocked cells merged greedily into rectangles (each
/// grown along x, then along z while the whole row is blocked), each standing on `ground`
/// 4–14 m tall in a brick or concrete tint, both from its place (the same city looks the
/// same).
pub fn buildings(map: &CityMap, ground: f32) -> Vec<HostBox> {
    let (w, h) = map.size();
    let (w, h) = (w as usize, h as usize);
    let blocked = map.blocked();
    let mut taken = vec![false; w * h];
    let free = |taken: &[bool], x: usize, z: usize| blocked[z * w + x] && !taken[z * w + x];
    let [x0, z0] = map.origin();
    let cell = map.cell();
    let mut boxes = Vec::new();
    for z in 0..h {
        for x in 0..w {
            if !free(&taken, x, z) {
                continue;
            }
            let mut x1 = x + 1;
            while x1 < w && free(&taken, x1, z) {
                x1 += 1;
            }
            let mut z1 = z + 1;
            while z1 < h && (x..x1).all(|i| free(&taken, i, z1)) {
                z1 += 1;
            }
            for k in z..z1 {
                taken[k * w + x..k * w + x1].fill(true);
            }
            let roll = flurry_hash((z * w + x) as u32);
            let height = 4.0 + 10.0 * (roll & 0xffff) as f32 / 65535.0;
            let tints = [
                Vec3::new(0.30, 0.17, 0.12),
                Vec3::new(0.24, 0.23, 0.22),
                Vec3::new(0.33, 0.29, 0.22),
                Vec3::new(0.18, 0.19, 0.22),
            ];
            let color = tints[(roll >> 16) as usize % tints.len()];
            boxes.push(HostBox {
                min: Vec4::new(x0 + x as f32 * cell, ground, z0 + z as f32 * cell, 1.0),
                max: Vec4::new(
                    x0 + x1 as f32 * cell,
                    ground + height,
                    z0 + z1 as f32 * cell,
                    1.0,
                ),
                color: color.extend(1.0),
            });
        }
    }
    boxes
}

/// A small integer hash (PCG's output function), for the buildings' heights and tints.
fn flurry_hash(v: u32) -> u32 {
    let state = v.wrapping_mul(747796405).wrapping_add(2891336453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277803737);
    (word >> 22) ^ word
}

/// A storage buffer of `boxes` and its bind group for `layout` (stage.wgsl's group 1).
pub fn upload(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    boxes: &[HostBox],
) -> wgpu::BindGroup {
    let mut bytes = encase::StorageBuffer::new(Vec::<u8>::new());
    bytes
        .write(&boxes.to_vec())
        .expect("encase writes into a Vec");
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("stage.city"),
        contents: &bytes.into_inner(),
        usage: wgpu::BufferUsages::STORAGE,
    });
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("stage.city"),
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: buffer.as_entire_binding(),
        }],
    })
}
