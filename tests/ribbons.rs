//! Ribbons: an emitter's living points joined in spawn order into a camera-facing strip
//! along a centripetal Catmull-Rom spline, checked on the picture against a CPU twin of
//! the interpolation; an alpha ribbon sorted piece by piece among its effect's particles.

mod common;

use common::host::Scene;
use flurry::effect::*;
use flurry::{Camera, Scale, Settings};
use glam::{Vec2, Vec3};

/// The spline through p1 (u = 0) and p2 (u = 1) shaped by p0 and p3, with knots spaced by
/// distance^alpha: 0 uniform, 0.5 centripetal (what ribbons draw), 1 chordal.
fn catmull_rom(p: [Vec3; 4], alpha: f32, u: f32) -> Vec3 {
    let knot = |a: Vec3, b: Vec3| (b - a).length().powf(alpha).max(1e-4);
    let t0 = 0.0;
    let t1 = t0 + knot(p[0], p[1]);
    let t2 = t1 + knot(p[1], p[2]);
    let t3 = t2 + knot(p[2], p[3]);
    let t = t1 + (t2 - t1) * u;
    let lerp = |a: Vec3, b: Vec3, ta: f32, tb: f32| (a * (tb - t) + b * (t - ta)) / (tb - ta);
    let a1 = lerp(p[0], p[1], t0, t1);
    let a2 = lerp(p[1], p[2], t1, t2);
    let a3 = lerp(p[2], p[3], t2, t3);
    let b1 = lerp(a1, a2, t0, t2);
    let b2 = lerp(a2, a3, t1, t3);
    lerp(b1, b2, t1, t2)
}

/// Points along the whole ribbon through `points` (ends extended by reflection, as the
/// ribbon draws them), `per_span` samples a span.
fn curve(points: &[Vec3], alpha: f32, per_span: usize) -> Vec<Vec3> {
    let n = points.len();
    let mut out = Vec::new();
    for i in 0..n - 1 {
        let p0 = if i > 0 {
            points[i - 1]
        } else {
            2.0 * points[0] - points[1]
        };
        let p3 = if i + 2 < n {
            points[i + 2]
        } else {
            2.0 * points[n - 1] - points[n - 2]
        };
        for k in 0..=per_span {
            let u = k as f32 / per_span as f32;
            out.push(catmull_rom([p0, points[i], points[i + 1], p3], alpha, u));
        }
    }
    out
}

const SIZE: (u32, u32) = (256, 256);
const DT: f32 = 1.0 / 16.0;

fn camera(aspect: f32) -> Camera {
    Camera::look_at(Vec3::new(0.0, 0.0, 10.0), Vec3::ZERO, aspect)
}

/// One ribbon point a frame (16 a second at 1/16 s frames), white, 0.15 m wide, living
/// 100 s, no forces; points leaving |z| > 1 die.
fn ribbon_effect(subdivisions: u32) -> EffectDesc {
    EffectDesc {
        name: "ribbon".into(),
        emitters: vec![EmitterDesc {
            rate: 16.0,
            lifetime: Range::constant(100.0),
            size: Range::constant(0.15),
            render: Some(RenderMode::Ribbon {
                subdivisions,
                texture: None,
            }),
            ..Default::default()
        }],
        forces: Forces::NONE,
        blend: Blend::Additive,
        bounds: Some(Bounds {
            min: [-10.0, -10.0, -1.0],
            max: [10.0, 10.0, 1.0],
            on_exit: OnExit::Kill,
            follow_camera: false,
        }),
        ..Default::default()
    }
}

/// A scene whose ribbon got one point a frame at each of `points` (the k-th moving at
/// `velocity(k)`), then `extra` frames without spawning; the picture of the last frame.
fn draw_ribbon(
    points: &[Vec3],
    velocity: impl Fn(usize) -> [f32; 3],
    extra: u32,
) -> image::RgbaImage {
    let gpu = common::gpu();
    let mut scene = Scene::new(&gpu, &ribbon_effect(16), 1024, 1, SIZE, camera)
        .unwrap()
        .with_settings(Settings {
            scale: Scale::Full,
            ..common::settings()
        });
    let id = scene.effect;
    for (k, p) in points.iter().enumerate() {
        let v = Velocity::Linear {
            mean: velocity(k),
            variance: [0.0; 3],
        };
        let shape = Shape::Point(p.to_array());
        scene.renderer.set_emitter(id, 0, shape, v, 16.0).unwrap();
        let last = k + 1 == points.len() && extra == 0;
        scene.frame(&gpu, DT, last);
    }
    let shape = Shape::Point([0.0; 3]);
    scene
        .renderer
        .set_emitter(id, 0, shape, Velocity::default(), 0.0)
        .unwrap();
    for f in 0..extra {
        scene.frame(&gpu, DT, f + 1 == extra);
    }
    scene.image(&gpu).unwrap()
}

