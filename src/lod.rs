//! Level of detail: an effect that spawns less the farther it is, and mesh particles drawn
//! as lit discs where they span only a few pixels ([`crate::ParticleRenderer::set_lod`]).

use crate::error::{Invalid, Result};

/// The most pixels a mesh particle's impostor may stand in for ([`Lod::mesh_pixels`]).
pub const MAX_MESH_LOD_PIXELS: f32 = 64.0;

/// How an effect thins out with distance and screen size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lod {
    /// Metres from the view's origin to the nearest point of the effect's bounds
    /// ([`crate::ParticleRenderer::bounds`]) within which it spawns at its full rates (an
    /// effect without bounds always does).
    pub near: f32,
    /// Metres at which its rates and bursts have fallen to `far_rates` of themselves,
    /// linearly from `near`; beyond, they stay there.
    pub far: f32,
    /// The share of its rates and bursts kept from `far` on, 0 to 1.
    pub far_rates: f32,
    /// A mesh particle whose mesh spans at most this many pixels of the host's frame in
    /// radius is drawn as a disc lit as the mesh would be (an impostor: a figure a few
    /// pixels tall is a smudge either way, at a fraction of the cost), 0 (always meshes)
    /// to [`MAX_MESH_LOD_PIXELS`].
    pub mesh_pixels: f32,
}

impl Default for Lod {
    /// Full rates within 25 m, a quarter from 100 m on; meshes under 2 pixels as discs.
    fn default() -> Self {
        Lod {
            near: 25.0,
            far: 100.0,
            far_rates: 0.25,
            mesh_pixels: 2.0,
        }
    }
}

impl Lod {
    /// Refuses distances that are negative, not finite or out of order, a share outside 0
    /// to 1 and pixels outside 0 to [`MAX_MESH_LOD_PIXELS`], naming the field.
    pub fn check(&self) -> Result<()> {
        if !(self.near.is_finite() && self.near >= 0.0) {
            return Err(Invalid::new("lod.near", self.near, "metres >= 0").into());
        }
        if !(self.far.is_finite() && self.far >= self.near) {
            let allowed = format!("metres >= near ({})", self.near);
            return Err(Invalid::new("lod.far", self.far, allowed).into());
        }
        if !(0.0..=1.0).contains(&self.far_rates) {
            return Err(Invalid::new("lod.far_rates", self.far_rates, "0 to 1").into());
        }
        if !(0.0..=MAX_MESH_LOD_PIXELS).contains(&self.mesh_pixels) {
            let allowed = format!("0 to {MAX_MESH_LOD_PIXELS} pixels");
            return Err(Invalid::new("lod.mesh_pixels", self.mesh_pixels, allowed).into());
        }
        Ok(())
    }

    /// The share of its rates an effect `distance` metres away keeps.
    pub(crate) fn rates_at(&self, distance: f32) -> f32 {
        if distance <= self.near {
            return 1.0;
        }
        if distance >= self.far {
            return self.far_rates;
        }
        let t = (distance - self.near) / (self.far - self.near);
        1.0 + (self.far_rates - 1.0) * t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_fall_linearly_from_near_to_far_and_stay() {
        let lod = Lod {
            near: 10.0,
            far: 30.0,
            far_rates: 0.2,
            mesh_pixels: 0.0,
        };
        assert_eq!(lod.rates_at(0.0), 1.0);
        assert_eq!(lod.rates_at(10.0), 1.0);
        assert!((lod.rates_at(20.0) - 0.6).abs() < 1e-6);
        assert_eq!(lod.rates_at(30.0), 0.2);
        assert_eq!(lod.rates_at(1e6), 0.2);
    }

    #[test]
    fn settings_out_of_range_are_refused_by_name() {
        assert!(Lod::default().check().is_ok());
        let bad = [
            (
                Lod {
                    near: -1.0,
                    ..Default::default()
                },
                "lod.near",
            ),
            (
                Lod {
                    far: 5.0,
                    ..Default::default()
                },
                "lod.far",
            ),
            (
                Lod {
                    far_rates: 1.5,
                    ..Default::default()
                },
                "lod.far_rates",
            ),
            (
                Lod {
                    mesh_pixels: 100.0,
                    ..Default::default()
                },
                "lod.mesh_pixels",
            ),
        ];
        for (lod, field) in bad {
            let e = lod.check().unwrap_err().to_string();
            assert!(e.contains(field), "{e}");
        }
    }
}
