//! Staged move picking: hash move, good captures (MVV-LVA, SEE ≥ 0), quiet
//! moves ordered by killers, counter-move and histories, then bad captures.
//! Quiet moves are generated only when the captures did not cut off, and
//! scored before any of them is searched (Stockfish's later scoring, after
//! the killers, was measured in docs/search.md and not kept).

use crate::history::{History, PieceTo, QuietKeys};
use crate::params::{
    capture_history_div, capture_queen_promo, capture_underpromo, capture_victim_mul, good_capture_min, mvv,
};
use crate::see::see_ge;
use crate::threats::Threats;
use crate::tt::TranspositionTable;
use tetrad_simd::{generate_in, is_legal_in, GenType, Move, MoveList, NodeView, PieceType, Position};

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    GenQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// What the picker needs from the node each time it is asked for a move.
pub struct PickContext<'a> {
    /// The node's position.
    pub pos: &'a Position,
    /// Its view: bitboards, check and pin facts (generation, legality, SEE).
    pub view: &'a NodeView,
    /// The thread's histories.
    pub hist: &'a History,
    /// What the node's quiet histories are looked up by.
    pub keys: &'a QuietKeys,
    /// The table: every capture's child bucket is prefetched as the captures
    /// are scored, the hash move's when it is vetted, a refutation's when it
    /// is handed out, and the other quiets' when the first of them is (so
    /// the loads overlap while the moves are sorted, vetted (SEE), weighed
    /// by the search and searched in turn).
    pub tt: &'a TranspositionTable,
}

impl PickContext<'_> {
    /// Starts loading the table bucket of the position after `m`.
    #[inline(always)]
    fn prefetch_child(&self, m: Move) {
        self.tt.prefetch(self.pos.key_after_in(&self.view.board, m));
    }
}

/// The move lists of one node, kept by the thread per ply and reused: a
/// fresh set would be 2.5 KiB to zero at every node.
#[derive(Clone)]
pub struct PickBuffers {
    list: MoveList,
    scores: [i32; tetrad_simd::moves::MAX_MOVES],
    bad: MoveList,
}

impl PickBuffers {
    /// Empty buffers on the heap.
    pub fn boxed() -> Box<PickBuffers> {
        Box::new(PickBuffers {
            list: MoveList::new(),
            scores: [0; tetrad_simd::moves::MAX_MOVES],
            bad: MoveList::new(),
        })
    }
}

/// A staged move generator-and-sorter for one node.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    buf: Box<PickBuffers>,
    next: usize,
    bad_next: usize,
    /// Quiescence: no quiet stage (unless in check), and bad captures are dropped.
    captures_only: bool,
    /// Set by the search once late quiets are pruned, to skip generating them.
    pub skip_quiets: bool,
    /// Whether the quiets' child buckets have been prefetched.
    quiets_prefetched: bool,
}

/// The least quiet-move score of a refutation (killers, counter-move): above
/// every history score, so they come first among the quiets.
const REFUTATION_MIN: i32 = (1 << 30) - 2;

/// The piece-to key of a move at a node, read from its view's board.
#[inline(always)]
pub fn piece_to(view: &NodeView, m: Move) -> PieceTo {
    PieceTo { piece: view.code(m.from()), to: m.to().index() as u8 }
}

/// [`piece_to`] read from the CCR, for a node that has no view yet (a table
/// cut-off is taken before the view is made).
#[inline(always)]
pub fn piece_to_ccr(pos: &Position, m: Move) -> PieceTo {
    PieceTo { piece: pos.ccr().code(m.from()), to: m.to().index() as u8 }
}

/// The kind index of a square's piece code, 0 (a pawn's) for an empty
/// square. Of a move's target, it is the victim's column of the capture
/// history (en passant and quiet promotions share the pawn's): the picker
/// reads and the search writes that column through this one function.
#[inline(always)]
pub fn kind_index(target: u8) -> usize {
    PieceType::from_bits(target & 7).map_or(0, PieceType::index)
}

/// Whether a move captures or promotes (the "noisy" moves), read from the node's view.
#[inline(always)]
pub fn is_noisy(view: &NodeView, m: Move) -> bool {
    m.promo().is_some() || view.is_capture(m)
}

/// [`is_noisy`] read from the CCR, for a node that has no view yet.
#[inline(always)]
pub fn is_noisy_ccr(pos: &Position, m: Move) -> bool {
    m.promo().is_some() || pos.is_capture(m)
}

impl MovePicker {
    /// A picker for a main-search node, working in `buf` (give it back with [`MovePicker::into_buffers`]).
    pub fn new(tt_move: Move, killers: [Move; 2], counter: Move, mut buf: Box<PickBuffers>) -> MovePicker {
        buf.list.clear();
        buf.bad.clear();
        MovePicker {
            stage: if tt_move.is_null() { Stage::GenCaptures } else { Stage::TtMove },
            tt_move,
            killers,
            counter,
            buf,
            next: 0,
            bad_next: 0,
            captures_only: false,
            skip_quiets: false,
            quiets_prefetched: false,
        }
    }

