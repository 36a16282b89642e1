//! A map walkers move on: a grid of square cells, each free (street) or blocked (building).

use crate::error::{Invalid, Result};
use crate::hash::pcg_hash;

/// Most cells along one side of a map.
pub const MAX_MAP_SIDE: u32 = 4096;

/// A grid of `width` × `height` square cells `cell` metres wide on the ground plane (x, z),
/// row by row from the corner at `origin` (the smallest x and z); each cell free or blocked.
#[derive(Clone, Debug, PartialEq)]
pub struct CityMap {
    cell: f32,
    width: u32,
    height: u32,
    origin: [f32; 2],
    blocked: Vec<bool>,
}

impl CityMap {
    /// A map from its cells (`blocked`, row by row from `origin`, `width` per row), checked
    /// field by field: sides 1..=[`MAX_MAP_SIDE`], a cell 0.01..=1000 m, a finite origin,
    /// `width × height` cells.
    pub fn new(
        cell: f32,
        (width, height): (u32, u32),
        origin: [f32; 2],
        blocked: Vec<bool>,
    ) -> Result<Self> {
        let side = format!("1..={MAX_MAP_SIDE} cells");
        if !(1..=MAX_MAP_SIDE).contains(&width) {
            return Err(Invalid::new("map.width", width, side).into());
        }
        if !(1..=MAX_MAP_SIDE).contains(&height) {
            return Err(Invalid::new("map.height", height, side).into());
        }
        if !(cell.is_finite() && (0.01..=1000.0).contains(&cell)) {
            return Err(Invalid::new("map.cell", cell, "0.01..=1000 m").into());
        }
        if !origin.iter().all(|o| o.is_finite() && o.abs() <= 1e9) {
            let value = format!("{origin:?}");
            return Err(Invalid::new("map.origin", value, "finite, within ±1e9 m").into());
        }
        let cells = width as usize * height as usize;
        if blocked.len() != cells {
            let allowed = format!("{cells} cells ({width} × {height})");
            return Err(
                Invalid::new("map.blocked", format!("{} cells", blocked.len()), allowed).into(),
            );
        }
        Ok(CityMap {
            cell,
            width,
            height,
            origin,
            blocked,
        })
    }

    /// A procedural city: blocks of `block` × `block` cells between streets `street` cells
    /// wide, each block built over (a few left open as squares) with courtyards in the
    /// larger ones, the map centred on the world's origin. The same `seed` gives the same
    /// city.
    pub fn city(
        cell: f32,
        (width, height): (u32, u32),
        (block, street): (u32, u32),
        seed: u32,
    ) -> Result<Self> {
        if !(2..=256).contains(&block) {
            return Err(Invalid::new("city.block", block, "2..=256 cells").into());
        }
        if !(1..=256).contains(&street) {
            return Err(Invalid::new("city.street", street, "1..=256 cells").into());
        }
        let period = block + street;
        let mut blocked = Vec::with_capacity(width as usize * height as usize);
        for y in 0..height {
            for x in 0..width {
                // streets along both axes, starting with one at the map's edge
                let (bx, by) = (x % period, y % period);
                let in_block = bx >= street && by >= street;
                let (ix, iy) = (x / period, y / period);
                let roll = pcg_hash(seed ^ pcg_hash(ix ^ pcg_hash(iy)));
                let square = roll.is_multiple_of(8);
                // a courtyard in the middle of one block in four, if it is big enough
                let (u, v) = (bx - street.min(bx), by - street.min(by));
                let yard = roll % 4 == 1
                    && block >= 6
                    && (2..block - 2).contains(&u)
                    && (2..block - 2).contains(&v);
                blocked.push(in_block && !square && !yard);
            }
        }
        let origin = [-0.5 * width as f32 * cell, -0.5 * height as f32 * cell];
        Self::new(cell, (width, height), origin, blocked)
    }

    /// Metres a cell is wide.
    pub fn cell(&self) -> f32 {
        self.cell
    }

    /// Cells along x and along z.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The corner of cell (0, 0): the smallest x and z, metres.
    pub fn origin(&self) -> [f32; 2] {
        self.origin
    }

    /// Every cell, row by row from the origin (z rows of x cells): true where blocked.
    pub fn blocked(&self) -> &[bool] {
        &self.blocked
    }

    /// Whether cell (x, z) is blocked; cells off the map are.
    pub fn is_blocked(&self, x: i64, z: i64) -> bool {
        let inside = (0..self.width as i64).contains(&x) && (0..self.height as i64).contains(&z);
        !inside || self.blocked[(z * self.width as i64 + x) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_city_has_streets_between_its_blocks_and_is_the_same_for_a_seed() {
        let a = CityMap::city(2.0, (64, 48), (6, 2), 7).unwrap();
        assert_eq!(a, CityMap::city(2.0, (64, 48), (6, 2), 7).unwrap());
        assert_ne!(a, CityMap::city(2.0, (64, 48), (6, 2), 8).unwrap());
        // every street cell is free: rows and columns 0, 1, 8, 9, ...
        for z in 0..48 {
            for x in 0..64 {
                if x % 8 < 2 || z % 8 < 2 {
                    assert!(!a.is_blocked(x, z), "street cell ({x}, {z}) is blocked");
                }
            }
        }
        let built = a.blocked().iter().filter(|&&b| b).count();
        assert!(built > 64 * 48 / 3, "only {built} cells built over");
        assert_eq!(a.origin(), [-64.0, -48.0]);
        assert!(a.is_blocked(-1, 0) && a.is_blocked(0, 48));
    }

    #[test]
    fn a_bad_map_is_refused_by_field() {
        let err = CityMap::new(1.0, (0, 4), [0.0; 2], vec![])
            .unwrap_err()
            .to_string();
        assert!(err.contains("map.width = 0"), "{err}");
        let err = CityMap::new(f32::NAN, (2, 2), [0.0; 2], vec![false; 4])
            .unwrap_err()
            .to_string();
        assert!(err.contains("map.cell"), "{err}");
        let err = CityMap::new(1.0, (2, 2), [0.0; 2], vec![false; 3])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("map.blocked = 3 cells: allowed 4 cells (2 × 2)"),
            "{err}"
        );
        let err = CityMap::city(1.0, (8, 8), (1, 2), 0)
            .unwrap_err()
            .to_string();
        assert!(err.contains("city.block = 1"), "{err}");
    }
}
