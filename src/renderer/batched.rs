//! The batched relist: the pools sized per slot that share a chunk of the arena
//! ([`crate::arena`]) are relisted by one dispatch a chunk after every simulate of the step,
//! a workgroup row a pool, instead of one dispatch each (each of which costs about 0.1 ms on
//! lavapipe whatever its particles). Rebuilt with the merged set, when effects come and
//! go or their steps change; a pool counted this frame (more than one step) relists itself.

use wgpu::util::DeviceExt;

use super::Entry;
use crate::passes::batch_relist::{BatchMember, BatchRelist};
use crate::pipelines::Pipelines;
use crate::pool::Sizing;

#[derive(Default)]
pub(super) struct Batches {
    relists: Vec<BatchRelist>,
}

impl Batches {
    /// The batches of `entries`, marking their members: every chunk with two or more pools
    /// sized per slot (one alone relists itself as cheaply).
    pub fn new(device: &wgpu::Device, p: &Pipelines, entries: &mut [Entry]) -> Self {
        let mut chunks: Vec<(std::sync::Arc<crate::arena::Chunk>, Vec<usize>)> = vec![];
        for (i, e) in entries.iter_mut().enumerate() {
            e.system.set_batched(false);
            let pool = e.system.pool();
            let Some(lease) = pool
                .lease
                .as_ref()
                .filter(|_| pool.sizing == Sizing::PerSlot)
            else {
                continue;
            };
            match chunks
                .iter_mut()
                .find(|(c, _)| std::sync::Arc::ptr_eq(c, lease.chunk()))
            {
                Some((_, members)) => members.push(i),
                None => chunks.push((lease.chunk().clone(), vec![i])),
            }
        }
        let mut relists = vec![];
        for (chunk, members) in chunks.into_iter().filter(|(_, m)| m.len() >= 2) {
            let mut table = Vec::with_capacity(members.len());
            let mut most = 0;
            for &i in &members {
                let pool = entries[i].system.pool();
                let lease = pool.lease.as_ref().expect("a member is in the arena");
                table.push(BatchMember {
                    first: lease.first_entry(),
                    counters: lease.pool(),
                    ..Default::default()
                });
                most = most.max(pool.capacity);
                entries[i].system.set_batched(true);
            }
            let table = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("flurry.batch_members"),
                contents: bytemuck::cast_slice(&table),
                usage: wgpu::BufferUsages::STORAGE,
            });
            relists.push(p.batch_relist().bind(device, &chunk, &table, most));
        }
        Batches { relists }
    }

    /// Relist every batched pool (into the simulate step's pass, after its simulates).
    pub fn record_relist(&self, p: &Pipelines, pass: &mut wgpu::ComputePass) {
        for relist in &self.relists {
            p.batch_relist().record(pass, relist);
        }
    }
}
