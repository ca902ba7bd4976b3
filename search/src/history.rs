//! Move-ordering memory: butterfly, capture, continuation, pawn and low-ply histories,
//! killers and counter-moves. One set per search thread.

use crate::params::{history_bonus, low_ply_bonus_pct, low_ply_history_mul, HISTORY_MAX, LOW_PLY};
use tetrad_simd::{Color, Move};

/// A continuation-history table: indexed by the (piece, to) of an earlier
/// move, then the (piece, to) of the move being scored.
pub type ContTable = [[i16; 64]; 16];

/// Key of a played move for continuation history: the moving piece's code and destination.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct PieceTo {
    /// CCR code of the moved piece (0 for "no move", e.g. after a null move).
    pub piece: u8,
    /// Destination square index.
    pub to: u8,
}

impl PieceTo {
    /// Row (piece code) and column (square) of this key in a `[piece][to]`
    /// table, masked to the table's 16 × 64 so that indexing needs no check.
    #[inline(always)]
    pub fn index(self) -> (usize, usize) {
        (self.piece as usize & 15, self.to as usize & 63)
    }

    /// This key's entry of a `[piece][to]` table.
    #[inline(always)]
    pub fn entry<T>(self, table: &[[T; 64]; 16]) -> &T {
        let (piece, to) = self.index();
        &table[piece][to]
    }

    /// This key's entry of a `[piece][to]` table, to update.
    #[inline(always)]
    pub fn entry_mut<T>(self, table: &mut [[T; 64]; 16]) -> &mut T {
        let (piece, to) = self.index();
        &mut table[piece][to]
    }
}

/// The moves that continuation history follows, seen from a node: those
/// made 1, 2, 4 and 6 plies up (default where there was none, or a null move).
pub type PrevMoves = [PieceTo; 4];

/// What a node's quiet moves are scored by besides the move itself: the
/// earlier moves (continuation history) and, where the node has looked at
/// its board, its pawn structure (pawn history, as in Stockfish).
#[derive(Clone, Copy, Default, Debug)]
pub struct QuietKeys {
    /// Moves 1, 2, 4 and 6 plies up.
    pub prev: PrevMoves,
    /// Slot of the pawn structure in the pawn history.
    pub pawns: Option<u16>,
    /// The node's ply, where it is close enough to the root for the low-ply history.
    pub low_ply: Option<u8>,
}

/// Pawn-history slots (pawn structures, hashed).
pub const PAWN_SLOTS: usize = 512;

impl QuietKeys {
    /// The keys of a node: its earlier moves and the hash of its pawns.
    pub fn new(prev: PrevMoves, pawn_hash: Option<u64>) -> QuietKeys {
        QuietKeys { prev, pawns: pawn_hash.map(|h| (h % PAWN_SLOTS as u64) as u16), low_ply: None }
    }

    /// The same keys at `ply` from the root: the first [`LOW_PLY`] plies
    /// also order and learn by the low-ply history.
    pub fn at_ply(self, ply: usize) -> QuietKeys {
        QuietKeys { low_ply: (ply < LOW_PLY).then_some(ply as u8), ..self }
    }
}

/// The continuation table of "no earlier move" (after a null move, near the
/// root) and of a node without pawn history: always zero, never written.
static EMPTY_CONT: ContTable = [[0; 64]; 16];

/// A from-to table of quiet moves.
pub type FromTo = [[i16; 64]; 64];

/// The history tables that score one node's quiet moves.
pub struct QuietScorer<'a> {
    butterfly: &'a FromTo,
    /// The four continuation tables, then the pawn structure's; an empty
    /// table stands in for a missing one, so scoring a move never branches.
    cont: [&'a ContTable; 5],
    /// The low-ply table of the node's ply, and that ply.
    low_ply: Option<(&'a FromTo, i32)>,
}

impl QuietScorer<'_> {
    /// Butterfly plus the continuation histories of the moves 1, 2, 4 and 6 plies up.
    #[inline(always)]
    pub fn score(&self, m: Move, pt: PieceTo) -> i32 {
        let mut s = self.butterfly[m.from().index()][m.to().index()] as i32;
        for t in self.cont {
            s += *pt.entry(t) as i32;
        }
        s
    }

    /// The move's order near the root: its [`QuietScorer::score`] plus the
    /// low-ply history, which counts most at the root and fades with the ply.
    /// Ordering only: pruning and reductions read `score` (as in Stockfish).
    #[inline(always)]
    pub fn order(&self, m: Move, pt: PieceTo) -> i32 {
        let low = self
            .low_ply
            .map_or(0, |(t, ply)| t[m.from().index()][m.to().index()] as i32 * low_ply_history_mul() / (1 + 2 * ply));
        self.score(m, pt) + low
    }
}

