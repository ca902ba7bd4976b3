//! A per-thread cache of first-layer sums: one slot per ply, and one entry
//! per perspective and king bucket.
//!
//! Slot `p` holds the bitboards last evaluated at ply `p`, the king bucket
//! each perspective read them with, and both perspectives' accumulators. A
//! perspective of a node at ply `p` starts from whichever of slot `p − 1`
//! (its parent, usually evaluated on the way down), slot `p` (the previous
//! node at this ply: a sibling or cousin) and its king bucket's entry
//! differs from it in fewer squares, among those summed in the same bucket,
//! and adds or subtracts only the rows of the pieces that differ. The bucket
//! entries (Stockfish's `AccumulatorCaches`, "Finny tables") start as the
//! bias of an empty board, so a king move into another bucket costs the
//! difference to the last position seen in that bucket, not a sum of thirty
//! rows. Nothing is kept in the position: the bitboards of the node are the
//! whole input.

use super::aligned::AlignedI16;
use super::{Network, PerspectiveView, PIECE_CODES};
use std::sync::Arc;
use tetrad_simd::{Bitboards, Color};

/// Room for the rows of one update: at most 32 pieces come, 32 go.
const MAX_ROWS: usize = 64;
/// A slot this close (pieces that differ) serves both perspectives at once.
const NEAR: u32 = 6;
/// The most squares one move changes (castling: king and rook, from and to).
const ONE_MOVE: u32 = 4;

#[derive(Clone, Copy)]
struct Slot {
    /// The twelve piece sets of the last position summed here.
    pieces: [u64; 12],
    /// The bucket key each perspective was summed with.
    keys: [u16; 2],
    valid: bool,
}

/// Counts of how evaluations were made (for measurements).
#[derive(Clone, Copy, Default, Debug)]
pub struct CacheStats {
    /// Perspectives started from their king bucket's entry.
    pub refreshes: u64,
    /// Perspectives started from a ply slot.
    pub updates: u64,
    /// Rows added or subtracted, both perspectives.
    pub rows: u64,
}

