//! Legal move generation on bitboards converted from the CCR: the engine's
//! move generator. The paper's generator that walks the CCR itself is
//! [`ccr`], the reference this one is tested against.
//!
//! The node state stays the 64-byte CCR [`Position`]; the board is converted
//! with [`ccr_to_bitboards`] (a few nanoseconds with the SIMD kernels) into a
//! [`NodeView`], once per node, and moves are generated set-wise from it: pawns by shifting whole sets, pieces by
//! attack-set lookups (PEXT or magic tables, see [`crate::attacks`]), and legality the usual
//! way — checkers and a check mask, pinned pieces confined to the line
//! through their king, king destinations tested with the king lifted off the
//! board, en passant by testing the king after the capture.
//!
//! [`generate`] makes one [`GenType`] stage at a time; [`generate_in`] does
//! it on a [`NodeView`] the caller already has (the search builds one per
//! node); [`king_info`] gives the check and pin facts ([`KingInfo`]);
//! [`count_moves`] counts without a list (perft), [`attackers_to`],
//! [`in_check`] and a single-move [`is_legal`] complete it.

pub mod ccr;
mod legal;

pub use crate::view::{KingInfo, NodeView};
pub use legal::{is_legal, is_legal_in};

use crate::attacks::{sliders, Sliders};
use crate::bitboards::Bitboards;
use crate::convert::ccr_to_bitboards;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{castle_path, Position};
use crate::tables::{KING_ATTACKS, KNIGHT_ATTACKS, LINE, PAWN_ATTACKS};
use crate::types::{CastleRights, Color, PieceType, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = RANK_1 << 56;
const RANK_3: u64 = RANK_1 << 16;
const RANK_6: u64 = RANK_1 << 40;

use crate::view::set;

/// Pieces of both colours attacking `sq` on occupancy `occ`.
#[inline]
pub fn attackers_to(bb: &Bitboards, sq: Square, occ: u64) -> u64 {
    attackers_with(sliders(), bb, sq, occ)
}

#[inline(always)]
fn attackers_with(sl: &Sliders, bb: &Bitboards, sq: Square, occ: u64) -> u64 {
    use PieceType::*;
    let b = &bb.by_code;
    let i = sq.index();
    (PAWN_ATTACKS[1][i] & set(bb, Color::White, Pawn))
        | (PAWN_ATTACKS[0][i] & set(bb, Color::Black, Pawn))
        | (KNIGHT_ATTACKS[i] & (b[2] | b[10]))
        | (KING_ATTACKS[i] & (b[6] | b[14]))
        | (sl.bishop(sq, occ) & (b[3] | b[5] | b[11] | b[13]))
        | (sl.rook(sq, occ) & (b[4] | b[5] | b[12] | b[13]))
}

/// Whether side `by` attacks `sq` on occupancy `occ`.
#[inline(always)]
fn attacked_by(sl: &Sliders, bb: &Bitboards, sq: Square, by: Color, occ: u64) -> bool {
    use PieceType::*;
    let i = sq.index();
    let leapers = (PAWN_ATTACKS[by.flip().index()][i] & set(bb, by, Pawn))
        | (KNIGHT_ATTACKS[i] & set(bb, by, Knight))
        | (KING_ATTACKS[i] & set(bb, by, King));
    let queens = set(bb, by, Queen);
    leapers != 0
        || sl.bishop(sq, occ) & (set(bb, by, Bishop) | queens) != 0
        || sl.rook(sq, occ) & (set(bb, by, Rook) | queens) != 0
}

/// Whether the side to move is in check.
#[inline]
pub fn in_check(pos: &Position) -> bool {
    let bb = ccr_to_bitboards(pos.ccr());
    let us = pos.side_to_move();
    attacked_by(sliders(), &bb, pos.king(us), us.flip(), !bb.empty())
}

/// Which moves a generator call produces. In check, every kind is
/// restricted to check evasions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    /// Captures (en passant included) and all promotions.
    Captures,
    /// Non-capturing, non-promoting moves, castling included.
    Quiets,
    /// Every legal move.
    All,
}

