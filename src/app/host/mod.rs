//! The program's host of the render node: the built-in demos, a stand-in scene, an
//! offscreen target and the loop that runs them, written against flurry's public API as any
//! host would be. The integration tests run the same host (`tests/common` mounts this
//! module), so nothing here may refer to the rest of the program.

pub mod city;
pub mod demos;
pub mod error;
pub mod headless;
pub mod live_effect;
pub mod post;
pub mod projection;
pub mod scene;
pub mod stage;
pub mod timing;

pub use error::{AppError, Result};
pub use headless::HeadlessTarget;
pub use projection::HostSetup;
// the tests run every convention; the program draws in the standard one
#[allow(unused_imports)]
pub use projection::Projection;
pub use scene::Scene;
pub use stage::Stage;
