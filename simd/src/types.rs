//! Small value types: colours, piece kinds, pieces as CCR nibble codes, squares.

use std::fmt;

/// Side: White or Black.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for White, -1 for Black (rank direction of pawn pushes).
    #[inline(always)]
    pub const fn sign(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// A kind of piece, without colour. Values are the CCR low three bits.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// Pawn (code 1).
    Pawn = 1,
    /// Knight (code 2).
    Knight = 2,
    /// Bishop (code 3).
    Bishop = 3,
    /// Rook (code 4).
    Rook = 4,
    /// Queen (code 5).
    Queen = 5,
    /// King (code 6).
    King = 6,
}

impl PieceType {
    /// All six kinds, pawn first.
    pub const ALL: [PieceType; 6] =
        [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King];

    /// Zero-based index: pawn 0 .. king 5.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// From the three low bits of a CCR code (1..=6).
    #[inline(always)]
    pub const fn from_bits(bits: u8) -> Option<PieceType> {
        match bits {
            1 => Some(PieceType::Pawn),
            2 => Some(PieceType::Knight),
            3 => Some(PieceType::Bishop),
            4 => Some(PieceType::Rook),
            5 => Some(PieceType::Queen),
            6 => Some(PieceType::King),
            _ => None,
        }
    }

    /// Lower-case letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }
}

/// A coloured piece, stored as its 4-bit CCR code: white 1..6, black 9..14.
///
/// Code 0 is the empty square and is represented as `Option<Piece>::None`
/// outside the raw board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    /// The colour bit of a CCR code.
    pub const BLACK_BIT: u8 = 8;

    /// Makes a piece from colour and kind.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(kind as u8 | ((color as u8) << 3))
    }

    /// Decodes a nibble; `None` for empty and for the unused codes 7, 8, 15.
    #[inline(always)]
    pub const fn from_code(code: u8) -> Option<Piece> {
        match code {
            1..=6 | 9..=14 => Some(Piece(code)),
            _ => None,
        }
    }

    /// The 4-bit CCR code.
    #[inline(always)]
    pub const fn code(self) -> u8 {
        self.0
    }

    /// The piece's colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & Self::BLACK_BIT == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        match PieceType::from_bits(self.0 & 7) {
            Some(k) => k,
            None => PieceType::Pawn, // unreachable: codes are checked on construction
        }
    }

    /// FEN letter: upper case for White.
    pub fn char(self) -> char {
        let c = self.kind().char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Parses a FEN letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let kind = match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        };
        Some(Piece::new(color, kind))
    }
}

/// A square, 0..64: `a1 = 0, b1 = 1, …, h1 = 7, a2 = 8, …, h8 = 63`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// a1.
    pub const A1: Square = Square(0);
    /// e1, the white king's home.
    pub const E1: Square = Square(4);
    /// h1.
    pub const H1: Square = Square(7);
    /// a8.
    pub const A8: Square = Square(56);
    /// e8, the black king's home.
    pub const E8: Square = Square(60);
    /// h8.
    pub const H8: Square = Square(63);

    /// From an index 0..64. Panics in debug builds on larger values.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// From file (0 = a) and rank (0 = rank 1), both 0..8.
    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square((rank << 3) | file)
    }

    /// From file and rank if both are on the board.
    #[inline(always)]
    pub const fn try_from_coords(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square::from_coords(file as u8, rank as u8))
        } else {
            None
        }
    }

    /// The index 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..8 (a..h).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (1..8).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square reflected top to bottom (a1 <-> a8), used for colour flips.
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    #[inline(always)]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::try_from_coords(self.file() as i8 + df, self.rank() as i8 + dr)
    }

    /// A single-bit bitboard of this square.
    #[inline(always)]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        (f < 8 && r < 8).then(|| Square::from_coords(f, r))
    }

    /// All 64 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

/// Castling rights as four bits: white king side 1, white queen side 2,
/// black king side 4, black queen side 8.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct CastleRights(pub u8);

impl CastleRights {
    /// White may castle king side.
    pub const WK: u8 = 1;
    /// White may castle queen side.
    pub const WQ: u8 = 2;
    /// Black may castle king side.
    pub const BK: u8 = 4;
    /// Black may castle queen side.
    pub const BQ: u8 = 8;

    /// Whether any of `bits` is set.
    #[inline(always)]
    pub const fn has(self, bits: u8) -> bool {
        self.0 & bits != 0
    }

    /// King-side bit of a colour.
    #[inline(always)]
    pub const fn king_side(c: Color) -> u8 {
        match c {
            Color::White => Self::WK,
            Color::Black => Self::BK,
        }
    }

    /// Queen-side bit of a colour.
    #[inline(always)]
    pub const fn queen_side(c: Color) -> u8 {
        match c {
            Color::White => Self::WQ,
            Color::Black => Self::BQ,
        }
    }
}