/// Where a world point lands, in pixels.
fn pixel(x: Vec3) -> Vec2 {
    common::to_pixel(camera(1.0).view_proj(), SIZE, x)
}

fn lit(img: &image::RgbaImage, x: i32, y: i32) -> bool {
    let inside = x >= 0 && y >= 0 && x < SIZE.0 as i32 && y < SIZE.1 as i32;
    inside
        && img.get_pixel(x as u32, y as u32).0[..3]
            .iter()
            .any(|&c| c > 80)
}

/// Whether the ribbon covers `x` within one pixel.
fn covered(img: &image::RgbaImage, x: Vec3) -> bool {
    let p = pixel(x);
    let (px, py) = (p.x.floor() as i32, p.y.floor() as i32);
    (-1..=1).any(|dy| (-1..=1).any(|dx| lit(img, px + dx, py + dy)))
}

/// Pixels of the curve the picture misses, along `samples` (a gap of two pixels or more
/// shows as a run of them).
fn misses(img: &image::RgbaImage, samples: &[Vec3]) -> Vec<Vec2> {
    samples
        .iter()
        .filter(|&&x| !covered(img, x))
        .map(|&x| pixel(x))
        .collect()
}

/// A wave through eight points, unevenly spaced.
fn wave() -> Vec<Vec3> {
    [
        (-3.5, -1.0),
        (-2.5, 0.5),
        (-2.2, 1.2),
        (-1.0, 1.5),
        (0.0, 0.0),
        (0.3, -0.6),
        (1.8, -1.4),
        (3.4, 0.8),
    ]
    .iter()
    .map(|&(x, y)| Vec3::new(x, y, 0.0))
    .collect()
}

#[test]
fn a_ribbon_passes_through_its_points_without_gaps() {
    let points = wave();
    let img = draw_ribbon(&points, |_| [0.0; 3], 0);
    for (k, &p) in points.iter().enumerate() {
        assert!(
            covered(&img, p),
            "control point {k} at {:?} is not drawn",
            pixel(p)
        );
    }
    let missed = misses(&img, &curve(&points, 0.5, 64));
    assert!(
        missed.is_empty(),
        "the ribbon misses {} pixels of its curve: {:?}",
        missed.len(),
        &missed[..missed.len().min(8)]
    );
    // and nothing far from the curve is lit (no stray span joins the ends)
    let near = curve(&points, 0.5, 64)
        .iter()
        .map(|&x| pixel(x))
        .collect::<Vec<_>>();
    for (x, y, px) in img.enumerate_pixels() {
        if px.0[..3].iter().any(|&c| c > 80) {
            let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let d = near.iter().map(|q| q.distance(p)).fold(f32::MAX, f32::min);
            assert!(d < 4.0, "pixel ({x}, {y}) is lit {d:.1} px from the curve");
        }
    }
}

/// Four points where a short span sits between long ones: the uniform spline overshoots
/// into a loop on the short span, the centripetal one does not.
fn hairpin() -> Vec<Vec3> {
    [(-3.0, -2.0), (0.0, 2.0), (0.4, 2.0), (3.0, -2.0)]
        .iter()
        .map(|&(x, y)| Vec3::new(x, y, 0.0))
        .collect()
}

/// Whether the middle span of `points` turns back on itself somewhere (its direction
/// opposes the chord: a cusp or a loop).
fn turns_back(points: &[Vec3], alpha: f32) -> bool {
    let p = [points[0], points[1], points[2], points[3]];
    let chord = p[2] - p[1];
    (0..200).any(|k| {
        let (u, h) = (k as f32 / 200.0, 1e-3);
        let d = catmull_rom(p, alpha, u + h) - catmull_rom(p, alpha, u);
        d.dot(chord) < 0.0
    })
}

#[test]
fn the_centripetal_spline_does_not_loop_where_the_uniform_one_does() {
    let points = hairpin();
    assert!(
        turns_back(&points, 0.0),
        "the test curve must loop under the uniform spline"
    );
    assert!(!turns_back(&points, 0.5), "the centripetal spline loops");
    let img = draw_ribbon(&points, |_| [0.0; 3], 0);
    let centripetal = curve(&points, 0.5, 64);
    let missed = misses(&img, &centripetal);
    assert!(
        missed.is_empty(),
        "the ribbon misses its centripetal curve at {:?}",
        &missed[..missed.len().min(8)]
    );
    // the uniform curve's loop, where it strays from the centripetal one, is not drawn
    let near: Vec<Vec2> = centripetal.iter().map(|&x| pixel(x)).collect();
    let strays: Vec<Vec3> = curve(&points, 0.0, 64)
        .into_iter()
        .filter(|&x| near.iter().all(|q| q.distance(pixel(x)) > 5.0))
        .collect();
    assert!(
        !strays.is_empty(),
        "the uniform loop must leave the centripetal curve"
    );
    let drawn = strays.iter().filter(|&&x| covered(&img, x)).count();
    assert_eq!(
        drawn,
        0,
        "{drawn} of the uniform loop's {} stray points are drawn",
        strays.len()
    );
}

