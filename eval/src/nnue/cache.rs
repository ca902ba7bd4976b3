//! A per-thread cache of first-layer sums, one slot per ply.
//!
//! Slot `p` holds the bitboards last evaluated at ply `p` and their
//! accumulator. A node at ply `p` starts from whichever of slot `p − 1` (its
//! parent, usually evaluated on the way down) and slot `p` (the previous
//! node at this ply: a sibling or cousin) differs from it in fewer squares,
//! and adds or subtracts only the rows of the pieces that differ. When both
//! differ too much, it sums from scratch. Nothing is kept in the position:
//! the bitboards of the node are the whole input.

use super::{rows, Accumulator, Network, PIECE_CODES};
use std::sync::Arc;
use tetrad_simd::{Bitboards, Color};

/// More changed pieces than this: sum from scratch (about as many rows as a
/// middlegame position has pieces).
const MAX_DIFF: u32 = 24;

#[derive(Clone)]
struct Slot {
    /// The twelve piece sets of the last position summed here.
    pieces: [u64; 12],
    acc: Accumulator,
    valid: bool,
}

/// Counts of how evaluations were made (for measurements).
#[derive(Clone, Copy, Default, Debug)]
pub struct CacheStats {
    /// Summed from scratch.
    pub refreshes: u64,
    /// Updated from a cached slot.
    pub updates: u64,
    /// Rows added or subtracted by updates, both perspectives.
    pub rows: u64,
}

/// Per-thread first-layer cache over one network.
#[derive(Clone)]
pub struct NnueCache {
    net: Arc<Network>,
    slots: Vec<Slot>,
    /// How evaluations were made since the last [`NnueCache::clear`].
    pub stats: CacheStats,
}

#[inline(always)]
fn piece_sets(bb: &Bitboards) -> [u64; 12] {
    PIECE_CODES.map(|c| bb.by_code[c as usize])
}

#[inline(always)]
fn distance(a: &[u64; 12], b: &[u64; 12]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

impl NnueCache {
    /// A cache with `plies` slots over `net`.
    pub fn new(net: Arc<Network>, plies: usize) -> NnueCache {
        let slot = Slot { pieces: [0; 12], acc: Accumulator::default(), valid: false };
        NnueCache { net, slots: vec![slot; plies.max(1)], stats: CacheStats::default() }
    }

    /// The network in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Switches to another network (forgets every slot).
    pub fn set_network(&mut self, net: Arc<Network>) {
        self.net = net;
        self.clear();
    }

    /// Forgets every slot.
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            s.valid = false;
        }
        self.stats = CacheStats::default();
    }

    /// Evaluates the bitboards of a node at `ply`: centipawns for `stm`.
    pub fn evaluate(&mut self, bb: &Bitboards, stm: Color, ply: usize) -> i32 {
        let ply = ply.min(self.slots.len() - 1);
        let now = piece_sets(bb);
        let mut base = None;
        let mut best = MAX_DIFF + 1;
        for cand in [ply.checked_sub(1), Some(ply)].into_iter().flatten() {
            let s = &self.slots[cand];
            if s.valid {
                let d = distance(&s.pieces, &now);
                if d < best {
                    best = d;
                    base = Some(cand);
                }
            }
        }
        match base {
            None => {
                let slot = &mut self.slots[ply];
                self.net.refresh(bb, &mut slot.acc);
                self.stats.refreshes += 1;
            }
            Some(from) => {
                let old = self.slots[from].pieces;
                self.apply_diff(from, ply, &old, &now);
                self.stats.updates += 1;
                self.stats.rows += 2 * best as u64;
            }
        }
        let slot = &mut self.slots[ply];
        slot.pieces = now;
        slot.valid = true;
        self.net.output(&slot.acc, stm, now.iter().map(|s| s.count_ones()).sum())
    }

    /// Slot `ply`'s accumulator: slot `from`'s (position `old`, `from` is
    /// `ply` or the slot before it) moved to the position `now`.
    fn apply_diff(&mut self, from: usize, ply: usize, old: &[u64; 12], now: &[u64; 12]) {
        let mut adds = [[0usize; MAX_DIFF as usize]; 2];
        let mut subs = [[0usize; MAX_DIFF as usize]; 2];
        let (mut na, mut ns) = (0, 0);
        for (i, &code) in PIECE_CODES.iter().enumerate() {
            let mut added = now[i] & !old[i];
            while added != 0 {
                let [w, b] = rows(code, added.trailing_zeros() as usize);
                added &= added - 1;
                adds[0][na] = w;
                adds[1][na] = b;
                na += 1;
            }
            let mut removed = old[i] & !now[i];
            while removed != 0 {
                let [w, b] = rows(code, removed.trailing_zeros() as usize);
                removed &= removed - 1;
                subs[0][ns] = w;
                subs[1][ns] = b;
                ns += 1;
            }
        }
        // Parent to child reads one slot and writes the next: no copy first.
        let w1 = &self.net.w1;
        if from == ply {
            let acc = &mut self.slots[ply].acc;
            for p in 0..2 {
                let src = acc.v[p];
                super::kernels::update(&src, &mut acc.v[p], w1, &adds[p][..na], &subs[p][..ns]);
            }
        } else {
            let (below, above) = self.slots.split_at_mut(ply);
            let (src, dst) = (&below[from].acc, &mut above[0].acc);
            for p in 0..2 {
                super::kernels::update(&src.v[p], &mut dst.v[p], w1, &adds[p][..na], &subs[p][..ns]);
            }
        }
    }
}
