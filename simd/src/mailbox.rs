//! The node's board as one byte per square, unpacked from the CCR.
//!
//! The CCR keeps two squares in a byte, so reading one square's code takes
//! a shift by the square's parity and a mask after the load. The search
//! reads codes by square many times a node (the moving piece of every
//! scored move for its history row and its child's key, the victim of every
//! capture), so the node view unpacks the 32 bytes once into 64, and those
//! reads become single byte loads. The CCR stays the position: this is a
//! view of it, made with the bitboards and dropped with them.

use crate::ccr::Ccr;
use crate::types::Square;

/// One CCR piece code per square (a1 = 0 … h8 = 63; 0 = empty).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Mailbox([u8; 64]);

impl Mailbox {
    /// Unpacks a CCR: square `2i` is byte `i`'s low nibble, `2i + 1` its
    /// high one (the mapping of [`crate::ccr`]). A plain loop: the compiler
    /// makes it a few vector shuffles, and there is nothing unsafe to check.
    #[inline(always)]
    pub fn from_ccr(ccr: &Ccr) -> Mailbox {
        let mut out = [0u8; 64];
        for (pair, &byte) in out.chunks_exact_mut(2).zip(ccr.0.iter()) {
            pair[0] = byte & 0xF;
            pair[1] = byte >> 4;
        }
        Mailbox(out)
    }

    /// The piece code on a square (0 = empty).
    #[inline(always)]
    pub fn code(&self, sq: Square) -> u8 {
        self.0[sq.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn every_square_matches_the_ccr() {
        let fens = [
            crate::position::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let board = Mailbox::from_ccr(pos.ccr());
            for i in 0..64u8 {
                let sq = Square::new(i);
                assert_eq!(board.code(sq), pos.ccr().code(sq), "{fen} square {i}");
            }
        }
        // Every code in every position of a byte, both nibbles.
        let mut ccr = Ccr::EMPTY;
        for i in 0..32 {
            ccr.0[i] = (i as u8 * 37) ^ 0x5A;
        }
        let board = Mailbox::from_ccr(&ccr);
        for i in 0..64u8 {
            assert_eq!(board.code(Square::new(i)), ccr.code(Square::new(i)));
        }
    }

    /// The view's readers answer as the position's own, for every legal move.
    #[test]
    fn view_readers_match_the_position() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
        ];
        let mut moves = 0;
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let view = crate::view::NodeView::new(&pos);
            for &m in crate::movegen::legal_moves(&pos).iter() {
                assert_eq!(view.is_capture(m), pos.is_capture(m), "{fen} {m}");
                assert_eq!(view.captured(m), pos.captured(m), "{fen} {m}");
                assert_eq!(pos.key_after_in(&view.board, m), pos.key_after(m), "{fen} {m}");
                moves += 1;
            }
        }
        assert!(moves > 90, "{moves} moves");
    }
}
