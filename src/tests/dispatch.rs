//! Dispatches that cover any count a pool allows: a dispatch past 65,535 workgroups in one
//! dimension is dropped whole by wgpu, so the argument passes lay large ones out in two
//! dimensions. Tested without a big pool: huge counts are written into a small pool's
//! counters, the argument passes run, and the arguments they write are read back.

use super::{snow, Solo};
use crate::effect::EffectDesc;
use crate::passes::args::After;
use crate::passes::sort::SortPass;
use crate::readback::read_buffer;
use crate::types::{dispatch_size, Counters, IndirectArgs, MAX_GROUPS_X, WORKGROUP};

/// A dispatch within the limits whose threads cover `count` (and, for a whole number of
/// power-of-two workgroups, exactly).
fn covers(d: [u32; 3], count: u32, what: &str) {
    let [x, y, z] = d;
    assert!(
        x <= MAX_GROUPS_X && y <= MAX_GROUPS_X && z == 1,
        "{what}: {d:?}"
    );
    let threads = x as u64 * y as u64 * WORKGROUP as u64;
    assert!(
        threads >= count as u64,
        "{what}: {d:?} covers {threads} < {count}"
    );
    let groups = (count as u64).div_ceil(WORKGROUP as u64);
    assert!(
        x as u64 * y as u64 - groups < (x as u64).max(1),
        "{what}: {d:?} runs a whole row of workgroups past {groups}"
    );
    if groups.is_power_of_two() {
        assert_eq!(
            x as u64 * y as u64,
            groups,
            "{what}: {d:?} for {groups} groups"
        );
    }
}

#[test]
fn dispatch_sizes_stay_within_the_limit_for_any_count() {
    for count in [
        0,
        1,
        64,
        65_535 * 64,
        65_535 * 64 + 1,
        4_194_304,
        16_777_216,
        (1 << 31) - 1,
        u32::MAX - 63,
    ] {
        covers(dispatch_size(count), count, &format!("{count} threads"));
    }
}

/// The counters of a pool of 16,777,216 (or 2^31 − 1) particles, written into a small one.
fn huge(count: u32) -> Counters {
    Counters {
        alive: count,
        next_alive: count,
        visible: count,
        splatted: count,
        ..Default::default()
    }
}

#[test]
fn argument_passes_cover_counts_past_the_dispatch_limit() {
    let solo = Solo::new(&snow(8192), 8192, 1);
    let pool = solo.system.pool();
    for count in [16_777_216u32, (1 << 31) - 1] {
        let read_args = |after: After| arguments_from(&solo, &huge(count), after);
        let after_emit = read_args(After::Emit);
        covers(after_emit.sim, count, "the alive list after emit");
        // more alive than the pool holds: simulate runs over its slots, never its list
        assert_eq!(after_emit.step_list, [0, 1, 1], "simulate over the list");
        covers(
            after_emit.step_slots,
            pool.capacity,
            "simulate over the slots",
        );
        let after_simulate = read_args(After::Simulate);
        covers(after_simulate.sim, count, "the alive list after simulate");
        covers(after_simulate.cull, count, "cull");
        covers(
            read_args(After::Spawn).cull,
            count,
            "cull after the hit spawns",
        );
        let after_cull = read_args(After::Cull);
        covers(after_cull.splat, count, "splat");
        assert_eq!(after_cull.draw[1], count, "draw instances");
    }
}

/// The arguments `after` writes from `counters` written into `solo`'s pool.
fn arguments_from(solo: &Solo, counters: &Counters, after: After) -> IndirectArgs {
    let (device, queue) = (&solo.gpu.device, &solo.gpu.queue);
    let pool = solo.system.pool();
    queue.write_buffer(
        &pool.counters.buffer,
        pool.counters.offset,
        bytemuck::bytes_of(counters),
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        solo.system
            .record_arguments(&solo.pipelines, &mut pass, after);
    }
    queue.submit([encoder.finish()]);
    let size = std::mem::size_of::<IndirectArgs>() as u64;
    let bytes = read_buffer(device, queue, &pool.args, 0, size).unwrap();
    bytemuck::pod_read_unaligned(&bytes)
}

#[test]
fn the_argument_passes_size_simulate_over_the_slots_of_a_pool_three_quarters_full() {
    let capacity = 8192;
    let solo = Solo::new(&snow(capacity), capacity, 1);
    for after in [After::Emit, After::Simulate, After::Spawn] {
        for (alive, by_slot) in [
            (0, false),
            (1, false),
            (6143, false),
            (6144, true),
            (8192, true),
        ] {
            let counters = Counters {
                alive,
                next_alive: alive,
                ..Default::default()
            };
            let args = arguments_from(&solo, &counters, after);
            let what = format!("{alive} alive after {after:?}");
            let (list, slots) = match by_slot {
                true => ([0, 1, 1], dispatch_size(capacity)),
                false => (dispatch_size(alive), [0, 1, 1]),
            };
            assert_eq!(
                (args.step_list, args.step_slots),
                (list, slots),
                "{what}: simulate"
            );
            assert_eq!(
                args.sim,
                dispatch_size(alive),
                "{what}: the passes over the list"
            );
        }
    }
}

