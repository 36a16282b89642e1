//! Crowds: the effect's particles are people walking a city's streets, each in a state of
//! the effect's state table, towards one of the city's destinations.

use serde::{Deserialize, Serialize};

use super::schema::{EffectDesc, Range};
use super::validate::Checker;
use crate::error::Result;
use crate::nav::{CityMap, MAX_MAP_SIDE};
use crate::types::{CrowdParams, MAX_DESTINATIONS};

/// Most states a crowd's table may hold.
pub const MAX_STATES: usize = 16;
/// Texels in a row of the state table: the state's own, then the cumulative probabilities
/// of the next state, four to a texel.
pub(crate) const STATE_TEXELS: usize = 1 + MAX_STATES / 4;

/// People walking a city: every particle is a walker. A walker is placed on a street cell
/// that leads everywhere, in the table's first state, and given a destination; in a state of
/// some speed it walks its destination's flow field (the shortest way there on foot, kept off
/// the walls), apart from the walkers around it (within `separation`, found through the
/// effect's `neighbours` grid) and pushed off the walls by the map's distance field. It never
/// steps into a building. When its state's time runs out it draws the next state from the
/// table; on arrival it enters the `arrived` state and picks another destination. The map's
/// distance field and the flow fields are computed on the GPU at the effect's first frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Crowd {
    /// The city they walk in.
    pub city: City,
    /// How many places they walk between (1..=16): street cells at building doors, spread
    /// over the city, chosen from its seed ([`Crowd::destinations_on`]).
    pub destinations: u32,
    /// The state table: what each state does, how long it lasts and what follows
    /// (1..=16 states, names unique). Walkers start in the first.
    pub states: Vec<WalkerState>,
    /// The state a walker enters when it arrives (by name).
    pub arrived: String,
    /// Metres from a destination's centre within which a walker has arrived (0.1..=100).
    pub arrive: f32,
    /// Metres: walkers nearer than this push apart (0.01..=the `neighbours` radius).
    pub separation: f32,
    /// m/s: how fast one walker at distance 0 pushes another away, falling linearly to 0
    /// at `separation` (0..=100).
    pub separate: f32,
    /// Metres from a wall within which a walker is pushed off it (0..=100).
    pub wall: f32,
    /// m/s: the push off a wall at the wall, falling linearly to 0 at `wall` (0..=100).
    pub avoid: f32,
    /// Radians a walker's heading sways either side of its way, each on its own slow
    /// rhythm (0..=1.5).
    pub wander: f32,
    /// Per second: how fast a walker's velocity turns to the one it wants (0.1..=100).
    pub turn: f32,
    /// Metres a walker's body reaches either side of its centre: it never overlaps a
    /// building (0.01..=0.45 of a cell).
    pub radius: f32,
    /// Height of the streets (the walkers' feet), metres.
    pub ground: f32,
}

/// A procedural city ([`CityMap::city`]): blocks of buildings between streets, centred on
/// the world's origin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct City {
    /// Metres a cell is wide (0.1..=100).
    pub cell: f32,
    /// Cells along x and z (8..=4096 each).
    pub size: [u32; 2],
    /// Cells a block of buildings is wide (2..=256).
    pub block: u32,
    /// Cells a street is wide (1..=256).
    pub street: u32,
    /// The same seed gives the same city.
    pub seed: u32,
}

/// One state of the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalkerState {
    /// How other states name it.
    pub name: String,
    /// m/s, drawn uniformly on entering the state (within 0..=20; 0: it stands).
    pub speed: Range,
    /// What its figure does.
    pub gait: Gait,
    /// Mean seconds in the state: each stay is drawn from an exponential distribution of
    /// this mean (0.01..=1e6).
    pub duration: f32,
    /// The states that may follow, by name, each with its probability (0..=1, summing to
    /// 1 within 0.001).
    pub next: Vec<(String, f32)>,
}

/// What a walker's figure does in a state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gait {
    /// Stands, swaying slightly.
    #[default]
    Stand,
    /// Walks: a cycle of two steps every 1.4 m.
    Walk,
    /// Runs: a cycle of two steps every 2.4 m.
    Run,
}

