//! Navigation for walkers: a map of streets and buildings ([`CityMap`]) and the fields
//! computed from it on the GPU ([`DistanceField`]: how far every cell is from a wall;
//! [`FlowField`]: how far every cell is from a destination, on foot).

mod field;
mod flow;
mod map;
mod walkers;

pub use field::DistanceField;
pub use flow::{Distances, FlowField, WallCost};
pub use map::{CityMap, MAX_MAP_SIDE};
pub(crate) use walkers::{WalkerInputs, Walkers};
