//! Principal variation search on copied CCR positions (quiescence is in
//! `qsearch.rs`, the pruning searches in `prune.rs`).
//!
//! Each child is a fresh copy made by `Position::make_move`; nothing is
//! undone on the way back. Each node makes its bitboards from the CCR once
//! (`NodeView`): move generation, SEE and the evaluation read that one view.

use crate::correction::CorrKeys;
use crate::history::{PrevMoves, QuietKeys};
use crate::movepick::{is_noisy, is_noisy_ccr, kind_index, piece_to, piece_to_ccr, MovePicker, PickContext};
use crate::params::*;
use crate::prune::{iir_applies, Singular};
use crate::reduction::{lmr_index, reduction, Late};
use crate::score::{INFINITY, MATE, MAX_PLY, TB_WIN_IN_MAX};
use crate::see::{capture_value, see_ge};
use crate::stack::{ChildMove, ChildType};
use crate::tb::wdl_score;
use crate::tt::{score_from_tt, score_to_tt, Bound, EVAL_NONE};
use crate::worker::Worker;
use tetrad_simd::{CheckInfo, Move, NodeView, PieceType, Position};

/// Whether a stored score with this bound settles the window.
#[inline]
pub(crate) fn bound_allows(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

impl Worker {
    /// The moves continuation history follows from a node at `ply`.
    #[inline]
    fn prev_moves(&self, ply: usize) -> PrevMoves {
        // Written out: `[1, 2, 4, 6].map(..)` compiled to a call of
        // `array::try_map` at every node (0.5% of the bench's instructions).
        [self.stack_move(ply, 1), self.stack_move(ply, 2), self.stack_move(ply, 4), self.stack_move(ply, 6)]
    }

    /// The moves made two plies and one ply above `ply`, the continuation
    /// correction's key (`[ply − 2, ply − 1]`).
    #[inline]
    pub(crate) fn last_two_moves(&self, ply: usize) -> [crate::history::PieceTo; 2] {
        [self.stack_move(ply, 2), self.stack_move(ply, 1)]
    }

    /// The move made `back` plies above `ply` (none above the root).
    #[inline(always)]
    fn stack_move(&self, ply: usize, back: usize) -> crate::history::PieceTo {
        ply.checked_sub(back).map_or(Default::default(), |p| self.stack[p].moved)
    }

    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Fail-soft principal variation search.
    pub(crate) fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.check_limits();
        self.seldepth = self.seldepth.max(ply);
        // The singular test searches this same node without the table's move.
        let excluded = self.stack[ply].excluded;
        let singular_node = !excluded.is_null();

        if !root {
            if self.stopped {
                return 0;
            }
            // Step 1. Draws by rule, and the deepest ply.
            if let Some(score) = self.rule_end(pos, ply) {
                return score;
            }
            // A move back to a position of this line is a draw in hand.
            if alpha < 0 && crate::cycle::upcoming_repetition(pos, &self.keys, self.cycle_reach(pos, ply)) {
                alpha = 0;
                if alpha >= beta {
                    return alpha;
                }
            }
            // Step 2. Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 3. Transposition table (not in the singular test: its result is not the node's).
        let tt_entry = if singular_node { None } else { self.tt.probe(pos.key()) };
        let tt_move = tt_entry.map_or(Move::NULL, |e| e.mv);
        let tt_pv = pv_node || tt_entry.is_some_and(|e| e.pv);
        if let Some(e) = tt_entry {
            let s = score_from_tt(e.score, ply);
            if !pv_node
                && e.depth >= depth
                && i32::from(pos.halfmove_clock()) < tt_cut_max_clock()
                && bound_allows(e.bound, s, alpha, beta)
            {
                // A quiet table move that cuts here earns the history bonus of
                // a searched cut-off (as in Stockfish); a move of a colliding
                // entry only touches history cells.
                if s >= beta && !tt_move.is_null() && !is_noisy_ccr(pos, tt_move) {
                    let keys = QuietKeys::new(self.prev_moves(ply), None).at_ply(ply);
                    self.hist.update_quiets(
                        pos.side_to_move(),
                        (tt_move, piece_to_ccr(pos, tt_move)),
                        &[],
                        &keys,
                        depth,
                    );
                }
                return s;
            }
        }

        // The node's one look at its board: bitboards, check and pin facts.
        let view = NodeView::new(pos);
        let in_check = view.in_check();
        let us = pos.side_to_move();

        // Tablebases: right after a capture or pawn move the WDL is exact.
        let (mut tb_floor, mut tb_ceiling) = (-INFINITY, INFINITY);
        if !root && !singular_node && pos.halfmove_clock() == 0 && pos.castling().0 == 0 && depth >= self.tb.probe_depth
        {
            if let Some(t) = self.tb.usable(view.occ.count_ones()) {
                if let Some(wdl) = t.probe_wdl(pos, &view.bb) {
                    self.tb_hits += 1;
                    let score = wdl_score(wdl, ply, self.tb.rule50);
                    let bound = match score.signum() {
                        1 => Bound::Lower,
                        -1 => Bound::Upper,
                        _ => Bound::Exact,
                    };
                    if bound_allows(bound, score, alpha, beta) {
                        let depth = (depth + tb_store_depth_bonus()).min(MAX_PLY as i32 - 1);
                        self.tt.store(pos.key(), Move::NULL, score_to_tt(score, ply), EVAL_NONE, depth, bound, tt_pv);
                        return score;
                    }
                    // At a PV node the result still bounds the node: a win is
                    // the least it scores, a loss the most (as in Stockfish).
                    if pv_node {
                        if bound == Bound::Lower {
                            tb_floor = score;
                            alpha = alpha.max(score);
                        } else {
                            tb_ceiling = score;
                        }
                    }
                }
            }
        }

        // Step 4. Static evaluation: the raw one (kept in the table), corrected by
        // what searches of this pawn structure and material found, then
        // sharpened by the table's bound when it agrees.
        // In check there is no static evaluation to correct, and no correction to learn.
        let corr_keys = (!in_check).then(|| CorrKeys::of(&view).after(self.last_two_moves(ply)));
        if let Some(keys) = &corr_keys {
            self.corr.prefetch(us, keys);
        }
        let raw_eval = if in_check {
            -INFINITY
        } else if singular_node {
            self.stack[ply].raw_eval
        } else {
            tt_entry.and_then(|e| e.static_eval()).unwrap_or_else(|| self.eval.evaluate_bitboards(pos, &view.bb, ply))
        };
        let static_eval = match &corr_keys {
            None => -INFINITY,
            Some(keys) => self.corr.corrected(us, keys, raw_eval),
        };
        let mut eval = static_eval;
        if let Some(e) = tt_entry {
            let s = score_from_tt(e.score, ply);
            if !in_check && s.abs() < TB_WIN_IN_MAX {
                let tighter = match e.bound {
                    Bound::Lower => s > eval,
                    Bound::Upper => s < eval,
                    Bound::Exact => true,
                };
                if tighter {
                    eval = s;
                }
            }
        }
        self.stack[ply].static_eval = static_eval;
        self.stack[ply].raw_eval = raw_eval;
        // The opponent's quiet move into this node is judged by how the
        // static evaluation moved across it (as in Stockfish).
        if !in_check && !singular_node && ply > 0 && self.stack[ply - 1].moved_quiet {
            let before = self.stack[ply - 1].static_eval;
            if before != -INFINITY {
                let max = eval_diff_hist_max();
                let bonus = (-eval_diff_hist_mul() * (before + static_eval)).clamp(-max, max);
                self.hist.reward_butterfly(us.flip(), self.stack[ply - 1].played, bonus);
            }
        }
        // Improving: better than two plies up; when that node was in check
        // (no evaluation), than four plies up, as in Stockfish.
        let improving = !in_check
            && match (
                ply.checked_sub(2).map(|p| self.stack[p].static_eval),
                ply.checked_sub(4).map(|p| self.stack[p].static_eval),
            ) {
                (Some(e2), _) if e2 != -INFINITY => static_eval > e2,
                (_, Some(e4)) if e4 != -INFINITY => static_eval > e4,
                (Some(_), _) => true,
                _ => false,
            };

        if !pv_node && !in_check && !singular_node {
            // Step 5. Razoring: far below alpha at low depth, let quiescence decide.
            if depth <= razor_depth() && eval + razor_base() + razor_margin() * depth * depth < alpha {
                let score = self.qsearch(pos, alpha - 1, alpha, ply);
                if score < alpha {
                    return score;
                }
            }
            // Step 6. Reverse futility pruning.
            if depth <= rfp_depth()
                && eval - rfp_margin() * (depth - i32::from(improving)) >= beta
                && eval < TB_WIN_IN_MAX
            {
                return eval;
            }
            // Step 7. Null-move pruning, not after a null move and not without pieces (zugzwang).
            if depth >= nmp_min_depth()
                && eval >= beta
                && ply > 0
                && self.stack[ply - 1].moved.piece != 0
                && ply >= self.nmp_min_ply
                && view.ours & !(view.ours_of(PieceType::Pawn) | view.ours_of(PieceType::King)) != 0
                && beta > -TB_WIN_IN_MAX
            {
                let r = nmp_base() + depth / nmp_depth_div() + ((eval - beta) / nmp_eval_div()).min(nmp_eval_max());
                let child = pos.make_null();
                self.enter_child(pos, ply, ChildMove::NULL);
                let score = -self.negamax(&child, depth - r, -beta, -beta + 1, ply + 1, !cut_node);
                self.leave_child();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= TB_WIN_IN_MAX { beta } else { score };
                    if self.nmp_min_ply > 0 || depth < nmp_verify_depth() {
                        return score;
                    }
                    // Deep enough for zugzwang to matter: verify with a search
                    // of our own moves, null moves off for the next plies.
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4).max(0) as usize;
                    let verified = self.negamax(pos, depth - r, beta - 1, beta, ply, false);
                    self.nmp_min_ply = 0;
                    if self.stopped {
                        return 0;
                    }
                    if verified >= beta {
                        return score;
                    }
                }
            }
            // Step 8. ProbCut: a good capture that beats beta by a margin at reduced depth.
            let pc_beta = beta + probcut_margin();
            if depth >= probcut_depth()
                && beta.abs() < TB_WIN_IN_MAX
                && !tt_entry.is_some_and(|e| {
                    e.depth >= depth - probcut_tt_depth_slack() && score_from_tt(e.score, ply) < pc_beta
                })
            {
                let evals = (static_eval, raw_eval);
                if let Some(score) = self.probcut(pos, &view, depth, beta, evals, tt_move, ply, cut_node) {
                    return score;
                }
                if self.stopped {
                    return 0;
                }
            }
        }

        // Step 9. Internal iterative reduction: without a hash move this node is likely ordered badly.
        if iir_applies(tt_move, singular_node, depth, pv_node || cut_node) {
            depth -= 1;
        }

        // Step 10. The move loop. The children start counting their cut-offs afresh.
        self.stack[ply + 1].cutoffs = 0;
        let tt_capture = !tt_move.is_null() && is_noisy(&view, tt_move);
        let keys = QuietKeys::new(self.prev_moves(ply), corr_keys.map(|k| k.pawns)).at_ply(ply);
        let prev = &keys.prev;
        let counter = if prev[0].piece != 0 { *prev[0].entry(&self.hist.counter) } else { Move::NULL };
        let buffers = self.take_buffers(ply);
        let mut picker = MovePicker::new(tt_move, self.hist.killers[ply], counter, buffers);
        let mut best_score = tb_floor;
        let mut best_move = Move::NULL;
        let mut moves_searched = 0;
        // Legal moves offered, searched or pruned (pruning before the first
        // search happens only above a tablebase floor).
        let mut moves_seen = 0;
        let mut quiets_tried: [(Move, crate::history::PieceTo); 64] = [(Move::NULL, Default::default()); 64];
        let mut n_quiets = 0;
        let mut captures_tried: [Move; 32] = [Move::NULL; 32];
        let mut n_captures = 0;
        let check_info = CheckInfo::new(&view);

        while let Some(m) = picker.next(&PickContext { pos, view: &view, hist: &self.hist, keys: &keys, tt: &self.tt })
        {
            if m == excluded || root && (!self.root_allowed.contains(&m) || self.root_excluded.contains(&m)) {
                continue;
            }
            moves_seen += 1;
            let noisy = is_noisy(&view, m);
            let moved = piece_to(&view, m);
            let history = if noisy { 0 } else { self.hist.quiet_score(us, m, moved, &keys) };

            // Checking moves are exempt from the quiet-move pruning below; decided
            // from this node's view, so a pruned move is never made.
            let gives_check = check_info.gives_check(&view, pos, m);

            // The reduction table's entry for this move (1/1024 ply).
            let lmr_table = i32::from(self.lmr[depth.min(63) as usize][lmr_index(moves_searched, moves_seen - 1)]);

            // Step 11. Shallow-depth pruning, once a real score exists.
            if !root && best_score > -TB_WIN_IN_MAX {
                let lmr_depth = (depth - 1 - (lmr_table >> 10)).max(0);
                if !noisy && !gives_check {
                    let share = if improving { lmp_improving_pct() } else { lmp_pct() };
                    // Late move pruning counts the quiets searched, or
                    // (lmp_moves_seen) every move seen, this one included.
                    let count = if lmp_moves_seen() != 0 { moves_seen } else { n_quiets };
                    if depth <= lmp_depth() && count as i32 >= (lmp_base() + depth * depth) * share / 100 {
                        picker.skip_quiets = true;
                        continue;
                    }
                    // History pruning: a late quiet that has failed here often before.
                    if lmr_depth <= hp_depth() && history < -hp_margin() * depth {
                        continue;
                    }
                    if !in_check
                        && lmr_depth <= fp_depth()
                        && static_eval + fp_base() + fp_margin() * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if depth <= see_prune_depth() && !see_ge(&view, m, see_quiet_margin() * lmr_depth) {
                        continue;
                    }
                } else if noisy {
                    // Capture futility: even the captured piece and a margin leave the score below alpha.
                    if !in_check
                        && !gives_check
                        && lmr_depth <= cfp_depth()
                        && static_eval + cfp_base() + cfp_margin() * lmr_depth + capture_value(&view, m) <= alpha
                    {
                        continue;
                    }
                    if depth <= see_prune_depth() && !see_ge(&view, m, see_capture_margin() * depth * depth) {
                        continue;
                    }
                }
            }

            // Step 12. Extensions: checks (with check_ext_see, only those that
            // do not lose material by SEE), and a table move better than every
            // other (singular).
            let mut extension = i32::from(gives_check && (check_ext_see() == 0 || see_ge(&view, m, 0)));
            if let Some(e) = tt_entry.filter(|e| {
                m == e.mv
                    && !root
                    && depth >= se_depth()
                    && e.depth >= depth - se_tt_depth_slack()
                    && e.bound != Bound::Upper
                    && score_from_tt(e.score, ply).abs() < TB_WIN_IN_MAX
                    && ply < 2 * self.root_depth as usize
            }) {
                match self.singular(pos, &e, score_from_tt(e.score, ply), depth, beta, ply, pv_node, cut_node) {
                    Singular::MultiCut(score) => {
                        self.give_buffers(ply, picker);
                        return score;
                    }
                    // A negative extension (the table's move fails high without being
                    // singular) applies unless the move checks.
                    Singular::Extend(x) => extension = if x < 0 && !gives_check { x } else { x.max(extension.min(1)) },
                }
                if self.stopped {
                    return 0;
                }
            }
            let child = pos.make_move(m);

            if root {
                self.report_currmove(pos, depth, m, moves_searched + 1);
            }
            let nodes_before = self.nodes;
            self.tt.prefetch(child.key());
            let new_depth = depth - 1 + extension;
            self.enter_child(pos, ply, ChildMove { moved, played: m, quiet: !noisy, double_ext: extension >= 2 });

            // Step 13. Search the move: full window for the first, then reduced null windows.
            let mut score;
            if moves_searched == 0 {
                let child_cut = ChildType::First.is_cut(pv_node, cut_node);
                score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, child_cut);
            } else {
                let mut r = 0;
                let late_move_reduced = depth >= lmr_min_depth() && moves_searched > usize::from(root);
                if late_move_reduced {
                    let late = Late {
                        noisy,
                        history,
                        improving,
                        cut_node,
                        pv_node,
                        gives_check,
                        tt_pv_only: tt_pv && !pv_node,
                        quiet_after_tt_capture: tt_capture && !noisy,
                        children_cut: self.stack[ply + 1].cutoffs > lmr_child_cutoffs_min() as u8,
                    };
                    r = reduction(lmr_table, late).clamp(0, (new_depth - 1).max(0));
                }
                let kind = if late_move_reduced { ChildType::Reduced } else { ChildType::NullWindow };
                score =
                    -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, kind.is_cut(pv_node, cut_node));
                let mut full_depth = new_depth;
                if score > alpha && r > 0 {
                    // The reduced search's margin decides the re-search's depth: a
                    // clear beat goes a ply deeper, a bare one a ply shallower.
                    full_depth += i32::from(score > best_score + lmr_deeper_base() + lmr_deeper_per_ply() * new_depth);
                    full_depth -= i32::from(score < best_score + lmr_shallower_margin());
                    if full_depth > new_depth - r {
                        let child_cut = ChildType::NullWindow.is_cut(pv_node, cut_node);
                        score = -self.negamax(&child, full_depth, -alpha - 1, -alpha, ply + 1, child_cut);
                    }
                }
                if score > alpha && pv_node {
                    let child_cut = ChildType::PvResearch.is_cut(pv_node, cut_node);
                    score = -self.negamax(&child, full_depth, -beta, -alpha, ply + 1, child_cut);
                }
            }
            self.leave_child();
            if self.stopped {
                return 0;
            }
            if root {
                *self.root_nodes.entry(m.raw()).or_default() += self.nodes - nodes_before;
            }
            moves_searched += 1;

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if root {
                        self.root_best = m;
                        self.root_best_score = score;
                    }
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    alpha = score;
                    if score >= beta {
                        self.stack[ply].cutoffs = self.stack[ply].cutoffs.saturating_add(1);
                        self.on_cutoff(
                            pos,
                            &view,
                            ply,
                            m,
                            noisy,
                            depth,
                            &quiets_tried[..n_quiets],
                            &captures_tried[..n_captures],
                            &keys,
                        );
                        break;
                    }
                }
            }
            if noisy {
                if n_captures < captures_tried.len() {
                    captures_tried[n_captures] = m;
                    n_captures += 1;
                }
            } else if n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = (m, moved);
                n_quiets += 1;
            }
        }

        self.give_buffers(ply, picker);

        if moves_searched == 0 {
            // The singular test with no other move: the table's move is singular.
            if singular_node {
                return alpha;
            }
            // No legal move: mate or stalemate. At the root with every move
            // excluded (MultiPV), report a non-result.
            if moves_seen == 0 {
                return if root && !self.root_allowed.is_empty() {
                    -INFINITY
                } else if in_check {
                    -MATE + ply as i32
                } else {
                    0
                };
            }
            // Otherwise every move was pruned below a tablebase floor, which stands.
        }
        if singular_node {
            return best_score;
        }
        // A tablebase loss caps what the moves found.
        best_score = best_score.min(tb_ceiling);

        let bound = if best_score >= beta {
            Bound::Lower
        } else if pv_node && !best_move.is_null() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A fail-low here means the opponent's quiet move into this node was
        // good for them: it earns continuation history (as in Stockfish).
        if best_move.is_null()
            && !root
            && moves_searched > 0
            && (pv_node || depth >= prior_bonus_min_depth())
            && self.stack[ply - 1].moved_quiet
        {
            let prev = self.prev_moves(ply - 1);
            let bonus = history_bonus(depth + i32::from(pv_node || cut_node));
            self.hist.reward_continuation(self.stack[ply - 1].moved, &prev, bonus);
        }
        // Correction history: a quiet result that moved the evaluation the way its bound allows.
        #[allow(clippy::nonminimal_bool, reason = "each negated pair is one excluded case, as the comment reads")]
        let corrects = (best_move.is_null() || !is_noisy(&view, best_move))
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
            && best_score.abs() < TB_WIN_IN_MAX;
        if let Some(keys) = corr_keys.filter(|_| corrects) {
            self.corr.update(us, &keys, best_score - static_eval, depth);
        }
        if root && (!self.root_excluded.is_empty() || self.root_restricted) {
            // MultiPV lines after the first, and searchmoves subsets, are not the position's value.
            return best_score;
        }
        self.tt.store(pos.key(), best_move, score_to_tt(best_score, ply), raw_eval, depth, bound, tt_pv);
        best_score
    }

    #[allow(clippy::too_many_arguments)]
    fn on_cutoff(
        &mut self,
        pos: &Position,
        view: &NodeView,
        ply: usize,
        m: Move,
        noisy: bool,
        depth: i32,
        quiets: &[(Move, crate::history::PieceTo)],
        captures: &[Move],
        keys: &QuietKeys,
    ) {
        let bonus = history_bonus(depth);
        let cap_key = |m: Move| (piece_to(view, m), kind_index(view.code(m.to())));
        if noisy {
            let (pt, victim) = cap_key(m);
            crate::history::gravity(&mut pt.entry_mut(&mut self.hist.capture)[victim], bonus);
        } else {
            self.hist.add_killer(ply, m);
            let prev = &keys.prev;
            if prev[0].piece != 0 {
                *prev[0].entry_mut(&mut self.hist.counter) = m;
            }
            self.hist.update_quiets(pos.side_to_move(), (m, piece_to(view, m)), quiets, keys, depth);
        }
        for &c in captures {
            let (pt, victim) = cap_key(c);
            crate::history::gravity(&mut pt.entry_mut(&mut self.hist.capture)[victim], -bonus);
        }
    }
}
