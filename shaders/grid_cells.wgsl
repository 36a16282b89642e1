// grid_cells.wgsl — the neighbour grid's cells, shared by the passes that build it
// (grid.wgsl) and those that ask it for neighbours (flock.wgsl).
//
// The grid is unbounded: a cell's integer coordinates are hashed into a table of a power of
// two buckets (at least twice the pool), so particles anywhere share one table; cells that
// hash alike share a bucket, which a query filters by distance like any other particle.

struct GridParams {
    cell: f32,    // cell side, metres (the neighbour radius)
    radius: f32,  // neighbour radius, metres
    mask: u32,    // table - 1
    table: u32,   // buckets (a power of two)
}

// A particle as the grid lists it, bucket by bucket: where it was and how it moved when
// the grid was built (a query reads them in order, not from the scattered pool), and its
// slot in the pool.
struct GridEntry {
    pos: vec3<f32>,
    slot: u32,
    vel: vec3<f32>,
    _pad: u32,
}

fn cell_of(x: vec3<f32>, grid: GridParams) -> vec3<i32> {
    return vec3<i32>(floor(x / grid.cell));
}

// A cell's bucket (the spatial hash of Teschner et al. 2003).
fn bucket_of(c: vec3<i32>, grid: GridParams) -> u32 {
    let u = bitcast<vec3<u32>>(c);
    return ((u.x * 73856093u) ^ (u.y * 19349663u) ^ (u.z * 83492791u)) & grid.mask;
}

// The distinct buckets of the 27 cells around a point's cell: every particle within one
// cell side of it is listed in one of them (two cells around may share a bucket; it is
// listed once, so no neighbour is counted twice).
struct Around {
    buckets: array<u32, 27>,
    count: u32,
}

fn buckets_around(x: vec3<f32>, grid: GridParams) -> Around {
    let c = cell_of(x, grid);
    var around: Around;
    around.count = 0u;
    for (var k = 0u; k < 27u; k++) {
        let d = vec3<i32>(i32(k % 3u) - 1, i32((k / 3u) % 3u) - 1, i32(k / 9u) - 1);
        let b = bucket_of(c + d, grid);
        var again = false;
        for (var s = 0u; s < around.count; s++) {
            again = again || around.buckets[s] == b;
        }
        if !again {
            around.buckets[around.count] = b;
            around.count += 1u;
        }
    }
    return around;
}
