// batch_merge.wgsl — merge.wgsl's `cull` for many small members of a merged list in one
// dispatch: those whose pools are sized per slot in one chunk of the arena (src/arena.rs)
// with no instances, by a variant with every render mode any of them shows
// (src/renderer/merged.rs).
// Workgroup row y is the pool of `rows[y]`, its workgroup x that pool's alive-list entries
// 64x..64x+63: which member a thread serves comes from its workgroup, so the member's entry
// is the same for the whole workgroup, and its look is read from the table where it is
// (a private copy of an effect's constants indexed by a particle's emitter would be
// spilled lane by lane on a CPU driver). Each particle is culled and listed as merge.wgsl
// does (cull_test.wgsl, merge_list.wgsl).

// Which member a row culls, and where its pool is in the chunk (src/passes/batch_merge.rs).
struct CullMember {
    first: u32,     // its pool's first slot, and its lists' first entry, in the chunk
    counters: u32,  // its counters' index in the chunk's counters (batch.wgsl)
    member: u32,    // its index in the merged list (its copies' instance bits)
    copies: u32,    // the copies the merged lists hold (merge_list.wgsl, list_merged)
}

// A row of the table: the member, and its effect's constants as its uniform holds them.
struct CullRow {
    pool: CullMember,
    effect: EffectParams,
}

@group(0) @binding(0) var<storage, read> particles: array<ParticleWords>;
@group(0) @binding(1) var<storage, read> alive_list: array<u32>;
// each pool's counters, then room up to the next (256 bytes: 2 Counters a pool)
@group(0) @binding(2) var<storage, read_write> counters: array<Counters>;
// the merged lists and the copies
@group(0) @binding(3) var<storage, read_write> pairs: array<vec2<u32>>;
// any member's frame: what the cull reads of it (the view, the splat's threshold) is the
// renderer's, the same for every effect
@group(0) @binding(4) var<uniform> frame: FrameUniforms;
@group(0) @binding(5) var<uniform> rows: array<CullRow, BATCH_ROWS>;
@group(0) @binding(6) var<storage, read_write> merged_splat: array<u32>;
@group(0) @binding(7) var<storage, read_write> copies: array<ParticleWords>;
// the merged lists' counts (merge_list.wgsl)
@group(0) @binding(8) var<storage, read_write> merged: array<Counters>;

// This workgroup's row of the table.
var<private> row: u32;

fn look(p: Particle) -> EmitterLook {
    return rows[row].effect.looks[min(p.emitter, MAX_EMITTERS - 1u)];
}

fn light_wrap() -> f32 {
    return rows[row].effect.light_wrap;
}

fn instance_bounds(k: u32) -> vec4<f32> {
    return vec4<f32>(0.0); // never read: a batched member has no instances
}

fn count_member(drawn: u32, splatted: u32) {
    let c = rows[row].pool.counters * COUNTERS_PER_POOL;
    if drawn > 0u {
        atomicAdd(&counters[c].visible, drawn);
    }
    if splatted > 0u {
        atomicAdd(&counters[c].splatted, splatted);
    }
}

@compute @workgroup_size(64)
fn cull(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    row = wid.y;
    let pool = rows[row].pool;
    let c = pool.counters * COUNTERS_PER_POOL;
    let i = wid.x * 64u + lid;
    if i == 0u {
        // the survivors' scratch count back to zero for the next step (as cull.wgsl does)
        atomicStore(&counters[c].next_alive, 0u);
    }
    let listed = i < atomicLoad(&counters[c].alive);
    var p: Particle;
    if listed {
        p = particle_of(particles[pool.first + alive_list[pool.first + i]]);
    }
    list_merged(lid, listed, p, pool.member, pool.copies);
}
