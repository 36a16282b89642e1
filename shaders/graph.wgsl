// graph.wgsl — the hooks an effect's stacks (src/effect/graph) are generated into: this
// file is what an effect without stacks composes, and what a generated block replaces.
// The pass that composes it declares `graph_params` (the effect's parameters, a uniform of
// GraphParams) and `graph_table` (its curves and gradients, the rows of a float texture),
// and supplies graph_time() and graph_dt() (the clock its stacks read); emit and simulate
// also declare `graph_attributes` (the effect's own attributes, GRAPH_STRIDE words a slot)
// and instance_at(k) (where the host placed the effect's instance k).

// The slot of the particle a hook runs for: the pass sets it before the call (the hooks
// read and write the particle's own attributes there).
var<private> graph_slot: u32;
// The instance the particle being born belongs to (emit sets it for a placed effect's
// spawns): spawn_from gives the particle its flags from it.
var<private> graph_instance: u32 = NO_INSTANCE;
const GRAPH_STRIDE: u32 = 0u;

// init hook: a newborn particle's init stack (spawn.wgsl calls it in spawn_from)
const GRAPH_INIT: u32 = 0u;
fn graph_init(p: ptr<function, Particle>, seed: u32) {
}
// end

// update hook: a particle's update stack (step.wgsl calls it before the forces): what it
// writes, the acceleration it adds (`force`), false where it kills the particle
const GRAPH_UPDATE: u32 = 0u;
const GRAPH_LOOK: u32 = 0u;     // it writes the size, colour, rotation or spin
fn graph_update(p: ptr<function, Particle>, force: ptr<function, vec3<f32>>, seed: u32) -> bool {
    return true;
}
// end

// draw hook: what the particle's draw stack sets of how it is drawn (its colour, size and
// rotation), from what it is (kept in its record meanwhile): the init hook calls it last,
// step.wgsl's advance after every step
const GRAPH_DRAW: u32 = 0u;
fn graph_draw(p: ptr<function, Particle>) {
}
// end
