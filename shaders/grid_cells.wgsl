// grid_cells.wgsl — the neighbour grid's cells, shared by the passes that build it
// (grid.wgsl) and those that ask it for neighbours (flock.wgsl).
//
// The grid is unbounded: a cell's key (its coordinates) picks a bucket in a table of a power
// of two buckets (at least twice the pool) by its Morton code, so particles anywhere share one
// table; cells a table's span apart share a bucket, and a query takes from it only the
// entries of the cell it visits.

struct GridParams {
    cell: f32,    // cell side, metres (the neighbour radius)
    radius: f32,  // neighbour radius, metres
    mask: u32,    // table - 1
    table: u32,   // buckets (a power of two)
}

// A particle as the grid lists it, bucket by bucket: where it was and how it moved when
// the grid was built (a query reads them in order, not from the scattered pool), its slot
// in the pool and its cell's key.
struct GridEntry {
    pos: vec3<f32>,
    slot: u32,
    vel: vec3<f32>,
    key: u32,
}

fn cell_of(x: vec3<f32>, grid: GridParams) -> vec3<i32> {
    return vec3<i32>(floor(x / grid.cell));
}

// A cell's key: its coordinates packed, 11 bits of x, 10 of y, 11 of z (cells 2048, 1024
// and 2048 apart share a key; their particles are that many radii apart, which the query's
// distance test drops). The 27 cells around any cell have 27 different keys, so a query
// visiting a cell takes from its bucket only the entries of that cell: each particle is
// found once, from its own cell, whichever cells around share its bucket. (A hash of the
// coordinates would not do: the XOR hash of Teschner et al. gives (0, 1, -1) and
// (0, -1, 1) one key.)
fn cell_key(c: vec3<i32>) -> u32 {
    let u = bitcast<vec3<u32>>(c);
    return (u.x & 0x7ffu) | ((u.y & 0x3ffu) << 11u) | ((u.z & 0x7ffu) << 21u);
}

// Bits 0..10 of v spread three apart (bit i to bit 3i).
fn spread_bits(v: u32) -> u32 {
    var x = v & 0x7ffu;
    x = (x | (x << 16u)) & 0x030000ffu;
    x = (x | (x << 8u)) & 0x0300f00fu;
    x = (x | (x << 4u)) & 0x030c30c3u;
    x = (x | (x << 2u)) & 0x09249249u;
    return x;
}

// The bucket of a cell's key: its coordinates interleaved bit by bit (a Morton code) and
// cut to the table, so that cells near each other in space have buckets near each other in
// memory: a query's 27 cells, and the neighbouring threads' (which run in bucket order),
// read from a few stretches of the grid rather than from 27 random places. Cells a multiple
// of the table's span apart share buckets (the key tells them apart).
fn bucket_of(key: u32, grid: GridParams) -> u32 {
    let x = key & 0x7ffu;
    let y = (key >> 11u) & 0x3ffu;
    let z = key >> 21u;
    return (spread_bits(x) | (spread_bits(y) << 1u) | (spread_bits(z) << 2u)) & grid.mask;
}

// Cell k (0..27) of the 3 × 3 × 3 block around cell c.
fn cell_around(c: vec3<i32>, k: u32) -> vec3<i32> {
    return c + vec3<i32>(i32(k % 3u) - 1, i32((k / 3u) % 3u) - 1, i32(k / 9u) - 1);
}