impl GenType {
    #[inline(always)]
    pub(crate) fn captures(self) -> bool {
        self != GenType::Quiets
    }
    #[inline(always)]
    pub(crate) fn quiets(self) -> bool {
        self != GenType::Captures
    }
}

/// A generator call: the position, its view and the slider tables.
pub(crate) struct Ctx<'a> {
    pos: &'a Position,
    v: &'a NodeView,
    sl: &'static Sliders,
}

impl<'a> Ctx<'a> {
    #[inline(always)]
    fn new(pos: &'a Position, v: &'a NodeView) -> Ctx<'a> {
        Ctx { pos, v, sl: sliders() }
    }

    #[inline(always)]
    fn ours_of(&self, k: PieceType) -> u64 {
        self.v.ours_of(k)
    }

    #[inline(always)]
    fn theirs_of(&self, k: PieceType) -> u64 {
        self.v.theirs_of(k)
    }

    /// Generates one stage into `sink`.
    #[inline(always)]
    fn run<S: Sink>(&self, gen: GenType, sink: &mut S) {
        let caps = gen != GenType::Quiets;
        let quiets = gen != GenType::Captures;
        let targets = if caps { self.v.theirs } else { 0 } | if quiets { !self.v.occ } else { 0 };
        let checkers = self.v.info.checkers;
        if checkers & checkers.wrapping_sub(1) == 0 {
            match self.v.us {
                Color::White => self.pawns::<S, true>(caps, quiets, sink),
                Color::Black => self.pawns::<S, false>(caps, quiets, sink),
            }
            self.pieces(targets & self.v.info.check_mask, sink);
        }
        self.king(targets, quiets, sink);
    }

    #[inline(always)]
    fn pieces<S: Sink>(&self, tmask: u64, sink: &mut S) {
        use PieceType::*;
        let pinned = self.v.info.pinned;
        let line = &LINE[self.v.ksq.index()];
        let mut knights = self.ours_of(Knight) & !pinned;
        while knights != 0 {
            let from = knights.trailing_zeros() as usize;
            knights &= knights - 1;
            sink.piece(Square::new(from as u8), KNIGHT_ATTACKS[from] & tmask);
        }
        let queens = self.ours_of(Queen);
        let mut diag = self.ours_of(Bishop) | queens;
        while diag != 0 {
            let from = diag.trailing_zeros() as usize;
            diag &= diag - 1;
            let sq = Square::new(from as u8);
            let mut t = self.sl.bishop(sq, self.v.occ) & tmask;
            if pinned >> from & 1 != 0 {
                t &= line[from];
            }
            sink.piece(sq, t);
        }
        let mut orth = self.ours_of(Rook) | queens;
        while orth != 0 {
            let from = orth.trailing_zeros() as usize;
            orth &= orth - 1;
            let sq = Square::new(from as u8);
            let mut t = self.sl.rook(sq, self.v.occ) & tmask;
            if pinned >> from & 1 != 0 {
                t &= line[from];
            }
            sink.piece(sq, t);
        }
    }

    #[inline(always)]
    fn pawns<S: Sink, const WHITE: bool>(&self, caps: bool, quiets: bool, sink: &mut S) {
        let pawns = self.ours_of(PieceType::Pawn);
        let pinned = self.v.info.pinned;
        let mask = self.v.info.check_mask;
        self.pawn_set::<S, WHITE>(pawns & !pinned, mask, caps, quiets, sink);
        let mut pp = pawns & pinned;
        while pp != 0 {
            let from = pp.trailing_zeros() as usize;
            pp &= pp - 1;
            self.pawn_set::<S, WHITE>(1u64 << from, mask & LINE[self.v.ksq.index()][from], caps, quiets, sink);
        }
        if caps {
            if let Some(ep) = self.pos.ep_square() {
                self.en_passant(ep, pawns, sink);
            }
        }
    }

    /// Set-wise pawn moves of `pawns`, destinations limited to `allowed`.
    #[inline(always)]
    fn pawn_set<S: Sink, const WHITE: bool>(&self, pawns: u64, allowed: u64, caps: bool, quiets: bool, sink: &mut S) {
        let (up, left, right): (i8, i8, i8) = if WHITE { (8, 7, 9) } else { (-8, -9, -7) };
        let shift = |b: u64, d: i8| if d > 0 { b << d } else { b >> -d };
        let (third, last) = if WHITE { (RANK_3, RANK_8) } else { (RANK_6, RANK_1) };
        let empty = !self.v.occ;
        let push = shift(pawns, up) & empty;
        if quiets {
            let double = shift(push & third, up) & empty & allowed;
            sink.pawns(push & allowed & !last, up, MoveKind::Normal);
            sink.pawns(double, 2 * up, MoveKind::DoublePush);
        }
        if caps {
            sink.promotions(push & allowed & last, up);
            let targets = self.v.theirs & allowed;
            let l = shift(pawns & !FILE_A, left) & targets;
            let r = shift(pawns & !FILE_H, right) & targets;
            sink.pawns(l & !last, left, MoveKind::Normal);
            sink.pawns(r & !last, right, MoveKind::Normal);
            sink.promotions(l & last, left);
            sink.promotions(r & last, right);
        }
    }

    /// En passant: play it on the occupancy and look at the king.
    #[cold]
    fn en_passant<S: Sink>(&self, ep: Square, pawns: u64, sink: &mut S) {
        use PieceType::*;
        let them = self.v.us.flip();
        let victim = if self.v.us == Color::White { ep.index() - 8 } else { ep.index() + 8 };
        let k = self.v.ksq.index();
        let mut from_set = PAWN_ATTACKS[them.index()][ep.index()] & pawns;
        while from_set != 0 {
            let from = from_set.trailing_zeros() as usize;
            from_set &= from_set - 1;
            let occ = (self.v.occ ^ (1u64 << from) ^ (1u64 << victim)) | ep.bit();
            let queens = self.theirs_of(Queen);
            let attackers = (self.sl.bishop(self.v.ksq, occ) & (self.theirs_of(Bishop) | queens))
                | (self.sl.rook(self.v.ksq, occ) & (self.theirs_of(Rook) | queens))
                | (KNIGHT_ATTACKS[k] & self.theirs_of(Knight))
                | (PAWN_ATTACKS[self.v.us.index()][k] & self.theirs_of(Pawn) & !(1u64 << victim));
            if attackers == 0 {
                sink.one(Move::new(Square::new(from as u8), ep, MoveKind::EnPassant));
            }
        }
    }

    #[inline(always)]
    fn king<S: Sink>(&self, targets: u64, quiets: bool, sink: &mut S) {
        let them = self.v.us.flip();
        let occ = self.v.occ ^ self.v.ksq.bit();
        let mut cands = KING_ATTACKS[self.v.ksq.index()] & targets;
        let mut legal = 0u64;
        while cands != 0 {
            let to = Square::new(cands.trailing_zeros() as u8);
            cands &= cands - 1;
            if !attacked_by(self.sl, &self.v.bb, to, them, occ) {
                legal |= to.bit();
            }
        }
        sink.piece(self.v.ksq, legal);
        if quiets && self.v.info.checkers == 0 {
            self.castling(sink);
        }
    }

    #[inline(always)]
    fn castling<S: Sink>(&self, sink: &mut S) {
        let rights = self.pos.castling();
        let us = self.v.us;
        for bit in [CastleRights::king_side(us), CastleRights::queen_side(us)] {
            if !rights.has(bit) {
                continue;
            }
            let path = castle_path(self.pos, bit);
            if self.v.occ & path.empty != 0 {
                continue;
            }
            // The rook may shield a square of the king's path (Chess960): test without it.
            let occ = self.v.occ ^ self.v.ksq.bit() ^ path.rook_from.bit();
            let mut squares = path.king_path;
            let mut safe = true;
            while squares != 0 && safe {
                let s = Square::new(squares.trailing_zeros() as u8);
                squares &= squares - 1;
                safe = !attacked_by(self.sl, &self.v.bb, s, us.flip(), occ);
            }
            if safe {
                sink.one(Move::new(self.v.ksq, path.king_to, MoveKind::Castle));
            }
        }
    }
}

