// args.wgsl — one thread turns the counters into indirect arguments, so the frame's work
// follows the particle counts without a CPU read-back. A pool sized per slot (src/pool.rs
// Sizing) runs only after_cull: emit's first thread clears its event count, relist.wgsl
// recount takes its survivors' count, its cull's first thread clears the scratch count.

@group(0) @binding(0) var<storage, read_write> counters: Counters;
@group(0) @binding(1) var<storage, read_write> args: IndirectArgs;
@group(0) @binding(2) var<uniform> effect: EffectParams;
// the ribbon points', ribbon pieces' and mesh particles' counts, zeroed after simulate
@group(0) @binding(3) var<storage, read_write> draw_counters: DrawCounters;

// The dispatches over `alive` particles: the passes before simulate over the list;
// simulate itself over the list or, in a pool nearly full, over every slot (the other of
// its two dispatches empty). Only a variant without depth collision has the kernel over
// the slots (SimulateVariant::by_slot); the other always runs over the list.
fn size_passes_over_alive(alive: u32) {
    let d = dispatch_size(alive);
    args.sim_x = d.x;
    args.sim_y = d.y;
    args.sim_z = d.z;
    let by_slot = effect.collision == COLLIDE_NONE && simulated_by_slot(alive, effect.capacity);
    let none = vec3<u32>(0u, 1u, 1u);
    let list = select(d, none, by_slot);
    let slots = select(none, dispatch_size(effect.capacity), by_slot);
    args.step_list_x = list.x;
    args.step_list_y = list.y;
    args.step_list_z = list.z;
    args.step_slots_x = slots.x;
    args.step_slots_y = slots.y;
    args.step_slots_z = slots.z;
}

// After emit: size the simulate dispatch from the alive count, reset the next list.
@compute @workgroup_size(1)
fn after_emit() {
    size_passes_over_alive(atomicLoad(&counters.alive));
    atomicStore(&counters.next_alive, 0u);
    atomicStore(&counters.events, 0u);
}

// After simulate: the survivors are the alive count. A step through the list left them
// in the next list, which relist.wgsl copies back into the current one; a step over the
// slots listed them in the current list itself, and relist is sized to nothing. Size the
// cull dispatch from them and reset the visible count.
@compute @workgroup_size(1)
fn after_simulate() {
    let n = atomicLoad(&counters.next_alive);
    let relist = select(dispatch_size(n), vec3<u32>(0u, 1u, 1u), args.step_slots_x > 0u);
    args.relist_x = relist.x;
    args.relist_y = relist.y;
    args.relist_z = relist.z;
    take_survivors(n);
    atomicStore(&counters.next_alive, 0u);
    // a further substep simulates the survivors
    size_passes_over_alive(n);
    let d = dispatch_size(n);
    args.cull_x = d.x;
    args.cull_y = d.y;
    args.cull_z = d.z;
    // spawns at this frame's hits so far (emit.wgsl spawn_on_hit)
    args.spawn_request = hit_spawn_request(atomicLoad(&counters.events), effect);
    let spawn = dispatch_size(args.spawn_request);
    args.spawn_x = spawn.x;
    args.spawn_y = spawn.y;
    args.spawn_z = spawn.z;
}

// Before trails: the live list as it is now is what lays trails (emit.wgsl spawn_trails
// reads its count from next_alive, which its own appends do not move).
@compute @workgroup_size(1)
fn before_trails() {
    let n = atomicLoad(&counters.alive);
    atomicStore(&counters.next_alive, n);
    let d = dispatch_size(n);
    args.cull_x = d.x;
    args.cull_y = d.y;
    args.cull_z = d.z;
}

// After spawns joined the live list (at hits, or trails): cull them too, and simulate
// them in a further substep.
@compute @workgroup_size(1)
fn after_spawn() {
    atomicStore(&counters.next_alive, 0u);
    let d = dispatch_size(atomicLoad(&counters.alive));
    args.cull_x = d.x;
    args.cull_y = d.y;
    args.cull_z = d.z;
    size_passes_over_alive(atomicLoad(&counters.alive));
}

// A paused pool's frame, in place of emit and simulate (which write the same for a step):
// its particles stay alive where they are, this frame's lists start empty, and the cull
// goes over them all.
@compute @workgroup_size(1)
fn held() {
    let n = atomicLoad(&counters.alive);
    take_survivors(n);
    atomicStore(&counters.next_alive, 0u);
    let d = dispatch_size(n);
    args.cull_x = d.x;
    args.cull_y = d.y;
    args.cull_z = d.z;
}

// After cull: one instance per entry of the visible list (after_pieces counts them again
// once the ribbon pieces joined it), three vertices (one triangle) each; an effect with
// ribbons draws the same instances indexed, two triangles over four vertices each (a
// piece is two triangles), from the draw counters. One splat thread per splatted
// particle.
@compute @workgroup_size(1)
fn after_cull() {
    let visible = atomicLoad(&counters.visible);
    // the dots listed apart (cull_test.wgsl DOTS) have a splat of their own; from here on the
    // splatted count them too, as the effect's statistics do
    let dots = atomicLoad(&draw_counters.dots);
    args = with_draw_and_splat(args, visible, atomicLoad(&counters.splatted));
    atomicAdd(&counters.splatted, dots);
    draw_counters.draw_instances = visible;
    let d = dispatch_size(dots);
    draw_counters.dots_x = d.x;
    draw_counters.dots_y = d.y;
    draw_counters.dots_z = d.z;
}

// After the ribbon pieces joined the visible list (ribbon_pieces.wgsl): the draw's count
// again, and the splat's as after_cull left it (the splatted count the dots by then).
@compute @workgroup_size(1)
fn after_pieces() {
    let visible = atomicLoad(&counters.visible);
    let splatted = atomicLoad(&counters.splatted) - atomicLoad(&draw_counters.dots);
    args = with_draw_and_splat(args, visible, splatted);
    draw_counters.draw_instances = visible;
}
