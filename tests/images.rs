//! Images on particles (`Sprite::Image`): a still image fills each particle's quad the right
//! way up, drawn and splatted alike; a splatted particle too small for its picture shows the
//! image's mean colour; a flipbook shows the frame its age calls for, and the half-way mix of
//! two frames when it blends; effects name image files by path, loaded by the one helper.

mod common;

use common::hdr::{Facing, HdrHost};
use flurry::effect::*;

use flurry::Image;

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const WHITE: [u8; 4] = [255, 255, 255, 255];

/// The linear light of RED, GREEN, BLUE and WHITE: what `quarters` of them shows.
const QUARTER_LIGHT: [[f64; 3]; 4] = [
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 1.0, 1.0],
];

/// A `side` × `side` image whose quarters are `colors` (top left, top right, bottom left,
/// bottom right).
fn quarters(side: u32, colors: [[u8; 4]; 4]) -> Image {
    let pixels = (0..side * side)
        .map(|i| {
            let (x, y) = (i % side, i / side);
            colors[(2 * (y >= side / 2) as u32 + (x >= side / 2) as u32) as usize]
        })
        .collect();
    Image::new(side, side, pixels).unwrap()
}

/// What a host of 64 × 64 pixels shows of one white particle `across` pixels wide, facing a
/// camera 10 m away, showing `sprite` of `image`: the pixels after frames of `steps`
/// seconds, and the particle's age then.
fn render(image: &Image, sprite: ImageSprite, across: f32, steps: &[f32]) -> (Vec<[f64; 3]>, f32) {
    let gpu = common::gpu();
    let Facing {
        host,
        camera,
        pixel,
        mut renderer,
    } = Facing::new(&gpu, 64);
    let id = renderer.add_image(&gpu.device, &gpu.queue, image).unwrap();
    assert_eq!(sprite.image, ImageSource::Id(id));
    let desc = one_particle(sprite, across * pixel);
    let effect = renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 1, 5)
        .unwrap();
    for &dt in steps {
        host.frame(&gpu, &mut renderer, &camera, dt);
    }
    let snapshot = renderer.snapshot(&gpu.device, &gpu.queue, effect).unwrap();
    let stats = snapshot.stats;
    assert_eq!(stats.visible, 1, "{across} px: the particle is drawn");
    let age = snapshot.particles[snapshot.alive[0] as usize].age;
    (host.pixels(&gpu), age)
}

/// An effect of one white particle `size` metres across at the origin, held still, showing
/// `sprite`.
fn one_particle(sprite: ImageSprite, size: f32) -> EffectDesc {
    let particle = common::held(
        Shape::Point([0.0; 3]),
        1,
        Range::constant(size),
        [1.0; 4],
        [0.0; 3],
    );
    let mut desc = common::still("image", vec![particle]);
    desc.sprite = Sprite::Image(sprite);
    desc
}

/// The pixel `(dx, dy)` from the host's centre (y down).
fn at(pixels: &[[f64; 3]], dx: i32, dy: i32) -> [f64; 3] {
    pixels[((32 + dy) * 64 + 32 + dx) as usize]
}

fn near(got: [f64; 3], want: [f64; 3], tolerance: f64) -> bool {
    (0..3).all(|c| (got[c] - want[c]).abs() <= tolerance)
}

fn still(image: flurry::ImageId) -> ImageSprite {
    ImageSprite {
        image: ImageSource::Id(image),
        flipbook: None,
        normals: None,
    }
}

/// A still image fills the quad corner to corner the right way up (its top row at the top
/// of the screen), drawn as a triangle (40 px) and splatted (12 px).
#[test]
fn an_image_fills_its_particles_quad_the_right_way_up() {
    let image = quarters(64, [RED, GREEN, BLUE, WHITE]);
    for (across, splatted) in [(40.0f32, false), (12.0, true)] {
        let (pixels, _) = render(&image, still(flurry::ImageId(0)), across, &[1.0 / 60.0; 2]);
        // a quarter of the way in from each corner, and just inside the corners
        let q = (across / 4.0) as i32;
        let c = (across / 2.0) as i32 - 2;
        let want = QUARTER_LIGHT;
        for (k, (dx, dy)) in [(-1, -1), (1, -1), (-1, 1), (1, 1)].into_iter().enumerate() {
            for d in [q, c] {
                let got = at(&pixels, dx * d, dy * d);
                assert!(
                    near(got, want[k], 0.1),
                    "{across} px (splatted {splatted}): quarter {k} at {d} px shows {got:?}, not {:?}",
                    want[k]
                );
            }
        }
        // nothing past its square
        let outside = at(&pixels, (across / 2.0) as i32 + 3, 0);
        assert!(near(outside, [0.0; 3], 0.01), "{across} px: {outside:?}");
    }
}

