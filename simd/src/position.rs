//! The position: a CCR plus a few bytes of state, copied from ply to ply.
//!
//! There is no unmake: search calls [`Position::make_move`], which returns a
//! new position, and simply drops it when it returns (copy-make).

use crate::ccr::Ccr;
use crate::mailbox::Mailbox;
use crate::moves::{Move, MoveKind};
use crate::tables::PAWN_ATTACKS;
use crate::types::{CastleRights, Color, Piece, PieceType, Square};
use crate::zobrist::{direct_key, zobrist_from_scratch, ZOBRIST};

/// A chess position: board, side to move, castling, en passant, clocks, key.
///
/// 64 bytes, one cache line: the 32-byte CCR, the Zobrist key and the small
/// fields. The king squares are derived data kept because every legality
/// test starts from them. Castling works for Chess960 too: each right names
/// its rook's square (`rooks`), and a castling move is stored as the king's
/// destination (g or c file) with [`MoveKind::Castle`].
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
    /// The rook of each castling right, by right bit (WK, WQ, BK, BQ).
    rooks: [Square; 4],
    /// Pieces on the board, kings included: derived, like the king squares,
    /// so that the bare-material draw test of every node reads a byte
    /// instead of the CCR that `make_move` has just written nibble by nibble
    /// (a wide load over fresh byte stores waits for them to retire).
    pieces: u8,
}

/// The standard castling rooks: h1, a1, h8, a8.
pub const STANDARD_ROOKS: [Square; 4] = [Square::H1, Square::A1, Square::H8, Square::A8];

const _: () = assert!(std::mem::size_of::<Position>() == 64);

/// The castling right bit of side `us` whose king lands on `king_to` (g or c file).
#[inline(always)]
pub fn castle_bit(us: Color, king_to: Square) -> u8 {
    if king_to.file() == 6 {
        CastleRights::king_side(us)
    } else {
        CastleRights::queen_side(us)
    }
}

/// Where the rook lands when the king castles to `king_to`: f or d file.
#[inline(always)]
pub fn castle_rook_target(king_to: Square) -> Square {
    Square::from_coords(if king_to.file() == 6 { 5 } else { 3 }, king_to.rank())
}

/// What one castling move needs of the board (standard chess and Chess960).
#[derive(Clone, Copy, Debug)]
pub struct CastlePath {
    /// The king's destination (g or c file).
    pub king_to: Square,
    /// The castling rook's square.
    pub rook_from: Square,
    /// Squares that must be empty (apart from the king and that rook).
    pub empty: u64,
    /// Squares the king stands on, crosses or lands on, which must not be
    /// attacked (tested with the king and the rook off the board: in Chess960
    /// the rook may have shielded the king's square itself, when the king
    /// does not move).
    pub king_path: u64,
}

/// The inclusive segment between two squares on one rank.
#[inline(always)]
fn span(a: Square, b: Square) -> u64 {
    crate::tables::BETWEEN[a.index()][b.index()] | a.bit() | b.bit()
}

/// The squares of castling right `bit` for the side to move.
#[inline]
pub fn castle_path(pos: &Position, bit: u8) -> CastlePath {
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    let rank = ksq.rank();
    let king_side = bit & (CastleRights::WK | CastleRights::BK) != 0;
    let king_to = Square::from_coords(if king_side { 6 } else { 2 }, rank);
    let rook_from = pos.castle_rook(bit);
    let rook_to = castle_rook_target(king_to);
    let pieces = ksq.bit() | rook_from.bit();
    CastlePath {
        king_to,
        rook_from,
        empty: (span(ksq, king_to) | span(rook_from, rook_to)) & !pieces,
        king_path: span(ksq, king_to),
    }
}

