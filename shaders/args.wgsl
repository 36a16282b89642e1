// args.wgsl — one thread turns the counters into indirect arguments, so the frame's work
// follows the particle counts without a CPU read-back.

@group(0) @binding(0) var<storage, read_write> counters: Counters;
@group(0) @binding(1) var<storage, read_write> args: IndirectArgs;
@group(0) @binding(2) var<uniform> effect: EffectParams;

// After emit: size the simulate dispatch from the alive count, reset the next list.
@compute @workgroup_size(1)
fn after_emit() {
    let n = atomicLoad(&counters.alive);
    args.sim_x = (n + WORKGROUP - 1u) / WORKGROUP;
    args.sim_y = 1u;
    args.sim_z = 1u;
    atomicStore(&counters.next_alive, 0u);
    atomicStore(&counters.events, 0u);
}

// After simulate: the next list becomes current (the bind groups swap on the CPU side);
// size the cull dispatch from it and reset the visible count.
@compute @workgroup_size(1)
fn after_simulate() {
    let n = atomicLoad(&counters.next_alive);
    atomicStore(&counters.alive, n);
    atomicStore(&counters.next_alive, 0u);
    atomicStore(&counters.visible, 0u);
    atomicStore(&counters.splatted, 0u);
    // a further substep simulates the survivors
    args.sim_x = (n + WORKGROUP - 1u) / WORKGROUP;
    args.sim_y = 1u;
    args.sim_z = 1u;
    args.cull_x = (n + WORKGROUP - 1u) / WORKGROUP;
    args.cull_y = 1u;
    args.cull_z = 1u;
    // spawns at this frame's hits so far (emit.wgsl spawn_on_hit)
    let events = min(atomicLoad(&counters.events), min(effect.capacity, 4096u));
    args.spawn_request = events * (effect.hit_count + effect.hit_count2);
    args.spawn_x = (args.spawn_request + WORKGROUP - 1u) / WORKGROUP;
    args.spawn_y = 1u;
    args.spawn_z = 1u;
}

// After the hit spawns joined the live list: cull them too.
@compute @workgroup_size(1)
fn after_spawn() {
    let n = atomicLoad(&counters.alive);
    args.cull_x = (n + WORKGROUP - 1u) / WORKGROUP;
}

// After cull: one instance per visible particle, three vertices (one triangle) each;
// one splat thread per splatted particle.
@compute @workgroup_size(1)
fn after_cull() {
    args.splat_x = (atomicLoad(&counters.splatted) + WORKGROUP - 1u) / WORKGROUP;
    args.splat_y = 1u;
    args.splat_z = 1u;
    args.draw_vertex_count = 3u;
    args.draw_instance_count = atomicLoad(&counters.visible);
    args.draw_first_vertex = 0u;
    args.draw_first_instance = 0u;
}
