// survivors.wgsl — composed into args.wgsl and relist.wgsl, which both bind `counters` and
// `draw_counters`: what follows a simulate step (after_simulate for a counted pool,
// relist's recount for one sized per slot).

// The step's `n` survivors are the alive count, and the frame's lists start empty.
fn take_survivors(n: u32) {
    atomicStore(&counters.alive, n);
    atomicStore(&counters.visible, 0u);
    atomicStore(&counters.splatted, 0u);
    atomicStore(&draw_counters.dots, 0u);
    atomicStore(&draw_counters.ribbon_points, 0u);
    atomicStore(&draw_counters.ribbon_pieces, 0u);
    atomicStore(&draw_counters.mesh_instances, 0u);
}
