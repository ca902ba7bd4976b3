//! Search steps that search a little to decide a lot: ProbCut (a capture
//! that beats beta by a margin at reduced depth ends the node) and the
//! singular-extension test (is the table's move much better than every
//! other?).

use crate::movepick::{MovePicker, PickContext};
use crate::params::*;
use crate::score::TB_WIN_IN_MAX;
use crate::see::see_ge;
use crate::stack::ChildMove;
use crate::tt::score_to_tt;
use crate::tt::{Bound, TtEntry};
use crate::worker::Worker;
use tetrad_simd::{Move, NodeView, Position};

/// What the singular test says about the table's move.
pub(crate) enum Singular {
    /// Extend it by this many plies (negative: reduce it).
    Extend(i32),
    /// Several moves beat beta: the node fails high with this score.
    MultiCut(i32),
}

/// Internal iterative reduction: a node expected to matter (PV or cut)
/// without a table move is likely ordered badly, so it searches a ply
/// shallower. Not the singular test's search, which never has a table move
/// (it does not read the table): its depth is the test's own.
pub(crate) fn iir_applies(tt_move: Move, singular_node: bool, depth: i32, expected_to_matter: bool) -> bool {
    tt_move.is_null() && !singular_node && depth >= iir_depth() && expected_to_matter
}

impl Worker {
    /// ProbCut: searches captures whose exchange may beat `beta + margin`
    /// (judged from the corrected static evaluation; the raw one is what
    /// the table keeps), first in quiescence, then at reduced depth;
    /// returns the score that proves the node a cut.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn probcut(
        &mut self,
        pos: &Position,
        view: &NodeView,
        depth: i32,
        beta: i32,
        (static_eval, raw_eval): (i32, i32),
        tt_move: Move,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let pc_beta = beta + probcut_margin();
        let buffers = self.take_buffers(ply);
        // A quiescence picker offers the table's move only when it is a capture or promotion.
        let mut picker = MovePicker::qsearch(tt_move, false, buffers);
        let keys = crate::history::QuietKeys::default();
        let mut result = None;
        while let Some(m) = picker.next(&PickContext { pos, view, hist: &self.hist, keys: &keys, tt: &self.tt }) {
            if m == self.stack[ply].excluded || !see_ge(view, m, pc_beta - static_eval) {
                continue;
            }
            let child = pos.make_move(m);
            let moved = crate::movepick::piece_to(view, m);
            self.enter_child(pos, ply, ChildMove { moved, played: m, quiet: false, double_ext: false });
            let mut score = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1);
            if score >= pc_beta {
                score = -self.negamax(&child, depth - probcut_reduction(), -pc_beta, -pc_beta + 1, ply + 1, !cut_node);
            }
            self.leave_child();
            if self.stopped {
                break;
            }
            if score >= pc_beta {
                let d = depth - probcut_reduction() + 1;
                self.tt.store(pos.key(), m, score_to_tt(score, ply), raw_eval, d, Bound::Lower, false);
                result = Some(score);
                break;
            }
        }
        self.give_buffers(ply, picker);
        result
    }

    /// The singular test of the table's move `tt_move` (with table entry
    /// `e` deep enough and a lower bound): search every other move at half
    /// depth against a bound a little below the table's score.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn singular(
        &mut self,
        pos: &Position,
        e: &TtEntry,
        tt_score: i32,
        depth: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Singular {
        let s_beta = (tt_score - se_margin() * depth).max(-TB_WIN_IN_MAX);
        let s_depth = (depth - 1) / 2;
        self.stack[ply].excluded = e.mv;
        let score = self.negamax(pos, s_depth, s_beta - 1, s_beta, ply, cut_node);
        self.stack[ply].excluded = Move::NULL;
        if score < s_beta {
            // The child counts the double extension (`ChildMove::double_ext`);
            // the node's own count stays what its later moves inherit.
            let doubles = self.stack[ply].double_exts;
            if !pv_node && score < s_beta - se_double_margin() && i32::from(doubles) < se_max_double() {
                return Singular::Extend(2);
            }
            Singular::Extend(1)
        } else if s_beta >= beta {
            Singular::MultiCut(s_beta)
        } else if tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_internal_reduction_in_the_singular_test() {
        let d = iir_depth();
        assert!(iir_applies(Move::NULL, false, d, true));
        assert!(!iir_applies(Move::NULL, true, d, true), "the singular test keeps its depth");
        assert!(!iir_applies(Move::NULL, false, d - 1, true));
        assert!(!iir_applies(Move::NULL, false, d, false));
        assert!(!iir_applies(Move::from_raw(0x1234), false, d, true));
    }
}
