// members.wgsl — whose constants a drawn particle takes, for the passes that draw either
// an effect's own list or the merged sort's copies of many effects' particles (draw.wgsl,
// splat.wgsl). The includer declares MERGED (0: an effect's own list, 1: the merged list;
// specialised in source), the effect's uniform `effect` and, for the merged list,
// `effects` (the members' constants; a copy's instance bits name its member, merge.wgsl).
// Lavapipe evaluates both sides of a choice, so a lookup where one effect is bound would
// be work every particle does for nothing: the specialisation compiles it out.

// The constants of the effect `p` (of the list's particles) belongs to.
fn effect_of(p: Particle) -> EffectParams {
    if MERGED == 0u {
        return effect;
    }
    return effects[instance_of(p)];
}
