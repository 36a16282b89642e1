//! What each pass moves and computes in a frame, counted from its kernel: the bytes it
//! reads and writes in memory and the floating-point operations of its main path, per
//! thing it works on (a particle, a sorted pair, a texel). With a pass's time they place
//! it under the adapter's ceilings ([`super::Roofline`]).
//!
//! Bytes are counted at the memory's access granularity ([`line_bytes`]): a particle whose
//! position, age and velocity a kernel reads costs the 32-byte sectors (or 64-byte cache
//! lines) those fields lie in, not their 28 bytes. Lists (indices, sorted pairs) are read
//! and written whole, so their bytes are exact. Texture reads are counted as requested,
//! though neighbouring particles share texels in the cache. What a pass does per covered
//! pixel (the splat's accumulators, the draw's blending) and per neighbour (a flock's
//! boids) depends on what is on screen and is not counted: for those passes the figures
//! are lower bounds. An FMA is two flops, a square root, a division or a sine one.

use std::mem::offset_of;
use std::ops::{Add, AddAssign};

use crate::passes::cull::CullVariant;
use crate::passes::simulate::SimulateVariant;
use crate::types::{GridEntry, Particle};

/// Bytes a pass moves between memory and the chip, and the floating-point operations it
/// does, in one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Traffic {
    /// Bytes read plus bytes written.
    pub bytes: f64,
    /// Floating-point operations (an FMA counts two).
    pub flops: f64,
}

impl Traffic {
    /// `bytes` and `flops` for each of `n` items.
    fn per(n: u64, bytes: u64, flops: u64) -> Traffic {
        Traffic {
            bytes: (n * bytes) as f64,
            flops: (n * flops) as f64,
        }
    }

    /// Flops per byte (0 for a pass that moves nothing).
    pub fn intensity(&self) -> f64 {
        if self.bytes > 0.0 {
            self.flops / self.bytes
        } else {
            0.0
        }
    }
}

impl Add for Traffic {
    type Output = Traffic;
    fn add(self, o: Traffic) -> Traffic {
        Traffic {
            bytes: self.bytes + o.bytes,
            flops: self.flops + o.flops,
        }
    }
}

impl AddAssign for Traffic {
    fn add_assign(&mut self, o: Traffic) {
        *self = *self + o;
    }
}

/// The memory's access granularity on an adapter, in bytes: a CPU moves 64-byte cache
/// lines, a GPU's memory 32-byte sectors.
pub fn line_bytes(info: &wgpu::AdapterInfo) -> u32 {
    match info.device_type {
        wgpu::DeviceType::Cpu => 64,
        _ => 32,
    }
}

/// A field of [`Particle`]: (byte offset, bytes).
type Field = (usize, usize);

const POS: Field = (offset_of!(Particle, pos), 12);
const AGE: Field = (offset_of!(Particle, age), 4);
const VEL: Field = (offset_of!(Particle, vel), 12);
const LIFETIME: Field = (offset_of!(Particle, lifetime), 4);
const SIZE: Field = (offset_of!(Particle, size), 4);
const ROTATION: Field = (offset_of!(Particle, rotation), 4);
const SPIN: Field = (offset_of!(Particle, spin), 4);
const ID: Field = (offset_of!(Particle, id), 4);
const EMITTER: Field = (offset_of!(Particle, emitter), 4);
const FLAGS: Field = (offset_of!(Particle, flags), 4);
const SETTLED_AT: Field = (offset_of!(Particle, settled_at), 4);

/// Bytes moved to access `fields` of one particle (particles start on a 64-byte boundary),
/// `line` bytes at a time.
fn particle_bytes(line: u64, fields: &[Field]) -> u64 {
    let mut lines = 0u64; // a bit per line of the particle
    for &(offset, size) in fields {
        for l in offset as u64 / line..=(offset + size - 1) as u64 / line {
            lines |= 1 << l;
        }
    }
    lines.count_ones() as u64 * line
}

/// The whole particle, read or written.
const WHOLE: u64 = std::mem::size_of::<Particle>() as u64;

