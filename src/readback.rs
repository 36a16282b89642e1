//! Blocking GPU → CPU copies, for tests, `stats --dump` and headless PNGs (never the frame loop).

use crate::error::{Error, Result};

/// Copy `size` bytes of `buffer` from `offset` and wait for them.
pub(crate) fn read_buffer(
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

/// The first mip level of a 2D texture of 4 bytes a texel, rows tightly packed.
pub(crate) fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<Vec<u8>> {
    let (width, height) = (texture.width(), texture.height());
    let row = width * 4;
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let padded = row.div_ceil(align) * align;
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("flurry.texture_readback"),
        size: padded as u64 * height as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
    queue.submit([encoder.finish()]);
    let bytes = map_and_copy(device, &staging)?;
    Ok(bytes
        .chunks(padded as usize)
        .flat_map(|r| &r[..row as usize])
        .copied()
        .collect())
}

/// Map a MAP_READ buffer whose copy has been submitted and return its bytes.
fn map_and_copy(device: &wgpu::Device, staging: &wgpu::Buffer) -> Result<Vec<u8>> {
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