#[test]
fn a_point_that_dies_leaves_its_neighbours_joined() {
    let points = wave();
    let middle = 3;
    // the middle point flies towards the camera and dies leaving |z| <= 1 after 0.5 s
    let img = draw_ribbon(
        &points,
        |k| {
            if k == middle {
                [0.0, 0.0, 2.0]
            } else {
                [0.0; 3]
            }
        },
        12,
    );
    let mut rest = points.clone();
    let gone = rest.remove(middle);
    let missed = misses(&img, &curve(&rest, 0.5, 64));
    assert!(
        missed.is_empty(),
        "the joined ribbon misses {:?}",
        &missed[..missed.len().min(8)]
    );
    assert!(
        !covered(&img, gone),
        "the dead point at {:?} is still drawn",
        pixel(gone)
    );
}

/// The colour the picture shows at world point `x`: 'r' (red), 'b' (blue) or '?'.
fn colour_at(img: &image::RgbaImage, x: Vec3) -> char {
    common::red_or_blue(img, pixel(x))
}

#[test]
fn an_alpha_ribbon_sorts_piece_by_piece_among_its_effects_particles() {
    // a big opaque red disc at the origin, facing the camera, and a blue alpha ribbon that
    // runs through it from behind (z = -2) to in front (z = 2): where the ribbon is behind
    // the disc the disc covers it, where it is in front it covers the disc
    let disc = EmitterDesc {
        rate: 0.0,
        bursts: vec![Burst::once(0.0, 1)],
        lifetime: Range::constant(100.0),
        size: Range::constant(4.0),
        color: ColorRange::new([1.0, 0.0, 0.0, 1.0], [0.0; 4]),
        ..Default::default()
    };
    let ribbon = EmitterDesc {
        rate: 16.0,
        lifetime: Range::constant(100.0),
        size: Range::constant(0.5),
        color: ColorRange::new([0.0, 0.0, 1.0, 1.0], [0.0; 4]),
        render: Some(RenderMode::Ribbon {
            subdivisions: 4,
            texture: None,
        }),
        ..Default::default()
    };
    let effect = EffectDesc {
        name: "crossing".into(),
        emitters: vec![disc, ribbon],
        forces: Forces::NONE,
        blend: Blend::Alpha,
        ..Default::default()
    };
    let gpu = common::gpu();
    let mut scene = Scene::new(&gpu, &effect, 1024, 1, SIZE, camera)
        .unwrap()
        .with_settings(Settings {
            scale: Scale::Full,
            ..common::settings()
        });
    let id = scene.effect;
    let along = |t: f32| Vec3::new(-2.0 + 4.0 * t, 0.0, -2.0 + 4.0 * t);
    let points = 17;
    for k in 0..points {
        let shape = Shape::Point(along(k as f32 / (points - 1) as f32).to_array());
        let still = Velocity::default();
        scene
            .renderer
            .set_emitter(id, 1, shape, still, 16.0)
            .unwrap();
        scene.frame(&gpu, DT, k + 1 == points);
    }
    let img = scene.image(&gpu).unwrap();
    let snap = scene.snapshot(&gpu).unwrap();
    snap.check().unwrap();
    // the disc is the one particle the visible list names (the ribbon's are triangles)
    assert_eq!(snap.stats.visible, 1);
    let seen: String = [0.3, 0.35, 0.4, 0.6, 0.65, 0.7]
        .iter()
        .map(|&t| colour_at(&img, along(t)))
        .collect();
    assert_eq!(seen, "rrrbbb", "behind the disc, then in front of it");
}

