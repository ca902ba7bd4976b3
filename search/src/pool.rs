//! Lazy SMP: search threads started once and parked on a channel between
//! searches. All threads search the same root and share the lock-free
//! transposition table; thread 0 owns time management and the final answer,
//! chosen by depth-and-score voting across threads.

use crate::limits::Limits;
use crate::tt::TranspositionTable;
use crate::worker::{SearchJob, SearchShared, ThreadResult, Worker};
use crossbeam::channel::{unbounded, Receiver, Sender};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tetrad_simd::{is_legal, Move, Position};

/// The answer of a finished search.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// Move to play (null when the root has no legal move).
    pub best: Move,
    /// Expected reply, if known.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Tablebase probes that gave a result, at the root and in the search (UCI `tbhits`).
    pub tb_hits: u64,
}

/// Called on the main search thread when a search ends (prints `bestmove` in UCI).
pub type OnDone = Box<dyn FnOnce(SearchOutcome) + Send>;

struct Task {
    job: Arc<SearchJob>,
    results: Sender<ThreadResult>,
    /// Main thread only: where helper results arrive, and the completion callback.
    main: Option<(Receiver<ThreadResult>, OnDone)>,
}

enum Message {
    Search(Box<Task>),
    Clear(Sender<()>),
    Quit,
}

/// Busy flag with a condition variable: used only to start and end searches, never inside them.
#[derive(Default)]
struct Busy {
    flag: Mutex<bool>,
    cv: Condvar,
}

