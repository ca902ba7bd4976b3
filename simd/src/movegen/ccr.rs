//! The paper's legal move generator, straight from the CCR: the reference
//! that the bitboard generator ([`super`]) is tested against, and `perft --gen ccr`.
//!
//! Pieces are found by scanning the 64-bit CCR words with nibble masks
//! (SWAR: a nibble is occupied when any of its four bits is set, and is ours
//! when its colour bit matches), and each piece is dispatched on its 4-bit
//! code. Sliders walk precomputed rays square by square — the paper's
//! displacement-and-mask stepping — and stop at the first occupied nibble.
//!
//! Legality comes from one scan of the eight rays and the leaper squares
//! around our king: the checkers, the squares a non-king move must land on
//! (`check_mask`) and the pinned pieces, whose moves must stay on the line
//! through the king (`LINE`). King moves test the destination for attacks
//! with the king lifted off the board; en passant is verified by playing it.

use super::{GenType, KingInfo};
use crate::bitboards::squares;
use crate::ccr::Ccr;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{castle_path, Position};
use crate::tables::{BETWEEN, KING_ATTACKS, KNIGHT_ATTACKS, LINE, PAWN_ATTACKS, RAYS};
use crate::types::{CastleRights, Color, Piece, PieceType, Square};

const NIBBLE_LSB: u64 = 0x1111_1111_1111_1111;

#[inline(always)]
fn color_of(code: u8) -> Color {
    if code & 8 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// Whether `sq` is attacked by side `by`, treating `ignore` (if any) as empty.
pub fn is_attacked(ccr: &Ccr, sq: Square, by: Color, ignore: Option<Square>) -> bool {
    let pc = |k: PieceType| Piece::new(by, k).code();
    let any_on = |mut bb: u64, code: u8| {
        while bb != 0 {
            if ccr.code(Square::new(bb.trailing_zeros() as u8)) == code {
                return true;
            }
            bb &= bb - 1;
        }
        false
    };
    if any_on(KNIGHT_ATTACKS[sq.index()], pc(PieceType::Knight))
        || any_on(PAWN_ATTACKS[by.flip().index()][sq.index()], pc(PieceType::Pawn))
        || any_on(KING_ATTACKS[sq.index()], pc(PieceType::King))
    {
        return true;
    }
    let queen = pc(PieceType::Queen);
    for (d, ray) in RAYS[sq.index()].iter().enumerate() {
        let slider = if d < 4 { pc(PieceType::Rook) } else { pc(PieceType::Bishop) };
        for &s in &ray.squares[..ray.len as usize] {
            let s = Square::new(s);
            let code = ccr.code(s);
            if code == 0 || Some(s) == ignore {
                continue;
            }
            if code == slider || code == queen {
                return true;
            }
            break;
        }
    }
    false
}

/// Computes checkers, the evasion mask and pins by walking out from the king.
pub fn king_info(pos: &Position) -> KingInfo {
    let ccr = pos.ccr();
    let us = pos.side_to_move();
    let them = us.flip();
    let ksq = pos.king(us);
    let mut checkers = 0u64;
    let mut check_mask = 0u64;
    let mut pinned = 0u64;
    let queen = Piece::new(them, PieceType::Queen).code();
    for (d, ray) in RAYS[ksq.index()].iter().enumerate() {
        let slider = Piece::new(them, if d < 4 { PieceType::Rook } else { PieceType::Bishop }).code();
        let mut own: Option<Square> = None;
        for &s in &ray.squares[..ray.len as usize] {
            let s = Square::new(s);
            let code = ccr.code(s);
            if code == 0 {
                continue;
            }
            if color_of(code) == us {
                if own.is_some() {
                    break;
                }
                own = Some(s);
                continue;
            }
            if code == slider || code == queen {
                match own {
                    None => {
                        checkers |= s.bit();
                        check_mask |= BETWEEN[ksq.index()][s.index()] | s.bit();
                    }
                    Some(o) => pinned |= o.bit(),
                }
            }
            break;
        }
    }
    for (bb, kind) in
        [(KNIGHT_ATTACKS[ksq.index()], PieceType::Knight), (PAWN_ATTACKS[us.index()][ksq.index()], PieceType::Pawn)]
    {
        let code = Piece::new(them, kind).code();
        let mut bb = bb;
        while bb != 0 {
            let s = Square::new(bb.trailing_zeros() as u8);
            if ccr.code(s) == code {
                checkers |= s.bit();
                check_mask |= s.bit();
            }
            bb &= bb - 1;
        }
    }
    if checkers == 0 {
        check_mask = !0;
    }
    KingInfo { checkers, check_mask, pinned }
}

/// Whether the side to move is in check.
#[inline]
pub fn in_check(pos: &Position) -> bool {
    let us = pos.side_to_move();
    is_attacked(pos.ccr(), pos.king(us), us.flip(), None)
}

struct Gen<'a> {
    pos: &'a Position,
    ccr: &'a Ccr,
    us: Color,
    ksq: Square,
    info: KingInfo,
    gen: GenType,
    list: &'a mut MoveList,
}

