//! Threats against the side to move, for ordering quiet moves: a piece
//! attacked by something cheaper should usually move first, and a quiet
//! move that puts a piece where something cheaper attacks it usually loses
//! it (Stockfish's threat terms in its move picker).

use crate::history::PieceTo;
use crate::params::{threat_escape_minor, threat_escape_queen, threat_escape_rook, threat_into_pct};
use tetrad_simd::attacks::{bishop_attacks, knight_attacks, pawn_attacks_bb, rook_attacks};
use tetrad_simd::bitboards::squares;
use tetrad_simd::{Move, NodeView, PieceType};

/// Squares the opponent attacks with pieces cheaper than each of ours, and
/// what leaving or entering them is worth, by the piece code's kind bits
/// (pawns and kings: nothing), so that scoring a move is two bit tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// The squares where a piece of each kind is attacked by a cheaper one:
    /// a knight's or bishop's by pawns, a rook's by pawns and minors, a
    /// queen's by pawns, minors and rooks.
    danger: [u64; 8],
    /// The ordering points of an escape from such a square to a safe one.
    escape: [i32; 8],
    /// The points taken off for stepping from safety onto such a square.
    into: [i32; 8],
}

impl Threats {
    /// The opponent's pawn, minor and rook attacks at a node. The slider
    /// attacks are only looked up when we have a piece they would threaten
    /// (a set left out reads as the one below it: nothing of ours is scored by it).
    pub fn of(view: &NodeView) -> Threats {
        let (us, them) = (view.us, view.us.flip());
        let bb = &view.bb;
        let by_pawn = pawn_attacks_bb(them, bb.pieces(them, PieceType::Pawn));
        let (queens, rooks) = (bb.pieces(us, PieceType::Queen), bb.pieces(us, PieceType::Rook));
        let mut by_minor = by_pawn;
        if queens | rooks != 0 {
            for sq in squares(bb.pieces(them, PieceType::Knight)) {
                by_minor |= knight_attacks(sq);
            }
            for sq in squares(bb.pieces(them, PieceType::Bishop)) {
                by_minor |= bishop_attacks(sq, view.occ);
            }
        }
        let mut by_rook = by_minor;
        if queens != 0 {
            for sq in squares(bb.pieces(them, PieceType::Rook)) {
                by_rook |= rook_attacks(sq, view.occ);
            }
        }
        let mut t = Threats::default();
        for (kind, set, points) in [
            (PieceType::Knight, by_pawn, threat_escape_minor()),
            (PieceType::Bishop, by_pawn, threat_escape_minor()),
            (PieceType::Rook, by_minor, threat_escape_rook()),
            (PieceType::Queen, by_rook, threat_escape_queen()),
        ] {
            t.danger[kind as usize] = set;
            t.escape[kind as usize] = points;
            t.into[kind as usize] = points * threat_into_pct() / 100;
        }
        t
    }

    /// Ordering points for quiet move `m` of the piece `pt.piece`: a bonus
    /// for leaving a square attacked by something cheaper for a safe one, a
    /// malus for stepping from safety onto such a square.
    #[inline(always)]
    pub fn order_bonus(&self, m: Move, pt: PieceTo) -> i32 {
        let k = usize::from(pt.piece & 7);
        let danger = self.danger[k];
        let (from, to) = ((danger >> m.from().index()) as i32 & 1, (danger >> m.to().index()) as i32 & 1);
        // Leaving for a safe square, or stepping from safety onto a threatened
        // one; moving between two threatened or two safe squares scores nothing.
        from * (1 - to) * self.escape[k] - to * (1 - from) * self.into[k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_simd::{MoveKind, Position, Square};

    /// A white piece of `kind` (the square is the move's business).
    fn white(kind: PieceType) -> PieceTo {
        PieceTo { piece: kind as u8, to: 0 }
    }

    fn mv(from: u8, to: u8) -> Move {
        Move::new(Square::new(from), Square::new(to), MoveKind::Normal)
    }

    #[test]
    fn a_piece_attacked_by_a_cheaper_one_is_urged_to_a_safe_square() {
        // The white queen on d4 is attacked by the knight on e6; the pawn on
        // b6 guards a5 and c5.
        let pos = Position::from_fen("4k3/8/1p2n3/8/3Q4/5N2/8/4K3 w - - 0 1").unwrap();
        let t = Threats::of(&NodeView::new(&pos));
        assert_eq!(t.danger[PieceType::Knight as usize], (1 << 32) | (1 << 34), "the pawn's squares");
        assert!(t.danger[PieceType::Rook as usize] >> 27 & 1 != 0, "d4, the knight's");
        let (d4, a1, c5) = (27, 0, 34);
        assert!(t.order_bonus(mv(d4, a1), white(PieceType::Queen)) > 0);
        assert_eq!(t.order_bonus(mv(d4, c5), white(PieceType::Queen)), 0, "attacked there too");
        // A knight fears only pawns: g5, which the e6 knight attacks, is no threat to it.
        let (f3, g5) = (21, 38);
        assert_eq!(t.order_bonus(mv(f3, g5), white(PieceType::Knight)), 0);
    }

    #[test]
    fn stepping_onto_a_cheaper_pieces_square_is_marked_down() {
        let pos = Position::from_fen("4k3/8/1p6/8/8/1N6/8/4K3 w - - 0 1").unwrap();
        let t = Threats::of(&NodeView::new(&pos));
        let (b3, a5, d4) = (17, 32, 27);
        assert!(t.order_bonus(mv(b3, a5), white(PieceType::Knight)) < 0);
        assert_eq!(t.order_bonus(mv(b3, d4), white(PieceType::Knight)), 0);
        // Pawns and kings are never scored.
        assert_eq!(t.order_bonus(mv(8, 16), white(PieceType::Pawn)), 0);
        assert_eq!(t.order_bonus(mv(4, 33), white(PieceType::King)), 0);
    }

    #[test]
    fn black_to_move_fears_white_pawns_and_a_queen_fears_a_rook() {
        // The black queen on d5 is attacked by the rook on d1; the black
        // knight on f6 by the pawn on g5 (which also guards h6).
        let pos = Position::from_fen("4k3/8/5n2/3q2P1/8/8/8/3RK3 b - - 0 1").unwrap();
        let t = Threats::of(&NodeView::new(&pos));
        let black = |kind: PieceType| PieceTo { piece: kind as u8 | 8, to: 0 };
        let (d5, a5, d4, f6, h5, h7) = (35, 32, 27, 45, 39, 55);
        assert!(t.order_bonus(mv(d5, a5), black(PieceType::Queen)) > 0);
        assert_eq!(t.order_bonus(mv(d5, d4), black(PieceType::Queen)), 0, "still on the rook's file");
        assert!(t.order_bonus(mv(f6, h5), black(PieceType::Knight)) > 0);
        assert!(t.order_bonus(mv(f6, h7), black(PieceType::Knight)) > 0);
        assert_eq!(t.danger[PieceType::Knight as usize], (1 << 45) | (1 << 47), "f6 and h6");
    }
}
