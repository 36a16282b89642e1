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