/// What one effect's passes worked on in a frame (the GPU's counts, read back).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Work {
    /// Particles alive after the frame (simulate and cull ran over about as many).
    pub alive: u64,
    /// Particles the emit pass was asked for.
    pub spawned: u64,
    /// Entries of the visible list: particles and ribbon pieces drawn as triangles.
    pub visible: u64,
    /// Particles splatted by compute.
    pub splatted: u64,
    /// Ribbon points listed, and the pieces drawn of them.
    pub ribbon_points: u64,
    pub ribbon_pieces: u64,
    /// Mesh particles listed, and the vertices of their mesh.
    pub meshes: u64,
    pub mesh_vertices: u64,
    /// Simulate steps per frame.
    pub substeps: u64,
    /// Massive bodies.
    pub bodies: u64,
    /// Pairs its own sorts move over all their passes (its visible list unless merged, its
    /// ribbon points): [`crate::passes::sort::SortPlan::passes_for`] × pairs a pass.
    pub sorted: u64,
    /// Buckets of its neighbour grid (0: none).
    pub grid_buckets: u64,
    /// Cells along a side of its self-shadowing grid (0: none).
    pub shadow_cells: u64,
    /// Its slots.
    pub capacity: u64,
    /// Its last step ran over its slots, not through its alive list (a pool nearly full:
    /// read from the relist arguments that step left, none).
    pub by_slot: bool,
    /// What its simulate and cull compile in.
    pub simulate: SimulateVariant,
    pub cull: CullVariant,
    /// Instances of the effect (0: placed once).
    pub instances: u64,
    /// Sorted with other effects: its cull copies what it keeps into the merged list.
    pub merged: bool,
    /// A flock's steering or a crowd's walkers run each step.
    pub flock: bool,
    pub crowd: bool,
    /// All-pairs gravity runs each step.
    pub gravity: bool,
}

/// Emit: per spawn, a dead index popped, the whole particle written, an alive index
/// appended; a box or sphere position and a velocity of mean + variance × random (40
/// flops). An instance's spawn also reads its instance (two transforms and bounds) and
/// carries the emitter's transforms by it (two 4×4 products, 224 flops).
pub(crate) fn emit(w: &Work) -> Traffic {
    let instance = std::mem::size_of::<crate::types::InstanceGpu>() as u64;
    match w.instances {
        0 => Traffic::per(w.spawned, 4 + WHOLE + 4, 40),
        _ => Traffic::per(w.spawned, 4 + WHOLE + 4 + instance, 40 + 224),
    }
}

/// Simulate, per step and alive particle: its index in, the fields its variant reads, the
/// fields a step changes written back, its index out to the next alive list; relist copies
/// the index back (4 + 4). Without collision, what it reads and writes is the particle's
/// first 32 bytes (position, age, velocity, lifetime: the rotation is not stepped, and a
/// death negates the lifetime). A pool at least three quarters full is stepped over its
/// slots instead (args.wgsl, [`Work::by_slot`]): no index in, the survivors listed in the
/// current list itself (no relist), and each free slot costs the line of its lifetime.
/// Flops: drag, wind and gravity (9), the drag's exact share of the step (12: its series,
/// an exponential, a quotient), both Euler updates (12), age (1); 20 per massive
/// body; 87 for two octaves of curl noise (12 sines and cosines each); 70 for the
/// collision test's projection and depth interval.
pub(crate) fn simulate(w: &Work, line: u64) -> Traffic {
    let v = w.simulate;
    let mut read = vec![POS, AGE, VEL, LIFETIME];
    let mut written = vec![POS, AGE, VEL, LIFETIME];
    if v.anchored || v.deaths || v.collides() {
        read.extend([EMITTER, ID]);
    }
    if v.settles() {
        read.extend([FLAGS, SETTLED_AT]);
    }
    if v.collides() {
        // a hit turns the spin down (keeping the rotation) and may settle the particle
        read.extend([ROTATION, SPIN, FLAGS]);
        written.extend([ROTATION, SPIN, FLAGS, SETTLED_AT]);
    }
    let mut bytes = particle_bytes(line, &read) + particle_bytes(line, &written) + 4;
    let mut free_slots = 0;
    if w.by_slot {
        free_slots = w.capacity.saturating_sub(w.alive) * particle_bytes(line, &[LIFETIME]);
    } else {
        bytes += 4 + 8; // the index in; relist
    }
    let mut flops = 34 + 20 * w.bodies;
    if v.turbulence {
        flops += 87;
    }
    if v.collides() {
        bytes += 5 * 8; // the depth texel and its four neighbours (rg32float)
        flops += 70;
    }
    if v.pass_accel {
        bytes += 16;
        flops += 3;
    }
    let mut t = Traffic::per(w.alive * w.substeps, bytes, flops);
    t.bytes += (free_slots * w.substeps) as f64;
    t
}

