//! The random hash every seeded stream is drawn from, as `pcg_hash` in common.wgsl.

/// PCG hash (O'Neill's RXS-M-XS output of one LCG step): a well-mixed u32 from a u32.
pub(crate) fn pcg_hash(v: u32) -> u32 {
    let state = v.wrapping_mul(747796405).wrapping_add(2891336453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277803737);
    (word >> 22) ^ word
}