    /// The buffers, for the next node at this ply.
    pub fn into_buffers(self) -> Box<PickBuffers> {
        self.buf
    }

    /// A picker for quiescence: captures and promotions only, or all evasions in check.
    pub fn qsearch(tt_move: Move, in_check: bool, buf: Box<PickBuffers>) -> MovePicker {
        let mut p = MovePicker::new(tt_move, [Move::NULL; 2], Move::NULL, buf);
        p.captures_only = !in_check;
        p
    }

    fn score_captures(&mut self, ctx: &PickContext) {
        let view = ctx.view;
        for i in 0..self.buf.list.len() {
            let m = self.buf.list.as_slice()[i];
            ctx.prefetch_child(m);
            // Each square's code read once, not once per use (the repeated
            // reads of the CCR were not merged by the compiler: 0.5% of the
            // bench's instructions; now each is one byte of the view's board).
            let (pt, target) = (piece_to(view, m), view.code(m.to()));
            let victim_kind = kind_index(target);
            let victim = if target != 0 {
                mvv(victim_kind)
            } else {
                mvv(0) * i32::from(m.kind() == tetrad_simd::MoveKind::EnPassant)
            };
            let promo = match m.promo() {
                None => 0,
                Some(PieceType::Queen) => capture_queen_promo(),
                Some(_) => capture_underpromo(),
            };
            let hist = pt.entry(&ctx.hist.capture)[victim_kind] as i32;
            self.buf.scores[i] =
                victim * capture_victim_mul() - kind_index(pt.piece) as i32 + promo + hist / capture_history_div();
        }
    }

    fn score_quiets(&mut self, ctx: &PickContext) {
        let scorer = ctx.hist.quiet_scorer(ctx.pos.side_to_move(), ctx.keys);
        let threats = Threats::of(ctx.view);
        for i in 0..self.buf.list.len() {
            let m = self.buf.list.as_slice()[i];
            self.buf.scores[i] = if m == self.killers[0] {
                REFUTATION_MIN + 2
            } else if m == self.killers[1] {
                REFUTATION_MIN + 1
            } else if m == self.counter {
                REFUTATION_MIN
            } else {
                let pt = piece_to(ctx.view, m);
                scorer.order(m, pt) + threats.order_bonus(m, pt)
            };
        }
    }

    /// Prefetches the child bucket of quiet `m`, just handed out; at the
    /// first quiet that is not a refutation, those of all the quiets left.
    /// A node cut off by a killer or the counter-move so skips the other
    /// quiets' loads: issued all at once they stall the core (on Zen 3,
    /// 16% of the picker's samples sat on the prefetches of the quiets).
    fn prefetch_quiets(&mut self, ctx: &PickContext, m: Move) {
        if self.buf.scores[self.next - 1] >= REFUTATION_MIN {
            ctx.prefetch_child(m);
        } else if !self.quiets_prefetched {
            self.quiets_prefetched = true;
            for &q in &self.buf.list.as_slice()[self.next - 1..] {
                ctx.prefetch_child(q);
            }
        }
    }

    /// Generates and scores the quiet moves, or the captures. Kept out of
    /// line (one copy for each): `next` is called once per move handed out
    /// and this once per stage, and inlined generators made every call of
    /// `next` save and restore more registers.
    #[inline(never)]
    fn fill<const QUIETS: bool>(&mut self, ctx: &PickContext) {
        self.buf.list.clear();
        self.next = 0;
        let kind = if QUIETS { GenType::Quiets } else { GenType::Captures };
        generate_in(ctx.pos, ctx.view, kind, &mut self.buf.list);
        if QUIETS {
            self.score_quiets(ctx);
        } else {
            self.score_captures(ctx);
        }
    }

    /// Takes the best-scored remaining move of the current list (selection sort step).
    fn pick_best(&mut self) -> Option<Move> {
        let (start, n) = (self.next, self.buf.list.len());
        let scores = self.buf.scores.get(start..n).filter(|s| !s.is_empty())?;
        // The first of the highest scores, as a plain scan over a slice (no
        // bounds checks). Two passes, a vectorised maximum then its first
        // position, measured slower on Zen 4 (0.968x, 0 of 15 pairs faster);
        // on Zen 3 this scan ran at 0.957 and 0.992 of it in the two orders
        // (6 rounds each, 2026-11-29), inside that host's noise.
        let (mut best, mut best_score) = (0, scores[0]);
        for (i, &s) in scores.iter().enumerate().skip(1) {
            if s > best_score {
                (best, best_score) = (i, s);
            }
        }
        let best = start + best;
        let moves = self.buf.list.as_mut_slice();
        moves.swap(start, best);
        self.buf.scores.swap(start, best);
        self.next += 1;
        Some(moves[start])
    }

