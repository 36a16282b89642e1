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
