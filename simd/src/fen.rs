//! FEN reading (with full validation) and writing.

use crate::ccr::Ccr;
use crate::movegen::ccr::is_attacked;
use crate::position::{Position, STANDARD_ROOKS};
use crate::types::{CastleRights, Color, Piece, PieceType, Square};
use std::fmt;

/// Why a FEN string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    FieldCount(usize),
    /// The board field does not have 8 ranks.
    RankCount(usize),
    /// A character that is neither a piece letter nor a digit 1..8.
    BadPieceChar(char),
    /// A rank whose squares do not add up to 8.
    RankLength(u8),
    /// Not exactly one king of a colour.
    KingCount(Color, u32),
    /// A pawn on the first or last rank.
    PawnOnBackRank(Square),
    /// More than 16 pieces, or more than 8 pawns, of a colour.
    TooManyPieces(Color),
    /// Side-to-move field not `w` or `b`.
    BadSideToMove(String),
    /// A castling field that is malformed or that the king/rook placement cannot have.
    BadCastling(String),
    /// An en-passant field that is malformed or that no double push could have made.
    BadEnPassant(String),
    /// A clock field that is not a number in range.
    BadClock(String),
    /// The side not to move is in check.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "expected 4 to 6 fields, found {n}"),
            FenError::RankCount(n) => write!(f, "expected 8 ranks, found {n}"),
            FenError::BadPieceChar(c) => write!(f, "bad piece character '{c}'"),
            FenError::RankLength(r) => write!(f, "rank {} does not have 8 squares", r + 1),
            FenError::KingCount(c, n) => write!(f, "{c:?} has {n} kings, expected 1"),
            FenError::PawnOnBackRank(s) => write!(f, "pawn on back rank at {s}"),
            FenError::TooManyPieces(c) => write!(f, "{c:?} has too many pieces or pawns"),
            FenError::BadSideToMove(s) => write!(f, "bad side to move '{s}'"),
            FenError::BadCastling(s) => write!(f, "bad or impossible castling rights '{s}'"),
            FenError::BadEnPassant(s) => write!(f, "bad or impossible en-passant square '{s}'"),
            FenError::BadClock(s) => write!(f, "bad move clock '{s}'"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

fn parse_board(field: &str) -> Result<Ccr, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut ccr = Ccr::EMPTY;
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::BadPieceChar(c));
                }
                file += d as u8;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::BadPieceChar(c))?;
                if file >= 8 {
                    return Err(FenError::RankLength(rank));
                }
                ccr.set(Square::from_coords(file, rank), Some(piece));
                file += 1;
            }
            if file > 8 {
                return Err(FenError::RankLength(rank));
            }
        }
        if file != 8 {
            return Err(FenError::RankLength(rank));
        }
    }
    Ok(ccr)
}

fn check_material(ccr: &Ccr) -> Result<[Square; 2], FenError> {
    let mut kings = [Square::A1; 2];
    for color in Color::ALL {
        let king = Piece::new(color, PieceType::King).code();
        let pawn = Piece::new(color, PieceType::Pawn).code();
        let king_bb = ccr.squares_with(king);
        if king_bb.count_ones() != 1 {
            return Err(FenError::KingCount(color, king_bb.count_ones()));
        }
        kings[color.index()] = Square::new(king_bb.trailing_zeros() as u8);
        let pawns = ccr.squares_with(pawn);
        let back_ranks = 0xFF00_0000_0000_00FFu64;
        if pawns & back_ranks != 0 {
            return Err(FenError::PawnOnBackRank(Square::new((pawns & back_ranks).trailing_zeros() as u8)));
        }
        let count: u32 =
            PieceType::ALL.iter().map(|&k| ccr.squares_with(Piece::new(color, k).code()).count_ones()).sum();
        if count > 16 || pawns.count_ones() > 8 {
            return Err(FenError::TooManyPieces(color));
        }
    }
    Ok(kings)
}

/// Reads the castling field: `KQkq` (X-FEN: the outermost rook on that side
/// of the king), or rook files `A`–`H` / `a`–`h` (Shredder-FEN and X-FEN for
/// Chess960). Returns the rights and each right's rook.
fn parse_castling(field: &str, ccr: &Ccr) -> Result<(CastleRights, [Square; 4]), FenError> {
    let bad = || FenError::BadCastling(field.to_string());
    let mut rooks = STANDARD_ROOKS;
    if field == "-" {
        return Ok((CastleRights(0), rooks));
    }
    if field.is_empty() || field.len() > 4 {
        return Err(bad());
    }
    let mut bits = 0u8;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let rank = if color == Color::White { 0 } else { 7 };
        let king = Piece::new(color, PieceType::King).code();
        let rook = Piece::new(color, PieceType::Rook).code();
        let king_file = (0..8).find(|&f| ccr.code(Square::from_coords(f, rank)) == king).ok_or_else(bad)?;
        let is_rook = |f: u8| ccr.code(Square::from_coords(f, rank)) == rook;
        let file = match c.to_ascii_lowercase() {
            'k' => (king_file + 1..8).rev().find(|&f| is_rook(f)),
            'q' => (0..king_file).find(|&f| is_rook(f)),
            l @ 'a'..='h' => Some(l as u8 - b'a').filter(|&f| f != king_file && is_rook(f)),
            _ => None,
        }
        .ok_or_else(bad)?;
        let bit = if file > king_file { CastleRights::king_side(color) } else { CastleRights::queen_side(color) };
        if bits & bit != 0 {
            return Err(bad());
        }
        bits |= bit;
        rooks[bit.trailing_zeros() as usize] = Square::from_coords(file, rank);
    }
    Ok((CastleRights(bits), rooks))
}