    /// The next move to search, or `None` when the node is exhausted.
    pub fn next(&mut self, ctx: &PickContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    if is_legal_in(ctx.pos, ctx.view, self.tt_move)
                        && (!self.captures_only || is_noisy(ctx.view, self.tt_move))
                    {
                        ctx.prefetch_child(self.tt_move);
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::GenCaptures => {
                    self.fill::<false>(ctx);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    None => self.stage = Stage::GenQuiets,
                    Some(m) if m == self.tt_move => {}
                    Some(m) => {
                        let good = self.buf.scores[self.next - 1] > good_capture_min() && see_ge(ctx.view, m, 0);
                        if good {
                            return Some(m);
                        }
                        self.buf.bad.push(m);
                    }
                },
                Stage::GenQuiets => {
                    if (self.captures_only && ctx.view.info.checkers == 0) || self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    self.fill::<true>(ctx);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.pick_best() {
                        None => self.stage = Stage::BadCaptures,
                        Some(m) if m == self.tt_move => {}
                        Some(m) => {
                            self.prefetch_quiets(ctx, m);
                            return Some(m);
                        }
                    }
                }
                Stage::BadCaptures => {
                    if self.captures_only && ctx.view.info.checkers == 0 {
                        self.stage = Stage::Done;
                        continue;
                    }
                    if self.bad_next < self.buf.bad.len() {
                        let m = self.buf.bad.as_slice()[self.bad_next];
                        self.bad_next += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::QuietKeys;
    use tetrad_simd::generate;

    const FENS: [&str; 5] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3",
        "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
    ];

    /// Every move a fresh picker hands out (empty histories: they are only read).
    fn picked(
        (hist, tt): (&History, &TranspositionTable),
        pos: &Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
    ) -> Vec<Move> {
        let (view, keys) = (NodeView::new(pos), QuietKeys::default());
        let ctx = PickContext { pos, view: &view, hist, keys: &keys, tt };
        let mut picker = MovePicker::new(tt_move, killers, counter, PickBuffers::boxed());
        std::iter::from_fn(|| picker.next(&ctx)).collect()
    }

    /// Killers and counter-move, legal or not, quiet or not, repeated or
    /// not: every legal move comes once, and the legal quiet refutations
    /// come first among the quiet moves, in their order.
    #[test]
    fn refutations_keep_every_move_once_and_lead_the_quiets() {
        let strangers: Vec<Move> = FENS
            .iter()
            .flat_map(|f| {
                let mut l = MoveList::new();
                generate(&Position::from_fen(f).unwrap(), GenType::All, &mut l);
                l.as_slice().to_vec()
            })
            .collect();
        let (hist, tt) = (History::new(), TranspositionTable::new(1));
        let mut with_two = 0;
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let mut legal = MoveList::new();
            generate(&pos, GenType::All, &mut legal);
            let mut expected: Vec<u16> = legal.iter().map(|m| m.raw()).collect();
            expected.sort_unstable();
            let pool: Vec<Move> = [Move::NULL]
                .into_iter()
                .chain(legal.iter().copied())
                .chain(strangers.iter().copied().step_by(7))
                .collect();
            for (i, &k0) in pool.iter().enumerate() {
                let k1 = pool[(i * 5 + 3) % pool.len()];
                let counter = if i % 3 == 0 { k0 } else { pool[(i * 11 + 1) % pool.len()] };
                let tt_move = if i % 4 == 0 { k1 } else { Move::NULL };
                let order = picked((&hist, &tt), &pos, tt_move, [k0, k1], counter);
                let mut got: Vec<u16> = order.iter().map(|m| m.raw()).collect();
                got.sort_unstable();
                assert_eq!(got, expected, "{fen}: killers {k0:?} {k1:?} counter {counter:?} tt {tt_move:?}");
                let mut refutations = Vec::new();
                for m in [k0, k1, counter] {
                    if legal.contains(m) && !is_noisy_ccr(&pos, m) && m != tt_move && !refutations.contains(&m) {
                        refutations.push(m);
                    }
                }
                let first_quiets: Vec<Move> = order
                    .iter()
                    .copied()
                    .filter(|&m| !is_noisy_ccr(&pos, m) && m != tt_move)
                    .take(refutations.len())
                    .collect();
                assert_eq!(first_quiets, refutations, "{fen}");
                with_two += usize::from(refutations.len() >= 2);
            }
        }
        assert!(with_two >= 20, "the pool gave only {with_two} cases of two legal quiet refutations");
    }
}