impl Default for City {
    /// 128 × 128 cells of 2 m, blocks of 10 between streets of 4.
    fn default() -> Self {
        City {
            cell: 2.0,
            size: [128, 128],
            block: 10,
            street: 4,
            seed: 1,
        }
    }
}

impl Default for Crowd {
    /// Eight destinations; walkers that walk (1.1–1.5 m/s), sometimes stop to wait or run,
    /// and idle a while where they arrive.
    fn default() -> Self {
        let state = |name: &str, speed, gait, duration, next: &[(&str, f32)]| WalkerState {
            name: name.into(),
            speed,
            gait,
            duration,
            next: next.iter().map(|&(n, p)| (n.into(), p)).collect(),
        };
        Crowd {
            city: City::default(),
            destinations: 8,
            states: vec![
                state(
                    "walk",
                    Range::new(1.3, 0.2),
                    Gait::Walk,
                    20.0,
                    &[("wait", 0.7), ("run", 0.3)],
                ),
                state(
                    "wait",
                    Range::constant(0.0),
                    Gait::Stand,
                    3.0,
                    &[("walk", 1.0)],
                ),
                state(
                    "run",
                    Range::new(3.0, 0.5),
                    Gait::Run,
                    4.0,
                    &[("walk", 1.0)],
                ),
                state(
                    "idle",
                    Range::constant(0.0),
                    Gait::Stand,
                    5.0,
                    &[("walk", 1.0)],
                ),
            ],
            arrived: "idle".into(),
            arrive: 3.0,
            separation: 0.8,
            separate: 1.5,
            wall: 1.5,
            avoid: 1.0,
            wander: 0.3,
            turn: 4.0,
            radius: 0.3,
            ground: 0.0,
        }
    }
}

impl Crowd {
    /// The city's map.
    pub fn map(&self) -> Result<CityMap> {
        let c = self.city;
        CityMap::city(c.cell, (c.size[0], c.size[1]), (c.block, c.street), c.seed)
    }

    /// The destinations on `map` (this crowd's [`Crowd::map`]): cells (x, z), each a street
    /// cell beside a building that every other street cell of the largest connected part of
    /// the map leads to, spread apart, the same for the same city. Fewer than `destinations`
    /// only on a map with fewer doors.
    pub fn destinations_on(&self, map: &CityMap) -> Vec<(u32, u32)> {
        let (w, h) = map.size();
        let reached = largest_part(map);
        let blocked = |x: i64, z: i64| map.is_blocked(x, z);
        let on_map = |x: i64, z: i64| x >= 0 && z >= 0 && x < w as i64 && z < h as i64;
        let mut doors: Vec<(u32, u32)> = (0..h)
            .flat_map(|z| (0..w).map(move |x| (x, z)))
            .filter(|&(x, z)| reached[(z * w + x) as usize])
            .filter(|&(x, z)| {
                let (x, z) = (x as i64, z as i64);
                [(1, 0), (-1, 0), (0, 1), (0, -1)]
                    .iter()
                    .any(|&(dx, dz)| on_map(x + dx, z + dz) && blocked(x + dx, z + dz))
            })
            .collect();
        // a fixed shuffle, then the first ones far enough from those taken
        let seed = self.city.seed;
        doors.sort_by_key(|&(x, z)| crate::hash::pcg_hash(seed ^ crate::hash::pcg_hash(z * w + x)));
        let want = (self.destinations as usize).min(doors.len());
        let apart = 0.5 * (w.min(h) as f32) / (want.max(1) as f32).sqrt();
        let mut chosen: Vec<(u32, u32)> = Vec::with_capacity(want);
        for spacing in [apart, 0.5 * apart, 0.0] {
            for &d in &doors {
                if chosen.len() == want {
                    break;
                }
                let far = chosen.iter().all(|c| {
                    let (dx, dz) = (c.0 as f32 - d.0 as f32, c.1 as f32 - d.1 as f32);
                    (dx * dx + dz * dz).sqrt() >= spacing && *c != d
                });
                if far {
                    chosen.push(d);
                }
            }
        }
        chosen
    }

    /// The index of the state named `name`.
    pub fn state_index(&self, name: &str) -> Option<usize> {
        self.states.iter().position(|s| s.name == name)
    }

