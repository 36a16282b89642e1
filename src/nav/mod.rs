//! Navigation for walkers: a map of streets and buildings ([`CityMap`]) and the fields
//! computed from it on the GPU ([`DistanceField`]: how far every cell is from a wall).

mod field;
mod map;

pub use field::DistanceField;
pub use map::{CityMap, MAX_MAP_SIDE};