impl Busy {
    fn set(&self, v: bool) {
        let mut f = self.flag.lock().unwrap_or_else(|e| e.into_inner());
        *f = v;
        self.cv.notify_all();
    }
    fn wait_idle(&self) {
        let mut f = self.flag.lock().unwrap_or_else(|e| e.into_inner());
        while *f {
            f = self.cv.wait(f).unwrap_or_else(|e| e.into_inner());
        }
    }
    fn get(&self) -> bool {
        *self.flag.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The search engine: thread pool, hash table and the current search's controls.
pub struct Engine {
    senders: Vec<Sender<Message>>,
    handles: Vec<JoinHandle<()>>,
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    tt_stale: bool,
    busy: Arc<Busy>,
    shared: Arc<SearchShared>,
    stop_requested: Arc<AtomicBool>,
    eval: tetrad_eval::EvalConfig,
    chess960: bool,
    tb: crate::tb::TbConfig,
    show_wdl: bool,
    skill: crate::skill::Skill,
}

impl Engine {
    /// An engine with `threads` search threads and a `hash_mb` table (allocated lazily).
    pub fn new(threads: usize, hash_mb: usize) -> Engine {
        let mut e = Engine {
            senders: Vec::new(),
            handles: Vec::new(),
            tt: Arc::new(TranspositionTable::new(1)),
            hash_mb,
            tt_stale: true,
            busy: Arc::new(Busy::default()),
            shared: Arc::new(SearchShared::new(1)),
            stop_requested: Arc::new(AtomicBool::new(false)),
            eval: tetrad_eval::EvalConfig::default(),
            chess960: false,
            tb: crate::tb::TbConfig::default(),
            show_wdl: false,
            skill: crate::skill::Skill::default(),
        };
        e.spawn(threads.max(1));
        e
    }

    fn spawn(&mut self, n: usize) {
        for id in 0..n {
            let (tx, rx) = unbounded::<Message>();
            let busy = Arc::clone(&self.busy);
            let stop_requested = Arc::clone(&self.stop_requested);
            let handle = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(16 * 1024 * 1024)
                .spawn(move || thread_main(id, rx, busy, stop_requested))
                .expect("spawning a search thread");
            self.senders.push(tx);
            self.handles.push(handle);
        }
    }

    fn join_all(&mut self) {
        for s in &self.senders {
            let _ = s.send(Message::Quit);
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
        self.senders.clear();
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.senders.len()
    }

    /// Changes the thread count (waits for any running search first).
    pub fn set_threads(&mut self, n: usize) {
        self.wait();
        if n.max(1) != self.threads() {
            self.join_all();
            self.spawn(n.max(1));
        }
    }

    /// Sets the hash size; the table is reallocated when next needed.
    pub fn set_hash(&mut self, mb: usize) {
        self.wait();
        if mb != self.hash_mb {
            self.hash_mb = mb;
            self.tt_stale = true;
        }
    }

    /// Allocates the table if its size changed (on `isready` and `go`).
    pub fn ensure_ready(&mut self) {
        self.wait();
        if self.tt_stale {
            self.fresh_table();
            self.tt_stale = false;
        }
    }

    /// Replaces the table by a new, empty one of the current size. The old
    /// one is freed first (peak memory stays one table); the new one is
    /// written through by as many helper threads as there are search
    /// threads, so its pages fault in here (before `readyok`), not inside a
    /// timed search.
    fn fresh_table(&mut self) {
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(self.hash_mb));
        let threads = self.threads();
        TranspositionTable::clear_with(&mut self.tt, threads);
    }

    /// Current table size in MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Empties the hash table in place (its pages stay mapped), with as
    /// many threads as the search has.
    pub fn clear_hash(&mut self) {
        self.wait();
        if !self.tt_stale {
            let threads = self.threads();
            TranspositionTable::clear_with(&mut self.tt, threads);
        }
    }

    /// New game: clears the table and every thread's histories.
    pub fn new_game(&mut self) {
        self.clear_hash();
        let (tx, rx) = unbounded();
        for s in &self.senders {
            let _ = s.send(Message::Clear(tx.clone()));
        }
        for _ in 0..self.senders.len() {
            let _ = rx.recv();
        }
    }

    /// The evaluation searches use.
    pub fn eval_config(&self) -> &tetrad_eval::EvalConfig {
        &self.eval
    }

    /// Changes the evaluation (waits for a running search); the table is
    /// cleared, since its stored evaluations come from the old one.
    pub fn set_eval_config(&mut self, cfg: tetrad_eval::EvalConfig) {
        self.wait();
        let same = cfg.kind == self.eval.kind && Arc::ptr_eq(&cfg.net, &self.eval.net);
        self.eval = cfg;
        if !same {
            self.clear_hash();
        }
    }

    /// Writes castling as king takes rook in `info` lines (UCI_Chess960).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Sets the playing strength (`Skill Level`, `UCI_LimitStrength`/`UCI_Elo`).
    pub fn set_skill(&mut self, skill: crate::skill::Skill) {
        self.skill = skill;
    }

    /// Adds win/draw/loss per mille to `info` lines (UCI_ShowWDL).
    pub fn set_show_wdl(&mut self, on: bool) {
        self.show_wdl = on;
    }

    /// Whether castling is written as king takes rook.
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// The tablebase settings (tables, probe depth and limit, fifty-move rule).
    pub fn tb_config(&self) -> &crate::tb::TbConfig {
        &self.tb
    }

    /// Changes the tablebase settings (waits for a running search).
    pub fn set_tb_config(&mut self, tb: crate::tb::TbConfig) {
        self.wait();
        self.tb = tb;
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.busy.get()
    }

    /// Starts a search; returns at once. `on_done` runs when it ends.
    #[allow(clippy::too_many_arguments)]
    pub fn go(
        &mut self,
        root: Position,
        history: Vec<u64>,
        mut limits: Limits,
        overhead_ms: u64,
        multipv: usize,
        print_info: bool,
        on_done: OnDone,
    ) {
        let start = Instant::now();
        if let Some(cap) = self.skill.nodes() {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        self.ensure_ready();
        self.tt.new_search();
        self.stop_requested.store(false, Ordering::SeqCst);
        let shared = Arc::new(SearchShared::new(self.threads()));
        shared.pondering.store(limits.ponder, Ordering::SeqCst);
        self.shared = Arc::clone(&shared);
        let job = Arc::new(SearchJob {
            root,
            history,
            limits,
            start,
            overhead_ms,
            multipv,
            tt: Arc::clone(&self.tt),
            shared,
            print_info,
            eval: self.eval.clone(),
            chess960: self.chess960,
            tb: self.tb.clone(),
            show_wdl: self.show_wdl,
            skill: self.skill,
        });
        let (rtx, rrx) = unbounded();
        self.busy.set(true);
        let mut main = Some((rrx, on_done));
        for s in &self.senders {
            let task = Task { job: Arc::clone(&job), results: rtx.clone(), main: main.take() };
            let _ = s.send(Message::Search(Box::new(task)));
        }
    }

    /// Stops the running search (its `on_done` still runs).
    pub fn stop(&self) {
        self.stop_requested.store(true, Ordering::SeqCst);
        self.shared.pondering.store(false, Ordering::SeqCst);
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the pondered move: time limits apply from now.
    pub fn ponderhit(&self) {
        self.shared.pondering.store(false, Ordering::SeqCst);
    }

    /// Blocks until no search is running.
    pub fn wait(&self) {
        self.busy.wait_idle();
    }

    /// Runs a search to completion on the pool and returns its outcome.
    pub fn search_sync(
        &mut self,
        root: Position,
        history: Vec<u64>,
        limits: Limits,
        print_info: bool,
    ) -> SearchOutcome {
        let cell = Arc::new(Mutex::new(None));
        let out = Arc::clone(&cell);
        self.go(
            root,
            history,
            limits,
            0,
            1,
            print_info,
            Box::new(move |o| *out.lock().unwrap_or_else(|e| e.into_inner()) = Some(o)),
        );
        self.wait();
        let result = cell.lock().unwrap_or_else(|e| e.into_inner()).take();
        result.unwrap_or(SearchOutcome { best: Move::NULL, ponder: None, score: 0, depth: 0, nodes: 0, tb_hits: 0 })
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
        self.join_all();
    }
}

fn thread_main(id: usize, rx: Receiver<Message>, busy: Arc<Busy>, stop_requested: Arc<AtomicBool>) {
    let mut worker = Worker::new(id);
    while let Ok(msg) = rx.recv() {
        match msg {
            Message::Quit => break,
            Message::Clear(ack) => {
                worker.clear();
                let _ = ack.send(());
            }
            Message::Search(task) => {
                let result = search_guarded(&mut worker, &task.job);
                match task.main {
                    None => {
                        let _ = task.results.send(result);
                    }
                    Some((helpers, on_done)) => {
                        finish_main(&task.job, result, &helpers, &stop_requested, on_done);
                        busy.set(false);
                    }
                }
            }
        }
    }
}

/// Set by tests to make helper threads panic inside their search.
#[cfg(test)]
pub(crate) static PANIC_IN_HELPERS: AtomicBool = AtomicBool::new(false);

/// Runs a thread's search; a panic (a bug) is contained: the thread's worker
/// is replaced, its result is a non-vote, and the pool keeps working. The
/// main thread then still answers with the helpers' votes or a legal move.
fn search_guarded(worker: &mut Worker, job: &SearchJob) -> ThreadResult {
    let id = worker.id;
    let run = std::panic::AssertUnwindSafe(|| {
        #[cfg(test)]
        if id != 0 && PANIC_IN_HELPERS.load(Ordering::SeqCst) {
            panic!("test: helper {id} panics");
        }
        worker.search(job)
    });
    match std::panic::catch_unwind(run) {
        Ok(r) => r,
        Err(_) => {
            *worker = Worker::new(id);
            let best = tetrad_simd::legal_moves(&job.root).as_slice().first().copied().unwrap_or(Move::NULL);
            ThreadResult { best, score: -crate::score::INFINITY, depth: 0, pv: vec![best], lines: Vec::new() }
        }
    }
}

/// Main thread's end of search: honour infinite/ponder, stop helpers, vote, report.
fn finish_main(
    job: &SearchJob,
    own: ThreadResult,
    helpers: &Receiver<ThreadResult>,
    stop_requested: &AtomicBool,
    on_done: OnDone,
) {
    let shared = &job.shared;
    // In `go infinite` and `go ponder` the answer waits for `stop` or `ponderhit`.
    while (job.limits.infinite || shared.pondering.load(Ordering::SeqCst)) && !stop_requested.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    shared.stop.store(true, Ordering::SeqCst);
    let mut results = vec![own];
    for _ in 1..shared.nodes.len() {
        if let Ok(r) = helpers.recv() {
            results.push(r);
        }
    }
    let mut chosen = vote(&results);
    // A limited strength plays one of the main thread's best lines, with noise.
    if job.skill.limited() && !results[0].lines.is_empty() {
        let seed = job.start.elapsed().as_nanos() as u64 ^ job.root.key();
        if let Some(m) = job.skill.pick(&results[0].lines, seed) {
            if m != chosen.best {
                chosen =
                    ThreadResult { best: m, score: chosen.score, depth: chosen.depth, pv: vec![m], lines: Vec::new() };
            }
        }
    }
    // When a helper's vote (or a limited strength) picks another move than the
    // main thread's last line, that move's line is the GUI's last word.
    if job.print_info && !chosen.best.is_null() && chosen.best != results[0].best {
        let pv = crate::output::pv_for(chosen.best, &chosen.pv);
        let tb_hits = shared.tb_hits.load(Ordering::Relaxed);
        let depth = chosen.depth.max(1);
        crate::output::emit(&job.info_line(depth, depth as usize, 1, chosen.score, &pv, shared.total_nodes(), tb_hits));
    }
    let best = chosen.best;
    let mut ponder = chosen.pv.get(1).copied();
    if ponder.is_none() && !best.is_null() {
        let child = job.root.make_move(best);
        ponder = job.tt.probe(child.key()).map(|e| e.mv).filter(|&m| is_legal(&child, m));
    }
    let tb_hits = shared.tb_hits.load(Ordering::Relaxed);
    let outcome =
        SearchOutcome { best, ponder, score: chosen.score, depth: chosen.depth, nodes: shared.total_nodes(), tb_hits };
    on_done(outcome);
}

/// Picks the result whose move gathers the most votes, each thread voting
/// for its move with weight growing in score and depth.
fn vote(results: &[ThreadResult]) -> ThreadResult {
    // Threads stopped before finishing an iteration have not searched their move: they don't vote.
    let searched = results.iter().any(|r| r.depth > 0 && !r.best.is_null());
    let valid: Vec<&ThreadResult> =
        results.iter().filter(|r| !r.best.is_null() && (r.depth > 0 || !searched)).collect();
    if valid.len() <= 1 {
        return valid.first().map_or_else(|| results[0].clone(), |r| (*r).clone());
    }
    let min = valid.iter().map(|r| r.score).min().unwrap_or(0);
    let mut votes: HashMap<u16, i64> = HashMap::new();
    for r in &valid {
        *votes.entry(r.best.raw()).or_default() +=
            (r.score - min + crate::params::smp_vote_base()) as i64 * r.depth.max(1) as i64;
    }
    let mut best = valid[0];
    for r in &valid[1..] {
        let (vb, vr) = (votes[&best.best.raw()], votes[&r.best.raw()]);
        // A proven mate wins outright; otherwise the most-voted move, deeper result first.
        if r.score >= crate::score::MATE_IN_MAX && r.score > best.score || vr > vb || (vr == vb && r.depth > best.depth)
        {
            best = r;
        }
    }
    best.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_helper_does_not_hang_the_pool() {
        let mut engine = Engine::new(3, 4);
        let pos = Position::startpos();
        let limits = || Limits { depth: Some(6), ..Default::default() };
        PANIC_IN_HELPERS.store(true, Ordering::SeqCst);
        let out = engine.search_sync(pos, Vec::new(), limits(), false);
        PANIC_IN_HELPERS.store(false, Ordering::SeqCst);
        assert!(is_legal(&pos, out.best), "answer after helper panics: {:?}", out.best);
        assert!(out.depth >= 6, "the main thread's own result stands");
        // The pool still has all its threads and searches normally.
        let out = engine.search_sync(pos, Vec::new(), limits(), false);
        assert!(is_legal(&pos, out.best));
        assert_eq!(engine.threads(), 3);
    }
}