    /// The state table as the GPU reads it: [`STATE_TEXELS`] texels a row, a row per state.
    pub(crate) fn state_table(&self) -> Vec<[f32; 4]> {
        let mut table = vec![[0.0; 4]; STATE_TEXELS * self.states.len()];
        for (s, state) in self.states.iter().enumerate() {
            let row = &mut table[s * STATE_TEXELS..(s + 1) * STATE_TEXELS];
            let (lo, hi) = (
                state.speed.mean - state.speed.variance,
                state.speed.mean + state.speed.variance,
            );
            row[0] = [
                lo.max(0.0),
                hi.max(0.0),
                state.duration,
                state.gait as u32 as f32,
            ];
            let mut cumulative = 0.0;
            for n in 0..self.states.len() {
                cumulative += state
                    .next
                    .iter()
                    .filter(|(name, _)| *name == self.states[n].name)
                    .map(|(_, p)| p)
                    .sum::<f32>();
                row[1 + n / 4][n % 4] = cumulative;
            }
        }
        table
    }

    /// The GPU's parameters for `map` and its `goals` (cells (x, z)), random `seed`.
    pub(crate) fn params(&self, map: &CityMap, goals: &[(u32, u32)], seed: u32) -> CrowdParams {
        let (width, height) = map.size();
        let mut cells = [glam::UVec4::ZERO; MAX_DESTINATIONS / 4];
        for (i, &(x, z)) in goals.iter().enumerate() {
            cells[i / 4][i % 4] = z * width + x;
        }
        CrowdParams {
            origin: map.origin().into(),
            width,
            height,
            cell: map.cell(),
            destinations: goals.len() as u32,
            states: self.states.len() as u32,
            arrived: self.state_index(&self.arrived).unwrap_or(0) as u32,
            arrive: self.arrive,
            separation: self.separation,
            separate: self.separate,
            wall: self.wall,
            avoid: self.avoid,
            wander: self.wander,
            turn: self.turn,
            radius: self.radius,
            ground: self.ground,
            seed,
            goals: cells,
            ..Default::default()
        }
    }
}

/// The street cells of the largest connected part of `map` (four-neighbour steps).
fn largest_part(map: &CityMap) -> Vec<bool> {
    let (w, h) = map.size();
    let mut part = vec![u32::MAX; (w * h) as usize];
    let mut sizes = Vec::new();
    for start in 0..w * h {
        if part[start as usize] != u32::MAX || map.blocked()[start as usize] {
            continue;
        }
        let label = sizes.len() as u32;
        let mut stack = vec![start];
        part[start as usize] = label;
        let mut size = 0usize;
        while let Some(i) = stack.pop() {
            size += 1;
            let (x, z) = ((i % w) as i64, (i / w) as i64);
            for (dx, dz) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nx, nz) = (x + dx, z + dz);
                if map.is_blocked(nx, nz) {
                    continue;
                }
                let j = (nz * w as i64 + nx) as usize;
                if part[j] == u32::MAX {
                    part[j] = label;
                    stack.push(j as u32);
                }
            }
        }
        sizes.push(size);
    }
    let biggest = (0..sizes.len()).max_by_key(|&l| sizes[l]).unwrap_or(0) as u32;
    part.iter().map(|&l| l == biggest).collect()
}

