//! Legality of one move without generating the others (to vet hash-table moves).

use super::{attacked_by, Ctx, NodeView, Sink, RANK_1, RANK_8};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::tables::{KING_ATTACKS, KNIGHT_ATTACKS, LINE, PAWN_ATTACKS};
use crate::types::{Color, PieceType, Square};

/// A sink that only notes whether one given move went by.
struct Find(Move, bool);

impl Sink for Find {
    fn piece(&mut self, _from: Square, _targets: u64) {}
    fn pawns(&mut self, _targets: u64, _delta: i8, _kind: MoveKind) {}
    fn promotions(&mut self, _targets: u64, _delta: i8) {}
    fn one(&mut self, m: Move) {
        self.1 |= m == self.0;
    }
}

/// Whether `m` is a legal move here: exactly when the generator would
/// produce it (any 16-bit value is accepted as input; kinds beyond 7 and the
/// null move are never legal). Checks the piece, its geometry and the board
/// for this one move, then the pin and check constraints.
pub fn is_legal(pos: &Position, m: Move) -> bool {
    is_legal_in(pos, &NodeView::new(pos), m)
}

/// [`is_legal`] on the node's view (no conversion: the search's way).
pub fn is_legal_in(pos: &Position, view: &NodeView, m: Move) -> bool {
    if m.is_null() || m.raw() >> 12 > 7 {
        return false;
    }
    let ctx = Ctx::new(pos, view);
    let (from, to) = (m.from(), m.to());
    let us = ctx.v.us;
    if ctx.v.ours & from.bit() == 0 || ctx.v.ours & to.bit() != 0 {
        return false;
    }
    let Some(kind) = PieceType::from_bits(pos.ccr().code(from) & 7) else {
        return false;
    };
    let empty = !ctx.v.occ;
    let up: i32 = if us == Color::White { 8 } else { -8 };
    let last = if us == Color::White { RANK_8 } else { RANK_1 };
    let pawn_capture = PAWN_ATTACKS[us.index()][from.index()] & ctx.v.theirs & to.bit() != 0;
    let single_push = to.index() as i32 == from.index() as i32 + up && empty & to.bit() != 0;
    let geometry = match (m.kind(), kind) {
        (MoveKind::Castle, PieceType::King) => {
            let mut f = Find(m, false);
            if ctx.v.info.checkers == 0 {
                ctx.castling(&mut f);
            }
            return f.1;
        }
        (MoveKind::EnPassant, PieceType::Pawn) => {
            let mut f = Find(m, false);
            if ctx.v.info.checkers.count_ones() < 2 {
                if let Some(ep) = pos.ep_square() {
                    ctx.en_passant(ep, from.bit(), &mut f);
                }
            }
            return f.1;
        }
        (MoveKind::DoublePush, PieceType::Pawn) => {
            let start = if us == Color::White { 1 } else { 6 };
            let mid = from.index() as i32 + up;
            from.rank() == start && to.index() as i32 == mid + up && empty & to.bit() != 0 && empty & (1u64 << mid) != 0
        }
        (MoveKind::Normal, PieceType::Pawn) => last & to.bit() == 0 && (single_push || pawn_capture),
        (
            MoveKind::PromoKnight | MoveKind::PromoBishop | MoveKind::PromoRook | MoveKind::PromoQueen,
            PieceType::Pawn,
        ) => last & to.bit() != 0 && (single_push || pawn_capture),
        (MoveKind::Normal, PieceType::Knight) => KNIGHT_ATTACKS[from.index()] & to.bit() != 0,
        (MoveKind::Normal, PieceType::Bishop) => ctx.sl.bishop(from, ctx.v.occ) & to.bit() != 0,
        (MoveKind::Normal, PieceType::Rook) => ctx.sl.rook(from, ctx.v.occ) & to.bit() != 0,
        (MoveKind::Normal, PieceType::Queen) => ctx.sl.queen(from, ctx.v.occ) & to.bit() != 0,
        (MoveKind::Normal, PieceType::King) => {
            return KING_ATTACKS[from.index()] & to.bit() != 0
                && !attacked_by(ctx.sl, &ctx.v.bb, to, us.flip(), ctx.v.occ ^ from.bit());
        }
        _ => false,
    };
    let info = &ctx.v.info;
    geometry
        && info.checkers.count_ones() < 2
        && info.check_mask & to.bit() != 0
        && (info.pinned & from.bit() == 0 || LINE[ctx.v.ksq.index()][from.index()] & to.bit() != 0)
}
