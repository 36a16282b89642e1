//! A sword swung in arcs: the seeds' ribbon afterimage of a swung weapon, sparks thrown
//! off the blade's surface drawing trails, and lit metal shards that bounce and settle on
//! the ground. The effect is made in the blade's space; the demo moves it with the blade
//! every frame (moving emitters spread each frame's spawns along the blade's way).

use flurry::effect::*;
use flurry::glam::{Mat4, Vec3};
use flurry::{Camera, Image, Mesh, MeshId};

/// The shipped effect file the demo shows.
pub const SHIPPED: &str = include_str!("../../../../effects/sword.ron");

/// The blade: 1.1 m long along +y from the hilt at the origin, 5 cm wide, 12 mm thick
/// (`Host(0)` in `effects/sword.ron`).
pub fn blade() -> Mesh {
    let mesh = Mesh::cuboid([0.05, 1.1, 0.012]).expect("a valid size");
    let lifted: Vec<[f32; 3]> = mesh
        .positions()
        .iter()
        .map(|p| [p[0], p[1] + 0.55, p[2]])
        .collect();
    Mesh::new(lifted, mesh.normals().to_vec(), mesh.indices().to_vec()).expect("still valid")
}

/// The afterimage's image (`image: 0` in `effects/sword.ron`), 256 × 32: streaks along
/// the swing, each row its own brightness and length, as a blade leaves in a long
/// exposure, thickest across the middle and clear at both edges. White: the ribbon's
/// colour tints it.
pub fn afterimage() -> Image {
    const W: u32 = 256;
    const H: u32 = 32;
    // a row's random number in 0..1 (an integer hash: the same image every run)
    let rand = |row: u32, salt: u32| {
        let mut x = row.wrapping_mul(0x9e37_79b9) ^ salt.wrapping_mul(0x85eb_ca6b);
        x ^= x >> 16;
        x = x.wrapping_mul(0x7feb_352d);
        x ^= x >> 15;
        (x >> 8) as f32 / 16_777_216.0
    };
    let smooth = |e0: f32, e1: f32, x: f32| {
        let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
        t * t * (3.0 - 2.0 * t)
    };
    let mut pixels = Vec::with_capacity((W * H) as usize);
    for y in 0..H {
        let v = (y as f32 + 0.5) / H as f32;
        let across = 1.0 - (2.0 * v - 1.0).abs().powi(2);
        let brightness = 0.35 + 0.65 * rand(y, 1);
        let length = 0.6 + 0.4 * rand(y, 2);
        for x in 0..W {
            let u = (x as f32 + 0.5) / W as f32;
            let along = 1.0 - smooth(length - 0.3, length, u);
            let alpha = (across * brightness * along).clamp(0.0, 1.0);
            pixels.push([255, 255, 255, (alpha * 255.0).round() as u8]);
        }
    }
    Image::new(W, H, pixels).expect("a valid image")
}

/// `effects/sword.ron`; its pool needs about `capacity` 65,536 (the rates are fixed).
pub fn effect() -> EffectDesc {
    let e = EffectDesc::from_ron(SHIPPED).expect("effects/sword.ron parses (tests/shipped.rs)");
    debug_assert!(e.emitters.iter().any(|e| matches!(
        e.shape,
        Shape::Mesh {
            mesh: MeshSource::Host(MeshId(0)),
            ..
        }
    )));
    e
}

/// Where the hand holds the blade at `t` seconds: a big swing across the view and back
/// every 2.9 s, tilted towards and away from the camera, turning slowly about the
/// vertical, so no two arcs are alike.
pub fn blade_at(t: f64) -> Mat4 {
    let t = t as f32;
    let hand = Vec3::new(0.0, 1.2, 0.0);
    let swing = 1.9 * (2.2 * t).sin();
    let tilt = 0.5 * (1.3 * t + 0.4).sin();
    let turn = 0.6 * (0.45 * t).sin();
    Mat4::from_translation(hand)
        * Mat4::from_rotation_y(turn)
        * Mat4::from_rotation_x(tilt)
        * Mat4::from_rotation_z(swing)
}

pub fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 1.5, 3.6), Vec3::new(0.0, 1.25, 0.0), aspect)
}