fn parse_ep(field: &str, ccr: &Ccr, stm: Color) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let bad = || FenError::BadEnPassant(field.to_string());
    let sq = Square::parse(field).ok_or_else(bad)?;
    // White to move: Black just pushed, so the target is on rank 6 with the
    // black pawn on rank 5 and the start square on rank 7 empty.
    let (target_rank, pawn_rank, start_rank) = match stm {
        Color::White => (5, 4, 6),
        Color::Black => (2, 3, 1),
    };
    let pawn = Piece::new(stm.flip(), PieceType::Pawn).code();
    let ok = sq.rank() == target_rank
        && ccr.code(sq) == 0
        && ccr.code(Square::from_coords(sq.file(), start_rank)) == 0
        && ccr.code(Square::from_coords(sq.file(), pawn_rank)) == pawn;
    if ok {
        Ok(Some(sq))
    } else {
        Err(bad())
    }
}

fn parse_clock(field: Option<&str>, default: u16, min: u16) -> Result<u16, FenError> {
    match field {
        None => Ok(default),
        Some(s) => match s.parse::<u16>() {
            Ok(n) if n >= min && n <= 9999 => Ok(n),
            _ => Err(FenError::BadClock(s.to_string())),
        },
    }
}

/// The castling field of a FEN in X-FEN: `K`/`Q` (`k`/`q`) where the rook is
/// the outermost one on its side of the king, the rook's file letter otherwise
/// (Chess960 only); `-` for none.
fn castling_text(c: CastleRights, rooks: [Square; 4], ccr: &Ccr) -> String {
    let mut s = String::new();
    for (i, letter) in ['K', 'Q', 'k', 'q'].into_iter().enumerate() {
        let bit = 1u8 << i;
        if !c.has(bit) {
            continue;
        }
        let rook_sq = rooks[i];
        let color = if i < 2 { Color::White } else { Color::Black };
        let rook = Piece::new(color, PieceType::Rook).code();
        // Another rook of ours further out on the same side would make K/Q mean that one.
        let outer = if letter.eq_ignore_ascii_case(&'k') { rook_sq.file() + 1..8 } else { 0..rook_sq.file() };
        let shadowed = outer.into_iter().any(|f| ccr.code(Square::from_coords(f, rook_sq.rank())) == rook);
        s.push(if shadowed {
            let f = (b'a' + rook_sq.file()) as char;
            if color == Color::White {
                f.to_ascii_uppercase()
            } else {
                f
            }
        } else {
            letter
        });
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

impl Position {
    /// Reads a FEN (4 to 6 fields; missing clocks default to `0 1`).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let ccr = parse_board(fields[0])?;
        let kings = check_material(&ccr)?;
        let stm = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::BadSideToMove(s.to_string())),
        };
        let (castling, rooks) = parse_castling(fields[2], &ccr)?;
        let ep = parse_ep(fields[3], &ccr, stm)?;
        let halfmove = parse_clock(fields.get(4).copied(), 0, 0)?;
        let fullmove = parse_clock(fields.get(5).copied(), 1, 0)?.max(1);
        let them = stm.flip();
        if is_attacked(&ccr, kings[them.index()], stm, None) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(Position::from_parts(ccr, stm, castling, rooks, ep, halfmove, fullmove, kings))
    }

    /// Builds a position from a board and state with the same checks as
    /// [`Position::from_fen`] (for binary formats that store the CCR itself);
    /// each castling right takes the outermost rook on its side.
    pub fn from_board(
        ccr: Ccr,
        stm: Color,
        castling: CastleRights,
        ep: Option<Square>,
        halfmove: u16,
        fullmove: u16,
    ) -> Result<Position, FenError> {
        for c in ccr.0 {
            if Piece::from_code(c & 15).is_none() && c & 15 != 0 || Piece::from_code(c >> 4).is_none() && c >> 4 != 0 {
                return Err(FenError::BadPieceChar('?'));
            }
        }
        let kings = check_material(&ccr)?;
        let text = castling_text(castling, STANDARD_ROOKS, &Ccr::EMPTY);
        let (castling, rooks) = parse_castling(&text, &ccr)?;
        let ep_text = ep.map_or("-".to_string(), |e| e.to_string());
        let ep = parse_ep(&ep_text, &ccr, stm)?;
        if halfmove > 9999 || fullmove > 9999 {
            return Err(FenError::BadClock(format!("{halfmove} {fullmove}")));
        }
        if is_attacked(&ccr, kings[stm.flip().index()], stm, None) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(Position::from_parts(ccr, stm, castling, rooks, ep, halfmove, fullmove.max(1), kings))
    }

    /// Writes the position as FEN (en passant only where a capture is possible).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side_to_move() == Color::White { 'w' } else { 'b' });
        s.push(' ');
        s.push_str(&castling_text(self.castling(), self.castle_rooks(), self.ccr()));
        s.push(' ');
        match self.ep_square() {
            Some(e) => s.push_str(&e.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove_clock(), self.fullmove_number()));
        s
    }
}