/// All ordering tables of one thread.
pub struct History {
    /// Butterfly history `[colour][from][to]` for quiet moves.
    pub butterfly: Box<[FromTo; 2]>,
    /// Capture history `[moving piece code][to][captured kind]`.
    pub capture: Box<[[[i16; 6]; 64]; 16]>,
    /// Continuation history of the move one ply back: `[prev piece][prev to]`
    /// → table for the current move.
    pub cont: Box<[[ContTable; 64]; 16]>,
    /// The same for our own earlier moves (2, 4 and 6 plies back): a table of
    /// its own, shared by the three distances as in Stockfish.
    pub cont2: Box<[[ContTable; 64]; 16]>,
    /// Pawn history `[pawn structure slot]` → `[piece][to]`, both colours (the piece code tells them apart).
    pub pawn: Box<[ContTable; PAWN_SLOTS]>,
    /// Two killer moves per ply.
    pub killers: Vec<[Move; 2]>,
    /// Counter-move `[prev piece][prev to]`.
    pub counter: Box<[[Move; 64]; 16]>,
    /// Low-ply history `[ply][from][to]` of quiet moves in the first
    /// [`LOW_PLY`] plies: what worked near the root in this search (the
    /// butterfly table mixes every depth), cleared at each `go`.
    pub low_ply: Box<[FromTo; LOW_PLY]>,
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

/// Applies a bonus with "gravity": values saturate smoothly at ±HISTORY_MAX.
#[inline(always)]
pub fn gravity(entry: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *entry as i32;
    *entry = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}

impl History {
    /// Fresh, zeroed tables.
    pub fn new() -> History {
        // The continuation table is 2 MiB: build it on the heap, not the stack.
        let table = || -> Box<[[ContTable; 64]; 16]> {
            let v: Vec<[ContTable; 64]> = (0..16).map(|_| [[[0i16; 64]; 16]; 64]).collect();
            v.into_boxed_slice().try_into().expect("16 rows")
        };
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            capture: Box::new([[[0; 6]; 64]; 16]),
            cont: table(),
            cont2: table(),
            pawn: vec![[[0i16; 64]; 16]; PAWN_SLOTS].into_boxed_slice().try_into().expect("PAWN_SLOTS rows"),
            killers: vec![[Move::NULL; 2]; crate::score::MAX_PLY + 8],
            counter: Box::new([[Move::NULL; 64]; 16]),
            low_ply: Box::new([[[0; 64]; 64]; LOW_PLY]),
        }
    }

    /// Forgets everything (new game). Zeroes the tables where they are:
    /// building new ones would fault in ~7 MiB of fresh pages at every
    /// `ucinewgame` (and every bench position).
    /// (Destructured, so a new table cannot be left out of it.)
    pub fn clear(&mut self) {
        // The low-ply table is named here for the completeness check; `new_search` zeroes it.
        let History { butterfly, capture, cont, cont2, pawn, killers, counter, low_ply: _ } = self;
        butterfly.iter_mut().flatten().for_each(|row| row.fill(0));
        capture.iter_mut().flatten().for_each(|row| row.fill(0));
        for t in [cont, cont2] {
            t.iter_mut().flatten().flatten().for_each(|row| row.fill(0));
        }
        pawn.iter_mut().flatten().for_each(|row| row.fill(0));
        killers.fill([Move::NULL; 2]);
        counter.iter_mut().for_each(|row| row.fill(Move::NULL));
        self.new_search();
    }

    /// A new search (`go`): the low-ply history starts afresh, since the
    /// root has moved on; the other tables carry over.
    pub fn new_search(&mut self) {
        self.low_ply.iter_mut().flatten().for_each(|row| row.fill(0));
    }

    /// Quiet-move score: butterfly plus the continuation and pawn histories.
    #[inline]
    pub fn quiet_score(&self, c: Color, m: Move, pt: PieceTo, keys: &QuietKeys) -> i32 {
        self.quiet_scorer(c, keys).score(m, pt)
    }