/// Cull, per alive particle: its index, the fields its size and frustum test read (and its
/// velocity for streaks, its id for ribbons), then a (key, index) pair to the visible list,
/// an index to the splat list or a pair to the ribbon list; a merged effect's cull also
/// reads the whole particle it keeps and writes a copy of it to the merged list. Flops:
/// life fraction and drawn radius (7), six planes (36), clip w and projected radius (11),
/// view distance (7).
pub(crate) fn cull(w: &Work, line: u64) -> Traffic {
    let mut read = vec![POS, AGE, LIFETIME, SIZE, EMITTER];
    if w.cull.stretched {
        read.push(VEL);
    }
    if w.cull.ribbons {
        read.push(ID);
    }
    let mut per = 4 + particle_bytes(line, &read);
    if w.cull.instanced {
        per += 16; // its instance's bounds
    }
    let mut lists = 8 * (w.visible + w.ribbon_points) + 4 * w.splatted;
    if w.merged {
        lists += 2 * WHOLE * (w.visible + w.splatted);
    }
    Traffic {
        bytes: (w.alive * per + lists) as f64,
        flops: (w.alive * 61) as f64,
    }
}

/// Bitonic sorts whose passes move `pairs` (key, index) pairs in all: each pass reads and
/// writes every pair it covers (8 + 8 bytes); no floating point.
pub(crate) fn sort(pairs: u64) -> Traffic {
    Traffic::per(pairs, 16, 0)
}

/// The ribbons' piece listing, per ribbon point: its sorted pair and its particle read, its
/// evaluated point written; per piece, its entry and a visible pair written.
pub(crate) fn ribbon_pieces(points: u64, pieces: u64) -> Traffic {
    let point = crate::pool::RIBBON_POINT_SIZE;
    Traffic::per(points, 8 + WHOLE + point, 40) + Traffic::per(pieces, 8 + 8, 0)
}

/// The merge: the list the merged effects' culls wrote sorted (its passes moving `sorted`
/// pairs; their copies are the cull's, [`cull`]).
pub(crate) fn merge(sorted: u64) -> Traffic {
    sort(sorted)
}

/// The host depth downsampled: each host sample read (4 bytes), each particle-target texel
/// written (its farthest and nearest distances, rg32float), twice where they are kept
/// `apart` from the copy mesh particles draw over; a distance per sample (4 flops) and a
/// min and a max.
pub(crate) fn downsample(host: u64, samples: u64, low: u64, apart: bool) -> Traffic {
    let writes = 1 + apart as u64;
    Traffic {
        bytes: (host * samples * 4 + low * 8 * writes) as f64,
        flops: (host * samples * 6) as f64,
    }
}

/// The splat: the particle target's `low` texels cleared (rgba16float). Per splatted
/// particle: its index and the whole particle (its quad, colour and sprite read everything);
/// three projections (34 flops each), its quad (40) and colour (10). Then the resolve, over
/// the `resolved` texels the splats touched: each one's `channels` accumulators read (those
/// the frame's splats added to: 3 additive, 5 alpha-blended, 8 both) and its colour written.
/// Covered pixels are not counted.
pub(crate) fn splat(splatted: u64, (low, resolved): (u64, u64), channels: u64) -> Traffic {
    Traffic::per(low, 8, 0)
        + Traffic::per(splatted, 4 + WHOLE, 152)
        + Traffic::per(resolved, 4 * channels + 8, 12)
}

/// The draw, per visible entry: its pair and its particle (for four vertices, read once
/// from the cache); four corners of its quad projected (68 flops each). The pixels it blends
/// into the particle target are not counted (a render pass with nothing drawn moves none).
pub(crate) fn draw(visible: u64) -> Traffic {
    Traffic::per(visible, 8 + WHOLE, 4 * 68)
}

