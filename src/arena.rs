//! Shared storage for small pools: their particles, dead and alive lists and counters are
//! ranges of a few renderer-level buffers ("chunks") instead of buffers of their own, so
//! that a pass over many small pools can be one dispatch over a chunk, a workgroup row a
//! pool (the batched passes, `shaders/batch_*.wgsl`), where each pool alone pays a
//! dispatch (about 0.1 ms each on lavapipe whatever its particles; docs/measurements.md).
//!
//! A pool's passes bind its ranges as they bound its own buffers (a binding that starts at
//! an offset reads as one that starts at 0), so nothing else changes for them. Ranges are
//! handed out in grains of 64 entries (256 bytes: the offset alignment wgpu guarantees for
//! storage bindings, and a workgroup of a pass over the pool) and given back when the pool
//! goes.

use std::num::NonZeroU64;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use crate::types::{Counters, PARTICLE_SIZE};
use crate::uniform_pages::BufferRange;

/// Slots of a chunk: its particles and the entries of each of its lists (4 MiB of
/// particles).
pub(crate) const CHUNK_SLOTS: u32 = 1 << 16;

/// Pools one chunk holds at most (its counters).
pub(crate) const CHUNK_POOLS: u32 = 512;

/// Bytes between two pools' counters: a storage binding's offset alignment (256 on every
/// wgpu device).
pub(crate) const COUNTERS_STRIDE: u64 = 256;

/// Entries a range is a multiple of.
const GRAIN: u32 = 64;

/// The chunks of one renderer.
#[derive(Default)]
pub(crate) struct PoolArena {
    chunks: Mutex<Vec<Arc<Chunk>>>,
}

/// One chunk: [`CHUNK_SLOTS`] particles; two alive lists and a dead list of as many
/// entries, in that order in one buffer (a pool's three ranges of it then bind as one, as
/// its own lists do: [`crate::pool::ParticlePool::lists`]); and [`CHUNK_POOLS`] pools'
/// counters, [`COUNTERS_STRIDE`] bytes apart.
pub(crate) struct Chunk {
    pub particles: wgpu::Buffer,
    lists: wgpu::Buffer,
    pub counters: wgpu::Buffer,
    free: Mutex<Free>,
}

/// What a chunk has left: ranges of entries (sorted, none adjacent) and pool indices.
struct Free {
    entries: Vec<Range<u32>>,
    pools: Vec<u32>,
}

/// One pool's ranges of a chunk, given back when it is dropped.
pub(crate) struct Lease {
    chunk: Arc<Chunk>,
    /// Its slots (whole grains).
    entries: Range<u32>,
    /// The pool's capacity (its ranges' length, at most the slots').
    capacity: u32,
    pool: u32,
}

impl PoolArena {
    /// Ranges for a pool of `capacity` (at most [`CHUNK_SLOTS`]) in the first chunk with
    /// room, else in a new chunk.
    pub fn lease(&self, device: &wgpu::Device, capacity: u32) -> Lease {
        let grains = capacity.div_ceil(GRAIN).max(1) * GRAIN;
        assert!(grains <= CHUNK_SLOTS, "a pool of {capacity} in the arena");
        let mut chunks = self.chunks.lock().expect("not poisoned");
        for chunk in chunks.iter() {
            if let Some(lease) = chunk.take(chunk, (grains, capacity)) {
                return lease;
            }
        }
        let chunk = Arc::new(Chunk::new(device, chunks.len()));
        let lease = chunk.take(&chunk, (grains, capacity));
        chunks.push(chunk);
        lease.expect("a new chunk has room")
    }
}

impl Chunk {
    fn new(device: &wgpu::Device, index: usize) -> Self {
        let usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        let buffer = |label: String, size: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let list = CHUNK_SLOTS as u64 * 4;
        Chunk {
            particles: buffer(
                format!("flurry.arena{index}.particles"),
                CHUNK_SLOTS as u64 * PARTICLE_SIZE,
            ),
            lists: buffer(format!("flurry.arena{index}.lists"), 3 * list),
            counters: buffer(
                format!("flurry.arena{index}.counters"),
                CHUNK_POOLS as u64 * COUNTERS_STRIDE,
            ),
            free: Mutex::new(Free {
                entries: std::iter::once(0..CHUNK_SLOTS).collect(),
                pools: (0..CHUNK_POOLS).rev().collect(),
            }),
        }
    }

    /// Its alive list `k` (0 the current lists, 1 the survivors'), every pool's.
    pub fn alive(&self, k: usize) -> BufferRange {
        self.list(k)
    }

    /// Its dead lists, every pool's.
    pub fn dead(&self) -> BufferRange {
        self.list(2)
    }

    /// List `k` of its lists' buffer (alive 0, alive 1, dead), whole.
    fn list(&self, k: usize) -> BufferRange {
        let bytes = CHUNK_SLOTS as u64 * 4;
        BufferRange {
            buffer: self.lists.clone(),
            offset: k as u64 * bytes,
            size: NonZeroU64::new(bytes).expect("not empty"),
        }
    }

