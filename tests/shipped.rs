//! The shipped effect files describe what the demos show.

mod common;

use common::host::demos::{crowd, gun, Demo};
use flurry::EffectDesc;

fn shipped(name: &str) -> EffectDesc {
    let path = format!("{}/effects/{name}", env!("CARGO_MANIFEST_DIR"));
    EffectDesc::from_file(path.as_ref()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn gun_ron_is_the_headless_gun_demo() {
    let demo = gun::effect(&gun::player(16.0 / 9.0), true);
    assert_eq!(shipped("gun.ron"), demo);
}

#[test]
fn fireworks_ron_bursts_rockets_on_death_into_trailing_sparks() {
    let d = shipped("fireworks.ron");
    let trigger = d.emitters[1].trigger;
    assert!(
        matches!(trigger, flurry::effect::Trigger::OnDeath { of: 0, .. }),
        "{trigger:?}"
    );
    // and every spark leaves a ribbon trail
    let trail = &d.emitters[2];
    assert!(
        matches!(trail.trigger, flurry::effect::Trigger::Trail { of: 1, .. }),
        "{:?}",
        trail.trigger
    );
    assert!(matches!(
        trail.render,
        Some(flurry::effect::RenderMode::Ribbon { .. })
    ));
    assert!(d.validate().is_ok());
}

#[test]
fn fireworks_demo_is_the_shipped_file_with_its_burst_sized_to_the_pool() {
    let mut file = shipped("fireworks.ron");
    // each spark keeps ceil(0.35 s / 0.04 s) = 9 trail points: 6000 / (12 × 10) = 50
    // sparks a rocket where the file says 400
    let demo = Demo::Fireworks.effect(6000);
    match &mut file.emitters[1].trigger {
        flurry::effect::Trigger::OnDeath { count, .. } => {
            assert_eq!(*count, 400);
            *count = 50;
        }
        other => panic!("emitter 1 is {other:?}, not the sparks"),
    }
    assert_eq!(file, demo);
}

#[test]
fn snow_demo_is_the_shipped_file_with_its_box_filled_to_the_pool() {
    let mut file = shipped("snow.ron");
    file.emitters[0].bursts[0].count = 5000;
    assert_eq!(file, Demo::Snow.effect(5000));
    // tumbling snowflakes, eddies, a box that follows the camera
    assert_eq!(file.render, flurry::effect::RenderMode::Tumbling);
    assert_eq!(file.sprite, flurry::effect::Sprite::Snowflakes);
    assert!(file.forces.turbulence.is_some());
    assert!(file.bounds.is_some_and(|b| b.follow_camera));
}

#[test]
fn rain_demo_is_the_shipped_file_with_its_rate_sized_to_the_pool() {
    let mut file = shipped("rain.ron");
    // written for 65,536 particles
    let demo = Demo::Rain.effect(65_536);
    assert!((file.emitters[0].rate - demo.emitters[0].rate).abs() < 1.0);
    file.emitters[0].rate = demo.emitters[0].rate;
    assert_eq!(file, demo);
    // drops, splashes and ripples: two GPU event emitters
    let triggered = file
        .emitters
        .iter()
        .filter(|e| e.trigger != Default::default());
    assert_eq!(triggered.count(), 2);
}

#[test]
fn embers_ron_spawns_on_a_tetrahedron_along_its_normals() {
    use flurry::effect::{MeshSource, Shape, Velocity};
    let d = shipped("embers.ron");
    assert!(d.validate().is_ok());
    let e = &d.emitters[0];
    assert!(
        matches!(
            e.shape,
            Shape::Mesh {
                mesh: MeshSource::Tetrahedron,
                ..
            }
        ),
        "{:?}",
        e.shape
    );
    assert!(
        matches!(e.velocity, Velocity::Normal { .. }),
        "{:?}",
        e.velocity
    );
}

#[test]
fn streamer_ron_is_one_ribbon() {
    use flurry::effect::RenderMode;
    let d = shipped("streamer.ron");
    assert!(d.validate().is_ok());
    assert_eq!(d.emitters.len(), 1);
    assert!(
        matches!(
            d.emitters[0].render,
            Some(RenderMode::Ribbon {
                subdivisions: 8,
                texture: None
            })
        ),
        "{:?}",
        d.emitters[0].render
    );
}

#[test]
fn debris_ron_is_lit_shards_that_bounce() {
    use flurry::effect::{MeshSource, RenderMode, Response};
    let d = shipped("debris.ron");
    assert!(d.validate().is_ok());
    assert_eq!(
        d.emitters[0].render,
        Some(RenderMode::Mesh {
            mesh: MeshSource::Shard,
            flight: None,
        })
    );
    assert!(matches!(
        d.collision.map(|c| c.response),
        Some(Response::Bounce { .. })
    ));
}

#[test]
fn sword_ron_is_the_sword_demo_with_every_new_kind_of_particle() {
    use flurry::effect::{MeshSource, RenderMode, Shape, Trigger, Velocity};
    let d = shipped("sword.ron");
    assert_eq!(d, Demo::Sword.effect(65_536));
    let has = |f: &dyn Fn(&flurry::effect::EmitterDesc) -> bool| d.emitters.iter().any(f);
    assert!(has(&|e| matches!(
        e.render,
        Some(RenderMode::Ribbon { .. })
    ) && e.trigger == Trigger::Schedule));
    assert!(has(&|e| matches!(e.trigger, Trigger::Trail { .. })));
    assert!(has(&|e| matches!(
        e.shape,
        Shape::Mesh {
            mesh: MeshSource::Host(_),
            ..
        }
    ) && matches!(e.velocity, Velocity::Normal { .. })));
    assert!(has(&|e| matches!(e.render, Some(RenderMode::Mesh { .. }))));
    assert_eq!(Demo::Sword.meshes().len(), 1, "the blade is Host(0)");
    assert_eq!(Demo::Sword.images().len(), 1, "the afterimage is image 0");
    assert!(has(&|e| matches!(
        e.render,
        Some(RenderMode::Ribbon {
            texture: Some(_),
            ..
        })
    )));
}

#[test]
fn the_bench_effect_files_are_valid() {
    let dir = format!("{}/benches/effects", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let desc =
            EffectDesc::from_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // the images they name lie where they say, relative to them
        for (field, image) in desc.image_paths() {
            let file = path.parent().unwrap().join(&image);
            assert!(
                file.is_file(),
                "{}: {field}: {}",
                path.display(),
                file.display()
            );
        }
        n += 1;
    }
    assert_eq!(n, 22, "the twenty-two inputs docs/measurements.md names");
}

#[test]
fn crowd_demo_is_the_shipped_file_with_its_city_sized_to_the_pool() {
    let file = shipped("crowd.ron");
    assert_eq!(crowd::effect(131_072), file);
    // a quarter of the walkers in a quarter of the city (half its side)
    let quarter = crowd::effect(32_768);
    assert_eq!(quarter.crowd.as_ref().unwrap().city.size, [128, 128]);
    assert_eq!(quarter.emitters[0].bursts[0].count, 32_768);
    assert!(quarter.validate().is_ok());
    assert!(matches!(
        file.render,
        flurry::effect::RenderMode::Mesh {
            mesh: flurry::effect::MeshSource::Figure,
            ..
        }
    ));
}

/// A shipped file whose images, named by path beside it, lie there, named as its demo names
/// them: by the ids its renderer gives the shipped images (smoke, flame, fireball, spark,
/// smoke's normals, in that order).
fn shipped_with_images(name: &str) -> EffectDesc {
    let mut desc = shipped(name);
    let shipped_images = ["smoke", "flame", "fireball", "spark", "smoke_normals"];
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("effects");
    for (field, path) in desc.image_paths() {
        assert!(
            folder.join(&path).is_file(),
            "{name}: {field}: {}",
            path.display()
        );
    }
    desc.resolve_images(std::path::Path::new(""), |path| {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let id = shipped_images.iter().position(|&s| s == stem).unwrap();
        Ok(flurry::ImageId(id as u32))
    })
    .unwrap();
    desc
}

#[test]
fn the_demos_written_as_stacks_are_their_shipped_files() {
    let campfire = shipped_with_images("campfire.ron");
    assert_eq!(Demo::Campfire.effect(16_384), campfire);
    assert_eq!(
        Demo::Explosion.effect(16_384),
        shipped_with_images("explosion.ron")
    );
    assert_eq!(campfire.emitters.len(), 3, "flame, sparks, smoke");
    assert!(
        campfire.gradients["flame"].keys.len() >= 4,
        "a multi-key gradient"
    );
    assert!(campfire.attributes.contains_key("heat"));
    // the vortex's forces come from the module file, read by the program as from the disk
    let vortex = shipped("vortex.ron");
    assert_eq!(vortex.imports, ["modules/vortex.ron"]);
    assert_eq!(vortex.imported.len(), 1);
    assert_eq!(Demo::Vortex.effect(65_536), vortex);
    let spell = shipped("spell.ron");
    assert_eq!(Demo::Spell.effect(16_384), spell);
    assert!(spell.parameters.contains_key("tint"));
}

/// The value at a validation path (`emitters[0].shape.Sphere.radius`, `bounds.min[1]`) of an
/// effect serialised (an enum's variant is the key of its fields).
fn at<'a>(effect: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    let mut v = effect;
    for part in path.split('.') {
        let (key, indices) = part.split_once('[').unwrap_or((part, ""));
        if !key.is_empty() {
            v = v.get(key)?;
        }
        for index in indices.split('[').filter(|s| !s.is_empty()) {
            v = v.get(index.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(v)
}

/// What an editor's sliders span: every number validation checks against a range names a
/// number of the effect as it serialises (or one left out at its default), and every
/// shipped effect's numbers lie within.
#[test]
fn every_field_range_names_a_number_of_the_effect_and_the_shipped_ones_lie_within() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/effects");
    let mut files = 0;
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let desc = EffectDesc::from_file(&path).unwrap();
        let value = serde_json::to_value(&desc).unwrap();
        let ranges = desc.field_ranges();
        assert!(
            ranges.len() > 20,
            "{}: {} ranges",
            path.display(),
            ranges.len()
        );
        for r in ranges {
            let Some(x) = at(&value, &r.path) else {
                // a field left out at its default (emission 1): its parent must be there
                let (parent, _) = r.path.rsplit_once('.').unwrap_or(("", &r.path));
                let found = parent.is_empty() || at(&value, parent).is_some_and(|v| v.is_object());
                assert!(found, "{}: nothing at {}", path.display(), r.path);
                continue;
            };
            let x = x
                .as_f64()
                .unwrap_or_else(|| panic!("{}: {} is not a number", path.display(), r.path));
            assert!(
                (r.min as f64..=r.max as f64).contains(&x),
                "{}: {} = {x} outside {}",
                path.display(),
                r.path,
                r.allowed
            );
        }
        files += 1;
    }
    assert!(files >= 10, "only {files} effect files");
}
