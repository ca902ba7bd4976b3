//! Static exchange evaluation on bitboards: does a capture sequence on one
//! square win at least a threshold, with each side recapturing with its
//! least valuable attacker (x-rays revealed as pieces leave)?

use tetrad_simd::attacks::{bishop_attacks, rook_attacks};
use tetrad_simd::{Color, Move, MoveKind, NodeView, Piece, PieceType, Square};

/// Piece values used by SEE, indexed pawn..king.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

pub use tetrad_simd::movegen::attackers_to;

/// Value gained by the move's capture (the victim), promotion included.
pub fn capture_value(view: &NodeView, m: Move) -> i32 {
    let victim = view.captured(m).map_or(0, |k| SEE_VALUE[k.index()]);
    victim + m.promo().map_or(0, |p| SEE_VALUE[p.index()] - SEE_VALUE[0])
}

/// Whether the exchange started by `m` gains at least `threshold` centipawns.
/// Reads the node's view: its bitboards, and its board for the two squares' pieces.
pub fn see_ge(view: &NodeView, m: Move, threshold: i32) -> bool {
    if matches!(m.kind(), MoveKind::Castle) {
        return threshold <= 0;
    }
    let from = m.from();
    let to = m.to();
    let Some(mover) = Piece::from_code(view.code(from)) else { return false };
    let mut swap = capture_value(view, m) - threshold;
    if swap < 0 {
        return false;
    }
    let next_victim = m.promo().unwrap_or(mover.kind());
    swap = SEE_VALUE[next_victim.index()] - swap;
    if swap <= 0 {
        return true;
    }
    let bb = &view.bb;
    let mut occ = bb.occupied() ^ from.bit() ^ to.bit();
    if m.kind() == MoveKind::EnPassant {
        occ ^= Square::from_coords(to.file(), from.rank()).bit();
    }
    let mut attackers = attackers_to(bb, to, occ) & occ;
    let mut stm = mover.color().flip();
    let mut result = true;
    let diag = bb.diagonal_sliders(Color::White) | bb.diagonal_sliders(Color::Black);
    let orth = bb.orthogonal_sliders(Color::White) | bb.orthogonal_sliders(Color::Black);
    loop {
        let ours = attackers & bb.color(stm);
        if ours == 0 {
            break;
        }
        result = !result;
        // Least valuable attacker.
        let mut kind = PieceType::King;
        let mut from_bb = 0;
        for k in PieceType::ALL {
            let b = ours & bb.pieces(stm, k);
            if b != 0 {
                kind = k;
                from_bb = b & b.wrapping_neg();
                break;
            }
        }
        if kind == PieceType::King {
            // The king may capture only if the square is no longer defended.
            if attackers & bb.color(stm.flip()) != 0 {
                result = !result;
            }
            break;
        }
        occ ^= from_bb;
        // Reveal x-ray attackers behind the piece that just captured.
        if matches!(kind, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
            attackers |= bishop_attacks(to, occ) & diag;
        }
        if matches!(kind, PieceType::Rook | PieceType::Queen) {
            attackers |= rook_attacks(to, occ) & orth;
        }
        attackers &= occ;
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < i32::from(result) {
            break;
        }
        stm = stm.flip();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_simd::{parse_uci_move, Position};

    fn see(fen: &str, mv: &str, t: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let m = parse_uci_move(&pos, mv).unwrap();
        see_ge(&NodeView::new(&pos), m, t)
    }

    #[test]
    fn exchanges() {
        // Rook takes a pawn defended by nothing: +100.
        let f = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(f, "e1e5", 100));
        assert!(!see(f, "e1e5", 101));
        // Knight takes a pawn defended by a pawn, then recaptured: 100 - 320 < 0.
        let f = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(f, "d3e5", 0));
        assert!(see(f, "d3e5", -220));
    }
}
