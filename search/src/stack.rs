//! The search's path: a frame per ply (evaluations, the move made from it,
//! counts the children inherit), how a node records the move into a child,
//! and which node type a child is expected to be.

use crate::history::PieceTo;
use crate::worker::Worker;
use tetrad_simd::{Move, Position};

/// Per-ply data of the search stack.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    /// Corrected static evaluation (what pruning reads).
    pub static_eval: i32,
    /// The evaluation before correction (what the table keeps).
    pub raw_eval: i32,
    /// The move played from this ply (for continuation history); default after a null move.
    pub moved: PieceTo,
    /// The move played from this ply was quiet (not a capture, promotion or null move).
    pub moved_quiet: bool,
    /// The move played from this ply, where `moved_quiet` (else stale).
    pub played: Move,
    /// A move this node must not search (the singular-extension test).
    pub excluded: Move,
    /// Beta cut-offs found by the nodes at this ply since their parent began (LMR reads the child's).
    pub cutoffs: u8,
    /// Double extensions along the path to this ply.
    pub double_exts: u8,
    /// Plies since the last null move on the path (`u16::MAX` without one):
    /// no repetition is looked for across a null move.
    pub plies_from_null: u16,
}

/// What a node records before it searches a child: the move (for the
/// histories and repetitions below) and the extension it got.
#[derive(Clone, Copy)]
pub(crate) struct ChildMove {
    /// Piece and square of the move (default: a null move).
    pub moved: PieceTo,
    /// The move itself.
    pub played: Move,
    /// Not a capture, promotion or null move.
    pub quiet: bool,
    /// The move was extended by two plies.
    pub double_ext: bool,
}

impl ChildMove {
    /// A null move.
    pub(crate) const NULL: ChildMove =
        ChildMove { moved: PieceTo { piece: 0, to: 0 }, played: Move::NULL, quiet: false, double_ext: false };
}

impl Worker {
    /// Records the move from `pos` at `ply` into a child about to be
    /// searched; [`Worker::leave_child`] undoes it. The one place the
    /// search's path is written, for every kind of child.
    #[inline(always)]
    pub(crate) fn enter_child(&mut self, pos: &Position, ply: usize, child: ChildMove) {
        self.keys.push(pos.key());
        let (frame, next) = self.stack.split_at_mut(ply + 1);
        let (frame, next) = (&mut frame[ply], &mut next[0]);
        frame.moved = child.moved;
        frame.moved_quiet = child.quiet;
        frame.played = child.played;
        next.double_exts = frame.double_exts + u8::from(child.double_ext);
        next.plies_from_null = if child.moved.piece == 0 { 0 } else { frame.plies_from_null.saturating_add(1) };
    }

    /// Back from the child [`Worker::enter_child`] recorded.
    #[inline(always)]
    pub(crate) fn leave_child(&mut self) {
        self.keys.pop();
    }
}

/// How a child of the move loop is searched, which decides its expected node type.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ChildType {
    /// The first move: the node's full window.
    First,
    /// A later move at a reduced depth, null window.
    Reduced,
    /// A later move at full depth, null window (unreduced, or the re-search of a reduced one).
    NullWindow,
    /// The PV node's re-search of a move that beat alpha, full window.
    PvResearch,
}

impl ChildType {
    /// Whether the child is an expected cut node, as in Stockfish: PV
    /// children are not; a reduced search expects to fail low, so its child
    /// cuts; otherwise a null-window child has the opposite type of its
    /// parent, the first move of a non-PV node included (an expected cut
    /// node's first move is an expected all node, and the reverse).
    pub(crate) fn is_cut(self, pv_node: bool, cut_node: bool) -> bool {
        match self {
            ChildType::First if pv_node => false,
            ChildType::PvResearch => false,
            ChildType::Reduced => true,
            ChildType::First | ChildType::NullWindow => !cut_node,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_simd::legal_moves;

    fn play(pos: &Position, uci: &str) -> (Position, Move) {
        let m = *legal_moves(pos).iter().find(|&&m| pos.move_to_uci(m, false) == uci).expect(uci);
        (pos.make_move(m), m)
    }

    /// Stockfish's node types: the first move of an expected cut node is
    /// an expected all node and the reverse; PV children are neither.
    #[test]
    fn children_get_the_node_type_of_their_search() {
        use ChildType::*;
        // (kind, pv_node, cut_node) -> child is a cut node
        let table = [
            (First, true, false, false),
            (First, false, true, false),
            (First, false, false, true),
            (Reduced, true, false, true),
            (Reduced, false, false, true),
            (Reduced, false, true, true),
            (NullWindow, true, false, true),
            (NullWindow, false, true, false),
            (NullWindow, false, false, true),
            (PvResearch, true, false, false),
        ];
        for (kind, pv, cut, expected) in table {
            assert_eq!(kind.is_cut(pv, cut), expected, "{kind:?} pv {pv} cut {cut}");
        }
    }

    /// A double extension counts on the path of the child that got it, not
    /// on its later siblings'.
    #[test]
    fn a_double_extension_stays_with_its_child() {
        let mut w = Worker::new(0);
        let pos = Position::startpos();
        let (_, m) = play(&pos, "g1f3");
        let moved = PieceTo { piece: 2, to: m.to().index() as u8 };
        w.stack[3].double_exts = 1;
        w.enter_child(&pos, 3, ChildMove { moved, played: m, quiet: true, double_ext: true });
        assert_eq!(w.stack[4].double_exts, 2);
        w.leave_child();
        w.enter_child(&pos, 3, ChildMove { moved, played: m, quiet: true, double_ext: false });
        assert_eq!(w.stack[4].double_exts, 1, "the sibling inherits the node's count only");
        assert_eq!(w.stack[3].double_exts, 1);
        w.leave_child();
        assert!(w.keys.is_empty());
    }

    /// Walks `moves` from the start position ("0000": a null move) and asks
    /// whether the rules end the last node (a repetition here).
    fn ends_by_rule(moves: &[&str]) -> (Option<i32>, u16) {
        let mut w = Worker::new(0);
        for f in w.stack.iter_mut() {
            f.plies_from_null = u16::MAX;
        }
        let mut pos = Position::startpos();
        for (ply, &uci) in moves.iter().enumerate() {
            let (child, record) = if uci == "0000" {
                (pos.make_null(), ChildMove::NULL)
            } else {
                let (child, m) = play(&pos, uci);
                let moved = PieceTo { piece: 2, to: m.to().index() as u8 };
                (child, ChildMove { moved, played: m, quiet: true, double_ext: false })
            };
            w.enter_child(&pos, ply, record);
            pos = child;
        }
        (w.rule_end(&pos, moves.len()), pos.halfmove_clock())
    }

    /// White passing twice while Black's knight goes out and back is no
    /// repetition (no game can pass); the same knight tour against real
    /// moves is one.
    #[test]
    fn no_repetition_across_a_null_move() {
        let (real, _) = ends_by_rule(&["b1c3", "g8f6", "g1f3", "f6g8", "f3g1"]);
        assert_eq!(real, Some(0));
        let (passing, clock) = ends_by_rule(&["b1c3", "0000", "g1f3", "0000", "f3g1"]);
        assert!(clock >= 4, "the fifty-move clock alone would allow the scan: {clock}");
        assert_eq!(passing, None);
    }
}