impl Gen<'_> {
    /// Destinations a piece on `from` may legally reach (pins and checks).
    #[inline(always)]
    fn allowed(&self, from: Square) -> u64 {
        if self.info.pinned & from.bit() != 0 {
            self.info.check_mask & LINE[self.ksq.index()][from.index()]
        } else {
            self.info.check_mask
        }
    }

    /// Adds `from -> to` if the target suits the stage: empty for quiets,
    /// an enemy piece for captures.
    #[inline(always)]
    fn target(&mut self, from: Square, to: Square, allowed: u64) {
        let code = self.ccr.code(to);
        let ok = if code == 0 { self.gen.quiets() } else { self.gen.captures() && color_of(code) != self.us };
        if ok && allowed & to.bit() != 0 {
            self.list.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    fn leaper(&mut self, from: Square, mut targets: u64) {
        let allowed = self.allowed(from);
        while targets != 0 {
            let to = Square::new(targets.trailing_zeros() as u8);
            self.target(from, to, allowed);
            targets &= targets - 1;
        }
    }

    fn slider(&mut self, from: Square, dirs: std::ops::Range<usize>) {
        let allowed = self.allowed(from);
        for d in dirs {
            let ray = &RAYS[from.index()][d];
            for &s in &ray.squares[..ray.len as usize] {
                let to = Square::new(s);
                let code = self.ccr.code(to);
                if code == 0 {
                    if self.gen.quiets() && allowed & to.bit() != 0 {
                        self.list.push(Move::new(from, to, MoveKind::Normal));
                    }
                    continue;
                }
                if self.gen.captures() && color_of(code) != self.us && allowed & to.bit() != 0 {
                    self.list.push(Move::new(from, to, MoveKind::Normal));
                }
                break;
            }
        }
    }

    fn promotions(&mut self, from: Square, to: Square) {
        for kind in [PieceType::Queen, PieceType::Knight, PieceType::Rook, PieceType::Bishop] {
            self.list.push(Move::promotion(from, to, kind));
        }
    }

    fn pawn(&mut self, from: Square) {
        let allowed = self.allowed(from);
        let dr = self.us.sign();
        let promo_rank = if self.us == Color::White { 7 } else { 0 };
        let start_rank = if self.us == Color::White { 1 } else { 6 };
        // Pushes.
        if let Some(one) = from.offset(0, dr) {
            if self.ccr.code(one) == 0 {
                if one.rank() == promo_rank {
                    if self.gen.captures() && allowed & one.bit() != 0 {
                        self.promotions(from, one);
                    }
                } else if self.gen.quiets() {
                    if allowed & one.bit() != 0 {
                        self.list.push(Move::new(from, one, MoveKind::Normal));
                    }
                    if from.rank() == start_rank {
                        let two = Square::new((one.index() as i32 + 8 * dr as i32) as u8);
                        if self.ccr.code(two) == 0 && allowed & two.bit() != 0 {
                            self.list.push(Move::new(from, two, MoveKind::DoublePush));
                        }
                    }
                }
            }
        }
        if !self.gen.captures() {
            return;
        }
        // Captures.
        let mut caps = PAWN_ATTACKS[self.us.index()][from.index()];
        while caps != 0 {
            let to = Square::new(caps.trailing_zeros() as u8);
            caps &= caps - 1;
            let code = self.ccr.code(to);
            if code != 0 && color_of(code) != self.us && allowed & to.bit() != 0 {
                if to.rank() == promo_rank {
                    self.promotions(from, to);
                } else {
                    self.list.push(Move::new(from, to, MoveKind::Normal));
                }
            } else if Some(to) == self.pos.ep_square() {
                self.en_passant(from, to);
            }
        }
    }

    /// En passant is rare and has odd legality (the rank pin), so play it on
    /// a scratch board and test the king directly.
    fn en_passant(&mut self, from: Square, to: Square) {
        let mut board = *self.ccr;
        let victim = Square::from_coords(to.file(), from.rank());
        board.set_code(to, board.code(from));
        board.set_code(from, 0);
        board.set_code(victim, 0);
        if !is_attacked(&board, self.ksq, self.us.flip(), None) {
            self.list.push(Move::new(from, to, MoveKind::EnPassant));
        }
    }

    fn king(&mut self) {
        let from = self.ksq;
        let them = self.us.flip();
        let mut targets = KING_ATTACKS[from.index()];
        while targets != 0 {
            let to = Square::new(targets.trailing_zeros() as u8);
            targets &= targets - 1;
            let code = self.ccr.code(to);
            let ok = if code == 0 { self.gen.quiets() } else { self.gen.captures() && color_of(code) != self.us };
            if ok && !is_attacked(self.ccr, to, them, Some(from)) {
                self.list.push(Move::new(from, to, MoveKind::Normal));
            }
        }
        if self.gen.quiets() && self.info.checkers == 0 {
            self.castling();
        }
    }

    fn castling(&mut self) {
        let rights = self.pos.castling();
        let them = self.us.flip();
        for bit in [CastleRights::king_side(self.us), CastleRights::queen_side(self.us)] {
            if !rights.has(bit) {
                continue;
            }
            let path = castle_path(self.pos, bit);
            let mut board = *self.ccr;
            board.set_code(self.ksq, 0);
            board.set_code(path.rook_from, 0);
            let empty = squares(path.empty).all(|s| board.code(s) == 0);
            if empty && squares(path.king_path).all(|s| !is_attacked(&board, s, them, None)) {
                self.list.push(Move::new(self.ksq, path.king_to, MoveKind::Castle));
            }
        }
    }

    fn run(&mut self) {
        if self.info.checkers.count_ones() < 2 {
            let words = self.ccr.words();
            for (w, &word) in words.iter().enumerate() {
                let occupied = (word | word >> 1 | word >> 2 | word >> 3) & NIBBLE_LSB;
                let black = (word >> 3) & NIBBLE_LSB;
                let mut ours = if self.us == Color::White { occupied & !black } else { black };
                while ours != 0 {
                    let bit = ours.trailing_zeros();
                    ours &= ours - 1;
                    let from = Square::new((w as u32 * 16 + bit / 4) as u8);
                    // The paper's jump table: dispatch on the piece code's kind bits.
                    match (word >> bit) as u8 & 7 {
                        1 => self.pawn(from),
                        2 => self.leaper(from, KNIGHT_ATTACKS[from.index()]),
                        3 => self.slider(from, 4..8),
                        4 => self.slider(from, 0..4),
                        5 => self.slider(from, 0..8),
                        _ => {} // the king is generated last, below
                    }
                }
            }
        }
        self.king();
    }
}

/// Generates legal moves of one stage into `list` (appending).
pub fn generate(pos: &Position, gen: GenType, list: &mut MoveList) {
    let info = king_info(pos);
    generate_with(pos, &info, gen, list);
}

/// Like [`generate`], reusing king facts already computed for this position
/// (staged generation computes them once per node).
pub fn generate_with(pos: &Position, info: &KingInfo, gen: GenType, list: &mut MoveList) {
    let us = pos.side_to_move();
    let mut g = Gen { pos, ccr: pos.ccr(), us, ksq: pos.king(us), info: *info, gen, list };
    g.run();
}

/// All legal moves.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenType::All, &mut list);
    list
}

/// Whether `m` is legal here (used to vet moves from the hash table or the GUI).
pub fn is_legal(pos: &Position, m: Move) -> bool {
    !m.is_null() && legal_moves(pos).contains(m)
}
