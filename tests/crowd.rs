//! A crowd as its effect describes it: walkers never set foot in a building, reach their
//! destinations about as fast as their shortest way at their speed allows, and change state
//! as the state table says (how long each state lasts, and what follows it).

mod common;

use common::host::demos::crowd;
use common::host::Scene;
use common::paths::dijkstra;
use flurry::effect::{Crowd, EffectDesc, Gait, Range, WalkerState};
use flurry::glam::Vec3;
use flurry::nav::{CityMap, WallCost};
use flurry::{Camera, GpuContext, PoolSnapshot};

/// A state of the table that lasts `duration` seconds on average.
fn state(name: &str, speed: f32, duration: f32, next: &[(&str, f32)]) -> WalkerState {
    WalkerState {
        name: name.into(),
        speed: Range::new(speed, if speed > 0.0 { 0.25 } else { 0.0 }),
        gait: if speed > 0.0 { Gait::Walk } else { Gait::Stand },
        duration,
        next: next.iter().map(|&(n, p)| (n.into(), p)).collect(),
    }
}

/// The crowd demo's effect for `walkers` in a city of `side` × `side` cells, its table
/// replaced by `states` (walkers start in the first; `arrived` on arrival).
fn crowd_effect(walkers: u32, side: u32, states: Vec<WalkerState>, arrived: &str) -> EffectDesc {
    let mut desc = crowd::effect(walkers);
    let c: &mut Crowd = desc.crowd.as_mut().unwrap();
    c.city.size = [side, side];
    c.states = states;
    c.arrived = arrived.into();
    desc.validate().unwrap();
    desc
}

fn scene(gpu: &GpuContext, desc: &EffectDesc, walkers: u32) -> Scene {
    let camera = |a| Camera::look_at(Vec3::new(0.0, 80.0, 60.0), Vec3::ZERO, a);
    Scene::new(gpu, desc, walkers, 11, (64, 48), camera).unwrap()
}

/// The map cell (x, z) a position lies in, None off the map.
fn cell_of(map: &CityMap, pos: Vec3) -> Option<(u32, u32)> {
    let [x0, z0] = map.origin();
    let (w, h) = map.size();
    let x = ((pos.x - x0) / map.cell()).floor();
    let z = ((pos.z - z0) / map.cell()).floor();
    let inside = x >= 0.0 && z >= 0.0 && x < w as f32 && z < h as f32;
    inside.then_some((x as u32, z as u32))
}

/// Every living walker's slot whose position is in a building or off the map.
fn trespassers(map: &CityMap, snap: &PoolSnapshot) -> Vec<(u32, Vec3)> {
    snap.alive
        .iter()
        .map(|&i| (i, snap.particles[i as usize].pos))
        .filter(|&(_, pos)| match cell_of(map, pos) {
            None => true,
            Some((x, z)) => map.is_blocked(x as i64, z as i64),
        })
        .collect()
}