    /// The tables a node's quiet moves are scored from, looked up once per node.
    #[inline]
    pub fn quiet_scorer(&self, c: Color, keys: &QuietKeys) -> QuietScorer<'_> {
        fn cont<'t>(p: &PieceTo, t: &'t [[ContTable; 64]; 16]) -> &'t ContTable {
            if p.piece != 0 {
                p.entry(t)
            } else {
                &EMPTY_CONT
            }
        }
        let prev = &keys.prev;
        QuietScorer {
            butterfly: &self.butterfly[c.index()],
            cont: [
                cont(&prev[0], &self.cont),
                cont(&prev[1], &self.cont2),
                cont(&prev[2], &self.cont2),
                cont(&prev[3], &self.cont2),
                keys.pawns.map_or(&EMPTY_CONT, |slot| &self.pawn[slot as usize]),
            ],
            low_ply: keys.low_ply.map(|p| (&self.low_ply[p as usize], p as i32)),
        }
    }

    /// Rewards a quiet move that caused a cut-off and punishes the quiets tried before it.
    pub fn update_quiets(
        &mut self,
        c: Color,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        keys: &QuietKeys,
        depth: i32,
    ) {
        let bonus = history_bonus(depth);
        self.reward_quiet(c, best.0, best.1, keys, bonus);
        for &(m, pt) in tried {
            if m != best.0 {
                self.reward_quiet(c, m, pt, keys, -bonus);
            }
        }
    }

    /// Every history of one quiet move moves by `bonus`.
    fn reward_quiet(&mut self, c: Color, m: Move, pt: PieceTo, keys: &QuietKeys, bonus: i32) {
        gravity(&mut self.butterfly[c.index()][m.from().index()][m.to().index()], bonus);
        if let Some(slot) = keys.pawns {
            gravity(pt.entry_mut(&mut self.pawn[slot as usize]), bonus);
        }
        if let Some(p) = keys.low_ply {
            let entry = &mut self.low_ply[p as usize][m.from().index()][m.to().index()];
            gravity(entry, bonus * low_ply_bonus_pct() / 100);
        }
        self.reward_continuation(pt, &keys.prev, bonus);
    }

    /// Rewards (or, with a negative bonus, punishes) a quiet move of side
    /// `c` in the butterfly table only.
    pub fn reward_butterfly(&mut self, c: Color, m: Move, bonus: i32) {
        gravity(&mut self.butterfly[c.index()][m.from().index()][m.to().index()], bonus);
    }

    /// Rewards a move in the continuation histories only (the opponent's
    /// quiet move that a fail-low below it showed to be good).
    pub fn reward_continuation(&mut self, pt: PieceTo, prev: &PrevMoves, bonus: i32) {
        for (i, p) in prev.iter().enumerate() {
            if p.piece != 0 {
                let table = if i == 0 { &mut self.cont } else { &mut self.cont2 };
                gravity(pt.entry_mut(p.entry_mut(table)), bonus);
            }
        }
    }

    /// Stores a killer at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_simd::{MoveKind, Square};

    /// `clear` (in place) leaves every table as `new` builds it.
    #[test]
    fn clear_empties_every_table() {
        let mut h = History::new();
        let m = Move::new(Square::new(12), Square::new(28), MoveKind::Normal);
        gravity(&mut h.butterfly[1][12][28], 500);
        gravity(&mut h.capture[3][40][2], 500);
        gravity(&mut h.cont[2][18][4][33], 500);
        gravity(&mut h.cont2[12][45][9][1], 500);
        gravity(&mut h.pawn[PAWN_SLOTS - 1][5][63], 500);
        h.add_killer(3, m);
        h.counter[2][18] = m;
        gravity(&mut h.low_ply[LOW_PLY - 1][63][0], 500);
        h.clear();
        let zero = |t: &[i16]| t.iter().all(|&v| v == 0);
        assert!(h.butterfly.iter().flatten().all(|t| zero(t)));
        assert!(h.capture.iter().flatten().all(|t| zero(t)));
        assert!(h.cont.iter().chain(h.cont2.iter()).flatten().flatten().all(|t| zero(t)));
        assert!(h.pawn.iter().flatten().all(|t| zero(t)));
        assert!(h.low_ply.iter().flatten().all(|t| zero(t)));
        assert!(h.killers.iter().flatten().chain(h.counter.iter().flatten()).all(|m| m.is_null()));
        assert_eq!(h.killers.len(), History::new().killers.len());
    }

    /// The low-ply history learns and orders only within [`LOW_PLY`] plies
    /// of the root, leaves the pruning score alone, and a new search forgets it.
    #[test]
    fn low_ply_history_orders_near_the_root_only() {
        let mut h = History::new();
        let m = Move::new(Square::new(12), Square::new(28), MoveKind::Normal);
        let pt = PieceTo { piece: 1, to: 28 };
        let root = QuietKeys::default().at_ply(0);
        let deep = QuietKeys::default().at_ply(LOW_PLY);
        assert_eq!(deep.low_ply, None);
        h.update_quiets(Color::White, (m, pt), &[], &root, 6);
        let low = h.low_ply[0][12][28] as i32;
        assert!(low > 0);
        let at_root = h.quiet_scorer(Color::White, &root);
        assert_eq!(at_root.order(m, pt), at_root.score(m, pt) + low * low_ply_history_mul());
        let below = h.quiet_scorer(Color::White, &deep);
        assert_eq!(below.order(m, pt), below.score(m, pt));
        // Deeper nodes teach it nothing.
        let butterfly = h.butterfly[0][12][28];
        h.update_quiets(Color::White, (m, pt), &[], &deep, 6);
        assert!(h.butterfly[0][12][28] > butterfly);
        assert_eq!(h.low_ply[0][12][28] as i32, low);
        h.new_search();
        assert!(h.low_ply.iter().flatten().flatten().all(|&v| v == 0));
        assert!(h.butterfly[0][12][28] > 0);
    }
}
