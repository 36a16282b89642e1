//! The shipped effect files describe what the demos show.

use flurry::demos::gun;
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
fn fireworks_ron_bursts_rockets_on_death() {
    let d = shipped("fireworks.ron");
    assert_eq!(d.death_source(), Some(0));
    assert!(d.validate().is_ok());
}

#[test]
fn fireworks_demo_is_the_shipped_file_with_its_burst_sized_to_the_pool() {
    let mut file = shipped("fireworks.ron");
    // 6000 / 12 = 500 sparks a rocket where the file says 400
    let demo = flurry::Demo::Fireworks.effect(6000);
    match &mut file.emitters[1].trigger {
        flurry::effect::Trigger::OnDeath { count, .. } => {
            assert_eq!(*count, 400);
            *count = 500;
        }
        other => panic!("emitter 1 is {other:?}, not the sparks"),
    }
    assert_eq!(file, demo);
}