#[test]
fn walkers_stay_out_of_buildings_and_arrive_about_as_fast_as_their_shortest_way_allows() {
    // 1,024 walkers in a 24 × 24 city of 3 m cells (as busy as the demo's streets), each
    // walking to its destination and then idling for good; 600 steps of 0.2 s (two minutes:
    // time enough for nearly every walker's way). In no frame is any walker in a building. A walker at speed v whose start cell is L metres from
    // its destination's cell by the shortest way (Dijkstra over the map's cells) should be
    // there within 1.5 L / v (plus a frame); at least 90 % of those whose deadline falls
    // within the run are.
    let gpu = common::gpu();
    let states = vec![
        state("walk", 1.3, 1e6, &[("idle", 1.0)]),
        state("idle", 0.0, 1e6, &[("walk", 1.0)]),
    ];
    let desc = crowd_effect(1024, 24, states, "idle");
    let c = desc.crowd.clone().unwrap();
    let map = c.map().unwrap();
    let goals = c.destinations_on(&map);
    assert_eq!(goals.len(), c.destinations as usize);
    let (w, _) = map.size();
    let geometric = WallCost {
        extra: 0.0,
        range: 1.0,
    };
    let no_walls = vec![1.0; map.blocked().len()];
    let ways: Vec<Vec<f32>> = goals
        .iter()
        .map(|&g| dijkstra(&map, &no_walls, &[g], geometric))
        .collect();
    let mut scene = scene(&gpu, &desc, 1024);
    let dt = 0.2;
    scene.frame(&gpu, dt, false);
    let first = scene.snapshot(&gpu).unwrap();
    assert_eq!(first.alive.len(), 1024);
    // (slot, destination, speed, predicted seconds) of every walker, from where it stood
    // (those placed within reach of their destination arrived at once: left out)
    let walkers: Vec<(u32, u32, f32, f32)> = first
        .alive
        .iter()
        .filter(|&&i| first.walkers[i as usize].state == 0)
        .map(|&i| {
            let walker = first.walkers[i as usize];
            let (x, z) = cell_of(&map, first.particles[i as usize].pos).expect("on the map");
            let length = ways[walker.destination as usize][(z * w + x) as usize];
            assert!(length.is_finite(), "walker {i} starts where no way leads");
            (i, walker.destination, walker.speed, length / walker.speed)
        })
        .collect();
    assert!(
        walkers.len() > 900,
        "{} of 1024 walkers set out",
        walkers.len()
    );
    assert!(walkers
        .iter()
        .all(|w| w.2 >= 1.05 - 1e-3 && w.2 <= 1.55 + 1e-3));
    let mut arrived_at = vec![None; walkers.len()];
    let frames = 600;
    for frame in 1..=frames {
        let snap = if frame == 1 {
            first.clone()
        } else {
            scene.frame(&gpu, dt, false);
            scene.snapshot(&gpu).unwrap()
        };
        let inside = trespassers(&map, &snap);
        assert!(
            inside.is_empty(),
            "frame {frame}: walkers in buildings {inside:?}"
        );
        for (k, &(slot, ..)) in walkers.iter().enumerate() {
            if arrived_at[k].is_none() && snap.walkers[slot as usize].state == 1 {
                arrived_at[k] = Some(frame as f32 * dt);
            }
        }
    }
    let run = frames as f32 * dt;
    let judged: Vec<(usize, f32)> = (0..walkers.len())
        .map(|k| (k, 1.5 * walkers[k].3 + dt))
        .filter(|&(_, deadline)| deadline <= run)
        .collect();
    let on_time = judged
        .iter()
        .filter(|&&(k, deadline)| arrived_at[k].is_some_and(|t| t <= deadline))
        .count();
    let share = on_time as f32 / judged.len() as f32;
    assert!(
        judged.len() > 900,
        "only {} walkers' deadlines fall within the run",
        judged.len()
    );
    assert!(
        share >= 0.9,
        "{on_time} of {} walkers arrived within 1.5× their shortest way's time",
        judged.len()
    );
}

