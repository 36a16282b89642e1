// batch.wgsl — what the batched passes (batch_relist, batch_simulate, batch_merge,
// batch_emit) know of a pool of a chunk of the arena (src/arena.rs), composed into each.

// Where one pool is in the chunk (src/passes/batch_relist.rs, BatchMember).
struct BatchMember {
    first: u32,       // its first slot, and its lists' first entry, in the chunk
    counters: u32,    // its counters' index in the chunk's counters (COUNTERS_STRIDE bytes apart)
    _pad0: u32,
    _pad1: u32,
}

// Counters a pool's stride of the chunk's counters holds (256 bytes).
const COUNTERS_PER_POOL: u32 = 4u;
