//! Standard algebraic notation (SAN): `e4`, `Nbd7`, `exd6`, `e8=Q+`, `O-O`.
//!
//! A SAN move names a move only together with its position, so parsing
//! matches the text against the legal move list rather than decoding it
//! alone: piece, destination, promotion and any disambiguating file or rank
//! must pick out exactly one legal move. The reader accepts what PGN writers
//! in the wild produce: castling with letter O or digit zero, check and mate
//! marks, `!`/`?` suffixes, promotion with or without `=`, and a trailing
//! `e.p.`. It never panics, whatever the text.

use crate::movegen::{in_check, legal_moves};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{PieceType, Square};
use std::fmt;

/// Why a SAN move could not be read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SanError {
    /// Not SAN at all (empty, wrong characters, no destination square).
    Syntax,
    /// Well formed, but no legal move in the position fits it.
    Illegal,
    /// More than one legal move fits it (missing disambiguation).
    Ambiguous,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SanError::Syntax => "not a SAN move",
            SanError::Illegal => "no legal move fits it",
            SanError::Ambiguous => "more than one legal move fits it",
        })
    }
}

impl std::error::Error for SanError {}

/// What the text says about the move.
struct SanPattern {
    piece: PieceType,
    to: Square,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    promo: Option<PieceType>,
}

/// Reads `text` as a move in `pos`.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    let core = strip_suffixes(text);
    if let Some(king_side) = castling(core) {
        return castle_move(pos, king_side);
    }
    let pattern = parse_pattern(core).ok_or(SanError::Syntax)?;
    let mut found = None;
    for &m in legal_moves(pos).iter() {
        if fits(pos, m, &pattern) {
            if found.is_some() {
                return Err(SanError::Ambiguous);
            }
            found = Some(m);
        }
    }
    found.ok_or(SanError::Illegal)
}

/// The text without check/mate marks, annotation glyphs and `e.p.`.
fn strip_suffixes(text: &str) -> &str {
    let s = text.trim().trim_end_matches(['+', '#', '!', '?']);
    s.strip_suffix("e.p.").map_or(s, str::trim_end).trim_end_matches(['+', '#', '!', '?'])
}

/// `Some(true)` for king-side castling, `Some(false)` for queen-side.
fn castling(s: &str) -> Option<bool> {
    match s {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    }
}

/// The legal castling move to the king's side (`true`) or the queen's.
fn castle_move(pos: &Position, king_side: bool) -> Result<Move, SanError> {
    let file = if king_side { 6 } else { 2 };
    legal_moves(pos)
        .iter()
        .copied()
        .find(|m| m.kind() == MoveKind::Castle && m.to().file() == file)
        .ok_or(SanError::Illegal)
}

fn piece_of_letter(c: u8) -> Option<PieceType> {
    match c {
        b'N' => Some(PieceType::Knight),
        b'B' => Some(PieceType::Bishop),
        b'R' => Some(PieceType::Rook),
        b'Q' => Some(PieceType::Queen),
        b'K' => Some(PieceType::King),
        _ => None,
    }
}

fn file_of(c: u8) -> Option<u8> {
    (b'a'..=b'h').contains(&c).then(|| c - b'a')
}

fn rank_of(c: u8) -> Option<u8> {
    (b'1'..=b'8').contains(&c).then(|| c - b'1')
}

/// Splits `[piece][file][rank][x|-]square[=promo]` into its parts.
fn parse_pattern(s: &str) -> Option<SanPattern> {
    let mut b = s.as_bytes();
    // Promotion: `=Q`, `=q`, or a bare letter after the square (a square
    // ends in a rank digit, so a letter there can only be the piece).
    let mut promo = None;
    if let [head @ .., b'=', p] = b {
        promo = Some(piece_of_letter(p.to_ascii_uppercase()).filter(|&k| k != PieceType::King)?);
        b = head;
    } else if let [.., r, p] = b {
        if rank_of(*r).is_some() {
            if let Some(k) = piece_of_letter(p.to_ascii_uppercase()).filter(|&k| k != PieceType::King) {
                promo = Some(k);
                b = &b[..b.len() - 1];
            }
        }
    }
    let [head @ .., f, r] = b else { return None };
    let to = Square::from_coords(file_of(*f)?, rank_of(*r)?);
    let (piece, mut rest) = match head.split_first() {
        Some((&c, tail)) if c.is_ascii_uppercase() => (piece_of_letter(c)?, tail),
        _ => (PieceType::Pawn, head),
    };
    if let [front @ .., b'x' | b':' | b'-'] = rest {
        rest = front;
    }
    let (mut from_file, mut from_rank) = (None, None);
    match rest {
        [] => {}
        [c] => match (file_of(*c), rank_of(*c)) {
            (Some(f), _) => from_file = Some(f),
            (_, Some(r)) => from_rank = Some(r),
            _ => return None,
        },
        [f, r] => {
            from_file = Some(file_of(*f)?);
            from_rank = Some(rank_of(*r)?);
        }
        _ => return None,
    }
    if promo.is_some() && piece != PieceType::Pawn {
        return None;
    }
    Some(SanPattern { piece, to, from_file, from_rank, promo })
}

