//! The node view: everything a search node asks of its board, made from the
//! CCR once.
//!
//! One [`ccr_to_bitboards`] conversion gives the sixteen by-code sets; from
//! them the view derives occupancy, our king's checkers, check mask and pins.
//! The CCR's nibbles are also unpacked to a byte a square ([`Mailbox`]), so
//! that the search's many "which piece stands here" reads are single loads.
//! What our moves need to give check (the squares from which each piece
//! kind attacks the enemy king, and our pieces that stand between one of our
//! sliders and that king) is a [`CheckInfo`] made from the view only by the
//! nodes that ask; quiescence and nodes cut before their move loop skip it. Move
//! generation, the legality test of a table move, SEE, the evaluation and
//! [`CheckInfo::gives_check`] all read this one view; the child positions are
//! still made by copying the CCR.

use crate::attacks::{sliders, Sliders};
use crate::bitboards::Bitboards;
use crate::convert::ccr_to_bitboards;
use crate::mailbox::Mailbox;
use crate::moves::{Move, MoveKind};
use crate::position::{castle_rook_target, Position};
use crate::tables::{BETWEEN, KNIGHT_ATTACKS, LINE, PAWN_ATTACKS};
use crate::types::{Color, PieceType, Square};

/// Check and pin facts about the side to move's king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingInfo {
    /// Squares of the pieces giving check.
    pub checkers: u64,
    /// Squares a non-king move must land on (all squares when not in check).
    pub check_mask: u64,
    /// Our pieces pinned to our king.
    pub pinned: u64,
}

/// One node's bitboards and the facts derived from them (what giving
/// check needs is apart, in [`CheckInfo`]).
#[derive(Clone, Copy, Debug)]
pub struct NodeView {
    /// The sixteen by-code sets.
    pub bb: Bitboards,
    /// Side to move.
    pub us: Color,
    /// Our king.
    pub ksq: Square,
    /// Their king.
    pub their_ksq: Square,
    /// Our pieces.
    pub ours: u64,
    /// Their pieces.
    pub theirs: u64,
    /// All pieces.
    pub occ: u64,
    /// Checkers, evasion mask and pins of our king.
    pub info: KingInfo,
    /// The piece code on each square, one byte a square.
    pub board: Mailbox,
}

/// What our moves need to give check, made from a view only where the
/// search asks "does this move give check" (main search, not quiescence).
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// `check_squares[kind]`: squares from which our piece of that kind
    /// would attack their king (king: none).
    pub check_squares: [u64; 6],
    /// Our pieces between one of our sliders and their king.
    pub discoverers: u64,
}

/// Squares of a colour's pieces of one kind.
#[inline(always)]
pub(crate) fn set(bb: &Bitboards, c: Color, k: PieceType) -> u64 {
    bb.by_code[(c as usize) << 3 | k as usize]
}

impl NodeView {
    /// Converts the CCR (the one conversion of the node) and derives the rest.
    #[inline]
    pub fn new(pos: &Position) -> NodeView {
        let bb = ccr_to_bitboards(pos.ccr());
        NodeView::from_bitboards(pos, bb)
    }

    /// The view of a position whose bitboards are already made.
    #[inline]
    pub fn from_bitboards(pos: &Position, bb: Bitboards) -> NodeView {
        let sl = sliders();
        let us = pos.side_to_move();
        let them = us.flip();
        let occ = !bb.empty();
        let ours = bb.color(us);
        let theirs = occ & !ours;
        let (ksq, their_ksq) = (pos.king(us), pos.king(them));
        let info = king_info(sl, &bb, us, ksq, ours, theirs);
        NodeView { bb, us, ksq, their_ksq, ours, theirs, occ, info, board: Mailbox::from_ccr(pos.ccr()) }
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.info.checkers != 0
    }

    /// Squares of our pieces of one kind.
    #[inline(always)]
    pub fn ours_of(&self, k: PieceType) -> u64 {
        set(&self.bb, self.us, k)
    }

    /// Squares of their pieces of one kind.
    #[inline(always)]
    pub fn theirs_of(&self, k: PieceType) -> u64 {
        set(&self.bb, self.us.flip(), k)
    }

    /// The piece code on a square (0 = empty), one byte load.
    #[inline(always)]
    pub fn code(&self, sq: Square) -> u8 {
        self.board.code(sq)
    }

    /// Whether a move captures: [`Position::is_capture`] read from the view.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        m.captures(self.code(m.to()))
    }

    /// The kind of piece a move captures: [`Position::captured`] read from the view.
    #[inline(always)]
    pub fn captured(&self, m: Move) -> Option<PieceType> {
        m.captured_kind(self.code(m.to()))
    }
}

