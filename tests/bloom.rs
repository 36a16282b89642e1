//! The program's HDR host: light above white reaches it unclamped and blooms round its
//! source before a filmic tonemap maps it to the screen; an LDR host shows the same
//! particle without a halo. (The host's own post-processing, as any HDR host has.)

mod common;

use common::host::scene::Scene;
use common::host::HostSetup;
use flurry::effect::*;
use flurry::glam::Vec3;
use flurry::Camera;

/// One additive white dot about 4 pixels across at the centre of a 64 × 64 host, emitting
/// `emission` times white, drawn in `setup`: the image's red channel, row by row.
fn dot(setup: HostSetup, emission: f32) -> Vec<u8> {
    let gpu = common::gpu();
    let camera = |aspect| Camera::look_at(Vec3::new(0.0, 0.0, 10.0), Vec3::ZERO, aspect);
    let pixel = 2.0 * 10.0 * (45f32.to_radians() / 2.0).tan() / 64.0;
    let held = common::held(
        Shape::Point([0.0; 3]),
        1,
        Range::constant(4.0 * pixel),
        [1.0; 4],
        [0.0; 3],
    );
    let held = EmitterDesc { emission, ..held };
    let mut desc = common::still("dot", vec![held]);
    desc.blend = Blend::Additive;
    let mut scene = Scene::hosted(&gpu, (&desc, 1, 1), (64, 64), camera, setup).unwrap();
    scene.background = [0.0, 0.0, 0.0, 1.0];
    for _ in 0..2 {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    let image = scene.target.read_rgba(&gpu).unwrap();
    image.pixels().map(|p| p.0[0]).collect()
}

/// The red channel `d` pixels right of the centre.
fn at(red: &[u8], d: usize) -> u8 {
    red[32 * 64 + 32 + d]
}

#[test]
fn light_above_white_blooms_on_the_hdr_host_and_not_on_an_ldr_one() {
    let hdr = dot(HostSetup::HDR, 20.0);
    let ldr = dot(HostSetup::STANDARD, 20.0);
    // both show the dot itself as white
    assert!(
        at(&hdr, 0) > 240 && at(&ldr, 0) > 240,
        "{} {}",
        at(&hdr, 0),
        at(&ldr, 0)
    );
    // eight pixels out, beyond the dot: a halo on the HDR host, black on the LDR one
    assert!(at(&hdr, 8) > 20, "no bloom: {}", at(&hdr, 8));
    assert!(at(&ldr, 8) < 3, "light beyond the dot: {}", at(&ldr, 8));
    // the halo falls off with distance
    assert!(
        at(&hdr, 16) < at(&hdr, 8),
        "{} then {}",
        at(&hdr, 8),
        at(&hdr, 16)
    );
    // light no brighter than white does not bloom
    let white = dot(HostSetup::HDR, 1.0);
    assert!(at(&white, 8) < 3, "white bloomed: {}", at(&white, 8));
}
