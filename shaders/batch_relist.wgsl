// batch_relist.wgsl — relist.wgsl's `recount` for many small pools in one dispatch: the
// pools sized per slot whose lists and counters share a chunk of the arena (src/arena.rs,
// src/renderer/batched.rs). Workgroup row y is pool `members[y]` (batch.wgsl), its
// workgroup x its slots 64x..64x+63: which pool a thread serves comes from its workgroup,
// the same for the whole workgroup (CPU drivers then read the pool's entry once, where an
// index that varies per thread is read lane by lane). Each pool's survivors (the chunk's
// second lists) become its current alive list (the first) and its count, and its frame's
// lists start empty, as `recount` does for one pool. A batched pool has no ribbons and no
// mesh particles: the counts of those `recount` also clears are never written.

// (read only; bound for writing as the alive lists beside them in the same buffer are)
@group(0) @binding(0) var<storage, read_write> next_lists: array<u32>;
@group(0) @binding(1) var<storage, read_write> alive_lists: array<u32>;
// each pool's counters, then room up to the next (256 bytes: 2 Counters a pool)
@group(0) @binding(2) var<storage, read_write> counters: array<Counters>;
@group(0) @binding(3) var<storage, read> members: array<BatchMember>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let m = members[wid.y];
    let c = m.counters * COUNTERS_PER_POOL;
    let i = wid.x * 64u + lid;
    let n = atomicLoad(&counters[c].next_alive);
    if i < n {
        alive_lists[m.first + i] = next_lists[m.first + i];
    }
    if i == 0u {
        atomicStore(&counters[c].alive, n);
        atomicStore(&counters[c].visible, 0u);
        atomicStore(&counters[c].splatted, 0u);
    }
}
