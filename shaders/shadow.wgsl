// shadow.wgsl — self-shadowing (EffectDesc.lighting.shadows): particles shadow one another
// along the light through a coarse 3-D grid of their density, rebuilt each frame around
// where they are. Five dispatches, after simulate and before cull:
//
// `clear` empties the grid; `bounds` finds the box of the living particles (each workgroup
// its own box in workgroup memory, then one global atomic per workgroup and axis);
// `deposit` adds each particle's extinction (its opacity times its cross-section, π r²
// α, per cell volume) to the eight cells round its centre; `march` walks from each cell's
// centre towards the light (frame.light_dir) to the box's edge, summing the extinction
// times the step (the optical depth τ), and keeps its transmittance exp(−τ · strength);
// `apply` gives each particle the transmittance at its centre (trilinear between cell
// centres), stored in its flags (FLAG_SHADOW_SHIFT) as 7 bits of occlusion, where the draw
// and the splat read it with the particle itself — no binding of their own, so shadowed
// effects still merge and batch. A particle's own cell counts half: the light reaches its
// centre through the near half of its own puff.

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read> alive_list: array<u32>;
@group(0) @binding(2) var<storage, read_write> counters: Counters;
@group(0) @binding(3) var<uniform> frame: FrameUniforms;
@group(0) @binding(4) var<uniform> effect: EffectParams;
// 0..3 the box's lower corner, 3..6 its upper (as ordered bits), then per cell its
// extinction (fixed point, DENSITY_ONE per 1/m), then per cell its transmittance (f32 bits)
@group(0) @binding(5) var<storage, read_write> grid: array<atomic<u32>>;

const HEADER: u32 = 8u;
const DENSITY_ONE: f32 = 1024.0;
// one particle's extinction at most, 1/m: keeps 65,536 of them in one cell from overflowing
const DENSITY_MAX: f32 = 60.0;

fn cells() -> u32 {
    return effect.shadow_cells;
}

fn cell_count() -> u32 {
    let n = cells();
    return n * n * n;
}

// An f32 as u32 bits that order as the floats do (so atomicMin/Max find the least and the
// most), and back.
fn ordered(x: f32) -> u32 {
    let b = bitcast<u32>(x);
    return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}

fn unordered(u: u32) -> f32 {
    return bitcast<f32>(select(~u, u & 0x7fffffffu, (u & 0x80000000u) != 0u));
}

// The grid's box: a cube round the particles' box, a little larger (so a particle on its
// edge lies within it), so that its cells are cubes, as round as the puffs they hold.
struct Box {
    lo: vec3<f32>,
    size: vec3<f32>,
}

fn box() -> Box {
    let lo = vec3<f32>(
        unordered(atomicLoad(&grid[0])),
        unordered(atomicLoad(&grid[1])),
        unordered(atomicLoad(&grid[2])),
    );
    let hi = vec3<f32>(
        unordered(atomicLoad(&grid[3])),
        unordered(atomicLoad(&grid[4])),
        unordered(atomicLoad(&grid[5])),
    );
    let extent = hi - lo;
    let side = 1.04 * max(extent.x, max(extent.y, extent.z)) + 1e-3;
    return Box(0.5 * (lo + hi) - vec3<f32>(0.5 * side), vec3<f32>(side));
}

// Where x lies in the grid, in cells (cell k spans k..k + 1).
fn grid_coord(b: Box, x: vec3<f32>) -> vec3<f32> {
    return (x - b.lo) / b.size * f32(cells());
}

fn cell_index(c: vec3<u32>) -> u32 {
    let n = cells();
    return (c.z * n + c.y) * n + c.x;
}

fn density_at(c: vec3<i32>) -> f32 {
    let n = i32(cells());
    if any(c < vec3<i32>(0)) || any(c >= vec3<i32>(n)) {
        return 0.0;
    }
    return f32(atomicLoad(&grid[HEADER + cell_index(vec3<u32>(c))])) / DENSITY_ONE;
}

fn transmittance_at(c: vec3<i32>) -> f32 {
    let n = i32(cells());
    let k = cell_index(vec3<u32>(clamp(c, vec3<i32>(0), vec3<i32>(n - 1))));
    return bitcast<f32>(atomicLoad(&grid[HEADER + cell_count() + k]));
}

@compute @workgroup_size(64)
fn clear(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(gid, groups);
    if i >= HEADER + 2u * cell_count() {
        return;
    }
    // lower corners start at +∞'s bits (all ones), upper ones at 0 (below every float)
    atomicStore(&grid[i], select(0u, 0xffffffffu, i < 3u));
}

