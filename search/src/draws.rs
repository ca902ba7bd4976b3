//! Nodes the rules end before any search: the fifty-move rule, repetitions
//! (and how far back an upcoming one may be looked for), bare material,
//! and the deepest ply.

use crate::score::{MATE, MAX_PLY};
use crate::worker::Worker;
use tetrad_simd::{generate_in, GenType, MoveList, NodeView, Position};

/// The fifty-move rule draws, unless the last move gave mate.
#[cold]
fn fifty_move_score(pos: &Position, view: &NodeView, ply: usize) -> i32 {
    let mut moves = MoveList::new();
    if view.in_check() {
        generate_in(pos, view, GenType::All, &mut moves);
    }
    if view.in_check() && moves.is_empty() {
        -MATE + ply as i32
    } else {
        0
    }
}

/// Only kings, or kings and one minor piece: nobody can mate.
#[inline(always)]
fn insufficient_material(pos: &Position) -> bool {
    // Almost every node stops at the count, kept in the position.
    pos.piece_count() <= 3 && only_minors_and_kings(pos)
}

/// Whether every piece on the board is a king, knight or bishop.
#[cold]
#[inline(never)]
fn only_minors_and_kings(pos: &Position) -> bool {
    const LSB: u64 = 0x1111_1111_1111_1111;
    for w in pos.ccr().words() {
        // One bit per occupied square.
        let mut o = (w | w >> 1 | w >> 2 | w >> 3) & LSB;
        while o != 0 {
            if !matches!((w >> o.trailing_zeros()) & 7, 2 | 3 | 6) {
                return false;
            }
            o &= o - 1;
        }
    }
    true
}

impl Worker {
    /// A draw by repetition, as Stockfish and Ethereal count it: a position
    /// of the searched line again (two-fold after the root), or one the game
    /// had already reached twice (three-fold). A single earlier occurrence
    /// at or before the root is no draw yet: scored as one, it let the side
    /// that was worse "escape" into a repetition the opponent simply avoids.
    #[inline]
    fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
        let key = pos.key();
        let n = self.keys.len();
        // Not across a null move: a path through two of them can bring a
        // position back that no game could (Stockfish's `pliesFromNull`).
        let reach = (pos.halfmove_clock() as usize).min(n).min(usize::from(self.stack[ply].plies_from_null));
        let mut earlier_in_game = false;
        // Two plies back is never the same position (each side has moved
        // once since, and the second move cannot undo the first): start at four.
        let mut i = 4;
        while i <= reach {
            if self.keys[n - i] == key {
                if i < ply || earlier_in_game {
                    return true;
                }
                earlier_in_game = true;
            }
            i += 2;
        }
        false
    }

    /// The score of a node that the rules or the stack end before any
    /// search, the same in negamax and quiescence: the fifty-move rule (mate
    /// excepted: the one view of this node), a repetition, bare material,
    /// and the deepest ply (its static evaluation).
    ///
    /// Inlined into both searches, with the rare ends out of line: as a
    /// call of its own, saving and restoring the registers the inlined
    /// evaluation needed cost more than its usual work (0.5% of the bench's
    /// instructions).
    #[inline(always)]
    pub(crate) fn rule_end(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        if pos.halfmove_clock() >= 100 {
            return Some(fifty_move_score(pos, &NodeView::new(pos), ply));
        }
        if self.is_repetition(pos, ply) || insufficient_material(pos) {
            return Some(0);
        }
        (ply >= MAX_PLY - 1).then(|| self.deepest_ply_score(pos, ply))
    }

    /// The deepest ply's score: its static evaluation.
    #[cold]
    #[inline(never)]
    fn deepest_ply_score(&mut self, pos: &Position, ply: usize) -> i32 {
        self.eval.evaluate_at(pos, ply)
    }

    /// How many plies up a repetition may be looked for: inside the search,
    /// since the last irreversible move, and not across a null move.
    #[inline]
    pub(crate) fn cycle_reach(&self, pos: &Position, ply: usize) -> usize {
        (pos.halfmove_clock() as usize).min(ply.saturating_sub(1)).min(usize::from(self.stack[ply].plies_from_null))
    }
}