/// Where generated moves go: a move list, or a counter (bulk counting).
pub(crate) trait Sink {
    /// Normal moves from `from` to every square of `targets`.
    fn piece(&mut self, from: Square, targets: u64);
    /// Pawn moves of one kind to every square of `targets`, each from `to - delta`.
    fn pawns(&mut self, targets: u64, delta: i8, kind: MoveKind);
    /// The four promotions to every square of `targets`, each from `to - delta`.
    fn promotions(&mut self, targets: u64, delta: i8);
    /// One move.
    fn one(&mut self, m: Move);
}

struct ListSink<'a>(&'a mut MoveList);

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, mut targets: u64) {
        while targets != 0 {
            let to = Square::new(targets.trailing_zeros() as u8);
            targets &= targets - 1;
            self.0.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, mut targets: u64, delta: i8, kind: MoveKind) {
        while targets != 0 {
            let to = targets.trailing_zeros() as i8;
            targets &= targets - 1;
            self.0.push(Move::new(Square::new((to - delta) as u8), Square::new(to as u8), kind));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, mut targets: u64, delta: i8) {
        while targets != 0 {
            let to = targets.trailing_zeros() as i8;
            targets &= targets - 1;
            let (from, to) = (Square::new((to - delta) as u8), Square::new(to as u8));
            for kind in [PieceType::Queen, PieceType::Knight, PieceType::Rook, PieceType::Bishop] {
                self.0.push(Move::promotion(from, to, kind));
            }
        }
    }

    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.0.push(m);
    }
}

