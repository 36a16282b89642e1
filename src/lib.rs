pub mod shaders;
pub mod types;
