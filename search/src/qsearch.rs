//! Quiescence search: captures and promotions (every evasion in check) from
//! the horizon until the position is quiet, so that the static evaluation is
//! only ever asked about positions where nothing hangs.

use crate::alphabeta::bound_allows;
use crate::correction::CorrKeys;
use crate::history::QuietKeys;
use crate::movepick::{is_noisy, piece_to, MovePicker, PickContext};
use crate::params::*;
use crate::score::{INFINITY, MATE};
use crate::see::capture_value;
use crate::stack::ChildMove;
use crate::tt::{score_from_tt, score_to_tt, Bound};
use crate::worker::Worker;
use tetrad_simd::{Move, NodeView, Position};

impl Worker {
    /// Quiescence: captures and promotions (all evasions in check) until the position is quiet.
    pub(crate) fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.check_limits();
        self.pv_len[ply] = ply;
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // Repetitions too: a quiet move at the horizon (or an evasion) can
        // bring back a position, and its static evaluation is not its value.
        if let Some(score) = self.rule_end(pos, ply) {
            return score;
        }
        let pv_node = beta - alpha > 1;
        let tt_entry = self.tt.probe(pos.key());
        if let Some(e) = tt_entry {
            let s = score_from_tt(e.score, ply);
            if !pv_node && bound_allows(e.bound, s, alpha, beta) {
                return s;
            }
        }
        let view = NodeView::new(pos);
        let in_check = view.in_check();
        let (raw_eval, static_eval);
        let mut best_score;
        if in_check {
            (raw_eval, static_eval) = (-INFINITY, -INFINITY);
            best_score = -INFINITY;
        } else {
            let corr_keys = CorrKeys::of(&view).after(self.last_two_moves(ply));
            self.corr.prefetch(pos.side_to_move(), &corr_keys);
            raw_eval = tt_entry
                .and_then(|e| e.static_eval())
                .unwrap_or_else(|| self.eval.evaluate_bitboards(pos, &view.bb, ply));
            static_eval = self.corr.corrected(pos.side_to_move(), &corr_keys, raw_eval);
            best_score = static_eval;
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        let keys = QuietKeys::default();
        let buffers = self.take_buffers(ply);
        let mut picker = MovePicker::qsearch(tt_entry.map_or(Move::NULL, |e| e.mv), in_check, buffers);
        let mut best_move = Move::NULL;
        let mut moves = 0;
        while let Some(m) = picker.next(&PickContext { pos, view: &view, hist: &self.hist, keys: &keys, tt: &self.tt })
        {
            moves += 1;
            if !in_check {
                // Delta pruning: even winning this piece cannot lift the score to alpha.
                if m.promo().is_none() && static_eval + capture_value(&view, m) + delta_margin() <= alpha {
                    best_score = best_score.max(static_eval + capture_value(&view, m) + delta_margin());
                    continue;
                }
                if m.promo().is_some_and(|p| p != tetrad_simd::PieceType::Queen) {
                    continue;
                }
            }
            let child = pos.make_move(m);
            self.tt.prefetch(child.key());
            let moved = piece_to(&view, m);
            self.enter_child(pos, ply, ChildMove { moved, played: m, quiet: !is_noisy(&view, m), double_ext: false });
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            self.leave_child();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.give_buffers(ply, picker);
        if in_check && moves == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best_score >= beta { Bound::Lower } else { Bound::Upper };
        self.tt.store(pos.key(), best_move, score_to_tt(best_score, ply), raw_eval, 0, bound, false);
        best_score
    }
}
