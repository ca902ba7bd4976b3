//! One search thread: its private tables and iterative deepening with
//! aspiration windows. The tree search itself is in `alphabeta.rs`.

use crate::history::History;
use crate::job::RootMoves;
pub use crate::job::{SearchJob, SearchShared};
use crate::limits::{Signals, TimeManager};
use crate::output::{emit, pv_for};
use crate::params::*;
use crate::score::{INFINITY, MATE, MATE_IN_MAX, MAX_PLY};
use crate::stack::Frame;
use crate::tt::TranspositionTable;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;
use tetrad_eval::Evaluator;
use tetrad_simd::{Move, Position};

/// Lengths and phases of the blocks of iterations helper threads skip
/// (thread `i` uses entry `(i - 1) % 20`): the scheme of the lazy-SMP
/// engines of the 2010s (Stockfish 8-10, Laser), which gives every helper
/// thread its own sequence of depths.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper thread `id` (> 0) skips iteration `depth`.
fn skips_depth(id: usize, depth: i32, game_ply: i32) -> bool {
    let i = (id - 1) % 20;
    ((depth + game_ply + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0
}

/// Whether a stopped iteration's best move (`partial`, null when no move
/// beat the window) replaces the last complete iteration's `best`. The
/// partial iteration searched `best` first, so a different move only got
/// there by scoring above it: the old move is refuted, even when the new
/// one scores below what the old one scored an iteration earlier (a fail-low
/// is exactly when the clock runs out mid-iteration). Depth 1 always completes.
fn partial_best_counts(depth: i32, partial: Move, best: Move) -> bool {
    depth > 1 && !partial.is_null() && partial != best
}

/// A minimal table workers hold between searches, so they keep no real table alive.
fn idle_table() -> Arc<TranspositionTable> {
    static IDLE: std::sync::OnceLock<Arc<TranspositionTable>> = std::sync::OnceLock::new();
    Arc::clone(IDLE.get_or_init(|| Arc::new(TranspositionTable::with_buckets(1))))
}

/// What a thread found.
#[derive(Clone, Debug)]
pub struct ThreadResult {
    /// Best move (null when there is no legal move).
    pub best: Move,
    /// Its score.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// The best lines of the last completed iteration (move, score), best
    /// first: one, or the MultiPV lines (what a limited strength chooses from).
    pub lines: Vec<(Move, i32)>,
}

/// A search thread's private state; kept between searches.
pub struct Worker {
    /// Thread index; 0 is the main thread.
    pub id: usize,
    pub(crate) hist: History,
    pub(crate) corr: crate::correction::Correction,
    /// Nodes spent below each root move in the current iteration (node-based time management).
    pub(crate) root_nodes: std::collections::HashMap<u16, u64>,
    /// Null moves are off below this ply (during a null-move verification search; 0 otherwise).
    pub(crate) nmp_min_ply: usize,
    /// Depth of the iteration in progress.
    pub(crate) root_depth: i32,
    pub(crate) eval: Evaluator,
    pub(crate) stack: Vec<Frame>,
    pub(crate) keys: Vec<u64>,
    pub(crate) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(crate) pv_len: Vec<usize>,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    pub(crate) root_excluded: Vec<Move>,
    /// The root is limited by `searchmoves`: its result must not enter the table as exact.
    pub(crate) root_restricted: bool,
    pub(crate) root_allowed: Vec<Move>,
    pub(crate) root_best: Move,
    pub(crate) root_best_score: i32,
    pub(crate) lmr: Box<[[u16; 64]; 64]>,
    /// Tablebase settings of the current search.
    pub(crate) tb: crate::tb::TbConfig,
    /// Tablebase probes that gave a result, not yet added to the shared count.
    pub(crate) tb_hits: u64,
    /// The root's score from the tablebases, when the root is in them.
    pub(crate) root_tb_score: Option<i32>,
    /// A won tablebase root: the tables' fastest moves.
    pub(crate) root_tb_fastest: Vec<Move>,
    /// The private tables of the mate check at a won tablebase root (made at the first such root).
    pub(crate) mate_check: Option<Box<crate::mate_check::MateCheck>>,
    /// Move-picker buffers per ply, reused from node to node: a stack per
    /// ply, since the singular test opens a second picker at the ply of the
    /// one it interrupts.
    pub(crate) pick_buffers: Vec<Vec<Box<crate::movepick::PickBuffers>>>,
    // Copied from the job for the duration of a search.
    pub(crate) tt: Arc<TranspositionTable>,
    pub(crate) shared: Arc<SearchShared>,
    pub(crate) time: Option<TimeManager>,
    pub(crate) node_limit: Option<u64>,
    pub(crate) single_thread: bool,
    /// Main thread of a search that prints `info`: also prints `currmove` after a second.
    pub(crate) print_currmove: bool,
    /// Castling written as king takes rook in `info` lines.
    pub(crate) chess960: bool,
    /// Start of the current search (for the `currmove` delay).
    pub(crate) start: Instant,
    /// Main thread: the search was pondering when last looked at.
    pub(crate) pondering: bool,
    /// The root's aspiration window failed low in the iteration in progress.
    pub(crate) root_failed_low: bool,
    /// Main thread: the game ply and score of its last search (the previous move's, in a game).
    pub(crate) last_search: Option<(i32, i32)>,
}

impl Worker {
    /// A fresh worker.
    pub fn new(id: usize) -> Worker {
        crate::cycle::init();
        Worker {
            id,
            hist: History::new(),
            corr: crate::correction::Correction::new(),
            root_nodes: std::collections::HashMap::new(),
            root_depth: 0,
            nmp_min_ply: 0,
            eval: Evaluator::new(),
            stack: vec![Frame::default(); MAX_PLY + 8],
            keys: Vec::with_capacity(1024),
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_excluded: Vec::new(),
            root_restricted: false,
            root_allowed: Vec::new(),
            root_best: Move::NULL,
            root_best_score: -INFINITY,
            lmr: crate::reduction::lmr_table(),
            tb: Default::default(),
            tb_hits: 0,
            root_tb_score: None,
            root_tb_fastest: Vec::new(),
            mate_check: None,
            pick_buffers: (0..MAX_PLY + 8).map(|_| vec![crate::movepick::PickBuffers::boxed()]).collect(),
            tt: idle_table(),
            shared: Arc::new(SearchShared::new(1)),
            time: None,
            node_limit: None,
            single_thread: true,
            print_currmove: false,
            chess960: false,
            start: Instant::now(),
            pondering: false,
            root_failed_low: false,
            last_search: None,
        }
    }

    /// Forgets all learned ordering data (new game).
    pub fn clear(&mut self) {
        self.hist.clear();
        self.corr.clear();
        self.eval.clear();
        self.mate_check = None;
        self.last_search = None;
    }

    /// Move-picker buffers for a node at `ply` (fresh ones only the first
    /// time a second picker opens at that ply); give them back with
    /// [`Worker::give_buffers`].
    #[inline]
    pub(crate) fn take_buffers(&mut self, ply: usize) -> Box<crate::movepick::PickBuffers> {
        self.pick_buffers[ply].pop().unwrap_or_else(crate::movepick::PickBuffers::boxed)
    }

    /// Returns a finished picker's buffers to its ply.
    #[inline]
    pub(crate) fn give_buffers(&mut self, ply: usize, picker: crate::movepick::MovePicker) {
        self.pick_buffers[ply].push(picker.into_buffers());
    }

    /// Publishes the node count and checks the stop conditions. Inlined
    /// into every node; what runs once in 1,024 nodes (or only under a node
    /// limit) is kept out of line.
    #[inline(always)]
    pub(crate) fn check_limits(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 || self.node_limit.is_some() {
            self.check_limits_rare();
        }
        // Depth 1 always completes (a few dozen nodes): a search stopped at
        // once, or out of time or nodes, still answers a searched move.
        if (self.nodes & 255 == 0 || self.single_thread) && self.root_depth > 1 {
            self.stopped |= self.shared.stop.load(Ordering::Relaxed);
        }
    }

    /// The node count published, the node limit and the clock checked.
    #[inline(never)]
    fn check_limits_rare(&mut self) {
        if self.nodes & 1023 == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        }
        if self.id == 0 {
            if let Some(limit) = self.node_limit {
                let total = if self.single_thread {
                    self.nodes
                } else if self.nodes & 1023 == 0 {
                    self.shared.total_nodes()
                } else {
                    0
                };
                if total >= limit {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
            if self.nodes & 1023 == 0 && !self.still_pondering() && self.time.is_some_and(|t| t.hard_expired()) {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Main thread: whether the search still ponders. At the switch to a
    /// normal search (`ponderhit`) the time manager's clock restarts, so the
    /// time planned for this move counts from the ponderhit.
    fn still_pondering(&mut self) -> bool {
        if !self.pondering {
            return false;
        }
        if self.shared.pondering.load(Ordering::Relaxed) {
            return true;
        }
        self.pondering = false;
        if let Some(t) = &mut self.time {
            t.start = Instant::now();
        }
        false
    }

    /// Iterative deepening from the job's root; returns this thread's result.
    pub fn search(&mut self, job: &SearchJob) -> ThreadResult {
        self.tt = Arc::clone(&job.tt);
        self.shared = Arc::clone(&job.shared);
        // A tune build's reductions follow their options.
        #[cfg(feature = "tune")]
        {
            self.lmr = crate::reduction::lmr_table();
        }
        self.eval.configure(&job.eval);
        self.single_thread = job.shared.nodes.len() == 1;
        self.nodes = 0;
        self.stopped = false;
        self.node_limit = job.limits.nodes;
        self.print_currmove = job.print_info && self.id == 0;
        self.chess960 = job.chess960;
        self.start = job.start;
        self.pondering = self.id == 0 && job.limits.ponder;
        self.time =
            (self.id == 0).then(|| TimeManager::new(&job.limits, job.root.side_to_move(), job.overhead_ms, job.start));
        self.keys.clear();
        self.keys.extend_from_slice(&job.history);
        self.root_nodes.clear();
        self.hist.new_search();
        if let Some(m) = &mut self.mate_check {
            m.new_search();
        }
        for f in self.stack.iter_mut() {
            f.excluded = Move::NULL;
            f.double_exts = 0;
            f.plies_from_null = u16::MAX;
        }
        let root = job.root;
        self.tb = job.tb.clone();
        self.tb_hits = 0;
        let root_moves = job.shared.root_moves.get_or_init(|| RootMoves::new(job));
        self.root_allowed = root_moves.moves.clone();
        self.root_restricted = root_moves.restricted;
        self.root_tb_score = root_moves.tb_score;
        self.root_tb_fastest.clone_from(&root_moves.tb_fastest);
        // A root the tables ranked keeps only moves that hold its outcome, so
        // probes below it add nothing, and they would hide mates: a mating
        // capture into a table position scores as a table win, below a
        // quicker zeroing move's (Stockfish sets its cardinality to 0 here).
        if root_moves.tb_score.is_some() {
            self.tb.probe_limit = 0;
        }
        // Until an iteration completes, the table's move (if allowed) is the best guess.
        let guess = self.tt.probe(root.key()).map(|e| e.mv).filter(|m| self.root_allowed.contains(m));
        let mut result = ThreadResult {
            best: guess.or(self.root_allowed.first().copied()).unwrap_or(Move::NULL),
            score: 0,
            depth: 0,
            pv: Vec::new(),
            lines: Vec::new(),
        };
        result.pv.push(result.best);
        if self.root_allowed.is_empty() {
            return result;
        }
        let max_depth = job.limits.depth.unwrap_or(MAX_PLY as i32 - 4).clamp(1, MAX_PLY as i32 - 4);
        // A limited strength searches a few lines to choose from; only the requested ones are printed.
        let multipv = job.multipv.max(job.skill.multipv()).clamp(1, self.root_allowed.len());
        let mut prev_score = 0;
        let mut stability = 0;
        let mut last_best = Move::NULL;
        let game_ply =
            2 * (root.fullmove_number() as i32 - 1) + i32::from(root.side_to_move() == tetrad_simd::Color::Black);
        // The score of this side's previous move, when the last search was it.
        let previous_move = self.last_search.filter(|&(ply, _)| ply + 2 == game_ply).map(|(_, s)| s);
        for depth in 1..=max_depth {
            // Helpers skip iterations in blocks, each thread on its own phase,
            // so that threads 3..N do not repeat threads 1 and 2.
            if self.id > 0 && depth > 1 && depth < max_depth && skips_depth(self.id, depth, game_ply) {
                continue;
            }
            self.root_excluded.clear();
            self.root_depth = depth;
            self.root_failed_low = false;
            let mut lines: Vec<ThreadResult> = Vec::new();
            for _ in 0..multipv {
                let guess = if lines.is_empty() { prev_score } else { lines[0].score };
                // A won tablebase root: the fastest moves first, alone; then a mate check of the rest.
                let slower = self.root_tb_slower();
                let score = if slower.is_some() {
                    self.with_root_moves(self.root_tb_fastest.clone(), |w| w.aspiration(&root, depth, guess))
                } else {
                    self.aspiration(&root, depth, guess)
                };
                if self.stopped {
                    // A partial iteration's best move beat every move it searched,
                    // the last iteration's best among them (searched first): keep it.
                    if lines.is_empty() && partial_best_counts(depth, self.root_best, result.best) {
                        result.best = self.root_best;
                        result.score = self.root_best_score;
                        result.pv = pv_for(self.root_best, &self.pv[0][..self.pv_len[0]]);
                        // The GUI's last line must name the move about to be played.
                        if job.print_info && self.id == 0 {
                            self.print_lines(job, depth, std::slice::from_ref(&result));
                        }
                    }
                    break;
                }
                let pv = self.pv[0][..self.pv_len[0]].to_vec();
                let mut line = ThreadResult {
                    best: pv.first().copied().unwrap_or(self.root_best),
                    score,
                    depth,
                    pv,
                    lines: Vec::new(),
                };
                if let Some(slower) = slower {
                    self.tb_mate_check(&root, depth, slower, &mut line);
                }
                self.root_excluded.push(line.best);
                lines.push(line);
            }
            if self.stopped && lines.is_empty() {
                break;
            }
            if let Some(first) = lines.first_mut() {
                self.tb_progress(first);
            }
            if !lines.is_empty() {
                result = lines[0].clone();
                result.lines = lines.iter().map(|l| (l.best, l.score)).collect();
                if job.print_info && self.id == 0 {
                    self.print_lines(job, depth, &lines[..job.multipv.clamp(1, lines.len())]);
                }
            }
            if self.stopped {
                break;
            }
            let iter_drop = if depth > 1 { prev_score - result.score } else { 0 };
            prev_score = result.score;
            if self.id != 0 {
                continue;
            }
            // Main thread: decide whether another iteration fits.
            if let Some(m) = job.limits.mate {
                if result.score >= MATE - 2 * m {
                    break;
                }
            }
            if result.best == last_best {
                stability += 1;
            } else {
                stability = 0;
            }
            last_best = result.best;
            // Node-based: the larger the share of the search spent on the best
            // move, the surer it is (the share of all root nodes so far).
            let total: u64 = self.root_nodes.values().sum();
            let best_share =
                (total > 0).then(|| self.root_nodes.get(&result.best.raw()).map_or(0.0, |&n| n as f64 / total as f64));
            let signals = Signals {
                stability,
                best_share,
                iter_drop,
                move_drop: previous_move.map(|s| s - result.score),
                failed_low: self.root_failed_low,
            };
            let pondering = self.still_pondering();
            if !pondering && self.time.is_some_and(|t| t.soft_expired(signals.scale())) {
                break;
            }
            if self.root_allowed.len() == 1
                && self.time.is_some_and(|t| t.soft.is_some())
                && !pondering
                && depth >= tm_single_move_depth()
            {
                break;
            }
        }
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        self.flush_tb_hits();
        self.tb_progress(&mut result);
        if let Some(first) = result.lines.first_mut() {
            *first = (result.best, result.score);
        }
        // A tablebase root reports the tables' score unless the search proved a mate.
        if let Some(s) = self.root_tb_score {
            if result.score.abs() < MATE_IN_MAX {
                result.score = s;
            }
        }
        if self.id == 0 && result.depth > 0 {
            self.last_search = Some((game_ply, result.score));
        }
        // Let go of the shared table so a Hash resize frees it at once.
        self.tt = idle_table();
        result
    }

    /// Adds this thread's tablebase hits to the shared count.
    pub(crate) fn flush_tb_hits(&mut self) {
        if self.tb_hits > 0 {
            self.shared.tb_hits.fetch_add(self.tb_hits, Ordering::Relaxed);
            self.tb_hits = 0;
        }
    }

    fn aspiration(&mut self, root: &Position, depth: i32, guess: i32) -> i32 {
        let mut delta = aspiration_delta();
        let (mut alpha, mut beta) = if depth >= aspiration_min_depth() && guess.abs() < MATE_IN_MAX {
            ((guess - delta).max(-INFINITY), (guess + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        // Each fail-high in a row re-searches a ply shallower: the better
        // move is found sooner, and the next iteration looks deeper anyway.
        let mut fail_highs = 0;
        loop {
            self.root_best = Move::NULL;
            self.root_best_score = -INFINITY;
            self.seldepth = 0;
            let score = self.negamax(root, (depth - fail_highs).max(1), alpha, beta, 0, false);
            if self.stopped {
                return score;
            }
            // A full window's bound is the result: nothing wider to try.
            if score <= alpha && alpha > -INFINITY {
                self.root_failed_low = true;
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                fail_highs = 0;
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
                fail_highs = (fail_highs + 1).min(aspiration_max_fail_high_cut());
            } else {
                return score;
            }
            delta += delta / 2 + aspiration_widen();
            if delta > aspiration_full_window() {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// At the root: reports the move about to be searched once the search has run over a second.
    #[inline]
    pub(crate) fn report_currmove(&self, root: &Position, depth: i32, m: Move, number: usize) {
        if self.print_currmove && self.start.elapsed() > std::time::Duration::from_secs(1) {
            let m = root.move_to_uci(m, self.chess960);
            emit(&format!("info depth {depth} currmove {m} currmovenumber {number}"));
        }
    }

    fn print_lines(&self, job: &SearchJob, depth: i32, lines: &[ThreadResult]) {
        let nodes = job.shared.total_nodes().max(self.nodes);
        let tbhits = job.shared.tb_hits.load(Ordering::Relaxed) + self.tb_hits;
        for (i, line) in lines.iter().enumerate() {
            // At a tablebase root every move searched keeps the root's outcome
            // (the ranking dropped the others), so every line reports the
            // tables' score unless the search proved a mate.
            let score = match self.root_tb_score {
                Some(s) if line.score.abs() < MATE_IN_MAX => s,
                _ => line.score,
            };
            let seldepth = self.seldepth.max(depth as usize);
            emit(&job.info_line(depth, seldepth, i + 1, score, &line.pv, nodes, tbhits));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stopped mid-iteration after the last best move failed low and another
    /// move beat it, the other move is played, whatever either scored an
    /// iteration earlier; with no move above the window the last best stays.
    #[test]
    fn a_stopped_iteration_plays_the_move_that_refuted_the_last_best() {
        let (old, new) = (Move::from_raw(0x0141), Move::from_raw(0x0282));
        assert!(partial_best_counts(7, new, old));
        assert!(!partial_best_counts(7, Move::NULL, old), "nothing beat the window yet");
        assert!(!partial_best_counts(7, old, old));
        assert!(!partial_best_counts(1, new, old), "depth 1 always completes");
    }
}
