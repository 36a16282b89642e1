//! An effect file edited while it runs: a good edit is picked up, a bad one is refused with
//! its field, value and range and the last good effect stays.

mod common;

use common::host::live_effect::{LiveEffect, Reload};

#[test]
fn a_bad_edit_keeps_the_last_good_effect_and_a_good_one_replaces_it() {
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("live.ron");
    let fountain = include_str!("../effects/fountain.ron");
    std::fs::write(&path, fountain).unwrap();
    let mut live = LiveEffect::open(&path).unwrap();
    let rate = live.good().emitters[0].rate;
    assert!(matches!(live.poll(), Reload::Unchanged));

    // a bad edit: the field, its value and the range are reported; the effect stays
    std::fs::write(&path, fountain.replacen("rate: 4000.0", "rate: -7.0", 1)).unwrap();
    match live.poll() {
        Reload::Refused(why) => assert!(
            why.contains("emitters[0].rate = -7") && why.contains("0..=1e9"),
            "{why}"
        ),
        other => panic!("a bad edit gave {other:?}"),
    }
    assert_eq!(live.good().emitters[0].rate, rate);
    assert!(
        matches!(live.poll(), Reload::Unchanged),
        "refused once, not every poll"
    );

    // a good edit (of another length, so it is a new version even within one clock tick)
    std::fs::write(&path, fountain.replacen("rate: 4000.0", "rate: 250.0", 1)).unwrap();
    assert!(matches!(live.poll(), Reload::Reloaded));
    assert_eq!(live.good().emitters[0].rate, 250.0);

    // a file that vanished mid-save is looked at again later, the effect stays
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(live.poll(), Reload::Unchanged));
    std::fs::write(&path, fountain).unwrap();
    assert!(matches!(live.poll(), Reload::Reloaded));
    assert_eq!(live.good().emitters[0].rate, rate);
}

#[test]
fn an_edit_of_an_imported_module_reloads_the_effect() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("live-modules");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("modules")).unwrap();
    let vortex = include_str!("../effects/vortex.ron");
    let module = include_str!("../effects/modules/vortex.ron");
    let path = dir.join("vortex.ron");
    std::fs::write(&path, vortex).unwrap();
    std::fs::write(dir.join("modules/vortex.ron"), module).unwrap();
    let mut live = LiveEffect::open(&path).unwrap();
    assert!(matches!(live.poll(), Reload::Unchanged));
    let body = |d: &flurry::EffectDesc| d.imported[0].functions["inward"].body.to_string();
    assert!(!body(live.good()).contains("0.5"));

    // the module changes: the effect is read again with it
    let halved = module.replace(
        "-(position - center - normalize(axis) * dot(position - center, normalize(axis))) * strength",
        "-(position - center - normalize(axis) * dot(position - center, normalize(axis))) * strength * 0.5",
    );
    assert_ne!(halved, module);
    std::fs::write(dir.join("modules/vortex.ron"), &halved).unwrap();
    assert!(matches!(live.poll(), Reload::Reloaded));
    assert!(body(live.good()).contains("0.5"), "{}", body(live.good()));

    // a module that goes missing is refused naming the import; the effect stays
    std::fs::remove_file(dir.join("modules/vortex.ron")).unwrap();
    match live.poll() {
        Reload::Refused(why) => assert!(
            why.contains("imports[0] `modules/vortex.ron`: cannot read"),
            "{why}"
        ),
        other => panic!("a missing module gave {other:?}"),
    }
    std::fs::write(dir.join("modules/vortex.ron"), module).unwrap();
    assert!(matches!(live.poll(), Reload::Reloaded));
}
