//! What an effect names of its host's: meshes (`MeshSource::Host`) and images (a ribbon's
//! texture), which the host adds to the renderer before the effect. The renderer's checks
//! of an added effect read these lists, and a tool can tell a user what a file needs.

use std::path::PathBuf;

use super::{EffectDesc, ImageSource, ImageSprite, MeshSource, RenderMode, Shape, Sprite};
use crate::image::ImageId;

/// The host's meshes and images an effect names ([`EffectDesc::host_assets`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostAssets {
    /// Meshes the host must have added first (`Host(0)` needs one, `Host(2)` three).
    pub meshes: u32,
    /// Images the host must have added first (`image: 0` needs one; files named by path
    /// are loaded by `ParticleRenderer::load_images` (feature `png`)
    /// and not counted).
    pub images: u32,
}

impl HostAssets {
    /// Whether the effect names nothing of its host's.
    pub fn is_empty(&self) -> bool {
        *self == HostAssets::default()
    }
}

impl EffectDesc {
    /// How many meshes and images a host must have added to a renderer before this effect
    /// can be added to it.
    pub fn host_assets(&self) -> HostAssets {
        let count = |most: Option<u32>| most.map_or(0, |n| n.saturating_add(1));
        let meshes = self
            .named_meshes()
            .into_iter()
            .filter_map(|(_, m)| match m {
                MeshSource::Host(id) => Some(id.0),
                _ => None,
            });
        let images = self.named_images().into_iter().map(|(_, id)| id.0);
        HostAssets {
            meshes: count(meshes.max()),
            images: count(images.max()),
        }
    }

    /// Every mesh the effect names, with its field: emitters that spawn on one, mesh
    /// particles.
    pub(crate) fn named_meshes(&self) -> Vec<(String, MeshSource)> {
        let mut named = Vec::new();
        for (i, e) in self.emitters.iter().enumerate() {
            if let Shape::Mesh { mesh, .. } = e.shape {
                named.push((format!("emitters[{i}].shape.Mesh.mesh"), mesh));
            }
            if let Some(RenderMode::Mesh { mesh, .. }) = e.render {
                named.push((format!("emitters[{i}].render.Mesh.mesh"), mesh));
            }
        }
        if let RenderMode::Mesh { mesh, .. } = self.render {
            named.push(("render.Mesh.mesh".into(), mesh));
        }
        named
    }

    /// Every image the effect names by id, with its field: ribbons and particles that
    /// show one.
    pub(crate) fn named_images(&self) -> Vec<(String, ImageId)> {
        let renders = self.emitters.iter().enumerate();
        let renders =
            renders.filter_map(|(i, e)| e.render.map(|r| (format!("emitters[{i}].render"), r)));
        let ribbons = renders
            .chain([("render".to_string(), self.render)])
            .filter_map(|(field, render)| match render {
                RenderMode::Ribbon {
                    texture: Some(t), ..
                } => Some((format!("{field}.Ribbon.texture.image"), t.image)),
                _ => None,
            });
        let sprites = self.image_sprites().into_iter();
        let sprites = sprites.flat_map(|(field, s)| {
            let normals = s.normals.as_ref().map(|n| (format!("{field}.normals"), n));
            [(format!("{field}.image"), &s.image)]
                .into_iter()
                .chain(normals)
                .filter_map(|(field, source)| match source {
                    ImageSource::Id(id) => Some((field, *id)),
                    ImageSource::Path(_) => None,
                })
                .collect::<Vec<_>>()
        });
        ribbons.chain(sprites).collect()
    }

    /// Every image sprite the effect shows, with its field (`sprite.Image`,
    /// `emitters[1].sprite.Image`).
    pub(crate) fn image_sprites(&self) -> Vec<(String, &ImageSprite)> {
        let own = self.emitters.iter().enumerate();
        let own =
            own.filter_map(|(i, e)| e.sprite.as_ref().map(|s| (format!("emitters[{i}]."), s)));
        [(String::new(), &self.sprite)]
            .into_iter()
            .chain(own)
            .filter_map(|(at, sprite)| match sprite {
                Sprite::Image(s) => Some((format!("{at}sprite.Image"), s)),
                _ => None,
            })
            .collect()
    }

    /// The image files the effect names by path (not loaded yet), with their fields.
    pub fn image_paths(&self) -> Vec<(String, PathBuf)> {
        let named = self.image_sprites().into_iter().flat_map(|(field, s)| {
            let normals = s.normals.as_ref().map(|n| (format!("{field}.normals"), n));
            [(format!("{field}.image"), &s.image)]
                .into_iter()
                .chain(normals)
                .collect::<Vec<_>>()
        });
        named
            .filter_map(|(field, source)| match source {
                ImageSource::Path(path) => Some((field, path.clone())),
                ImageSource::Id(_) => None,
            })
            .collect()
    }

    /// Name the image files the effect names by path (relative to `folder`) by the ids
    /// `add` gives each (called once a file, however many sprites name it).
    pub fn resolve_images(
        &mut self,
        folder: &std::path::Path,
        mut add: impl FnMut(&std::path::Path) -> crate::Result<ImageId>,
    ) -> crate::Result<()> {
        let mut added: Vec<(PathBuf, ImageId)> = Vec::new();
        let sprites = std::iter::once(&mut self.sprite)
            .chain(self.emitters.iter_mut().filter_map(|e| e.sprite.as_mut()));
        let sources = sprites.flat_map(|sprite| match sprite {
            Sprite::Image(ImageSprite { image, normals, .. }) => {
                std::iter::once(image).chain(normals.as_mut()).collect()
            }
            _ => Vec::new(),
        });
        for source in sources {
            let ImageSource::Path(path) = source else {
                continue;
            };
            let file = folder.join(&*path);
            let id = match added.iter().find(|(f, _)| *f == file) {
                Some(&(_, id)) => id,
                None => {
                    let id = add(&file)?;
                    added.push((file, id));
                    id
                }
            };
            *source = ImageSource::Id(id);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_sword_needs_a_mesh_and_an_image_and_the_snow_nothing() {
        let sword = EffectDesc::from_ron(include_str!("../../effects/sword.ron")).unwrap();
        let needs = sword.host_assets();
        assert_eq!((needs.meshes, needs.images), (1, 1));
        let snow = EffectDesc::from_ron(include_str!("../../effects/snow.ron")).unwrap();
        assert!(snow.host_assets().is_empty());
    }
}