/// Mesh particles, per listed instance: its index, its particle and its mesh's vertices
/// (position and normal, 24 bytes each, read from the cache), each vertex turned, scaled
/// and projected (about 60 flops). Rasterised pixels are not counted.
pub(crate) fn meshes(instances: u64, vertices: u64) -> Traffic {
    Traffic::per(instances, 4 + WHOLE + 24 * vertices, 60 * vertices)
}

/// The composite, per host pixel and sample: the host depth read and the colour blended
/// (read and written, rgba8); per particle-target texel its colour and distances read;
/// about 20 flops a host pixel for the nearest-depth weights and the blend. A particle
/// target of the host's size (`same_size`) is read texel for pixel: no depths, its colour
/// only.
pub(crate) fn composite(host: u64, samples: u64, low: u64, same_size: bool) -> Traffic {
    match same_size {
        true => Traffic::per(host * samples, 8, 4) + Traffic::per(low, 8, 0),
        false => Traffic::per(host * samples, 4 + 8, 20) + Traffic::per(low, 8 + 8, 0),
    }
}

/// All-pairs gravity over `n` particles. The stage reads each one's index and the line of
/// its position and writes its body (a 16-byte texel); the kernel reads each thread's
/// index and body, every body once per workgroup of 64 (what the tiled kernel stages in
/// workgroup memory; the subgroup kernel asks for each once per 8 lanes, from the cache),
/// and writes each acceleration (16); 20 flops an interaction by convention.
pub(crate) fn gravity(n: u64, line: u64) -> Traffic {
    let stage = 4 + particle_bytes(line, &[POS]) + 16;
    Traffic {
        bytes: (n * stage + n * (4 + 16) + n.div_ceil(64) * n * 16 + n * 16) as f64,
        flops: (n * n * 20) as f64,
    }
}

/// The neighbour grid: the bucket table cleared, counted into (an atomic per particle),
/// summed (read and written once per level, two levels) and each particle's entry written
/// from its position and velocity.
pub(crate) fn grid(alive: u64, buckets: u64, line: u64) -> Traffic {
    let entry = std::mem::size_of::<GridEntry>() as u64;
    let count = 4 + particle_bytes(line, &[POS]) + 8 + 8;
    let scatter = 4 + 8 + particle_bytes(line, &[POS, VEL]) + entry;
    Traffic {
        bytes: (alive * (count + scatter) + buckets * (4 + 2 * 8)) as f64,
        flops: (alive * 6) as f64,
    }
}

/// Self-shadowing: per particle its index and position read three times (bounds, deposit,
/// apply), its look's fields once and an atomic added to its cell, its flags read and
/// written; per cell the grid cleared, and the march reading a cell a step (up to four
/// steps a cell along a side) and writing its transmittance. Flops: a cell's coordinates
/// and extinction (20), a march step (8), the trilinear mix (30).
pub(crate) fn shadow(alive: u64, cells: u64, line: u64) -> Traffic {
    let index = 4;
    let position = particle_bytes(line, &[POS]);
    let look = particle_bytes(line, &[AGE, LIFETIME, SIZE, EMITTER]);
    let per_particle = 3 * (index + position) + look + 4 + 2 * particle_bytes(line, &[FLAGS]);
    let n = cells * cells * cells;
    let steps = 4 * cells;
    Traffic {
        bytes: (alive * (per_particle + 8 * 4) + n * (8 + 4 * steps + 4)) as f64,
        flops: (alive * 50 + n * steps * 8) as f64,
    }
}

/// A flock's steering, per bird: its grid entry, the bounds of the 27 buckets around it,
/// and its acceleration written (the neighbours' entries it reads are not counted).
pub(crate) fn flock(alive: u64) -> Traffic {
    let entry = std::mem::size_of::<GridEntry>() as u64;
    Traffic::per(alive, entry + 27 * 8 + 16, 60)
}

