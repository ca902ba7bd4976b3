//! One search request (`SearchJob`) and what the threads that serve it
//! share: the stop flag and counters (`SearchShared`) and the root's moves
//! (`RootMoves`), decided once per search.

use crate::limits::Limits;
use crate::output::{format_score, pv_text, wdl_text};
use crate::tt::TranspositionTable;
use crossbeam::utils::CachePadded;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tetrad_simd::{legal_moves, Move, NodeView, Position};

/// State shared by all threads of one search.
pub struct SearchShared {
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// While set (go ponder), time limits do not stop the search.
    pub pondering: AtomicBool,
    /// Per-thread node counters, padded to avoid false sharing.
    pub nodes: Vec<CachePadded<AtomicU64>>,
    /// Tablebase hits of all threads (rare: one shared counter).
    pub tb_hits: AtomicU64,
    /// The root's moves, worked out by the first thread to start.
    pub(crate) root_moves: std::sync::OnceLock<RootMoves>,
}

impl SearchShared {
    /// Counters for `threads` threads.
    pub fn new(threads: usize) -> SearchShared {
        SearchShared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: (0..threads.max(1)).map(|_| CachePadded::new(AtomicU64::new(0))).collect(),
            tb_hits: AtomicU64::new(0),
            root_moves: std::sync::OnceLock::new(),
        }
    }

    /// Total nodes over all threads.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// The root's moves to search, decided once per search and shared by its
/// threads: the legal moves (or the `searchmoves` among them), narrowed by
/// the tablebases when the root is in them.
pub(crate) struct RootMoves {
    pub(crate) moves: Vec<Move>,
    /// Fewer moves than the legal ones (the result is then not the root's value).
    pub(crate) restricted: bool,
    /// The root's score from the tablebases.
    pub(crate) tb_score: Option<i32>,
    /// A won root: the tables' fastest moves (see [`crate::tb::RootTb`]).
    pub(crate) tb_fastest: Vec<Move>,
}

impl RootMoves {
    pub(crate) fn new(job: &SearchJob) -> RootMoves {
        let legal = legal_moves(&job.root);
        let searchmoves = &job.limits.searchmoves;
        let mut moves: Vec<Move> =
            legal.iter().copied().filter(|m| searchmoves.is_empty() || searchmoves.contains(m)).collect();
        if moves.is_empty() {
            moves = legal.iter().copied().collect();
        }
        let mut restricted = moves.len() < legal.len();
        let mut tb_score = None;
        let mut tb_fastest = Vec::new();
        // Tablebases at the root: search only the moves that keep the best outcome.
        if let Some(t) = job.tb.usable(NodeView::new(&job.root).occ.count_ones()) {
            let (ranked, probes) = t.rank_root(&job.root, &moves, job.tb.rule50);
            job.shared.tb_hits.fetch_add(probes, Ordering::Relaxed);
            if let Some(r) = ranked {
                restricted |= r.moves.len() < moves.len();
                moves = r.moves;
                tb_score = Some(r.score);
                tb_fastest = r.fastest;
            }
        }
        RootMoves { moves, restricted, tb_score, tb_fastest }
    }
}

/// One search request, shared by all threads.
pub struct SearchJob {
    /// Root position.
    pub root: Position,
    /// Keys of the game positions before the root (for repetition detection).
    pub history: Vec<u64>,
    /// Limits from `go`.
    pub limits: Limits,
    /// Start time of the search.
    pub start: Instant,
    /// Move Overhead in milliseconds.
    pub overhead_ms: u64,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// The shared hash table.
    pub tt: Arc<TranspositionTable>,
    /// Stop flag and counters.
    pub shared: Arc<SearchShared>,
    /// Print UCI `info` lines (main thread only).
    pub print_info: bool,
    /// The evaluation to use.
    pub eval: tetrad_eval::EvalConfig,
    /// Write castling as king takes rook (UCI_Chess960).
    pub chess960: bool,
    /// Syzygy tablebases and their settings.
    pub tb: crate::tb::TbConfig,
    /// Add `wdl W D L` (per mille) to `info` lines (UCI_ShowWDL).
    pub show_wdl: bool,
    /// Playing strength (full unless limited).
    pub skill: crate::skill::Skill,
}

impl SearchJob {
    /// A one-thread search of `root` (after the game `history`) under
    /// `limits` on table `tt`, printing nothing, full strength, no
    /// tablebases: what `bench`, the opening checks and datagen run.
    pub fn quiet(
        root: Position,
        history: Vec<u64>,
        limits: Limits,
        tt: &Arc<TranspositionTable>,
        eval: &tetrad_eval::EvalConfig,
        chess960: bool,
    ) -> SearchJob {
        SearchJob {
            root,
            history,
            limits,
            start: Instant::now(),
            overhead_ms: 0,
            multipv: 1,
            tt: Arc::clone(tt),
            shared: Arc::new(SearchShared::new(1)),
            print_info: false,
            eval: eval.clone(),
            chess960,
            tb: Default::default(),
            show_wdl: false,
            skill: Default::default(),
        }
    }

    /// One `info … pv …` line of this search's result.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn info_line(
        &self,
        depth: i32,
        seldepth: usize,
        multipv: usize,
        score: i32,
        pv: &[Move],
        nodes: u64,
        tbhits: u64,
    ) -> String {
        let ms = self.start.elapsed().as_millis().max(1) as u64;
        let nps = nodes * 1000 / ms;
        let hashfull = self.tt.hashfull();
        let wdl = if self.show_wdl {
            wdl_text(&self.root, score, &tetrad_eval::wdl::model_for(&self.eval))
        } else {
            String::new()
        };
        let pv = pv_text(&self.root, pv, self.chess960);
        format!(
            "info depth {depth} seldepth {seldepth} multipv {multipv} score {}{wdl} nodes {nodes} nps {nps} hashfull {hashfull} tbhits {tbhits} time {ms} pv {pv}",
            format_score(score)
        )
    }
}