impl fmt::Display for Position {
    /// A board diagram, White at the bottom, followed by the FEN and key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        for rank in (0..8).rev() {
            write!(f, " |")?;
            for file in 0..8 {
                let c = self.piece_at(Square::from_coords(file, rank)).map_or(' ', Piece::char);
                write!(f, " {c} |")?;
            }
            writeln!(f, " {}", rank + 1)?;
            writeln!(f, " +---+---+---+---+---+---+---+---+")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.to_fen())?;
        write!(f, "Key: {:016X}", self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_startpos() {
        let p = Position::startpos();
        assert_eq!(p.to_fen(), crate::position::STARTPOS_FEN);
    }

    #[test]
    fn rejects_bad_fens() {
        let cases = [
            "",
            "8/8/8/8/8/8/8/8 w - -",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
            "Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
            "qqqqkqqq/qqqqqqqq/q7/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
        ];
        for fen in cases {
            assert!(Position::from_fen(fen).is_err(), "accepted: {fen}");
        }
    }

    #[test]
    fn ep_kept_only_when_capturable() {
        let p = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        assert_eq!(p.ep_square(), None);
        let p = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        assert_eq!(p.ep_square(), Square::parse("e3"));
    }

    #[test]
    fn chess960_castling_fields() {
        // Shredder-FEN file letters name the rooks; X-FEN writes K/Q where the rook is outermost.
        let p = Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
        assert_eq!(
            p.castle_rooks(),
            [Square::H1, Square::parse("f1").unwrap(), Square::H8, Square::parse("f8").unwrap()]
        );
        assert_eq!(p.to_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
        assert_eq!(Position::from_fen(&p.to_fen()).unwrap(), p);
        // An inner rook needs its file letter (another rook stands further out).
        let p = Position::from_fen("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1").unwrap();
        assert_eq!(p.castle_rook(CastleRights::WQ), Square::parse("c1").unwrap());
        assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
        // Letters must name a rook of that side on its back rank.
        for bad in [
            "4k3/8/8/8/8/8/8/R3K3 w B - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w Ah - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w E - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w AQ - 0 1",
        ] {
            assert!(Position::from_fen(bad).is_err(), "accepted {bad}");
        }
    }

    #[test]
    fn chess960_castling_moves_in_both_notations() {
        // King b1 with rooks a1 and h1: king side lands the king on g1, the rook on f1.
        let p = Position::from_fen("1k5r/8/8/8/8/8/8/RK5R w AHh - 0 1").unwrap();
        let ks = crate::movegen::parse_uci_move(&p, "b1h1").expect("king takes rook is castling");
        assert_eq!(ks.kind(), crate::moves::MoveKind::Castle);
        assert_eq!(p.move_to_uci(ks, true), "b1h1");
        assert_eq!(p.move_to_uci(ks, false), "b1g1");
        assert_eq!(crate::movegen::parse_uci_move(&p, "b1g1"), Some(ks));
        let after = p.make_move(ks);
        assert_eq!(after.to_fen(), "1k5r/8/8/8/8/8/8/R4RK1 b k - 1 1");
        // Queen side with the king on b1: the king goes to c1 and the rook from a1 to d1.
        let qs = crate::movegen::parse_uci_move(&p, "b1a1").unwrap();
        assert_eq!(p.make_move(qs).to_fen(), "1k5r/8/8/8/8/8/8/2KR3R b k - 1 1");
        // Where the king's destination is also an ordinary king move, the text means that move.
        let p = Position::from_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        assert_eq!(crate::movegen::parse_uci_move(&p, "f1g1").unwrap().kind(), crate::moves::MoveKind::Normal);
        assert_eq!(crate::movegen::parse_uci_move(&p, "f1h1").unwrap().kind(), crate::moves::MoveKind::Castle);
    }
}