/// A crowd's walkers, per walker: its particle and walker state read and written, four
/// flow-field cells and five wall distances, the bounds of its 9 grid buckets.
pub(crate) fn crowd(alive: u64) -> Traffic {
    let walker = std::mem::size_of::<crate::Walker>() as u64;
    Traffic::per(alive, 2 * WHOLE + 2 * walker + 4 * 8 + 5 * 4 + 9 * 8, 150)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The splat clears every texel of rgba16float; the resolve reads four bytes an
    /// accumulator it reads, and writes a texel, of those the splats touched; a full-size
    /// composite reads no depths.
    #[test]
    fn the_resolve_and_the_composite_move_what_they_read() {
        let low = 1000;
        let cleared = (low * 8) as f64;
        assert_eq!(
            splat(0, (low, low), 3).bytes,
            cleared + (low * (12 + 8)) as f64
        );
        assert_eq!(
            splat(0, (low, low), 8).bytes,
            cleared + (low * (32 + 8)) as f64
        );
        assert_eq!(splat(0, (low, 0), 8).bytes, cleared);
        assert_eq!(
            splat(0, (low, 100), 3).bytes,
            cleared + (100 * (12 + 8)) as f64
        );
        let (upsampled, same) = (composite(low, 1, low, false), composite(low, 1, low, true));
        assert_eq!(upsampled.bytes - same.bytes, (low * (4 + 8)) as f64);
    }

    #[test]
    fn a_particle_costs_the_lines_its_fields_lie_in() {
        // what a step reads and writes fills the first 32 bytes; the rotation lies in the
        // second
        assert_eq!(particle_bytes(32, &[POS, AGE, VEL, LIFETIME]), 32);
        assert_eq!(particle_bytes(32, &[POS, ROTATION]), 64);
        assert_eq!(particle_bytes(64, &[POS]), 64);
        assert_eq!(particle_bytes(4, &[POS, AGE]), 16);
        assert_eq!(particle_bytes(4, &[FLAGS, SETTLED_AT]), 8);
    }

    #[test]
    fn simulate_counts_what_its_variant_reads_and_writes() {
        let w = |simulate| Work {
            alive: 1000,
            substeps: 1,
            simulate,
            ..Default::default()
        };
        let plain = simulate(&w(SimulateVariant::default()), 4);
        // index in and out, relist; pos age vel lifetime read and written
        assert_eq!(plain.bytes, 1000.0 * (8.0 + 8.0 + 32.0 + 32.0));
        // all in the first 32-byte sector: one read, one written
        let sector = simulate(&w(SimulateVariant::default()), 32);
        assert_eq!(sector.bytes, 1000.0 * (8.0 + 8.0 + 32.0 + 32.0));
        let collide = SimulateVariant {
            collision: crate::types::COLLIDE_BOUNCE,
            ..Default::default()
        };
        let hits = simulate(&w(collide), 4);
        assert!(hits.bytes > plain.bytes && hits.flops > plain.flops);
        let two_steps = Work {
            substeps: 2,
            ..w(SimulateVariant::default())
        };
        assert_eq!(simulate(&two_steps, 4).bytes, 2.0 * plain.bytes);
        // over the slots of a pool of 1,200: no index in, no relist, and the lifetime of
        // each of the 200 free slots (a live slot's lifetime is above zero)
        let slots = Work {
            capacity: 1200,
            by_slot: true,
            ..w(SimulateVariant::default())
        };
        let by_slot = 1000.0 * (4.0 + 32.0 + 32.0) + 200.0 * 4.0;
        assert_eq!(simulate(&slots, 4).bytes, by_slot);
        let by_sector = 1000.0 * (4.0 + 32.0 + 32.0) + 200.0 * 32.0;
        assert_eq!(simulate(&slots, 32).bytes, by_sector);
        // a 64-byte line holds the whole particle: one line read, one written
        assert_eq!(
            simulate(&slots, 64).bytes,
            1000.0 * (4.0 + 128.0) + 200.0 * 64.0
        );
    }

    #[test]
    fn gravity_is_compute_bound_and_the_sort_is_not() {
        assert!(gravity(65_536, 64).intensity() > 50.0);
        assert_eq!(sort(3 << 20).flops, 0.0);
        assert_eq!(sort(3 << 20).bytes, 3.0 * 16.0 * (1 << 20) as f64);
    }
}