#[test]
fn a_dense_ribbon_is_drawn_in_few_pieces_and_without_gaps() {
    // 4,096 points a second thrown up and across from the origin, all on one parabola:
    // after half a second 2,048 of them lie along it, hundreds to the pixel
    let v = Vec3::new(3.0, 4.0, 0.0);
    let g = Vec3::new(0.0, -9.81, 0.0);
    let effect = EffectDesc {
        name: "dense".into(),
        emitters: vec![EmitterDesc {
            rate: 4096.0,
            lifetime: Range::constant(100.0),
            size: Range::constant(0.1),
            velocity: Velocity::Linear {
                mean: v.to_array(),
                variance: [0.0; 3],
            },
            render: Some(RenderMode::Ribbon {
                subdivisions: 4,
                texture: None,
            }),
            ..Default::default()
        }],
        forces: Forces {
            gravity: g.to_array(),
            ..Forces::NONE
        },
        blend: Blend::Additive,
        ..Default::default()
    };
    let gpu = common::gpu();
    let mut scene = Scene::new(&gpu, &effect, 4096, 1, SIZE, camera)
        .unwrap()
        .with_settings(Settings {
            scale: Scale::Full,
            ..common::settings()
        });
    // steps of 1/256 s, so that Euler's error (g t dt / 2) stays under a tenth of a pixel
    let frames = 128;
    for f in 0..frames {
        scene.frame(&gpu, 1.0 / 256.0, f + 1 == frames);
    }
    let img = scene.image(&gpu).unwrap();
    let snap = scene.snapshot(&gpu).unwrap();
    let points = snap.stats.alive;
    assert!(points > 2000, "{points} points");
    // the visible list holds only the ribbon's pieces here (no particle is a dot)
    let pieces = snap.counters.visible;
    assert!(
        pieces * 8 < points,
        "{pieces} pieces for {points} points: runs of spans within a few pixels are one piece"
    );
    // the path away from its ends (the newest and oldest points' ages depend on when in
    // its frame each was born)
    let path: Vec<Vec3> = (0..=200)
        .map(|k| {
            let t = 0.1 + 0.3 * k as f32 / 200.0;
            v * t + 0.5 * g * t * t
        })
        .collect();
    let missed = misses(&img, &path);
    assert!(
        missed.is_empty(),
        "the ribbon misses its path at {:?}",
        &missed[..missed.len().min(8)]
    );
}

#[test]
fn bad_ribbons_are_refused_by_field() {
    let mut effect = ribbon_effect(17);
    effect.render = RenderMode::Ribbon {
        subdivisions: 20,
        texture: None,
    };
    effect.emitters.push(EmitterDesc {
        trigger: Trigger::OnHit { count: 2 },
        ..Default::default()
    });
    effect.collision = Some(Collision::new(Response::Kill));
    let problems: Vec<String> = effect.problems().iter().map(|p| p.to_string()).collect();
    let has = |s: &str| problems.iter().any(|p| p.starts_with(s));
    assert!(
        has("emitters[0].render.Ribbon.subdivisions = 17: allowed 0..=16"),
        "{problems:?}"
    );
    assert!(has("render.Ribbon.subdivisions = 20"), "{problems:?}");
    // the effect's ribbon render reaches the event emitter, whose points have no order
    assert!(has("emitters[1].trigger = OnHit"), "{problems:?}");
    let text = "(emitters: [(rate: 5.0, render: Some(Ribbon(subdivisions: 4)))])";
    let desc = EffectDesc::from_ron(text).unwrap();
    assert_eq!(
        desc.emitters[0].render,
        Some(RenderMode::Ribbon {
            subdivisions: 4,
            texture: None
        })
    );
}

/// An effect with ribbons whose other emitter's particles are dots (each within two pixels'
/// square, splatted by a kernel of their own) counts each dot once, after its ribbon pieces
/// joined its visible list too: its splatted particles are no more than its alive ones,
/// and the splat list names each of them once.
#[test]
fn an_effect_with_ribbons_counts_its_dots_once() {
    let gpu = common::gpu();
    let mut effect = ribbon_effect(4);
    effect.emitters.push(EmitterDesc {
        shape: Shape::Sphere {
            center: [0.0; 3],
            radius: 0.9,
            surface: false,
        },
        bursts: vec![Burst::once(0.0, 2000)],
        lifetime: Range::constant(100.0),
        // (about a fifth of a pixel in radius, 10 m away)
        size: Range::constant(0.01),
        ..Default::default()
    });
    let mut scene = Scene::new(&gpu, &effect, 4096, 1, SIZE, camera).unwrap();
    for _ in 0..5 {
        scene.frame(&gpu, DT, true);
    }
    let snap = scene.snapshot(&gpu).unwrap();
    snap.check().unwrap();
    let s = snap.stats;
    assert!(
        s.splatted >= 1900 && s.splatted <= s.alive,
        "{} splatted of {} alive",
        s.splatted,
        s.alive
    );
    let mut listed = snap.splat.clone();
    listed.sort_unstable();
    listed.dedup();
    assert_eq!(listed.len(), snap.splat.len(), "a particle splatted twice");
}