/// Chi-square statistic of `observed` counts against `expected` probabilities.
fn chi_square(observed: &[u64], expected: &[f64]) -> f64 {
    let total: u64 = observed.iter().sum();
    observed
        .iter()
        .zip(expected)
        .map(|(&o, &p)| {
            let e = p * total as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum()
}

/// The chi-square distribution's 99th percentile for `df` degrees of freedom (1..=9).
fn critical_99(df: usize) -> f64 {
    [
        6.635, 9.210, 11.345, 13.277, 15.086, 16.812, 18.475, 20.090, 21.666,
    ][df - 1]
}

#[test]
fn states_last_and_follow_each_other_as_the_state_table_says() {
    // 4,096 walkers standing still, changing state on their clocks alone: `a` lasts 1 s on
    // average, then `b` (70 %) or `c` (30 %); `b` lasts 0.5 s, then `a`; `c` 2 s, then `a`
    // or `b` (half each). Over 450 steps of 1/30 s, the stays that began between frames 10
    // and 150 (each then seen to its end or for at least 300 frames): their lengths in
    // frames follow the exponential law of their state's mean (a stay of T seconds lasts
    // ceil(T / dt) frames) and the next states the table's probabilities, both by a
    // chi-square test at 1 %.
    let gpu = common::gpu();
    let states = vec![
        state("a", 0.0, 1.0, &[("b", 0.7), ("c", 0.3)]),
        state("b", 0.0, 0.5, &[("a", 1.0)]),
        state("c", 0.0, 2.0, &[("a", 0.5), ("b", 0.5)]),
    ];
    let desc = crowd_effect(4096, 48, states, "a");
    let means = [1.0f64, 0.5, 2.0];
    let mut scene = scene(&gpu, &desc, 4096);
    let dt = 1.0f32 / 30.0;
    let (frames, window) = (450u32, 10u32..=150);
    // per slot: (state, frame it began, state changes so far)
    let mut now: Vec<Option<(u32, u32, u32)>> = vec![None; 4096];
    // per state: the stays' lengths in frames (None: still going at the end)
    let mut stays: Vec<Vec<Option<u32>>> = vec![Vec::new(); 3];
    let mut next = [[0u64; 3]; 3];
    for frame in 1..=frames {
        scene.frame(&gpu, dt, false);
        let snap = scene.snapshot(&gpu).unwrap();
        for &slot in &snap.alive {
            let w = snap.walkers[slot as usize];
            let entry = &mut now[slot as usize];
            match *entry {
                Some((s, began, changes)) if w.changes != changes => {
                    assert_eq!(w.changes, changes + 1, "two changes in one frame");
                    if window.contains(&began) {
                        stays[s as usize].push(Some(frame - began));
                        next[s as usize][w.state as usize] += 1;
                    }
                    *entry = Some((w.state, frame, w.changes));
                }
                Some(_) => {}
                // its first state began at its birth: not counted
                None => *entry = Some((w.state, u32::MAX, w.changes)),
            }
        }
    }
    for (s, began, _) in now.iter().flatten() {
        if window.contains(began) {
            stays[*s as usize].push(None);
        }
    }
    // what follows: a always b or c (0.7 / 0.3), b always a, c a or b (half each)
    assert_eq!(next[0][0] + next[1][1] + next[1][2] + next[2][2], 0);
    let from_a = chi_square(&next[0][1..], &[0.7, 0.3]);
    assert!(
        from_a < critical_99(1),
        "a → b, c: {:?} (χ² {from_a})",
        next[0]
    );
    let from_c = chi_square(&next[2][..2], &[0.5, 0.5]);
    assert!(
        from_c < critical_99(1),
        "c → a, b: {:?} (χ² {from_c})",
        next[2]
    );
    // how long: nine bins of about equal probability (edges at the law's ninths), the
    // last open
    for (s, mean) in means.iter().enumerate() {
        let n = stays[s].len();
        assert!(n > 2000, "state {s}: only {n} stays");
        let steps = mean / dt as f64;
        // P(length > k frames) = exp(-k / steps)
        let beyond = |k: u32| (-(k as f64) / steps).exp();
        let mut edges = vec![0u32];
        for i in 1..9 {
            let k = (steps * (9.0 / (9.0 - i as f64)).ln()).round() as u32;
            edges.push(k.max(edges[i - 1] + 1));
        }
        assert!(
            *edges.last().unwrap() <= 300,
            "state {s}: bins past the run"
        );
        let mut expected: Vec<f64> = edges
            .windows(2)
            .map(|e| beyond(e[0]) - beyond(e[1]))
            .collect();
        expected.push(beyond(*edges.last().unwrap()));
        let mut observed = vec![0u64; expected.len()];
        for stay in &stays[s] {
            let bin = match stay {
                Some(k) => edges.iter().rposition(|&e| e < *k).unwrap(),
                None => expected.len() - 1,
            };
            observed[bin] += 1;
        }
        let chi = chi_square(&observed, &expected);
        let df = expected.len() - 1;
        assert!(
            chi < critical_99(df),
            "state {s}: lengths {observed:?} against {expected:?} (χ² {chi}, {df} degrees)"
        );
    }
}

#[test]
fn the_navigation_fields_are_computed_at_the_first_frame_and_walkers_steered_every_frame() {
    use flurry::Pass;
    let gpu = common::gpu();
    let desc = crowd::effect(1024);
    let mut scene = scene(&gpu, &desc, 1024);
    let passes = scene.renderer.passes();
    let at = |passes: &[Pass], p: Pass| passes.iter().position(|&q| q == p);
    let (grid, navigation, steer, simulate) = (
        at(&passes, Pass::Grid).unwrap(),
        at(&passes, Pass::Navigation).unwrap(),
        at(&passes, Pass::Crowd).unwrap(),
        at(&passes, Pass::Simulate).unwrap(),
    );
    assert!(
        grid < navigation && navigation < steer && steer < simulate,
        "{passes:?}"
    );
    scene.frame(&gpu, 1.0 / 30.0, false);
    let passes = scene.renderer.passes();
    assert_eq!(at(&passes, Pass::Navigation), None, "{passes:?}");
    assert!(at(&passes, Pass::Crowd).is_some());
    // every walker placed on a street, in the first state, its stream begun
    let snap = scene.snapshot(&gpu).unwrap();
    snap.check().unwrap();
    let map = desc.crowd.as_ref().unwrap().map().unwrap();
    assert!(trespassers(&map, &snap).is_empty());
    for &i in &snap.alive {
        let w = snap.walkers[i as usize];
        assert_eq!((w.assigned, w.owner), (1, snap.particles[i as usize].id));
        assert!(w.changes >= 1);
    }
}

#[test]
fn walkers_stay_out_of_buildings_when_a_frame_is_stepped_in_substeps() {
    // the crowd pass steers before every substep: a frame of six steps of 0.1 s moves a
    // walker no further than each step allows, and never into a building
    let gpu = common::gpu();
    let desc = crowd::effect(1024);
    let map = desc.crowd.as_ref().unwrap().map().unwrap();
    let mut scene = scene(&gpu, &desc, 1024);
    scene.renderer.set_substeps(6).unwrap();
    for frame in 1..=100 {
        scene.frame(&gpu, 0.6, false);
        let snap = scene.snapshot(&gpu).unwrap();
        let inside = trespassers(&map, &snap);
        assert!(
            inside.is_empty(),
            "frame {frame}: walkers in buildings {inside:?}"
        );
    }
}

#[test]
fn walkers_keep_their_speeds_at_any_substep_count() {
    // the demo's crowd (its state table: walking, strolling, running, waiting) of 1,024
    // walkers in a 32 × 32 city, 40 frames of 1/30 s each stepped in 1, 2, 4 or 8 substeps:
    // no walker moves faster than 1.5 times the fastest speed of the table (the most the
    // crowd pass turns a walker's velocity up to) or leaves the ground, and all are finite
    let gpu = common::gpu();
    let mut desc = crowd::effect(1024);
    let c = desc.crowd.as_mut().unwrap();
    c.city.size = [32, 32];
    let fastest = c
        .states
        .iter()
        .map(|s| s.speed.mean + s.speed.variance)
        .fold(0.5, f32::max)
        * 1.5;
    desc.validate().unwrap();
    for substeps in [1, 2, 4, 8] {
        let mut scene = scene(&gpu, &desc, 1024);
        scene.renderer.set_substeps(substeps).unwrap();
        for frame in 1..=40 {
            scene.frame(&gpu, 1.0 / 30.0, false);
            if frame % 10 != 0 {
                continue;
            }
            let snap = scene.snapshot(&gpu).unwrap();
            snap.check().unwrap();
            for &i in &snap.alive {
                let p = snap.particles[i as usize];
                assert!(
                    p.vel.length() <= fastest * 1.001 && p.vel.y == 0.0,
                    "{substeps} substeps, frame {frame}: a walker at {} moves at {} \
                     (at most {fastest} m/s, along the ground)",
                    p.pos,
                    p.vel
                );
            }
        }
    }
}