/// A particle too small to show its picture shows its image's mean colour, by its area
/// (splatted at 1.5 px: quarters red, red, green and blue make half red, a quarter green and
/// blue); one a few pixels across shows each quarter's colour on its own side (splatted at
/// 6 px).
#[test]
fn a_small_splatted_image_shows_its_mean_colour_and_a_larger_one_its_quarters() {
    let reds = quarters(64, [RED, RED, GREEN, BLUE]);
    let (pixels, _) = render(&reds, still(flurry::ImageId(0)), 1.5, &[1.0 / 60.0; 2]);
    let total = pixels
        .iter()
        .fold([0.0; 3], |t, p| [t[0] + p[0], t[1] + p[1], t[2] + p[2]]);
    assert!(total[0] > 0.5, "the dot's light: {total:?}");
    for c in 1..3 {
        let ratio = total[c] / total[0];
        assert!((ratio - 0.5).abs() < 0.05, "the dot's colour: {total:?}");
    }
    let image = quarters(64, [RED, GREEN, BLUE, WHITE]);
    let (pixels, _) = render(&image, still(flurry::ImageId(0)), 6.0, &[1.0 / 60.0; 2]);
    let want = QUARTER_LIGHT;
    for (k, (dx, dy)) in [(-2, -2), (1, -2), (-2, 1), (1, 1)].into_iter().enumerate() {
        let got = at(&pixels, dx, dy);
        let most = got.iter().cloned().fold(0.0, f64::max);
        let hue = got.map(|c| c / most.max(1e-6));
        assert!(near(hue, want[k], 0.15), "6 px: quarter {k} shows {got:?}");
    }
}

/// A 2 × 2 flipbook of solid frames (red, green, blue, white) at 1 frame a second: the
/// particle shows the frame its age calls for, and with blending the mix of that frame and
/// the next by how far between them it is.
#[test]
fn a_flipbook_shows_the_frame_its_age_calls_for_and_blends_halfway() {
    let sheet = quarters(64, [RED, GREEN, BLUE, WHITE]);
    let light = [
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 1.0, 1.0],
    ];
    for blend in [false, true] {
        for across in [40.0f32, 12.0] {
            let flipbook = Flipbook {
                columns: 2,
                rows: 2,
                frames: None,
                timing: FrameTiming::PerSecond(1.0),
                random_start: false,
                blend,
            };
            let sprite = ImageSprite {
                flipbook: Some(flipbook),
                ..still(flurry::ImageId(0))
            };
            let (pixels, age) = render(&sheet, sprite, across, &[0.0, 1.5]);
            let frame = age.floor() as usize % 4;
            let t = if blend {
                (age - age.floor()) as f64
            } else {
                0.0
            };
            let want: [f64; 3] = std::array::from_fn(|c| {
                light[frame][c] * (1.0 - t) + light[(frame + 1) % 4][c] * t
            });
            let got = at(&pixels, 0, 0);
            assert!(
                near(got, want, 0.06),
                "{across} px, blend {blend}, age {age}: {got:?}, frame {frame} and on by {t} \
                 would be {want:?}"
            );
            if blend {
                assert!((0.3..0.7).contains(&t), "age {age}: not between two frames");
            }
        }
    }
}