    /// `entries` slots (a multiple of [`GRAIN`]) and a pool index for a pool of
    /// `capacity`, first fit.
    fn take(&self, this: &Arc<Chunk>, (entries, capacity): (u32, u32)) -> Option<Lease> {
        let mut free = self.free.lock().expect("not poisoned");
        let at = free
            .entries
            .iter()
            .position(|r| r.len() as u32 >= entries)?;
        let pool = free.pools.pop()?;
        let range = &mut free.entries[at];
        let start = range.start;
        range.start += entries;
        if range.start == range.end {
            free.entries.remove(at);
        }
        Some(Lease {
            chunk: this.clone(),
            entries: start..start + entries,
            capacity,
            pool,
        })
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let mut free = self.chunk.free.lock().expect("not poisoned");
        free.pools.push(self.pool);
        let r = self.entries.clone();
        let at = free.entries.partition_point(|f| f.start < r.start);
        free.entries.insert(at, r);
        // merge with the neighbours it touches
        if at + 1 < free.entries.len() && free.entries[at].end == free.entries[at + 1].start {
            free.entries[at].end = free.entries[at + 1].end;
            free.entries.remove(at + 1);
        }
        if at > 0 && free.entries[at - 1].end == free.entries[at].start {
            free.entries[at - 1].end = free.entries[at].end;
            free.entries.remove(at);
        }
    }
}

impl Lease {
    /// Its range of alive list `k` (0 the current list, 1 the survivors').
    pub fn alive(&self, k: usize) -> BufferRange {
        self.list(k)
    }

    /// Its range of the dead list.
    pub fn dead(&self) -> BufferRange {
        self.list(2)
    }

    /// Its range of the chunk's list `k` (alive 0, alive 1, dead).
    fn list(&self, k: usize) -> BufferRange {
        let whole = self.chunk.list(k);
        BufferRange {
            offset: whole.offset + self.entries.start as u64 * 4,
            size: NonZeroU64::new(self.capacity as u64 * 4).expect("not empty"),
            ..whole
        }
    }

    /// Its particles.
    pub fn particles(&self) -> BufferRange {
        self.range(&self.chunk.particles, PARTICLE_SIZE)
    }

    /// Its slots of `buffer`, `stride` bytes a slot.
    fn range(&self, buffer: &wgpu::Buffer, stride: u64) -> BufferRange {
        BufferRange {
            buffer: buffer.clone(),
            offset: self.entries.start as u64 * stride,
            size: NonZeroU64::new(self.capacity as u64 * stride).expect("not empty"),
        }
    }

    /// Its counters.
    pub fn counters(&self) -> BufferRange {
        BufferRange {
            buffer: self.chunk.counters.clone(),
            offset: self.pool as u64 * COUNTERS_STRIDE,
            size: NonZeroU64::new(std::mem::size_of::<Counters>() as u64).expect("not empty"),
        }
    }

    /// The chunk it is in.
    pub fn chunk(&self) -> &Arc<Chunk> {
        &self.chunk
    }

    /// Its first entry in the chunk's lists.
    pub fn first_entry(&self) -> u32 {
        self.entries.start
    }

    /// Its counters' index in the chunk.
    pub fn pool(&self) -> u32 {
        self.pool
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(chunk: &Chunk) -> Vec<Range<u32>> {
        chunk.free.lock().unwrap().entries.clone()
    }

    /// Leases are whole grains, apart, each with its own counters; given back, their
    /// ranges join their free neighbours again, so the chunk ends as it began.
    #[test]
    fn leases_never_overlap_and_come_back_whole() {
        let gpu = crate::tests::gpu();
        let arena = PoolArena::default();
        let a = arena.lease(&gpu.device, 1000);
        let b = arena.lease(&gpu.device, 64);
        let c = arena.lease(&gpu.device, 1);
        assert_eq!(
            (a.entries.clone(), b.entries.clone()),
            (0..1024, 1024..1088)
        );
        assert_eq!(c.entries, 1088..1152);
        assert_eq!(a.alive(1).offset, CHUNK_SLOTS as u64 * 4);
        assert_eq!(
            a.alive(1).size.get(),
            4000,
            "a range is as long as its pool"
        );
        assert_eq!(b.alive(0).offset, 4096);
        assert_eq!(b.dead().offset, 2 * CHUNK_SLOTS as u64 * 4 + 4096);
        assert_eq!(b.particles().offset, 1024 * PARTICLE_SIZE);
        assert_ne!(a.pool, b.pool);
        assert_eq!(b.counters().offset % COUNTERS_STRIDE, 0);
        let chunk = a.chunk().clone();
        assert!(Arc::ptr_eq(&chunk, b.chunk()));
        drop(b);
        assert_eq!(ranges(&chunk), vec![1024..1088, 1152..CHUNK_SLOTS]);
        // the freed grain takes a pool as small, first fit
        let d = arena.lease(&gpu.device, 30);
        assert_eq!(d.entries, 1024..1088);
        drop((a, c, d));
        assert_eq!(ranges(&chunk), vec![0..CHUNK_SLOTS]);
        assert_eq!(chunk.free.lock().unwrap().pools.len(), CHUNK_POOLS as usize);
        // a chunk full of entries makes a second one
        let whole = arena.lease(&gpu.device, CHUNK_SLOTS);
        let more = arena.lease(&gpu.device, 64);
        assert!(!Arc::ptr_eq(whole.chunk(), more.chunk()));
    }

    /// The batched passes step through the chunk's counters as the arena lays them out.
    #[test]
    fn the_batched_passes_read_the_counters_at_their_stride() {
        use crate::shaders::Shader;
        let per_pool = COUNTERS_STRIDE / std::mem::size_of::<Counters>() as u64;
        for shader in [Shader::BatchRelist, Shader::BatchSimulate] {
            let src = shader.source();
            let line = format!("const COUNTERS_PER_POOL: u32 = {per_pool}u;");
            assert!(src.contains(&line), "{}", shader.name());
        }
    }
}