var<workgroup> wg_lo: array<atomic<u32>, 3>;
var<workgroup> wg_hi: array<atomic<u32>, 3>;

@compute @workgroup_size(64)
fn bounds(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = linear_index(gid, groups);
    if lid < 3u {
        atomicStore(&wg_lo[lid], 0xffffffffu);
        atomicStore(&wg_hi[lid], 0u);
    }
    workgroupBarrier();
    if i < atomicLoad(&counters.alive) {
        let x = particles[alive_list[i]].pos;
        for (var a = 0u; a < 3u; a++) {
            atomicMin(&wg_lo[a], ordered(x[a]));
            atomicMax(&wg_hi[a], ordered(x[a]));
        }
    }
    workgroupBarrier();
    if lid < 3u {
        let lo = atomicLoad(&wg_lo[lid]);
        if lo != 0xffffffffu {
            atomicMin(&grid[lid], lo);
            atomicMax(&grid[3u + lid], atomicLoad(&wg_hi[lid]));
        }
    }
}

@compute @workgroup_size(64)
fn deposit(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(gid, groups);
    if i >= atomicLoad(&counters.alive) {
        return;
    }
    let p = particles[alive_list[i]];
    let a = appearance(
        effect.looks[emitter_slot(p)], effect.settle_time, effect.soft_distance, effect.additive,
        effect.light_wrap,
    );
    let radius = drawn_radius(p, a.look);
    let alpha = particle_color(p, a.look, a.settle_time).a;
    let b = box();
    let n = i32(cells());
    // its cross-section's opacity (the soft disc's mean coverage) over a cell's volume,
    // spread over the eight cells round its centre by how near it is to each (so that it
    // moves smoothly through the grid)
    let cell = b.size.x / f32(n);
    let extinction = min(3.14159265 * radius * radius * alpha * 0.5 / (cell * cell * cell), DENSITY_MAX);
    let g = grid_coord(b, p.pos) - 0.5;
    let base = vec3<i32>(floor(g));
    let f = g - floor(g);
    for (var corner = 0u; corner < 8u; corner++) {
        let o = vec3<u32>(corner & 1u, (corner >> 1u) & 1u, corner >> 2u);
        let w = select(1.0 - f, f, o == vec3<u32>(1u));
        let c = clamp(base + vec3<i32>(o), vec3<i32>(0), vec3<i32>(n - 1));
        let share = extinction * w.x * w.y * w.z * DENSITY_ONE;
        if share >= 0.5 {
            atomicAdd(&grid[HEADER + cell_index(vec3<u32>(c))], u32(share + 0.5));
        }
    }
}

@compute @workgroup_size(64)
fn march(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let k = linear_index(gid, groups);
    let count = cell_count();
    if k >= count {
        return;
    }
    let n = cells();
    let c = vec3<u32>(k % n, (k / n) % n, k / (n * n));
    let b = box();
    let cell = b.size / f32(n);
    // steps of half the smallest cell side, in cells along each axis
    let step_length = 0.5 * min(cell.x, min(cell.y, cell.z));
    let toward = normalize(frame.light_dir) * step_length / cell;
    var at = vec3<f32>(c) + 0.5;
    var depth = 0.5 * density_at(vec3<i32>(c)) * step_length;
    for (var s = 0u; s < 4u * n; s++) {
        at += toward;
        if any(at < vec3<f32>(0.0)) || any(at >= vec3<f32>(f32(n))) {
            break;
        }
        depth += density_at(vec3<i32>(floor(at))) * step_length;
    }
    let t = exp(-depth * effect.shadow_strength);
    atomicStore(&grid[HEADER + count + k], bitcast<u32>(t));
}

@compute @workgroup_size(64)
fn apply(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = linear_index(gid, groups);
    if i >= atomicLoad(&counters.alive) {
        return;
    }
    let slot = alive_list[i];
    let p = particles[slot];
    // trilinear between the eight cell centres around it
    let g = grid_coord(box(), p.pos) - 0.5;
    let base = vec3<i32>(floor(g));
    let f = g - floor(g);
    var t = 0.0;
    for (var corner = 0u; corner < 8u; corner++) {
        let o = vec3<u32>(corner & 1u, (corner >> 1u) & 1u, corner >> 2u);
        let w = select(1.0 - f, f, o == vec3<u32>(1u));
        t += w.x * w.y * w.z * transmittance_at(base + vec3<i32>(o));
    }
    particles[slot].flags = with_shadow(p.flags, t);
}