/// Every out-of-range field of `c`, the crowd of `desc`.
pub(super) fn check(v: &mut Checker, c: &Crowd, desc: &EffectDesc) {
    let Some(radius) = desc.neighbours else {
        let allowed = "a crowd with `neighbours: Some(radius)` (whom each walker keeps apart from)";
        v.fail("crowd", "without neighbours", allowed);
        return;
    };
    for (other, present) in [
        ("flock", desc.flock.is_some()),
        ("self_gravity", desc.self_gravity.is_some()),
        ("bodies", desc.bodies.is_some()),
        ("collision", desc.collision.is_some()),
        ("bounds", desc.bounds.is_some()),
        ("forces.turbulence", desc.forces.turbulence.is_some()),
    ] {
        if present {
            let allowed = format!("a crowd without {other} (walkers move only as they walk)");
            v.fail("crowd", format!("with {other}"), allowed);
        }
    }
    // walkers move only as they walk
    if desc.forces.gravity != [0.0; 3] {
        let value = format!("{:?}", desc.forces.gravity);
        v.fail("forces.gravity", value, "(0, 0, 0) for a crowd");
    }
    if desc.forces.drag != 0.0 {
        v.fail("forces.drag", desc.forces.drag, "0 for a crowd");
    }
    let city = c.city;
    v.range("crowd.city.cell", city.cell, 0.1, 100.0, "0.1..=100 m");
    for (i, side) in city.size.iter().enumerate() {
        if !(8..=MAX_MAP_SIDE).contains(side) {
            v.fail(
                &format!("crowd.city.size[{i}]"),
                side,
                format!("8..={MAX_MAP_SIDE} cells"),
            );
        }
    }
    if !(2..=256).contains(&city.block) {
        v.fail("crowd.city.block", city.block, "2..=256 cells");
    }
    if !(1..=256).contains(&city.street) {
        v.fail("crowd.city.street", city.street, "1..=256 cells");
    }
    if !(1..=MAX_DESTINATIONS as u32).contains(&c.destinations) {
        let allowed = format!("1..={MAX_DESTINATIONS}");
        v.fail("crowd.destinations", c.destinations, allowed);
    }
    states(v, c);
    v.range("crowd.arrive", c.arrive, 0.1, 100.0, "0.1..=100 m");
    if (0.01..=1e3).contains(&radius) {
        let within = format!("0.01..={radius} m (the neighbours radius)");
        v.range("crowd.separation", c.separation, 0.01, radius, &within);
    }
    v.range("crowd.separate", c.separate, 0.0, 100.0, "0..=100 m/s");
    v.range("crowd.wall", c.wall, 0.0, 100.0, "0..=100 m");
    v.range("crowd.avoid", c.avoid, 0.0, 100.0, "0..=100 m/s");
    v.range("crowd.wander", c.wander, 0.0, 1.5, "0..=1.5 radians");
    v.range("crowd.turn", c.turn, 0.1, 100.0, "0.1..=100 per second");
    // (a cell out of its own range is reported as such, not through the radius)
    if (0.1..=100.0).contains(&city.cell) {
        let most = 0.45 * city.cell;
        let allowed = format!("0.01..={most} m (0.45 of a cell)");
        v.range("crowd.radius", c.radius, 0.01, most.max(0.01), &allowed);
    }
    v.range("crowd.ground", c.ground, -1e6, 1e6, "within ±1e6 m");
}

