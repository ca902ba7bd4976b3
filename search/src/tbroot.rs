//! The root search at a won tablebase root.
//!
//! The tables rank the root's winning moves by the plies to the next zeroing
//! move; the fastest of them keep the win safe under the fifty-move rule.
//! Each iteration first searches the fastest moves alone, exactly as a
//! search restricted to them (`searchmoves`) would, and the search chooses
//! among them by judgement. Then a mate check searches the slower winning
//! moves, which are played only when they mate sooner than the line found
//! and no later than the fastest moves reach their zeroing move.
//!
//! The mate check leaves no trace on the main search: it runs with its own
//! histories, correction tables and hash table (a small one per thread, kept
//! until the next game), so the choice among the fastest moves is the one
//! the restricted search makes, and a won ending is never converted more
//! slowly than along the tables' path. (When slower moves shared the main
//! search's tables, their subtrees shifted its choice among equally fast
//! moves, and one network's KQvKR mates took 3% longer than the path's.)

use crate::mate_check::MateCheck;
use crate::score::{INFINITY, MATE, MATE_IN_MAX, TB_WIN};
use crate::worker::{ThreadResult, Worker};
use tetrad_simd::{Move, Position};

impl Worker {
    /// The slower winning moves still open to the line being searched, when
    /// the root is a won tablebase root with a fastest move still open (the
    /// MultiPV lines after the fastest search the rest as usual).
    pub(crate) fn root_tb_slower(&self) -> Option<Vec<Move>> {
        let open = |m: &Move| !self.root_excluded.contains(m);
        if !self.root_tb_fastest.iter().any(open) {
            return None;
        }
        Some(self.root_allowed.iter().copied().filter(|m| open(m) && !self.root_tb_fastest.contains(m)).collect())
    }

    /// Runs `search` with the root limited to `moves` (its result then not the root's value).
    pub(crate) fn with_root_moves<T>(&mut self, moves: Vec<Move>, search: impl FnOnce(&mut Worker) -> T) -> T {
        let allowed = std::mem::replace(&mut self.root_allowed, moves);
        let restricted = std::mem::replace(&mut self.root_restricted, true);
        let out = search(self);
        self.root_allowed = allowed;
        self.root_restricted = restricted;
        out
    }

    /// The mate check of one iteration: searches the `slower` moves to
    /// `depth` and replaces `line` with one of them when it mates sooner.
    pub(crate) fn tb_mate_check(&mut self, root: &Position, depth: i32, slower: Vec<Move>, line: &mut ThreadResult) {
        if slower.is_empty() || self.stopped {
            return;
        }
        let mut scratch = self.mate_check.take().unwrap_or_else(MateCheck::new);
        // Swap the private state in; the stack and root bookkeeping are saved whole.
        scratch.exchange(&mut self.hist, &mut self.corr, &mut self.tt);
        let stack = self.stack.clone();
        let root_nodes = self.root_nodes.clone();
        let (best, best_score) = (self.root_best, self.root_best_score);
        self.root_best = Move::NULL;
        self.root_best_score = -INFINITY;

        // The bar: a mate no later than the soonest the fastest moves can
        // mate. They reach their zeroing move (a capture, a pawn move or the
        // mate itself: the tables do not say which) at the ply the tables
        // give, so the mate comes there at the soonest, or two plies later
        // when the zeroing move is played at the root and is no mate (a
        // mate in one is among the fastest, and the search sees it). A later
        // mate, though proved, can be slower than the fastest moves' path,
        // whose mate the search may not see yet.
        let zeroing = self.root_tb_score.map_or(0, |s| TB_WIN - s);
        let soonest = if zeroing == 1 { 3 } else { zeroing };
        let score = self.with_root_moves(slower, |w| w.negamax(root, depth, line.score, INFINITY, 0, false));
        if !self.stopped && score > line.score && score >= MATE - soonest && self.pv_len[0] > 0 {
            line.best = self.pv[0][0];
            line.score = score;
            line.pv = self.pv[0][..self.pv_len[0]].to_vec();
        }

        self.root_best = best;
        self.root_best_score = best_score;
        self.root_nodes = root_nodes;
        self.stack = stack;
        scratch.exchange(&mut self.hist, &mut self.corr, &mut self.tt);
        self.mate_check = Some(scratch);
    }

    /// A won tablebase root: the search's move stands when the search proved
    /// a mate with it or when it is one of the tables' fastest moves;
    /// otherwise the fastest move the search spent most on is played, so that
    /// a win the search only evaluates still converts under the fifty-move
    /// rule. A table score does not count as proof (under a ranked root the
    /// tree does not probe, so it can only come from the hash table of an
    /// earlier search, and says nothing of the distance to zero). The root
    /// search offers only the fastest moves and proved mates, so this is the
    /// safety net (a search stopped inside its first iteration), not the rule.
    pub(crate) fn tb_progress(&self, line: &mut ThreadResult) {
        if self.root_tb_fastest.is_empty() || line.score >= MATE_IN_MAX || self.root_tb_fastest.contains(&line.best) {
            return;
        }
        let nodes = |m: &Move| self.root_nodes.get(&m.raw()).copied().unwrap_or(0);
        let mut best = self.root_tb_fastest[0];
        for m in &self.root_tb_fastest[1..] {
            if nodes(m) > nodes(&best) {
                best = *m;
            }
        }
        line.best = best;
        line.pv = vec![best];
    }
}