/// The standard starting position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// The starting position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS_FEN).expect("start position FEN is valid")
    }

    /// Builds a position from parts; the caller (the FEN reader) has validated them.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(
        ccr: Ccr,
        stm: Color,
        castling: CastleRights,
        rooks: [Square; 4],
        ep: Option<Square>,
        halfmove: u16,
        fullmove: u16,
        kings: [Square; 2],
    ) -> Position {
        let pieces = Square::all().filter(|&sq| ccr.code(sq) != 0).count() as u8;
        let mut p = Position { ccr, key: 0, halfmove, fullmove, kings, stm, castling, ep: None, rooks, pieces };
        p.ep = ep.filter(|&e| p.ep_capturable(e, stm));
        p.key = zobrist_from_scratch(&p.ccr, stm, castling.0, p.ep);
        p
    }

    /// The board.
    #[inline(always)]
    pub fn ccr(&self) -> &Ccr {
        &self.ccr
    }

    /// The number of pieces on the board, kings included.
    #[inline(always)]
    pub fn piece_count(&self) -> u32 {
        u32::from(self.pieces)
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

    /// The rook square of castling right `bit` (one of the [`CastleRights`] bits).
    #[inline(always)]
    pub fn castle_rook(&self, bit: u8) -> Square {
        self.rooks[(bit.trailing_zeros() & 3) as usize]
    }

    /// The rooks of the four castling rights (WK, WQ, BK, BQ), meaningful where the right is held.
    #[inline(always)]
    pub fn castle_rooks(&self) -> [Square; 4] {
        self.rooks
    }

    /// Whether a move captures (en passant included; castling onto our own rook does not).
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        m.captures(self.ccr.code(m.to()))
    }

    /// The kind of piece a move captures, if any.
    #[inline(always)]
    pub fn captured(&self, m: Move) -> Option<PieceType> {
        m.captured_kind(self.ccr.code(m.to()))
    }

    /// The move in UCI text: castling as the king's destination (`e1g1`), or
    /// with `chess960` as king takes own rook (`e1h1`), as the UCI convention
    /// for Chess960 has it.
    pub fn move_to_uci(&self, m: Move, chess960: bool) -> String {
        if chess960 && m.kind() == MoveKind::Castle {
            let bit = castle_bit(self.stm, m.to());
            return format!("{}{}", m.from(), self.castle_rook(bit));
        }
        m.to_string()
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

    /// The key the position will have after `m`, cheaply: exact for a plain
    /// move or capture, a near guess for the rest (en passant captures,
    /// castling, lost rights and promotions are left out). For prefetching
    /// the child's table bucket while the move is still being weighed, not
    /// for lookups.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        self.key_after_codes(m, self.ccr.code(m.from()), self.ccr.code(m.to()))
    }

    /// [`Position::key_after`] with the two squares' codes read from the
    /// node's [`Mailbox`] (a byte each) instead of the CCR.
    #[inline(always)]
    pub fn key_after_in(&self, board: &Mailbox, m: Move) -> u64 {
        self.key_after_codes(m, board.code(m.from()), board.code(m.to()))
    }

    #[inline(always)]
    fn key_after_codes(&self, m: Move, code: u8, captured: u8) -> u64 {
        let (from, to) = (m.from(), m.to());
        let (code, captured) = (code as usize, captured as usize);
        let z = &ZOBRIST;
        // Row 0 (empty square) of the piece keys is zero: no branch for captures.
        let mut key =
            self.key ^ z.side ^ z.piece[code][from.index()] ^ z.piece[code][to.index()] ^ z.piece[captured][to.index()];
        if let Some(e) = self.ep {
            key ^= z.ep[e.file() as usize];
        }
        key
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
        let kind = m.kind();
        let captured = if kind == MoveKind::Castle { 0 } else { self.ccr.code(to) };

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
            p.pieces = p.pieces.saturating_sub(1);
        }
        p.remove(from, code);
        match kind {
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
                // King and rook both leave before either lands: in Chess960 the
                // king may land on the rook's square or the rook on the king's.
                let rook = Piece::new(us, PieceType::Rook).code();
                let rook_from = self.castle_rook(castle_bit(us, to));
                p.remove(rook_from, rook);
                p.put(to, code);
                p.put(castle_rook_target(to), rook);
            }
            MoveKind::EnPassant => {
                p.put(to, code);
                let victim = Square::from_coords(to.file(), from.rank());
                p.remove(victim, Piece::new(us.flip(), PieceType::Pawn).code());
                p.pieces = p.pieces.saturating_sub(1);
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
        if p.castling.0 != 0 {
            let rights = self.rights_after(from, to, code);
            if rights != p.castling.0 {
                p.key ^= ZOBRIST.castle[p.castling.0 as usize] ^ ZOBRIST.castle[rights as usize];
                p.castling = CastleRights(rights);
            }
        }
        p.stm = us.flip();
        p
    }

    /// Castling rights left after a move of piece `code` from `from` to `to`:
    /// a king move loses both of its side's, and leaving or landing on a
    /// castling rook's square loses that right.
    #[inline]
    fn rights_after(&self, from: Square, to: Square, code: u8) -> u8 {
        let mut rights = self.castling.0;
        if code & 7 == PieceType::King as u8 {
            let c = if code & 8 == 0 { Color::White } else { Color::Black };
            rights &= !(CastleRights::king_side(c) | CastleRights::queen_side(c));
        }
        for (i, rook) in self.rooks.iter().enumerate() {
            if *rook == from || *rook == to {
                rights &= !(1 << i);
            }
        }
        rights
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
        let r = self.rooks.map(Square::flip_rank);
        Position::from_parts(
            ccr,
            self.stm.flip(),
            castling,
            [r[2], r[3], r[0], r[1]],
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
}

#[cfg(test)]
mod tests {
    use crate::testutil::random_positions;
    use crate::types::Square;

    /// The kept piece count follows captures, en passant and promotions
    /// along random games (the suite's positions, when the file is there).
    #[test]
    fn piece_count_matches_the_board() {
        for pos in random_positions(20_000, 7) {
            let on_board = Square::all().filter(|&sq| pos.ccr().code(sq) != 0).count() as u32;
            assert_eq!(pos.piece_count(), on_board, "{pos}");
            assert_eq!(pos.make_null().piece_count(), on_board);
        }
    }
}
