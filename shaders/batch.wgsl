// batch.wgsl — what the batched passes (batch_relist, batch_simulate, batch_merge,
// batch_emit) know of a pool of a chunk of the arena (src/arena.rs), composed into each.

// Where one pool is in the chunk (src/passes/batch_relist.rs, BatchMember).
struct BatchMember {
    first: u32,       // its first slot, and its lists' first entry, in the chunk
    counters: u32,    // its counters' index in the chunk's counters (COUNTERS_STRIDE bytes apart)
    _pad0: u32,
    _pad1: u32,
}

// Rows of a batch's uniform tables (batch_simulate.wgsl's constants and clocks,
// batch_merge.wgsl's rows): as many of the largest row (a CullRow, 1,088 bytes) as fit in
// the 64 KiB every device binds as a uniform; a larger batch is split (src/renderer/
// batched.rs). From a uniform a row's field costs a CPU driver one gather; from a storage
// buffer, a loop over the SIMD lanes.
const BATCH_ROWS: u32 = 60u;

// Counters a pool's stride of the chunk's counters holds (256 bytes).
const COUNTERS_PER_POOL: u32 = 2u;
