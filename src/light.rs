//! The renderer's light: one directional light plus ambient, lighting mesh particles and
//! the billboards of effects with lighting.

use glam::Vec3;

use crate::error::{Invalid, Result};

/// One directional light and an ambient term, set on the renderer
/// ([`ParticleRenderer::set_light`](crate::ParticleRenderer::set_light)): a mesh particle's
/// face of normal n shows its colour × (ambient + light × max(n · direction, 0)); the
/// billboards of an effect with [`Lighting`](crate::effect::Lighting) take a sphere's normal
/// per pixel, wrap lighting and, with shadows, the light the other particles let through.
/// Other billboards, ribbons and trails are not lit (they carry their own light).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Towards the light (any length but zero).
    pub direction: [f32; 3],
    /// The light's linear RGB (0..=1000 per channel).
    pub color: [f32; 3],
    /// Light from everywhere, linear RGB (0..=1000 per channel).
    pub ambient: [f32; 3],
}

/// White light from above (a little to the side, so that no face of an upright box is
/// lit by the ambient alone), a quarter of it as ambient.
impl Default for Light {
    fn default() -> Self {
        Light {
            direction: [0.3, 1.0, 0.2],
            color: [1.0; 3],
            ambient: [0.25; 3],
        }
    }
}

impl Light {
    /// The light checked: a finite non-zero direction, colours in 0..=1000.
    pub(crate) fn check(&self) -> Result<()> {
        let d = Vec3::from(self.direction);
        if !d.is_finite() || d.length() < 1e-6 {
            let allowed = "a finite non-zero vector";
            return Err(Invalid::new("light.direction", format!("{d:?}"), allowed).into());
        }
        for (name, rgb) in [("light.color", self.color), ("light.ambient", self.ambient)] {
            if !rgb
                .iter()
                .all(|c| c.is_finite() && (0.0..=1000.0).contains(c))
            {
                let allowed = "0..=1000 per channel";
                return Err(Invalid::new(name, format!("{rgb:?}"), allowed).into());
            }
        }
        Ok(())
    }

    /// The unit direction towards the light.
    pub(crate) fn unit_direction(&self) -> Vec3 {
        Vec3::from(self.direction).normalize()
    }
}
