//! Moves: a 16-bit encoding and a fixed-capacity move list.

use crate::types::{PieceType, Square};
use std::fmt;

/// A move in 16 bits.
///
/// ```text
/// bits  0..6   from square
/// bits  6..12  to square
/// bits 12..16  kind: 0 normal, 1 double pawn push, 2 castle (king's move),
///              3 en passant, 4..8 promotion to N, B, R, Q
/// ```
/// `Move::NULL` (all zero, a1a1) is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);
const _: () = assert!(std::mem::size_of::<Option<Move>>() == 4);

/// What a move does beyond moving a piece from one square to another.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum MoveKind {
    /// Ordinary move or capture.
    Normal = 0,
    /// Pawn two squares forward (sets the en-passant square).
    DoublePush = 1,
    /// Castling, encoded as the king's two-square move.
    Castle = 2,
    /// En-passant capture.
    EnPassant = 3,
    /// Promotion to a knight.
    PromoKnight = 4,
    /// Promotion to a bishop.
    PromoBishop = 5,
    /// Promotion to a rook.
    PromoRook = 6,
    /// Promotion to a queen.
    PromoQueen = 7,
}

/// The kind of each value of a move's top four bits (8–15 never come from
/// a generator; read as a queen promotion, and never legal). Looked up, not
/// matched: the decoders run for nearly every move the search touches.
const KINDS: [MoveKind; 16] = {
    use MoveKind::*;
    [
        Normal,
        DoublePush,
        Castle,
        EnPassant,
        PromoKnight,
        PromoBishop,
        PromoRook,
        PromoQueen,
        PromoQueen,
        PromoQueen,
        PromoQueen,
        PromoQueen,
        PromoQueen,
        PromoQueen,
        PromoQueen,
        PromoQueen,
    ]
};

/// The promotion piece of each value of a move's top four bits.
const PROMOS: [Option<PieceType>; 16] = {
    let mut t = [None; 16];
    t[4] = Some(PieceType::Knight);
    t[5] = Some(PieceType::Bishop);
    t[6] = Some(PieceType::Rook);
    t[7] = Some(PieceType::Queen);
    t
};

impl Move {
    /// The null move (also "no move").
    pub const NULL: Move = Move(0);

    /// Builds a move.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.index() as u16 | ((to.index() as u16) << 6) | ((kind as u16) << 12))
    }

    /// A promotion to `piece` (knight..queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        Move(from.index() as u16 | ((to.index() as u16) << 6) | ((piece as u16 + 2) << 12))
    }

    /// Raw 16 bits (for the transposition table).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// From raw bits; the result must still be checked for legality.
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new(((self.0 >> 6) & 63) as u8)
    }

    /// The move kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        KINDS[(self.0 >> 12) as usize]
    }

    /// The promotion piece, if this is a promotion.
    #[inline(always)]
    pub const fn promo(self) -> Option<PieceType> {
        PROMOS[(self.0 >> 12) as usize]
    }

    /// Whether this move captures, given the piece code on its destination
    /// (en passant always does; castling, even onto our own rook in
    /// Chess960, never). The one rule behind [`crate::Position::is_capture`]
    /// and [`crate::NodeView::is_capture`], which differ only in where they
    /// read the code.
    #[inline(always)]
    pub fn captures(self, target: u8) -> bool {
        match self.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            _ => target != 0,
        }
    }

    /// The kind of piece this move captures, given the piece code on its
    /// destination (the rule of [`Move::captures`]).
    #[inline(always)]
    pub fn captured_kind(self, target: u8) -> Option<PieceType> {
        match self.kind() {
            MoveKind::EnPassant => Some(PieceType::Pawn),
            MoveKind::Castle => None,
            _ => PieceType::from_bits(target & 7),
        }
    }

    /// Whether this is the null move.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// UCI long algebraic form, e.g. `e2e4`, `e7e8q`, `e1g1`; `0000` for null.
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promo() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Capacity of a move list. No position reachable in a game has more than
/// 218 moves, but a FEN may hold a king and fifteen queens: at most
/// 15 × 27 + 8 king moves + 2 castlings = 415 < 512, so no valid FEN
/// overflows it (and the list could not panic if one did).
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity list of moves, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList { moves: [Move::NULL; MAX_MOVES], len: 0 }
    }

    /// Appends a move (a move beyond the capacity, which no valid position
    /// reaches, is dropped rather than panicking).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes all moves.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds `m`.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables decode every value of the top four bits as the kinds'
    /// numbering says: 0–7 in order, 8–15 a queen promotion's kind with no
    /// promotion piece (never legal: such a move only comes from a table).
    #[test]
    fn kind_and_promo_of_every_top_nibble() {
        use MoveKind::*;
        let kinds = [Normal, DoublePush, Castle, EnPassant, PromoKnight, PromoBishop, PromoRook, PromoQueen];
        let promos = [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen];
        for top in 0..16u16 {
            let m = Move::from_raw(top << 12 | 0x1C3);
            assert_eq!(m.kind(), kinds[usize::from(top).min(7)], "{top}");
            let promo = (4..8).contains(&top).then(|| promos[usize::from(top) - 4]);
            assert_eq!(m.promo(), promo, "{top}");
        }
    }

    #[test]
    fn encoding_round_trip() {
        let e7 = Square::parse("e7").unwrap();
        let e8 = Square::parse("e8").unwrap();
        let m = Move::promotion(e7, e8, PieceType::Queen);
        assert_eq!(m.from(), e7);
        assert_eq!(m.to(), e8);
        assert_eq!(m.promo(), Some(PieceType::Queen));
        assert_eq!(m.to_string(), "e7e8q");
        assert_eq!(Move::NULL.to_string(), "0000");
    }
}