impl CheckInfo {
    /// The check squares and discovered-check candidates of the side to move.
    #[inline]
    pub fn new(v: &NodeView) -> CheckInfo {
        use PieceType::*;
        let sl = sliders();
        let (us, them, their_ksq, occ) = (v.us, v.us.flip(), v.their_ksq, v.occ);
        let (rook_lines, bishop_lines) = (sl.rook(their_ksq, occ), sl.bishop(their_ksq, occ));
        let check_squares = [
            PAWN_ATTACKS[them.index()][their_ksq.index()],
            KNIGHT_ATTACKS[their_ksq.index()],
            bishop_lines,
            rook_lines,
            bishop_lines | rook_lines,
            0,
        ];
        // Our sliders that see their king through exactly one of our pieces.
        let mut snipers = (sl.bishop(their_ksq, v.theirs) & (set(&v.bb, us, Bishop) | set(&v.bb, us, Queen)))
            | (sl.rook(their_ksq, v.theirs) & (set(&v.bb, us, Rook) | set(&v.bb, us, Queen)));
        let mut discoverers = 0;
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let between = BETWEEN[their_ksq.index()][s] & occ;
            if between & (between.wrapping_sub(1)) == 0 {
                discoverers |= between & v.ours;
            }
        }
        CheckInfo { check_squares, discoverers }
    }

    /// Whether the legal move `m` of the view's position gives check,
    /// decided without making it.
    #[inline]
    pub fn gives_check(&self, v: &NodeView, pos: &Position, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let piece = PieceType::from_bits(pos.ccr().code(from) & 7).unwrap_or(PieceType::Pawn);
        let kind = m.kind();
        // Direct check by the moved piece (a promotion: by the new piece, on the board without the pawn).
        if kind != MoveKind::Castle && self.check_squares[piece.index()] & to.bit() != 0 {
            return true;
        }
        // Discovered check: a blocker leaves its line to the king.
        if self.discoverers & from.bit() != 0 && LINE[v.their_ksq.index()][from.index()] & to.bit() == 0 {
            return true;
        }
        match kind {
            MoveKind::Normal | MoveKind::DoublePush => false,
            MoveKind::PromoKnight | MoveKind::PromoBishop | MoveKind::PromoRook | MoveKind::PromoQueen => {
                let occ = v.occ ^ from.bit();
                let sl = sliders();
                let attacks = match m.promo() {
                    Some(PieceType::Knight) => KNIGHT_ATTACKS[to.index()],
                    Some(PieceType::Bishop) => sl.bishop(to, occ),
                    Some(PieceType::Rook) => sl.rook(to, occ),
                    _ => sl.queen(to, occ),
                };
                attacks & v.their_ksq.bit() != 0
            }
            MoveKind::Castle => {
                let rook_from = pos.castle_rook(crate::position::castle_bit(v.us, to));
                let rook_to = castle_rook_target(to);
                let occ = (v.occ ^ from.bit() ^ rook_from.bit()) | to.bit() | rook_to.bit();
                sliders().rook(rook_to, occ) & v.their_ksq.bit() != 0
            }
            MoveKind::EnPassant => {
                // The captured pawn leaves too: a slider may see through both squares.
                let victim = Square::from_coords(to.file(), from.rank());
                let occ = (v.occ ^ from.bit() ^ victim.bit()) | to.bit();
                let sl = sliders();
                let k = v.their_ksq;
                (sl.bishop(k, occ) & (v.ours_of(PieceType::Bishop) | v.ours_of(PieceType::Queen)))
                    | (sl.rook(k, occ) & (v.ours_of(PieceType::Rook) | v.ours_of(PieceType::Queen)))
                    != 0
            }
        }
    }
}

/// Checkers, evasion mask and pins, from our king outwards.
#[inline(always)]
fn king_info(sl: &Sliders, bb: &Bitboards, us: Color, ksq: Square, ours: u64, theirs: u64) -> KingInfo {
    use PieceType::*;
    let them = us.flip();
    let k = ksq.index();
    let diag = set(bb, them, Bishop) | set(bb, them, Queen);
    let orth = set(bb, them, Rook) | set(bb, them, Queen);
    let mut checkers =
        (KNIGHT_ATTACKS[k] & set(bb, them, Knight)) | (PAWN_ATTACKS[us.index()][k] & set(bb, them, Pawn));
    // Sliders seen through our own pieces: each is a checker or a pinner.
    let mut snipers = (sl.bishop(ksq, theirs) & diag) | (sl.rook(ksq, theirs) & orth);
    let mut pinned = 0;
    while snipers != 0 {
        let s = snipers.trailing_zeros() as usize;
        snipers &= snipers - 1;
        let between = BETWEEN[k][s] & ours;
        if between == 0 {
            checkers |= 1u64 << s;
        } else if between & (between - 1) == 0 {
            pinned |= between;
        }
    }
    let check_mask = match checkers.count_ones() {
        0 => !0,
        1 => checkers | BETWEEN[k][checkers.trailing_zeros() as usize],
        _ => 0,
    };
    KingInfo { checkers, check_mask, pinned }
}
