//! The shared, lock-free transposition table.
//!
//! Each entry is two `AtomicU64`s: `check = key ^ data` and `data`. Writers
//! store both halves with plain relaxed stores and readers accept an entry
//! only if `check ^ data` gives back the probing key (Hyatt's lockless
//! hashing): a torn entry — halves from two different writes — fails that
//! test and is treated as a miss. Moves read from the table are still vetted
//! for legality by the search before they are played.
//!
//! ```text
//! data bits  0..16  move (raw Move)
//!           16..32  score (i16, mate scores relative to the node)
//!           32..48  static eval (i16)
//!           48..56  depth (u8, offset so quiescence depths fit)
//!           56..58  bound (1 upper, 2 lower, 3 exact; 0 only in an empty slot)
//!           58      ttPv: the position was on a principal variation
//!           59..64  generation (age, 5 bits)
//! ```
//! Four entries make a 64-byte bucket, one cache line. The bucket index uses
//! the high bits of the key (multiply-shift), the check uses all 64 bits.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use tetrad_simd::Move;

use crate::score::TB_WIN_IN_MAX;

/// Mate and tablebase scores are stored relative to the node, not the root.
#[inline]
pub(crate) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_IN_MAX {
        score + ply as i32
    } else if score <= -TB_WIN_IN_MAX {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`]: a stored score seen from `ply` plies below the root.
#[inline]
pub(crate) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_IN_MAX {
        score - ply as i32
    } else if score <= -TB_WIN_IN_MAX {
        score + ply as i32
    } else {
        score
    }
}

/// The static evaluation of an entry stored without one (a tablebase
/// result: the node was never evaluated). Readers evaluate afresh.
pub const EVAL_NONE: i32 = i16::MIN as i32;

/// Kind of bound a stored score is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// Exact score (PV node).
    Exact = 3,
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// Best or refutation move (may be null; must be checked for legality).
    pub mv: Move,
    /// Score, relative to the node (convert with `score_from_tt`).
    pub score: i32,
    /// Static evaluation of the node ([`EVAL_NONE`] when stored without one).
    pub eval: i32,
    /// Search depth the score comes from.
    pub depth: i32,
    /// Bound kind.
    pub bound: Bound,
    /// The position was (or had been) on a principal variation.
    pub pv: bool,
}

impl TtEntry {
    /// The stored static evaluation, if the entry has one.
    #[inline]
    pub fn static_eval(&self) -> Option<i32> {
        (self.eval != EVAL_NONE).then_some(self.eval)
    }
}

const ENTRIES_PER_BUCKET: usize = 4;
/// Stored depth = depth + DEPTH_OFFSET, so quiescence entries (depth ≤ 0) fit a u8.
const DEPTH_OFFSET: i32 = 8;

/// One entry: `check`, `data`.
type Slot = [AtomicU64; 2];
/// Four entries, one 64-byte cache line.
type Bucket = [Slot; ENTRIES_PER_BUCKET];

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Never used: what a (never seen) out-of-range bucket index would read.
static EMPTY_BUCKET: Bucket = [const { [AtomicU64::new(0), AtomicU64::new(0)] }; ENTRIES_PER_BUCKET];

/// The transposition table, shared by all search threads.
pub struct TranspositionTable {
    /// The entries, from a plain zeroed allocation (so that the allocator's
    /// `calloc` can hand out fresh, lazily zeroed pages); buckets start at
    /// `first`, the first slot on a 64-byte boundary (on a 2 MiB one for a
    /// table of at least 2 MiB, advised for huge pages).
    slots: Vec<Slot>,
    first: usize,
    buckets: usize,
    generation: AtomicU8,
}

/// Half of physical memory in MiB where the OS tells us (Linux), else no cap.
pub fn max_table_mb() -> usize {
    let total_kb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("MemTotal:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<usize>().ok())
    });
    total_kb.map_or(usize::MAX, |kb| (kb / 1024 / 2).max(1))
}

/// Size of a transparent huge page (x86-64 and most Linux targets).
const HUGE_PAGE: usize = 2 << 20;

/// Generations wrap at 32.
const GEN_MASK: u8 = 31;

#[allow(clippy::too_many_arguments)]
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, generation: u8) -> u64 {
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    (mv.raw() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (depth << 48)
        | ((bound as u64) << 56)
        | ((pv as u64) << 58)
        | (((generation & GEN_MASK) as u64) << 59)
}

fn unpack(data: u64) -> TtEntry {
    // An empty slot never matches a key (its data is 0); a 0 bound reads as the weakest.
    let bound = match (data >> 56) & 3 {
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::Upper,
    };
    TtEntry {
        mv: Move::from_raw(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 255) as i32 - DEPTH_OFFSET,
        bound,
        pv: (data >> 58) & 1 == 1,
    }
}

fn data_depth(data: u64) -> i32 {
    ((data >> 48) & 255) as i32
}

fn data_generation(data: u64) -> u8 {
    (data >> 59) as u8 & GEN_MASK
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket), capped at half
    /// the machine's memory so a huge `Hash` value cannot exhaust it.
    ///
    /// The memory comes zeroed from the allocator (`calloc`: for a large
    /// table, fresh pages the kernel zeroes on first touch), so the table is
    /// valid at once; the engine then writes it through with
    /// [`TranspositionTable::clear_with`] so the pages fault in before a search.
    pub fn new(mb: usize) -> TranspositionTable {
        let mb = mb.max(1).min(max_table_mb());
        TranspositionTable::with_buckets((mb * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1))
    }

    /// A table of `n` buckets (at least one; fewer if the memory is not
    /// there: allocation failure on a huge Hash value must not abort).
    pub fn with_buckets(n: usize) -> TranspositionTable {
        let mut n = n.max(1);
        let slot = std::mem::size_of::<Slot>();
        // Spare slots let the first bucket start on a boundary: a cache line,
        // or a huge page for a table of at least one.
        let boundary = |n: usize| if n * std::mem::size_of::<Bucket>() >= HUGE_PAGE { HUGE_PAGE } else { 64 };
        let slots = loop {
            match bytemuck::try_zeroed_vec::<Slot>(ENTRIES_PER_BUCKET * n + boundary(n) / slot) {
                Ok(v) => break v,
                Err(()) if n > 1 => n /= 2,
                Err(()) => break bytemuck::zeroed_vec(ENTRIES_PER_BUCKET + 64 / slot),
            }
        };
        let align = boundary(n);
        let first = (align - slots.as_ptr() as usize % align) % align / slot;
        let mut tt = TranspositionTable { slots, first, buckets: n, generation: AtomicU8::new(0) };
        if align == HUGE_PAGE {
            let table = first..first + ENTRIES_PER_BUCKET * n;
            crate::hugepages::advise(&mut tt.slots[table]);
        }
        tt
    }

    /// Size in MiB actually allocated.
    pub fn size_mb(&self) -> usize {
        self.buckets * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table behind `tt` (one thread).
    pub fn clear(tt: &mut Arc<TranspositionTable>) {
        TranspositionTable::clear_with(tt, 1);
    }

    /// Empties the table behind `tt` with `threads` threads, each zeroing
    /// its share.
    ///
    /// Between searches nothing else holds the table, and it is zeroed as
    /// plain memory (`bytemuck::fill_zeroes`, a `memset`): for a large block
    /// that writes whole cache lines without reading them in first, where
    /// the atomic stores a shared table needs read every line before
    /// writing it. The bench clears 16 MiB before each position and ran
    /// 1.04x faster for it (Intel Xeon, AVX-512, 6 pairs). A table some
    /// search still holds is cleared slot by slot with atomic stores.
    ///
    /// Writing every slot also faults in every page of a fresh table now,
    /// as Stockfish's parallel clear does: left to the search, a table of
    /// gigabytes faulted in (and, for huge pages, compacted) a page at a
    /// time inside the clock. Measured on a 2-core Zen 4 with `Hash` 4096:
    /// `go movetime 1000` took 2.1 s and reached depth 7 on a fresh table.
    pub fn clear_with(tt: &mut Arc<TranspositionTable>, threads: usize) {
        // Shares of at least 32 MiB: below that a thread costs more than it saves.
        let min_share = (32 << 20) / std::mem::size_of::<Slot>();
        let threads = threads.clamp(1, tt.slots.len().div_ceil(min_share).max(1));
        let share = tt.slots.len().div_ceil(threads);
        match Arc::get_mut(tt) {
            Some(table) => {
                let parts = table.slots.chunks_mut(share);
                in_parallel(parts, bytemuck::fill_zeroes);
                *table.generation.get_mut() = 0;
            }
            None => {
                in_parallel(tt.slots.chunks(share), |part| {
                    for s in part {
                        s[0].store(0, Ordering::Relaxed);
                        s[1].store(0, Ordering::Relaxed);
                    }
                });
                tt.generation.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Starts a new search: entries from older searches become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets as u128) >> 64) as usize;
        let start = self.first + ENTRIES_PER_BUCKET * i;
        self.slots.get(start..start + ENTRIES_PER_BUCKET).and_then(|s| s.try_into().ok()).unwrap_or(&EMPTY_BUCKET)
    }

    /// Hints the CPU to fetch the bucket for `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(self.bucket(key));
    }

    /// Looks up `key`; a torn or foreign entry is a miss.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let check = slot[0].load(Ordering::Relaxed);
            let data = slot[1].load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result, replacing the least valuable entry of the bucket
    /// (by depth, with entries from older searches counting as shallower).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) {
        let generation = self.generation.load(Ordering::Relaxed) & GEN_MASK;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let check = slot[0].load(Ordering::Relaxed);
            let data = slot[1].load(Ordering::Relaxed);
            if check ^ data == key || data == 0 {
                // Same position: keep its move if the new result has none, and
                // keep a deeper exact result from this search.
                let old = unpack(data);
                // A much deeper result for the same position stays (only its move may
                // be refreshed); a fresh exact result always replaces.
                if data != 0 && bound != Bound::Exact && old.depth > depth + crate::params::tt_keep_depth_margin() {
                    if !mv.is_null() && mv != old.mv {
                        let kept =
                            pack(mv, old.score, old.eval, old.depth, old.bound, old.pv || pv, data_generation(data));
                        slot[0].store(key ^ kept, Ordering::Relaxed);
                        slot[1].store(kept, Ordering::Relaxed);
                    }
                    return;
                }
                let mv = if mv.is_null() && data != 0 { old.mv } else { mv };
                let new = pack(mv, score, eval, depth, bound, pv, generation);
                slot[0].store(key ^ new, Ordering::Relaxed);
                slot[1].store(new, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub(data_generation(data))) & GEN_MASK;
            let value = data_depth(data) - crate::params::tt_age_weight() * age as i32;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let new = pack(mv, score, eval, depth, bound, pv, generation);
        let slot = &bucket[victim];
        slot[0].store(key ^ new, Ordering::Relaxed);
        slot[1].store(new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> usize {
        let generation = self.generation.load(Ordering::Relaxed) & GEN_MASK;
        let sample = self.buckets.min(250);
        let mut used = 0;
        for i in 0..sample {
            let start = self.first + ENTRIES_PER_BUCKET * i;
            for s in &self.slots[start..start + ENTRIES_PER_BUCKET] {
                let d = s[1].load(Ordering::Relaxed);
                if d != 0 && data_generation(d) == generation {
                    used += 1;
                }
            }
        }
        used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)
    }
}

