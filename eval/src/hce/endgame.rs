//! Endgame knowledge: dead draws by insufficient material, and the scale
//! applied to the endgame half for drawish material (opposite-coloured
//! bishops, pawnless endings without a decisive edge).

use crate::hce::bits::{popcount, LIGHT_SQUARES};
use crate::hce::params::Params;
use tetrad_simd::{Bitboards, Color, PieceType};

/// The full endgame scale.
pub const SCALE_NORMAL: i32 = 128;

/// Whether a side's pieces (ignoring the other side) can never force mate
/// without pawns: a bare king, one minor piece, or two knights.
#[inline]
fn cannot_mate(bb: &Bitboards, c: Color) -> bool {
    let n = popcount(bb.pieces(c, PieceType::Knight));
    let b = popcount(bb.pieces(c, PieceType::Bishop));
    let heavy = bb.pieces(c, PieceType::Rook) | bb.pieces(c, PieceType::Queen);
    bb.pieces(c, PieceType::Pawn) == 0 && heavy == 0 && (n + b <= 1 || (n == 2 && b == 0))
}

/// Dead draw: no pawns and neither side has more than a minor piece or two
/// knights (KvK, KNvK, KBvK, KNNvK, KBvKN, …).
#[inline]
pub fn insufficient_material(bb: &Bitboards) -> bool {
    cannot_mate(bb, Color::White) && cannot_mate(bb, Color::Black)
}

/// Non-pawn material of a side in middlegame piece values.
#[inline]
fn non_pawn_material(bb: &Bitboards, c: Color, p: &Params) -> i32 {
    [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen]
        .iter()
        .map(|&k| popcount(bb.pieces(c, k)) * p.material[k.index()].mg())
        .sum()
}

/// Endgame scale (of 128) when `strong` is ahead in the endgame half.
pub fn scale_factor(bb: &Bitboards, strong: Color, p: &Params) -> i32 {
    let weak = strong.flip();
    if bb.pieces(strong, PieceType::Pawn) == 0 {
        if cannot_mate(bb, strong) {
            return 0;
        }
        if non_pawn_material(bb, strong, p) - non_pawn_material(bb, weak, p) <= p.pawnless_margin {
            return p.scale_pawnless;
        }
    }
    let wb = bb.pieces(Color::White, PieceType::Bishop);
    let bbish = bb.pieces(Color::Black, PieceType::Bishop);
    if wb.count_ones() == 1 && bbish.count_ones() == 1 && ((wb & LIGHT_SQUARES) == 0) != ((bbish & LIGHT_SQUARES) == 0)
    {
        let knights = bb.pieces(Color::White, PieceType::Knight) | bb.pieces(Color::Black, PieceType::Knight);
        let queens = bb.pieces(Color::White, PieceType::Queen) | bb.pieces(Color::Black, PieceType::Queen);
        let (wr, br) = (bb.pieces(Color::White, PieceType::Rook), bb.pieces(Color::Black, PieceType::Rook));
        if knights | queens == 0 {
            if wr | br == 0 {
                return p.scale_ocb;
            }
            if wr.count_ones() == 1 && br.count_ones() == 1 {
                return p.scale_ocb_pieces;
            }
        }
    }
    SCALE_NORMAL
}
