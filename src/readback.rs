//! Blocking GPU → CPU copies, for tests, `stats --dump` and headless PNGs (never the frame loop).

use crate::error::{Error, Result};

/// Copy `size` bytes of `buffer` from `offset` and wait for them.
pub fn read_buffer(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    offset: u64,
    size: u64,
) -> Result<Vec<u8>> {
    if size == 0 {
        return Ok(Vec::new());
    }
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("flurry.readback"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, offset, &staging, 0, size);
    queue.submit([encoder.finish()]);
    map_and_copy(device, &staging)
}

/// Map a MAP_READ buffer whose copy has been submitted and return its bytes.
pub fn map_and_copy(device: &wgpu::Device, staging: &wgpu::Buffer) -> Result<Vec<u8>> {
    let slice = staging.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| Error::Readback(e.to_string()))?;
    rx.recv()
        .map_err(|e| Error::Readback(e.to_string()))?
        .map_err(|e| Error::Readback(e.to_string()))?;
    let bytes = slice
        .get_mapped_range()
        .map_err(|e| Error::Readback(format!("{e:?}")))?
        .to_vec();
    staging.unmap();
    Ok(bytes)
}