/// Runs `work` on each of `parts`: the last on this thread, the others on
/// scoped threads of their own.
fn in_parallel<P: Send>(parts: impl Iterator<Item = P>, work: impl Fn(P) + Sync) {
    std::thread::scope(|scope| {
        let mut parts = parts.peekable();
        while let Some(part) = parts.next() {
            if parts.peek().is_some() {
                scope.spawn(|| work(part));
            } else {
                work(part);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table filled with entries, and marks in the spare slots before
    /// the first bucket and in the last slot.
    fn filled_table() -> Arc<TranspositionTable> {
        let tt = TranspositionTable::new(100);
        for i in 0..100_000u64 {
            let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.store(key, Move::from_raw(1), 1, 1, 5, Bound::Exact, false);
        }
        tt.slots[0][1].store(7, Ordering::Relaxed);
        tt.slots[tt.slots.len() - 1][0].store(7, Ordering::Relaxed);
        tt.new_search();
        assert!(tt.slots.iter().filter(|s| s[1].load(Ordering::Relaxed) != 0).count() > 50_000);
        Arc::new(tt)
    }

    fn is_empty(tt: &TranspositionTable) -> bool {
        tt.slots.iter().all(|s| s[0].load(Ordering::Relaxed) == 0 && s[1].load(Ordering::Relaxed) == 0)
            && tt.hashfull() == 0
            && tt.generation.load(Ordering::Relaxed) == 0
    }

    /// A parallel clear empties every slot, in every thread's share and in
    /// the spare slots, whether the table is held only by the caller (zeroed
    /// as plain memory) or shared with a search (atomic stores).
    #[test]
    fn parallel_clear_empties_every_slot() {
        for threads in [1, 3] {
            let mut tt = filled_table();
            TranspositionTable::clear_with(&mut tt, threads);
            assert!(is_empty(&tt), "held alone, {threads} threads");

            let mut tt = filled_table();
            let search = Arc::clone(&tt);
            TranspositionTable::clear_with(&mut tt, threads);
            assert!(Arc::ptr_eq(&tt, &search), "the shared table is cleared, not replaced");
            assert!(is_empty(&tt), "shared, {threads} threads");
        }
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = Move::from_raw(0x1234);
        tt.store(0xDEAD_BEEF, m, -123, 45, 7, Bound::Lower, true);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound, e.pv), (m, -123, 45, 7, Bound::Lower, true));
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.store(99, Move::NULL, 0, 0, -3, Bound::Upper, false);
        assert_eq!(tt.probe(99).unwrap().depth, -3);
    }

    /// Buckets start on a cache line, and on a huge page when the table
    /// holds at least one (so every 2 MiB of it can be a single TLB entry).
    #[test]
    fn buckets_are_aligned() {
        for (mb, align) in [(1, 64), (2, HUGE_PAGE), (5, HUGE_PAGE)] {
            let tt = TranspositionTable::new(mb);
            assert_eq!(tt.bucket(0).as_ptr() as usize % align, 0, "{mb} MiB");
            assert_eq!(tt.bucket(u64::MAX).as_ptr() as usize % 64, 0);
            assert!(!std::ptr::eq(tt.bucket(u64::MAX), &EMPTY_BUCKET));
        }
        let small = TranspositionTable::with_buckets(3);
        assert_eq!(small.bucket(0).as_ptr() as usize % 64, 0);
    }

    /// Many threads hammer one bucket with entries whose fields are all
    /// derived from the key; any accepted entry must be self-consistent.
    #[test]
    fn torn_entries_are_rejected() {
        let tt = Arc::new(TranspositionTable::new(1));
        // Keys that land in the same bucket: equal high bits.
        let keys: Vec<u64> = (0..64u64).map(|i| 0xABCD_0000_0000_0000 | (i * 0x0101_0101)).collect();
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let tt = Arc::clone(&tt);
                let keys = keys.clone();
                std::thread::spawn(move || {
                    let mut bad = 0;
                    for round in 0..20_000usize {
                        let k = keys[(round * 7 + t * 13) % keys.len()];
                        let tag = (k as u16) | 1;
                        tt.store(
                            k,
                            Move::from_raw(tag),
                            (k % 1000) as i32,
                            (k % 777) as i32,
                            (k % 50) as i32,
                            Bound::Exact,
                            false,
                        );
                        let probe = keys[(round * 11 + t) % keys.len()];
                        if let Some(e) = tt.probe(probe) {
                            if e.mv.raw() != ((probe as u16) | 1) || e.score != (probe % 1000) as i32 {
                                bad += 1;
                            }
                        }
                    }
                    bad
                })
            })
            .collect();
        let bad: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(bad, 0);
    }

    /// Mate and tablebase scores keep their distance from the node they were
    /// found at: stored at one ply and read at the same ply they come back
    /// unchanged, read at another (a transposition) they move by the difference.
    #[test]
    fn mate_and_tablebase_scores_round_trip_at_any_ply() {
        use crate::score::{MATE, MAX_PLY, TB_WIN};
        let tt = TranspositionTable::new(1);
        let plies = [0usize, 1, 2, 7, 30, 64, MAX_PLY - 1];
        for &ply in &plies {
            let node = ply as i32;
            // Mates and table results found at this node, n plies below it; evaluations.
            let scores = [
                MATE - node - 1,
                MATE - node - 9,
                -(MATE - node - 2),
                TB_WIN - node - 3,
                -(TB_WIN - node - 40),
                TB_WIN_IN_MAX - 1,
                -(TB_WIN_IN_MAX - 1),
                0,
                731,
                -14_999,
            ];
            for (i, &score) in scores.iter().enumerate() {
                let key = 0x1000 + (ply * 64 + i) as u64;
                tt.store(key, Move::NULL, score_to_tt(score, ply), 0, 5, Bound::Exact, false);
                let stored = tt.probe(key).unwrap().score;
                assert_eq!(score_from_tt(stored, ply), score, "score {score} at ply {ply}");
                for &other in &plies {
                    let seen = score_from_tt(stored, other);
                    let shift = other as i32 - node;
                    let expected = match score {
                        s if s >= TB_WIN_IN_MAX => s - shift,
                        s if s <= -TB_WIN_IN_MAX => s + shift,
                        s => s,
                    };
                    assert_eq!(seen, expected, "score {score} stored at ply {ply}, read at {other}");
                }
            }
        }
    }
}