#[test]
fn relist_copies_the_survivors_back_only_after_a_step_through_the_list() {
    // snow steps over the slots of a pool three quarters full, listing its survivors in
    // the current list itself; rain (depth collision) always steps through its list
    let capacity = 8192;
    let snow = Solo::new(&snow(capacity), capacity, 1);
    let rain = EffectDesc::from_ron(include_str!("../../effects/rain.ron")).unwrap();
    let rain = Solo::new(&rain, capacity, 1);
    for (solo, name, alive, over_slots) in [
        (&snow, "snow", 6143, false),
        (&snow, "snow", 6144, true),
        (&snow, "snow", 8192, true),
        (&rain, "rain", 8192, false),
        (&rain, "rain", 16_777_216, false),
    ] {
        let what = format!("{alive} {name} alive");
        let stepped = |next_alive| Counters {
            alive,
            next_alive,
            ..Default::default()
        };
        let step = arguments_from(solo, &stepped(0), After::Emit);
        let slots = step.step_slots != [0, 1, 1];
        assert_eq!(slots, over_slots, "{what}: the step over the slots");
        assert_eq!(
            step.step_list == [0, 1, 1],
            over_slots,
            "{what}: through the list"
        );
        let survivors = alive - alive / 8;
        let after = arguments_from(solo, &stepped(survivors), After::Simulate);
        if over_slots {
            assert_eq!(after.relist, [0, 1, 1], "{what}: relist");
        } else {
            covers(after.relist, survivors, &format!("{what}: relist"));
        }
    }
}

#[test]
fn sort_arguments_cover_sixteen_million_keys() {
    // the sort of 2^24 visible pairs: its steps of one pair group per thread need 2^23
    // threads, 131,072 workgroups
    let solo = Solo::new(&snow(8192), 8192, 1);
    let (device, queue) = (&solo.gpu.device, &solo.gpu.queue);
    let pool = solo.system.pool();
    let count = 16_777_216u32;
    queue.write_buffer(
        &pool.counters.buffer,
        pool.counters.offset,
        bytemuck::bytes_of(&huge(count)),
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    let plan = {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        solo.system
            .record_sort_arguments(&solo.pipelines, &mut pass)
            .expect("snow sorts")
    };
    queue.submit([encoder.finish()]);
    let dispatches = plan.dispatches() - 1; // the argument pass is dispatch 0
    let bytes = read_buffer(
        device,
        queue,
        plan.dispatch_buffer(),
        0,
        12 * dispatches as u64,
    );
    let words: Vec<u32> = bytemuck::pod_collect_to_vec(&bytes.unwrap());
    let mut largest = 0;
    for (i, d) in words.chunks(3).enumerate() {
        let (k, _, steps) = SortPass::describe(plan, i + 1).expect("a sort dispatch");
        let threads = if k <= count { count >> steps } else { 0 };
        covers([d[0], d[1], d[2]], threads, &format!("sort dispatch {i}"));
        largest = largest.max(threads);
    }
    assert!(
        largest > MAX_GROUPS_X * WORKGROUP,
        "a weak test: {largest} threads at most"
    );
}

#[test]
fn hit_spawns_past_the_pool_are_counted_dropped_not_lost() {
    // 4,096 hits of an effect spawning 1,024 particles per hit ask for 4,194,304 spawns
    // (65,536 workgroups, one past the limit): a pool of 4,096 takes 4,096, the rest are
    // counted as dropped, and every one as requested
    use crate::effect::{Collision, Response, Trigger};
    let mut desc = snow(0);
    desc.emitters[0].bursts.clear();
    desc.emitters[0].rate = 0.0;
    let mut splash = desc.emitters[0].clone();
    splash.trigger = Trigger::OnHit { count: 1024 };
    desc.emitters.push(splash);
    desc.collision = Some(Collision::new(Response::Kill));
    let solo = Solo::new(&desc, 4096, 1);
    let (device, queue) = (&solo.gpu.device, &solo.gpu.queue);
    let pool = solo.system.pool();
    let mut counters = solo.snapshot().counters;
    counters.events = 4096;
    queue.write_buffer(
        &pool.counters.buffer,
        pool.counters.offset,
        bytemuck::bytes_of(&counters),
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        solo.system.record_hit_spawns(&solo.pipelines, &mut pass);
    }
    queue.submit([encoder.finish()]);
    let c = solo.snapshot().counters;
    let wanted = 4096 * 1024;
    assert_eq!(c.emitted_total(), 4096);
    assert_eq!(c.alive, 4096);
    assert_eq!(c.hit_spawned_total(), wanted);
    assert_eq!(c.dropped_total(), wanted - 4096);
}

#[test]
fn sort_plans_for_the_largest_lengths_are_bounded() {
    // a plan counts its stages by exponent: 2^31 pairs (the largest power of two of a u32)
    // plans 31 stages, where doubling k would wrap to 0 and never stop
    let gpu = super::gpu();
    for capacity in [1 << 31, u32::MAX] {
        // (their step tables are never copied in: only their plans are looked at)
        let mut uploads = crate::uploads::Uploads::default();
        let plan = (&gpu.device, &mut uploads);
        let bitonic = crate::passes::sort::SortPlan::bitonic(plan, capacity);
        assert_eq!(bitonic.len(), 1 << 31);
        // one chunk sort, then the stages 2^8 ..= 2^31 in groups of up to seven steps
        let fused: usize = (8..=31u32).map(|s| s.div_ceil(7) as usize).sum();
        assert_eq!(bitonic.dispatches(), 1 + 1 + fused);
        let naive = crate::passes::sort::SortPlan::naive((&gpu.device, &mut uploads), capacity);
        assert_eq!(naive.dispatches(), (1..=31).sum::<usize>());
    }
}