/// An effect file names its images by path relative to the file; adding it before they are
/// loaded is refused, naming the field and the helper, and `load_images` loads each file
/// once.
#[test]
fn an_effect_files_images_are_loaded_by_path_once() {
    let folder = std::env::temp_dir().join(format!("flurry-images-{}", std::process::id()));
    std::fs::create_dir_all(folder.join("images")).unwrap();
    let png = folder.join("images/quarters.png");
    let image = quarters(8, [RED, GREEN, BLUE, WHITE]);
    let bytes: Vec<u8> = image.pixels().iter().flatten().copied().collect();
    image::RgbaImage::from_raw(8, 8, bytes)
        .unwrap()
        .save(&png)
        .unwrap();
    let ron = r#"(
        emitters: [(rate: 10, lifetime: (mean: 1)), (rate: 10, sprite: Some(Image((image: "images/quarters.png"))))],
        sprite: Image((image: "images/quarters.png", flipbook: Some((columns: 2, rows: 2)))),
    )"#;
    std::fs::write(folder.join("puffs.ron"), ron).unwrap();
    let mut desc = EffectDesc::from_file(&folder.join("puffs.ron")).unwrap();
    assert_eq!(desc.image_paths().len(), 2);
    let gpu = common::gpu();
    let targets = flurry::Targets::new(HdrHost::FORMAT, None);
    let mut renderer =
        flurry::ParticleRenderer::new(&gpu.device, targets, common::settings()).unwrap();
    let refused = renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 64, 1)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("sprite.Image.image") && refused.contains("load_images"),
        "{refused}"
    );
    renderer
        .load_images(&gpu.device, &gpu.queue, &mut desc, &folder)
        .unwrap();
    assert!(desc.image_paths().is_empty());
    // one file, one image, however many sprites name it
    assert_eq!(desc.host_assets().images, 1);
    renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 64, 1)
        .unwrap();
    // a file that is not there is named
    let mut missing = EffectDesc::from_ron(&ron.replace("quarters", "nowhere")).unwrap();
    let err = renderer
        .load_images(&gpu.device, &gpu.queue, &mut missing, &folder)
        .unwrap_err()
        .to_string();
    assert!(err.contains("nowhere.png"), "{err}");
    std::fs::remove_dir_all(&folder).ok();
}

/// A white image whose normals all point right, lit from `light` (wrap 0, ambient 0.1): the
/// frame's light, drawn (`across` 40 px) or splatted (12 px).
fn lit_by_normals(across: f32, light: flurry::glam::Vec3) -> f64 {
    let gpu = common::gpu();
    let Facing {
        host,
        camera,
        pixel,
        mut renderer,
    } = Facing::new(&gpu, 64);
    let white = Image::new(8, 8, vec![WHITE; 64]).unwrap();
    // (x, y, z) = (1, 0, 0), encoded 0..1
    let right = Image::new(8, 8, vec![[255, 128, 128, 255]; 64]).unwrap();
    let image = renderer.add_image(&gpu.device, &gpu.queue, &white).unwrap();
    let normals = renderer.add_image(&gpu.device, &gpu.queue, &right).unwrap();
    renderer
        .set_light(flurry::Light {
            direction: light.into(),
            color: [1.0; 3],
            ambient: [0.1; 3],
        })
        .unwrap();
    let sprite = ImageSprite {
        image: ImageSource::Id(image),
        flipbook: None,
        normals: Some(ImageSource::Id(normals)),
    };
    let mut desc = one_particle(sprite, across * pixel);
    desc.lighting = Some(Lighting {
        wrap: 0.0,
        shadows: None,
    });
    let stats = host.show(&gpu, &mut renderer, (&desc, 1), &camera);
    assert_eq!(stats.visible, 1);
    host.total_light(&gpu)
}

/// With normals of its own, a lit image is lit along them: all facing right, lit from the
/// right it takes the ambient plus the whole light (1.1 of an unlit one), from the left the
/// ambient alone (0.1), where a sphere's normals would give about half; drawn and splatted.
#[test]
fn an_images_normals_light_it_in_place_of_a_spheres() {
    use flurry::glam::Vec3;
    for across in [40.0f32, 12.0] {
        let from_right = lit_by_normals(across, Vec3::X);
        let from_left = lit_by_normals(across, -Vec3::X);
        let ratio = from_left / from_right;
        let want = 0.1 / 1.1;
        assert!(
            (ratio - want).abs() < 0.02,
            "{across} px: lit from the left {from_left:.2}, from the right {from_right:.2}: \
             {ratio:.3} of it, the normals say {want:.3}"
        );
    }
}
