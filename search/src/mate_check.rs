//! The private tables of the mate check at a won tablebase root
//! (`tbroot`): its own histories, correction tables and a small hash table
//! per thread, so that searching the slower winning moves leaves no trace on
//! the main search. Kept by the worker from the first such root until the
//! next game.

use crate::correction::Correction;
use crate::history::History;
use crate::tt::TranspositionTable;
use std::sync::Arc;

/// Hash table size of a thread's mate check, in MiB.
const MATE_CHECK_HASH_MB: usize = 4;

/// A thread's private state for the mate check: what the main search would
/// otherwise share with it.
pub(crate) struct MateCheck {
    hist: History,
    corr: Correction,
    tt: Arc<TranspositionTable>,
}

impl MateCheck {
    /// Fresh tables.
    pub(crate) fn new() -> Box<MateCheck> {
        Box::new(MateCheck {
            hist: History::new(),
            corr: Correction::new(),
            tt: Arc::new(TranspositionTable::new(MATE_CHECK_HASH_MB)),
        })
    }

    /// Starts a new search (as the main search's tables do).
    pub(crate) fn new_search(&mut self) {
        self.hist.new_search();
        self.tt.new_search();
    }

    /// Exchanges these tables with a worker's own (in, and back out).
    pub(crate) fn exchange(&mut self, hist: &mut History, corr: &mut Correction, tt: &mut Arc<TranspositionTable>) {
        std::mem::swap(hist, &mut self.hist);
        std::mem::swap(corr, &mut self.corr);
        std::mem::swap(tt, &mut self.tt);
    }
}
