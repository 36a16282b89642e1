//! Asking the CPU's caches for memory before it is read.
//!
//! A host's frame updates each of its effects once, and between two frames the driver's
//! work (lavapipe's above all) leaves little of them in the caches: each effect's first
//! reads wait for memory. Asked for while the effect before it is updated, they do not:
//! the renderer's update of 100 copies of one effect took 80-82 µs of a host's CPU a frame
//! without, 58-59 with (lavapipe, `flurry profile effects --host`, four runs alternated).

/// Ask for every cache line of `value`.
pub(crate) fn value<T>(value: &T) {
    let start = value as *const T as usize;
    let end = start + std::mem::size_of::<T>().max(1);
    for line in (start / LINE * LINE..end).step_by(LINE) {
        address(line);
    }
}

/// Ask for the cache line holding byte `offset` of `bytes` (none past its end).
pub(crate) fn byte(bytes: &[u8], offset: usize) {
    if offset < bytes.len() {
        address(bytes.as_ptr() as usize + offset);
    }
}

/// Bytes of a cache line on every CPU the hint is given on.
const LINE: usize = 64;

/// Ask for the cache line at `address` (nothing where no hint is known).
fn address(address: usize) {
    // SAFETY: SSE, which the instruction needs, is part of every x86_64; a prefetch is a
    // hint that reads nothing and cannot fault, whatever the address.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(address as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
