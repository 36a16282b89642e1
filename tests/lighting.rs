//! Light the particles give: lit billboards (`EffectDesc::lighting`), every pixel of a
//! sprite taking a sphere's normal and lit by the renderer's light with wrap lighting and
//! ambient as the model says, drawn (a large billboard) and splatted (a small one) alike;
//! and emission above white reaching an HDR host as it is.

mod common;

use common::hdr::Facing;
use flurry::effect::*;
use flurry::glam::Vec3;
use flurry::Light;

const WRAP: f32 = 0.5;
const AMBIENT: f32 = 0.1;

/// The soft disc's coverage at uv.
fn cover(u: f64, v: f64) -> f64 {
    let r2 = u * u + v * v;
    let t = ((r2 - 0.25) / 0.75).clamp(0.0, 1.0);
    1.0 - t * t * (3.0 - 2.0 * t)
}

/// The model: a disc's light under `light` (towards the light, in the quad's frame: x
/// right, y up, z towards the viewer) — its coverage times the ambient plus the wrapped
/// diffuse term of the sphere's normal, over the disc — per unit of its unlit light.
fn model(light: Vec3) -> f64 {
    let l = light.normalize().as_dvec3();
    let (mut lit, mut unlit) = (0.0, 0.0);
    let n = 400;
    for i in 0..n {
        for j in 0..n {
            let u = (i as f64 + 0.5) / n as f64 * 2.0 - 1.0;
            let v = (j as f64 + 0.5) / n as f64 * 2.0 - 1.0;
            let r2 = u * u + v * v;
            if r2 > 1.0 {
                continue;
            }
            let normal = flurry::glam::DVec3::new(u, v, (1.0 - r2).sqrt());
            let wrap = WRAP as f64;
            let diffuse = ((normal.dot(l) + wrap) / (1.0 + wrap)).max(0.0);
            lit += cover(u, v) * (AMBIENT as f64 + diffuse);
            unlit += cover(u, v);
        }
    }
    lit / unlit
}

/// One white billboard `across` output pixels wide facing a camera on a 64×64 HDR host, lit
/// from `light` (`None`: unlit): the frame's light, and the right half's share of it;
/// `splatted`: whether the splat draws it (else a triangle).
fn render(across: f32, light: Option<Vec3>, splatted: bool) -> (f64, f64) {
    render_emitting(across, light, splatted, 1.0)
}

/// [`render`] with the dot's emission `emission`.
fn render_emitting(across: f32, light: Option<Vec3>, splatted: bool, emission: f32) -> (f64, f64) {
    let gpu = common::gpu();
    let size = (64, 64);
    let Facing {
        host,
        camera,
        pixel,
        mut renderer,
    } = Facing::new(&gpu, size.0);
    if let Some(direction) = light {
        renderer
            .set_light(Light {
                direction: direction.into(),
                color: [1.0; 3],
                ambient: [AMBIENT; 3],
            })
            .unwrap();
    }
    let dot = common::held(
        Shape::Point([0.0; 3]),
        1,
        Range::constant(across * pixel),
        [1.0; 4],
        [0.0; 3],
    );
    let dot = EmitterDesc { emission, ..dot };
    let mut desc = common::still("lit", vec![dot]);
    desc.lighting = light.map(|_| Lighting {
        wrap: WRAP,
        shadows: None,
    });
    let stats = host.show(&gpu, &mut renderer, (&desc, 1), &camera);
    assert_eq!((stats.visible, stats.splatted), (1, splatted as u32));
    let pixels = host.pixels(&gpu);
    let light_of = |right: bool| -> f64 {
        (pixels.iter().enumerate())
            .filter(|(k, _)| (k % size.0 as usize >= size.0 as usize / 2) == right)
            .map(|(_, p)| p[0] + p[1] + p[2])
            .sum()
    };
    let (left, right) = (light_of(false), light_of(true));
    (left + right, right / (left + right))
}

fn lit_as_the_model_says(across: f32, splatted: bool) {
    let render = |light| render(across, light, splatted);
    let (unlit, _) = render(None);
    assert!(unlit > 1.0, "{across} px: an empty frame ({unlit})");
    for (name, light) in [
        ("facing the light", Vec3::Z),
        ("facing away", -Vec3::Z),
        ("lit from the right", Vec3::X),
    ] {
        let (lit, right) = render(Some(light));
        let (got, want) = (lit / unlit, model(light));
        assert!(
            (got / want - 1.0).abs() < 0.05,
            "{across} px, {name}: {got:.3} of the unlit light, the model says {want:.3}"
        );
        if light == Vec3::X {
            assert!(
                right > 0.6,
                "{across} px: the right half holds {right:.2} of the light"
            );
        }
    }
    // the ratio of facing the light to facing away is the model's
    let ratio = render(Some(Vec3::Z)).0 / render(Some(-Vec3::Z)).0;
    let want = model(Vec3::Z) / model(-Vec3::Z);
    assert!(
        (ratio / want - 1.0).abs() < 0.05,
        "{across} px: facing the light / away {ratio:.2}, the model says {want:.2}"
    );
}

/// A billboard 40 pixels across (drawn as a triangle).
#[test]
fn a_drawn_billboard_is_lit_as_the_model_says() {
    lit_as_the_model_says(40.0, false);
}

/// A billboard 12 pixels across (splatted).
#[test]
fn a_splatted_billboard_is_lit_as_the_model_says() {
    lit_as_the_model_says(12.0, true);
}

/// Emission above 1 is light brighter than white, and an HDR host receives it as it is: a
/// dot emitting 6 gives six times the light of one emitting 1, drawn and splatted.
#[test]
fn emission_above_white_reaches_an_hdr_host_as_it_is() {
    for (across, splatted) in [(40.0, false), (12.0, true)] {
        let (white, _) = render_emitting(across, None, splatted, 1.0);
        let (bright, _) = render_emitting(across, None, splatted, 6.0);
        assert!(
            (bright / white / 6.0 - 1.0).abs() < 0.02,
            "{across} px: {bright:.2} against {white:.2} (six times: {:.2})",
            6.0 * white
        );
    }
}
