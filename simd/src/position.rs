//! The position: a CCR plus a few bytes of state, copied from ply to ply.
//!
//! There is no unmake: search calls [`Position::make_move`], which returns a
//! new position, and simply drops it when it returns (copy-make).

use crate::ccr::Ccr;
use crate::moves::{Move, MoveKind};
use crate::tables::PAWN_ATTACKS;
use crate::types::{CastleRights, Color, Piece, PieceType, Square, CASTLE_MASK};
use crate::zobrist::{direct_key, zobrist_from_scratch, ZOBRIST};

/// A chess position: board, side to move, castling, en passant, clocks, key.
///
/// 64 bytes, one cache line: the 32-byte CCR, the Zobrist key and the small
/// fields. The king squares are derived data kept because every legality
/// test starts from them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Position {
    ccr: Ccr,
    key: u64,
    halfmove: u16,
    fullmove: u16,
    kings: [Square; 2],
    stm: Color,
    castling: CastleRights,
    /// En-passant target square; kept only when an enemy pawn could capture there.
    ep: Option<Square>,
}

const _: () = assert!(std::mem::size_of::<Position>() == 64);

/// The standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// The starting position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS_FEN).expect("start position FEN is valid")
    }

    /// Builds a position from parts; the caller (the FEN reader) has validated them.
    pub(crate) fn from_parts(
        ccr: Ccr,
        stm: Color,
        castling: CastleRights,
        ep: Option<Square>,
        halfmove: u16,
        fullmove: u16,
        kings: [Square; 2],
    ) -> Position {
        let mut p = Position { ccr, key: 0, halfmove, fullmove, kings, stm, castling, ep: None };
        p.ep = ep.filter(|&e| p.ep_capturable(e, stm));
        p.key = zobrist_from_scratch(&p.ccr, stm, castling.0, p.ep);
        p
    }

    /// The board.
    #[inline(always)]
    pub fn ccr(&self) -> &Ccr {
        &self.ccr
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.stm
    }

    /// Castling rights.
    #[inline(always)]
    pub fn castling(&self) -> CastleRights {
        self.castling
    }

    /// En-passant target square, present only when a capture there is pseudo-legal.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Full-move number (starts at 1, grows after Black's move).
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// King square of a colour.
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        self.kings[c.index()]
    }

    /// Incremental Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The paper's table-free key (section 5.4), computed from the CCR.
    #[inline]
    pub fn direct_key(&self) -> u64 {
        direct_key(&self.ccr, self.stm, self.castling.0, self.ep)
    }

    /// Piece on a square.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.ccr.piece(sq)
    }

    /// Whether a pawn of `stm` could capture en passant on `e` (pseudo-legally).
    fn ep_capturable(&self, e: Square, stm: Color) -> bool {
        let pawn = Piece::new(stm, PieceType::Pawn).code();
        // Our pawns that attack e are those a pawn of the other colour on e would attack.
        let mut from = PAWN_ATTACKS[stm.flip().index()][e.index()];
        while from != 0 {
            let s = Square::new(from.trailing_zeros() as u8);
            if self.ccr.code(s) == pawn {
                return true;
            }
            from &= from - 1;
        }
        false
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, code: u8) {
        self.ccr.set_code(sq, code);
        self.key ^= ZOBRIST.piece[code as usize][sq.index()];
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square, code: u8) {
        self.ccr.set_code(sq, 0);
        self.key ^= ZOBRIST.piece[code as usize][sq.index()];
    }

    /// Plays a move and returns the new position. The move must be legal here.
    #[must_use]
    #[inline]
    pub fn make_move(&self, m: Move) -> Position {
        let mut p = *self;
        let us = self.stm;
        let from = m.from();
        let to = m.to();
        let code = self.ccr.code(from);
        let captured = self.ccr.code(to);

        p.key ^= ZOBRIST.side;
        if let Some(e) = p.ep.take() {
            p.key ^= ZOBRIST.ep[e.file() as usize];
        }
        p.halfmove = p.halfmove.saturating_add(1);
        if us == Color::Black {
            p.fullmove = p.fullmove.saturating_add(1);
        }
        if captured != 0 {
            p.remove(to, captured);
            p.halfmove = 0;
        }
        p.remove(from, code);
        match m.kind() {
            MoveKind::Normal => p.put(to, code),
            MoveKind::DoublePush => {
                p.put(to, code);
                let e = Square::new(((from.index() + to.index()) / 2) as u8);
                if p.ep_capturable(e, us.flip()) {
                    p.ep = Some(e);
                    p.key ^= ZOBRIST.ep[e.file() as usize];
                }
            }
            MoveKind::Castle => {
                p.put(to, code);
                let (rook_from, rook_to) = if to.file() == 6 { (7, 5) } else { (0, 3) };
                let rank = from.rank();
                let rook = Piece::new(us, PieceType::Rook).code();
                p.remove(Square::from_coords(rook_from, rank), rook);
                p.put(Square::from_coords(rook_to, rank), rook);
            }
            MoveKind::EnPassant => {
                p.put(to, code);
                let victim = Square::from_coords(to.file(), from.rank());
                p.remove(victim, Piece::new(us.flip(), PieceType::Pawn).code());
            }
            MoveKind::PromoKnight | MoveKind::PromoBishop | MoveKind::PromoRook | MoveKind::PromoQueen => {
                let kind = m.promo().unwrap_or(PieceType::Queen);
                p.put(to, Piece::new(us, kind).code());
            }
        }
        if code & 7 == PieceType::Pawn as u8 {
            p.halfmove = 0;
        } else if code & 7 == PieceType::King as u8 {
            p.kings[us.index()] = to;
        }
        let rights = p.castling.0 & CASTLE_MASK[from.index()] & CASTLE_MASK[to.index()];
        if rights != p.castling.0 {
            p.key ^= ZOBRIST.castle[p.castling.0 as usize] ^ ZOBRIST.castle[rights as usize];
            p.castling = CastleRights(rights);
        }
        p.stm = us.flip();
        p
    }

    /// Passes the move to the opponent (null move, for null-move pruning).
    #[must_use]
    #[inline]
    pub fn make_null(&self) -> Position {
        let mut p = *self;
        p.key ^= ZOBRIST.side;
        if let Some(e) = p.ep.take() {
            p.key ^= ZOBRIST.ep[e.file() as usize];
        }
        p.halfmove = p.halfmove.saturating_add(1);
        p.stm = self.stm.flip();
        p
    }

    /// The same position with colours swapped and the board mirrored top to bottom.
    pub fn flip_colors(&self) -> Position {
        let ccr = self.ccr.flip_colors();
        let c = self.castling.0;
        let castling = CastleRights(((c & 3) << 2) | ((c >> 2) & 3));
        let kings = [self.kings[1].flip_rank(), self.kings[0].flip_rank()];
        Position::from_parts(
            ccr,
            self.stm.flip(),
            castling,
            self.ep.map(Square::flip_rank),
            self.halfmove,
            self.fullmove,
            kings,
        )
    }

    /// Recomputes the Zobrist key from scratch (for tests and debug checks).
    pub fn key_from_scratch(&self) -> u64 {
        zobrist_from_scratch(&self.ccr, self.stm, self.castling.0, self.ep)
    }

    /// Count of non-king, non-pawn pieces of a colour (null-move zugzwang guard).
    pub fn non_pawn_material(&self, c: Color) -> u32 {
        let mut n = 0;
        for sq in Square::all() {
            if let Some(p) = self.ccr.piece(sq) {
                if p.color() == c && !matches!(p.kind(), PieceType::Pawn | PieceType::King) {
                    n += 1;
                }
            }
        }
        n
    }
}