/// Whether legal move `m` is the one the pattern describes.
fn fits(pos: &Position, m: Move, p: &SanPattern) -> bool {
    // Castling is written only as O-O; a king step to g1 is never a castle.
    if m.kind() == MoveKind::Castle || m.to() != p.to || m.promo() != p.promo {
        return false;
    }
    if pos.piece_at(m.from()).map(|pc| pc.kind()) != Some(p.piece) {
        return false;
    }
    // A pawn without a from-file moves straight ahead (`e4`); its captures name the file (`dxe4`).
    let from_file = match (p.piece, p.from_file) {
        (PieceType::Pawn, None) => Some(p.to.file()),
        (_, f) => f,
    };
    from_file.is_none_or(|f| m.from().file() == f) && p.from_rank.is_none_or(|r| m.from().rank() == r)
}

/// Writes legal move `m` of `pos` in SAN, with `+` or `#` when it checks or mates.
pub fn move_to_san(pos: &Position, m: Move) -> String {
    let mut s = String::new();
    if m.kind() == MoveKind::Castle {
        s.push_str(if m.to().file() == 6 { "O-O" } else { "O-O-O" });
    } else {
        let piece = pos.piece_at(m.from()).map_or(PieceType::Pawn, |p| p.kind());
        let capture = pos.is_capture(m);
        if piece == PieceType::Pawn {
            if capture {
                s.push((b'a' + m.from().file()) as char);
            }
        } else {
            s.push(piece.char().to_ascii_uppercase());
            s.push_str(&disambiguation(pos, m, piece));
        }
        if capture {
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        if let Some(p) = m.promo() {
            s.push('=');
            s.push(p.char().to_ascii_uppercase());
        }
    }
    let after = pos.make_move(m);
    if in_check(&after) {
        s.push(if legal_moves(&after).is_empty() { '#' } else { '+' });
    }
    s
}

/// The file, rank or square that tells `m` apart from the other moves of
/// the same kind of piece to the same square (empty when none does).
fn disambiguation(pos: &Position, m: Move, piece: PieceType) -> String {
    let rivals: Vec<Square> = legal_moves(pos)
        .iter()
        .filter(|o| o.to() == m.to() && o.from() != m.from() && o.kind() != MoveKind::Castle)
        .filter(|o| pos.piece_at(o.from()).map(|p| p.kind()) == Some(piece))
        .map(|o| o.from())
        .collect();
    let from = m.from().to_string();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|r| r.file() != m.from().file()) {
        from[..1].to_string()
    } else if rivals.iter().all(|r| r.rank() != m.from().rank()) {
        from[1..].to_string()
    } else {
        from
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn uci(p: &Position, san: &str) -> String {
        p.move_to_uci(parse_san(p, san).unwrap_or_else(|e| panic!("{san}: {e}")), false)
    }

    #[test]
    fn ordinary_moves() {
        let p = Position::startpos();
        assert_eq!(uci(&p, "e4"), "e2e4");
        assert_eq!(uci(&p, "Nf3"), "g1f3");
        assert_eq!(uci(&p, "Ng1f3"), "g1f3");
        assert_eq!(uci(&p, "Ng1-f3"), "g1f3");
        assert_eq!(uci(&p, "e3!?"), "e2e3");
        assert_eq!(parse_san(&p, "e5"), Err(SanError::Illegal));
        assert_eq!(parse_san(&p, "Ke2"), Err(SanError::Illegal));
        for bad in ["", "x", "Zf3", "e9", "N", "=Q", "O-O-O-O", "Nf3f3f3", "bxc8=K"] {
            assert!(parse_san(&p, bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn captures_en_passant_and_checks() {
        let p = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        assert_eq!(uci(&p, "exf6"), "e5f6");
        assert_eq!(uci(&p, "exf6 e.p."), "e5f6");
        assert_eq!(uci(&p, "exf6e.p."), "e5f6");
        assert_eq!(uci(&p, "ef6"), "e5f6");
        // A pawn capture must name its file.
        assert_eq!(parse_san(&p, "f6"), Err(SanError::Illegal));
        let p = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(uci(&p, "Ra8+"), "a1a8");
        assert_eq!(move_to_san(&p, parse_san(&p, "Ra8").unwrap()), "Ra8+");
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(move_to_san(&p, parse_san(&p, "Ra8").unwrap()), "Ra8#");
    }

    #[test]
    fn promotions() {
        let p = pos("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(uci(&p, "a8=Q+"), "a7a8q");
        assert_eq!(uci(&p, "a8Q"), "a7a8q");
        assert_eq!(uci(&p, "a8=n"), "a7a8n");
        assert_eq!(uci(&p, "a8b"), "a7a8b");
        assert_eq!(uci(&p, "axb8=R"), "a7b8r");
        // The promotion piece is required.
        assert_eq!(parse_san(&p, "a8"), Err(SanError::Illegal));
        assert_eq!(parse_san(&p, "Na8=Q"), Err(SanError::Syntax));
    }

    #[test]
    fn disambiguation_by_file_rank_or_square() {
        // Knights on b1 and f1 both reach d2; rooks on a1 and a5 both reach a3.
        let p = pos("4k3/8/8/R7/8/8/8/RN2KN2 w - - 0 1");
        assert_eq!(parse_san(&p, "Nd2"), Err(SanError::Ambiguous));
        assert_eq!(uci(&p, "Nbd2"), "b1d2");
        assert_eq!(uci(&p, "Nfd2"), "f1d2");
        assert_eq!(uci(&p, "R1a3"), "a1a3");
        assert_eq!(uci(&p, "R5a3"), "a5a3");
        assert_eq!(move_to_san(&p, parse_san(&p, "Nbd2").unwrap()), "Nbd2");
        assert_eq!(move_to_san(&p, parse_san(&p, "R5a3").unwrap()), "R5a3");
        // Three queens on a1, a3, c1 reaching b2: only the full square tells a1 apart.
        let p = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
        assert_eq!(move_to_san(&p, parse_san(&p, "Qa1b2").unwrap()), "Qa1b2");
        assert_eq!(parse_san(&p, "Qab2"), Err(SanError::Ambiguous));
    }

    #[test]
    fn castling_in_both_spellings_and_chess960() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(uci(&p, "O-O"), "e1g1");
        assert_eq!(uci(&p, "0-0-0+"), "e1c1");
        assert_eq!(parse_san(&p, "Kg1"), Err(SanError::Illegal));
        // Chess960: king f1, rook g1; O-O moves the king to g1 and the rook to f1.
        let p = pos("1r3kr1/6p1/8/8/8/8/6P1/1R3KR1 w GBgb - 0 1");
        let m = parse_san(&p, "O-O").unwrap();
        assert_eq!(p.move_to_uci(m, true), "f1g1");
        // The rook lands on f1, facing the king on f8.
        assert_eq!(move_to_san(&p, m), "O-O+");
        assert_eq!(p.move_to_uci(parse_san(&p, "O-O-O").unwrap(), true), "f1b1");
    }

    #[test]
    fn every_legal_move_round_trips_through_san() {
        let fens = [
            crate::position::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ];
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for fen in fens {
            let mut p = pos(fen);
            for _ in 0..40 {
                let moves = legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let san = move_to_san(&p, m);
                    assert_eq!(parse_san(&p, &san), Ok(m), "{san} in {}", p.to_fen());
                    checked += 1;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                p = p.make_move(moves.as_slice()[(rng % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn random_text_never_panics() {
        let p = pos("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
        let alphabet = b"abcdefgh12345678NBRQKOo0x=+#-:.ep!? \xff";
        let mut rng = 12345u64;
        for _ in 0..20_000 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let len = (rng >> 60) as usize;
            let bytes: Vec<u8> =
                (0..len).map(|i| alphabet[((rng >> (i * 4 % 56)) as usize) % alphabet.len()]).collect();
            let _ = parse_san(&p, &String::from_utf8_lossy(&bytes));
        }
    }
}
