//! Shortest walks over a city map on the CPU (Dijkstra's algorithm), to check the GPU's
//! flow fields and the walkers that follow them against.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use flurry::nav::{CityMap, WallCost};

/// A node of Dijkstra's queue: (distance, cell), the nearest first.
#[derive(PartialEq)]
struct Visit(f32, usize);

impl Eq for Visit {}

impl Ord for Visit {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0)
    }
}

impl PartialOrd for Visit {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Walking distances to `goals` by Dijkstra's algorithm, with the flow field's steps and
/// weights (`sdf`: the distance field the GPU computed).
pub fn dijkstra(map: &CityMap, sdf: &[f32], goals: &[(u32, u32)], cost: WallCost) -> Vec<f32> {
    let (w, h) = map.size();
    let (w, h) = (w as i64, h as i64);
    let weight = |i: usize| 1.0 + cost.extra * (1.0 - sdf[i] / cost.range).max(0.0);
    let open = |x: i64, z: i64| !map.is_blocked(x, z);
    let mut dist = vec![f32::INFINITY; (w * h) as usize];
    let mut queue = BinaryHeap::new();
    for &(x, z) in goals {
        let i = (z as i64 * w + x as i64) as usize;
        dist[i] = 0.0;
        queue.push(Visit(0.0, i));
    }
    while let Some(Visit(d, i)) = queue.pop() {
        if d > dist[i] {
            continue;
        }
        let (x, z) = (i as i64 % w, i as i64 / w);
        for (dx, dz) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dz| (dx, dz))) {
            let (nx, nz) = (x + dx, z + dz);
            if (dx, dz) == (0, 0) || !open(nx, nz) {
                continue;
            }
            if dx != 0 && dz != 0 && !(open(x + dx, z) && open(x, z + dz)) {
                continue;
            }
            let j = (nz * w + nx) as usize;
            let length = if dx != 0 && dz != 0 { 2f32.sqrt() } else { 1.0 } * map.cell();
            let nd = d + length * 0.5 * (weight(i) + weight(j));
            if nd < dist[j] {
                dist[j] = nd;
                queue.push(Visit(nd, j));
            }
        }
    }
    dist
}