/// Per-thread first-layer cache over one network.
#[derive(Clone)]
pub struct NnueCache {
    net: Arc<Network>,
    slots: Vec<Slot>,
    /// Accumulators of the slots: `[slot][perspective][neuron]`.
    accs: AlignedI16,
    /// Pieces of each bucket entry, `[perspective][key]`.
    entries: Vec<[u64; 12]>,
    /// Accumulators of the bucket entries, `[perspective][key][neuron]`.
    entry_accs: AlignedI16,
    /// Bucket keys per perspective (king buckets × mirror).
    keys: usize,
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

/// Where a perspective's accumulator starts from.
#[derive(Clone, Copy, PartialEq)]
enum Base {
    /// A ply slot.
    Slot(usize),
    /// A bucket entry.
    Entry(usize),
}

impl NnueCache {
    /// A cache with `plies` slots over `net`.
    pub fn new(net: Arc<Network>, plies: usize) -> NnueCache {
        let mut c = NnueCache {
            net,
            slots: Vec::new(),
            accs: AlignedI16::default(),
            entries: Vec::new(),
            entry_accs: AlignedI16::default(),
            keys: 0,
            stats: CacheStats::default(),
        };
        c.slots = vec![Slot { pieces: [0; 12], keys: [0; 2], valid: false }; plies.max(1)];
        c.clear();
        c
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

    /// Forgets every slot; the bucket entries go back to an empty board.
    pub fn clear(&mut self) {
        let h = self.net.hidden();
        for s in &mut self.slots {
            s.valid = false;
        }
        self.accs.resize(self.slots.len() * 2 * h);
        self.keys = 2 * self.net.arch.kings.count();
        let entries = 2 * self.keys;
        self.entries = vec![[0; 12]; entries];
        self.entry_accs.resize(entries * h);
        for e in self.entry_accs.chunks_exact_mut(h) {
            e.copy_from_slice(&self.net.b1);
        }
        self.stats = CacheStats::default();
    }

    /// Evaluates the bitboards of a node at `ply`: the network's centipawns for `stm`.
    pub fn evaluate(&mut self, bb: &Bitboards, stm: Color, ply: usize) -> i32 {
        // One copy of the cache per width the file format allows: every
        // accumulator an array, every kernel inlined.
        super::kernels::with_width!(self.net.hidden(), H => self.evaluate_n::<H>(bb, stm, ply),
            // A loaded network has one of those widths (`Arch::check`).
            _ => self.net.evaluate(bb, stm))
    }

    fn evaluate_n<const H: usize>(&mut self, bb: &Bitboards, stm: Color, ply: usize) -> i32 {
        let ply = ply.min(self.slots.len() - 1);
        let now = piece_sets(bb);
        let views = self.net.arch.views(bb);
        let keys = [views[0].key, views[1].key];
        // The usual case: the parent (or the node before at this ply) was
        // summed in the same buckets and differs by a few pieces. A parent
        // one move away (a move changes at most four squares' pieces) is
        // taken without weighing the sibling: no slot is much nearer.
        let summed_here = |s: &Slot| s.valid && s.keys == keys;
        let mut near = None;
        if ply > 0 && summed_here(&self.slots[ply - 1]) {
            near = Some((ply - 1, distance(&self.slots[ply - 1].pieces, &now)));
        }
        if near.is_none_or(|(_, d)| d > ONE_MOVE) && summed_here(&self.slots[ply]) {
            let d = distance(&self.slots[ply].pieces, &now);
            if near.is_none_or(|(_, b)| d <= b) {
                near = Some((ply, d));
            }
        }
        match near {
            Some((c, d)) if d <= NEAR => {
                let (mut adds, mut subs) = (Rows::<2, { NEAR as usize }>::new(), Rows::new());
                rows(&self.slots[c].pieces, &now, [&views[0], &views[1]], H, &mut adds, &mut subs);
                for p in 0..2 {
                    self.apply::<H>(p, ply, Base::Slot(c), &adds.rows[p][..adds.n], &subs.rows[p][..subs.n]);
                }
                self.stats.updates += 2;
                self.stats.rows += 2 * u64::from(d);
            }
            _ => {
                for (p, view) in views.iter().enumerate() {
                    self.rebuild::<H>(p, ply, view, &now);
                }
            }
        }
        let slot = &mut self.slots[ply];
        slot.pieces = now;
        slot.keys = keys;
        slot.valid = true;
        let (accs, _) = self.accs.as_chunks::<H>();
        let (white, black) = (&accs[2 * ply], &accs[2 * ply + 1]);
        let (us, them) = if stm == Color::White { (white, black) } else { (black, white) };
        self.net.output_fixed(us, them, 64 - bb.empty().count_ones())
    }

    /// Perspective `p` of slot `ply` from the nearest of: the parent's slot,
    /// this ply's slot (when summed in the same bucket) and the bucket's entry.
    fn rebuild<const H: usize>(&mut self, p: usize, ply: usize, view: &PerspectiveView, now: &[u64; 12]) {
        let entry = p * self.keys + view.key as usize;
        let mut base = (Base::Entry(entry), distance(&self.entries[entry], now));
        for c in [ply.checked_sub(1), Some(ply)].into_iter().flatten() {
            let s = &self.slots[c];
            if s.valid && s.keys[p] == view.key {
                let d = distance(&s.pieces, now);
                // Ties go to the slots: an entry is copied back after use.
                if d <= base.1 {
                    base = (Base::Slot(c), d);
                }
            }
        }
        let old = match base.0 {
            Base::Slot(c) => self.slots[c].pieces,
            Base::Entry(e) => self.entries[e],
        };
        let (mut adds, mut subs) = (Rows::<1, MAX_ROWS>::new(), Rows::new());
        rows(&old, now, [view], H, &mut adds, &mut subs);
        self.apply::<H>(p, ply, base.0, &adds.rows[0][..adds.n], &subs.rows[0][..subs.n]);
        if let Base::Entry(e) = base.0 {
            let out = self.accs.as_chunks::<H>().0[2 * ply + p];
            self.entry_accs.as_chunks_mut::<H>().0[e] = out;
            self.entries[e] = *now;
            self.stats.refreshes += 1;
        } else {
            self.stats.updates += 1;
        }
        self.stats.rows += u64::from(base.1);
    }

    /// Perspective `p` of slot `ply`: `base`'s accumulator plus and minus rows.
    #[inline(always)]
    fn apply<const H: usize>(&mut self, p: usize, ply: usize, base: Base, adds: &[usize], subs: &[usize]) {
        let w1 = &self.net.w1;
        let dst = 2 * ply + p;
        let (accs, _) = self.accs.as_chunks_mut::<H>();
        match base {
            // In place: the previous node at this ply.
            Base::Slot(c) if c == ply => super::kernels::update_fixed(&mut accs[dst], None, w1, adds, subs),
            // Parent to child reads one slot and writes the next: no copy first.
            Base::Slot(c) => {
                let (below, above) = accs.split_at_mut(dst);
                super::kernels::update_fixed(&mut above[0], Some(&below[2 * c + p]), w1, adds, subs);
            }
            Base::Entry(e) => {
                let from = &self.entry_accs.as_chunks::<H>().0[e];
                super::kernels::update_fixed(&mut accs[dst], Some(from), w1, adds, subs);
            }
        }
    }
}

/// Up to `N` perspectives' row offsets of up to `CAP` pieces.
struct Rows<const N: usize, const CAP: usize> {
    rows: [[usize; CAP]; N],
    n: usize,
}

impl<const N: usize, const CAP: usize> Rows<N, CAP> {
    #[inline(always)]
    fn new() -> Self {
        Rows { rows: [[0; CAP]; N], n: 0 }
    }
}

/// The rows (offsets into `w1`) to add and to subtract, for each of `views`,
/// to go from the pieces `old` to `now`, written into `adds` and `subs` where
/// the caller keeps them: returned by value, the lists were copied as whole
/// vectors just after being written a word at a time (a store-forwarding
/// stall the profile showed as the hottest line of the evaluation).
#[inline(always)]
fn rows<const N: usize, const CAP: usize>(
    old: &[u64; 12],
    now: &[u64; 12],
    views: [&PerspectiveView; N],
    h: usize,
    adds: &mut Rows<N, CAP>,
    subs: &mut Rows<N, CAP>,
) {
    // The piece sets that differ, found without a branch per set: which of
    // the twelve changed is different at every node, and a test per set
    // was mispredicted about as often as taken.
    let mut changed = 0u32;
    for i in 0..PIECE_CODES.len() {
        changed |= u32::from(now[i] != old[i]) << i;
    }
    while changed != 0 {
        let i = changed.trailing_zeros() as usize;
        changed &= changed - 1;
        let code = PIECE_CODES[i];
        let (mut added, mut removed) = (now[i] & !old[i], old[i] & !now[i]);
        let bases = views.map(|v| v.code_base(code));
        while added != 0 && adds.n < CAP {
            let sq = added.trailing_zeros() as usize;
            for p in 0..N {
                adds.rows[p][adds.n] = (bases[p] + views[p].square(sq)) * h;
            }
            added &= added - 1;
            adds.n += 1;
        }
        while removed != 0 && subs.n < CAP {
            let sq = removed.trailing_zeros() as usize;
            for p in 0..N {
                subs.rows[p][subs.n] = (bases[p] + views[p].square(sq)) * h;
            }
            removed &= removed - 1;
            subs.n += 1;
        }
    }
}