/// The state table: names, speeds, durations, and next states that exist with
/// probabilities that sum to 1.
fn states(v: &mut Checker, c: &Crowd) {
    let n = c.states.len();
    if n == 0 || n > MAX_STATES {
        let allowed = format!("1..={MAX_STATES} states");
        v.fail("crowd.states", format!("{n} states"), allowed);
    }
    for (i, s) in c.states.iter().enumerate() {
        let at = |field: &str| format!("crowd.states[{i}].{field}");
        if s.name.is_empty() || c.states[..i].iter().any(|o| o.name == s.name) {
            v.fail(
                &at("name"),
                format!("{:?}", s.name),
                "a name no other state has",
            );
        }
        let (lo, hi) = (
            s.speed.mean - s.speed.variance,
            s.speed.mean + s.speed.variance,
        );
        let finite = s.speed.mean.is_finite() && s.speed.variance.is_finite();
        if !finite || s.speed.variance < 0.0 || lo < 0.0 || hi > 20.0 {
            let value = format!("{} ± {}", s.speed.mean, s.speed.variance);
            v.fail(&at("speed"), value, "a range within 0..=20 m/s");
        }
        v.range(&at("duration"), s.duration, 0.01, 1e6, "0.01..=1e6 seconds");
        if s.next.is_empty() {
            v.fail(&at("next"), "none", "at least one next state");
        }
        let mut sum = 0.0;
        for (k, (name, p)) in s.next.iter().enumerate() {
            if c.state_index(name).is_none() {
                v.fail(
                    &format!("{}[{k}]", at("next")),
                    format!("{name:?}"),
                    "a state's name",
                );
            }
            v.range(&format!("{}[{k}][1]", at("next")), *p, 0.0, 1.0, "0..=1");
            sum += p;
        }
        if !s.next.is_empty() && (sum - 1.0).abs() > 1e-3 {
            v.fail(
                &at("next"),
                format!("probabilities summing to {sum}"),
                "a sum of 1",
            );
        }
    }
    if c.state_index(&c.arrived).is_none() {
        v.fail(
            "crowd.arrived",
            format!("{:?}", c.arrived),
            "a state's name",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{EmitterDesc, Forces};

    fn crowd_effect(crowd: Crowd) -> EffectDesc {
        EffectDesc {
            emitters: vec![EmitterDesc::default()],
            forces: Forces {
                gravity: [0.0; 3],
                ..Default::default()
            },
            neighbours: Some(1.0),
            crowd: Some(crowd),
            ..Default::default()
        }
    }

    fn errors(desc: &EffectDesc) -> String {
        desc.validate()
            .map_or_else(|e| e.to_string(), |_| String::new())
    }

    #[test]
    fn the_default_crowd_is_valid_and_a_bad_one_is_refused_by_field() {
        assert_eq!(errors(&crowd_effect(Crowd::default())), "");
        let mut c = Crowd::default();
        c.states[0].next = vec![("wait".into(), 0.5), ("nowhere".into(), 0.2)];
        c.states[2].name = "walk".into();
        c.arrived = "home".into();
        c.separation = 2.0;
        c.radius = 1.0;
        c.city.size = [4, 64];
        let err = errors(&crowd_effect(c));
        for want in [
            "crowd.states[0].next[1] = \"nowhere\": allowed a state's name",
            "crowd.states[0].next = probabilities summing to 0.7",
            "crowd.states[2].name = \"walk\"",
            "crowd.arrived = \"home\"",
            "crowd.separation = 2: allowed 0.01..=1 m (the neighbours radius)",
            "crowd.radius = 1: allowed 0.01..=0.9 m (0.45 of a cell)",
            "crowd.city.size[0] = 4: allowed 8..=4096 cells",
        ] {
            assert!(err.contains(want), "{want} not in {err}");
        }
        // a crowd needs the grid, and moves only as it walks
        let mut desc = crowd_effect(Crowd::default());
        desc.neighbours = None;
        assert!(errors(&desc).contains("crowd = without neighbours"));
        let mut desc = crowd_effect(Crowd::default());
        desc.forces.gravity = [0.0, -9.81, 0.0];
        let err = errors(&desc);
        assert!(
            err.contains("forces.gravity = [0.0, -9.81, 0.0]: allowed (0, 0, 0) for a crowd"),
            "{err}"
        );
    }

    #[test]
    fn the_state_table_holds_each_state_and_its_cumulative_next_probabilities() {
        let c = Crowd::default();
        let table = c.state_table();
        assert_eq!(table.len(), STATE_TEXELS * c.states.len());
        // walk: 1.1..1.5 m/s, 20 s, gait Walk; then wait 0.7, run 0.3
        let walk = &table[..STATE_TEXELS];
        let want = [1.1, 1.5, 20.0, 1.0];
        assert!(
            walk[0].iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-6),
            "{walk:?}"
        );
        // states in order walk, wait, run, idle: cumulative 0, 0.7, 1.0, 1.0
        assert_eq!(walk[1], [0.0, 0.7, 1.0, 1.0]);
    }

    #[test]
    fn destinations_are_doors_of_the_connected_streets_spread_apart() {
        let c = Crowd::default();
        let map = c.map().unwrap();
        let goals = c.destinations_on(&map);
        assert_eq!(goals.len(), 8);
        assert_eq!(goals, c.destinations_on(&map), "the same for the same city");
        let reached = largest_part(&map);
        let (w, _) = map.size();
        for &(x, z) in &goals {
            assert!(reached[(z * w + x) as usize], "({x}, {z}) is walled off");
            let beside = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|&(dx, dz)| map.is_blocked(x as i64 + dx, z as i64 + dz));
            assert!(beside, "({x}, {z}) is by no building");
        }
        let closest = goals
            .iter()
            .enumerate()
            .flat_map(|(i, a)| goals[i + 1..].iter().map(move |b| (a, b)))
            .map(|(a, b)| (a.0 as f32 - b.0 as f32).hypot(a.1 as f32 - b.1 as f32))
            .fold(f32::INFINITY, f32::min);
        assert!(closest > 20.0, "two destinations {closest} cells apart");
    }
}