struct CountSink(u64);

impl Sink for CountSink {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: u64) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline(always)]
    fn pawns(&mut self, targets: u64, _delta: i8, _kind: MoveKind) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline(always)]
    fn promotions(&mut self, targets: u64, _delta: i8) {
        self.0 += 4 * targets.count_ones() as u64;
    }

    #[inline(always)]
    fn one(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Checkers, evasion mask and pinned pieces of the side to move, on bitboards.
#[inline]
pub fn king_info(pos: &Position) -> KingInfo {
    NodeView::new(pos).info
}

/// Generates legal moves of one stage into `list` (appending).
#[inline]
pub fn generate(pos: &Position, gen: GenType, list: &mut MoveList) {
    generate_in(pos, &NodeView::new(pos), gen, list);
}

/// Like [`generate`], on the node's view (no conversion: the search's way).
#[inline]
pub fn generate_in(pos: &Position, view: &NodeView, gen: GenType, list: &mut MoveList) {
    Ctx::new(pos, view).run(gen, &mut ListSink(list));
}

/// The number of legal moves, counted set-wise without writing a list
/// (perft's bulk counting at the last ply).
#[inline]
pub fn count_moves(pos: &Position) -> u64 {
    let mut sink = CountSink(0);
    let view = NodeView::new(pos);
    Ctx::new(pos, &view).run(GenType::All, &mut sink);
    sink.0
}

/// All legal moves.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenType::All, &mut list);
    list
}

/// Finds the legal move written in UCI form (`e2e4`, `e7e8q`). Castling is
/// read in both forms: the king's destination (`e1g1`, standard UCI) and
/// king takes own rook (`e1h1`, UCI for Chess960). Where a Chess960 king's
/// destination is also an ordinary king move, the text means the ordinary move.
pub fn parse_uci_move(pos: &Position, text: &str) -> Option<Move> {
    let moves = legal_moves(pos);
    let mut found = None;
    for &m in moves.iter() {
        if m.to_string() == text && (found.is_none() || m.kind() != MoveKind::Castle) {
            found = Some(m);
        }
    }
    found.or_else(|| moves.iter().copied().find(|&m| m.kind() == MoveKind::Castle && pos.move_to_uci(m, true) == text))
}

#[cfg(test)]
mod tests;
