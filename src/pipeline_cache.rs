//! The bytes a host keeps between runs so that the driver need not compile a renderer's
//! pipelines again ([`crate::ParticleRenderer::pipeline_cache`],
//! [`crate::ParticleRenderer::seed_pipeline_cache`]): wgpu's [`wgpu::PipelineCache`] data,
//! framed with what made it and a checksum. wgpu checks its own header but hands the rest to
//! the driver as it is, so a file damaged on disk, or another adapter's, is refused here
//! before the driver sees it.
//!
//! Layout (little-endian): `FLURRYPC`, the format version (u32), the adapter's identity (u32
//! length, UTF-8), the payload's length (u64) and FNV-1a hash (u64), the payload.

/// The frame's first bytes.
const MAGIC: &[u8; 8] = b"FLURRYPC";
/// The frame's layout; bytes of another are refused.
const VERSION: u32 = 1;

/// Why bytes given to [`crate::ParticleRenderer::seed_pipeline_cache`] were not used: the
/// renderer builds its pipelines through an empty cache then, as on a first run. Never a
/// failure: a host notes it and goes on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CacheIgnored {
    /// The device was made without [`wgpu::Features::PIPELINE_CACHE`] (its adapter lacks
    /// it, or the host did not ask for it): there is no cache to seed.
    #[error("the device has no pipeline cache (wgpu::Features::PIPELINE_CACHE not enabled)")]
    Unsupported,
    /// Not bytes of [`crate::ParticleRenderer::pipeline_cache`].
    #[error("not a flurry pipeline cache")]
    NotACache,
    /// Written in another layout (by another version of flurry).
    #[error("written in another layout (version {found}, this flurry reads {VERSION})")]
    OtherVersion {
        /// The layout's version the bytes name.
        found: u32,
    },
    /// Made for another adapter or driver (named).
    #[error("made for another adapter or driver ({adapter})")]
    OtherAdapter {
        /// The adapter and driver the bytes were made for.
        adapter: String,
    },
    /// Cut short, or its payload's checksum does not match.
    #[error("corrupt (cut short, or its checksum does not match)")]
    Corrupt,
    /// Given another device than the renderer's.
    #[error("given another device than the renderer was made with")]
    OtherDevice,
}

/// The adapter and driver a cache is for: what must match for its payload to be used.
pub(crate) fn adapter_identity(info: &wgpu::AdapterInfo) -> String {
    format!(
        "{} ({:?}, vendor {:#x}, device {:#x}, {} {})",
        info.name, info.backend, info.vendor, info.device, info.driver, info.driver_info
    )
}

/// FNV-1a, 64 bits: enough to tell a damaged file from a whole one (not an adversary's).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `payload` (wgpu's cache data) framed for `adapter`.
pub(crate) fn frame(adapter: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + adapter.len() + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(adapter.len() as u32).to_le_bytes());
    out.extend_from_slice(adapter.as_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of `bytes` framed for `adapter`, or why not.
pub(crate) fn unframe<'a>(adapter: &str, bytes: &'a [u8]) -> Result<&'a [u8], CacheIgnored> {
    let mut rest = bytes;
    let mut take = |n: usize| {
        let (head, tail) = rest.split_at_checked(n).ok_or(CacheIgnored::Corrupt)?;
        rest = tail;
        Ok(head)
    };
    if take(MAGIC.len()).map_err(|_| CacheIgnored::NotACache)? != MAGIC {
        return Err(CacheIgnored::NotACache);
    }
    let u32_at = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("four bytes"));
    let u64_at = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("eight bytes"));
    let version = u32_at(take(4)?);
    if version != VERSION {
        return Err(CacheIgnored::OtherVersion { found: version });
    }
    let len = u32_at(take(4)?) as usize;
    let made_for = take(len)?;
    if made_for != adapter.as_bytes() {
        // (another adapter's name is printable text of a name's length; anything else is
        // damage, never shown raw)
        let printable = std::str::from_utf8(made_for)
            .ok()
            .filter(|s| s.len() <= 512 && !s.chars().any(char::is_control));
        let Some(adapter) = printable else {
            return Err(CacheIgnored::Corrupt);
        };
        let adapter = adapter.to_string();
        return Err(CacheIgnored::OtherAdapter { adapter });
    }
    let len = u64_at(take(8)?);
    let sum = u64_at(take(8)?);
    let payload = take(usize::try_from(len).map_err(|_| CacheIgnored::Corrupt)?)?;
    if !rest.is_empty() || checksum(payload) != sum {
        return Err(CacheIgnored::Corrupt);
    }
    Ok(payload)
}

/// A pipeline cache on `device` (which has [`wgpu::Features::PIPELINE_CACHE`]) seeded with
/// `payload` (None: empty).
pub(crate) fn create(device: &wgpu::Device, payload: Option<&[u8]>) -> wgpu::PipelineCache {
    // SAFETY: wgpu asks that the data came from `PipelineCache::get_data`; it is either
    // none, or the payload of a frame whose checksum matched, which `pipeline_cache` wrote
    // from `get_data` for this very adapter and driver. With `fallback`, data wgpu's own
    // header check refuses (another wgpu's layout, a changed driver) gives an empty cache.
    unsafe {
        device.create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
            label: Some("flurry.pipeline_cache"),
            data: payload,
            fallback: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADAPTER: &str = "llvmpipe (Vulkan, vendor 0x10005, device 0x0, llvmpipe Mesa)";

    #[test]
    fn a_frame_gives_back_its_payload() {
        let payload: Vec<u8> = (0..=255).collect();
        assert_eq!(
            unframe(ADAPTER, &frame(ADAPTER, &payload)),
            Ok(&payload[..])
        );
        assert_eq!(unframe(ADAPTER, &frame(ADAPTER, &[])), Ok(&[][..]));
    }

    #[test]
    fn damaged_or_foreign_bytes_are_refused() {
        let payload = [7u8; 64];
        let good = frame(ADAPTER, &payload);
        let refused = |bytes: &[u8]| unframe(ADAPTER, bytes).unwrap_err();
        assert_eq!(refused(&[]), CacheIgnored::NotACache);
        assert_eq!(refused(b"PNG\r\n\x1a\n and more"), CacheIgnored::NotACache);
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(refused(&flipped), CacheIgnored::Corrupt);
        assert_eq!(refused(&good[..good.len() - 1]), CacheIgnored::Corrupt);
        assert_eq!(refused(&good[..20]), CacheIgnored::Corrupt);
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(refused(&longer), CacheIgnored::Corrupt);
        let mut later = good.clone();
        later[8] = 2;
        assert_eq!(refused(&later), CacheIgnored::OtherVersion { found: 2 });
        let other = frame("a discrete GPU", &payload);
        let adapter = "a discrete GPU".to_string();
        assert_eq!(refused(&other), CacheIgnored::OtherAdapter { adapter });
        // an adapter's name of raw bytes is damage, never printed (it once was, whole)
        let mut garbled = frame("a discrete GPU", &payload);
        garbled[16..20].copy_from_slice(&[0xff, 0x00, 0x1b, 0x07]);
        assert_eq!(refused(&garbled), CacheIgnored::Corrupt);
    }
}
