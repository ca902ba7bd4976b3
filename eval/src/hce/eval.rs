//! The evaluation proper: one pass over the bitboards adding material,
//! piece-square tables, mobility, piece placement, king safety, threats and
//! passed pawns, then tapering by phase and scaling drawish endings.
//!
//! Generic over a [`Tracer`]: with [`crate::hce::trace::NoTrace`] it is the fast
//! evaluation; with [`crate::hce::trace::Coeffs`] it records every weight used,
//! which is what the trace and the tuner read.

use crate::hce::attack_planes::AttackPlanes;
use crate::hce::bits::{bishop_attacks, queen_attacks, rook_attacks};
use crate::hce::bits::{distance, file_bb, forward, front_span, popcount, rank_bb, relative_rank, squares};
use crate::hce::endgame::{insufficient_material, scale_factor, SCALE_NORMAL};
use crate::hce::params::{Params, Term};
use crate::hce::pawns::{evaluate_pawns, pawn_key, PawnEntry, PawnTable};
use crate::hce::score::{Score, S};
use crate::hce::trace::{taper, Tracer};
use tetrad_simd::attacks::{king_attacks, knight_attacks, pawn_attacks_bb};
use tetrad_simd::{ccr_to_bitboards, Bitboards, Color, PieceType, Position, Square};

/// Ranks 4 to 6 from each side's view: where outposts count.
const OUTPOST_RANKS: [u64; 2] = [0x0000_FFFF_FF00_0000, 0x0000_00FF_FFFF_0000];

struct Ev<'a, T: Tracer> {
    p: &'static Params,
    tr: &'a mut T,
    /// White's score minus Black's (one scalar, so it can live in a register).
    s: Score,
}

impl<T: Tracer> Ev<'_, T> {
    #[inline(always)]
    fn add(&mut self, c: Color, w: &Score, n: i32) {
        self.s += *w * (n * (1 - 2 * c.index() as i32));
        if T::ON {
            self.tr.add(self.p.slot_of(w), c, n);
        }
    }
}

/// Per-side attack information gathered while scoring pieces.
#[derive(Default)]
struct Attacks {
    /// Class planes (pawn, minor, rook, queen/king) per side.
    planes: AttackPlanes,
    /// Knight, bishop, rook and queen attacks separately (for safe checks).
    knight: [u64; 2],
    bishop: [u64; 2],
    rook: [u64; 2],
    queen: [u64; 2],
    /// Pieces of this side attacking the enemy king zone, their weight, and attacks on it.
    zone_attackers: [i32; 2],
    zone_weight: [Score; 2],
    zone_attacks: [i32; 2],
}

/// Evaluates `pos` (side to move's view), using and filling `table` when
/// given (the trace passes none, so every term is recorded).
pub fn evaluate<T: Tracer>(pos: &Position, table: Option<&mut PawnTable>, p: &'static Params, tr: &mut T) -> i32 {
    evaluate_bitboards(pos, &ccr_to_bitboards(pos.ccr()), table, p, tr)
}

/// [`evaluate`] on bitboards the caller already made from `pos` (the node view's).
pub fn evaluate_bitboards<T: Tracer>(
    pos: &Position,
    bb: &Bitboards,
    table: Option<&mut PawnTable>,
    p: &'static Params,
    tr: &mut T,
) -> i32 {
    let bb = *bb;
    let stm = pos.side_to_move();
    if insufficient_material(&bb) {
        tr.finish(0, 0, stm, true);
        return 0;
    }
    let mut ev = Ev { p, tr, s: Score::ZERO };
    let kings = [pos.king(Color::White).index(), pos.king(Color::Black).index()];
    let pawns = [bb.pieces(Color::White, PieceType::Pawn), bb.pieces(Color::Black, PieceType::Pawn)];

    let key = pawn_key(pawns[0], pawns[1], kings);
    let entry: PawnEntry = match table {
        Some(t) if !T::ON => match t.probe(key) {
            Some(e) => *e,
            None => {
                let e = evaluate_pawns(pawns, kings, key, p, &mut crate::hce::trace::NoTrace);
                t.store(e);
                e
            }
        },
        _ => evaluate_pawns(pawns, kings, key, p, ev.tr),
    };
    ev.s += entry.score;

    let phase = material_and_psqt(&mut ev, &bb);
    let mut at = Attacks::default();
    for c in Color::ALL {
        pieces(&mut ev, &bb, &entry, kings, c, &mut at);
    }
    for c in Color::ALL {
        king_danger(&mut ev, &bb, kings, c, &at);
        threats(&mut ev, &bb, kings, c, &at);
        passed(&mut ev, &bb, &entry, kings, c, stm, &at);
    }
    ev.add(stm, &p.tempo, 1);

    let total = ev.s;
    let strong = if total.eg() > 0 { Color::White } else { Color::Black };
    let scale = if total.eg() == 0 { SCALE_NORMAL } else { scale_factor(&bb, strong, p) };
    ev.tr.finish(phase, scale, stm, false);
    let v = taper(total.mg(), total.eg(), phase, scale);
    if stm == Color::White {
        v
    } else {
        -v
    }
}

/// Material, piece-square tables and bishop pair; returns the phase (0..=24).
#[inline(always)]
fn material_and_psqt<T: Tracer>(ev: &mut Ev<'_, T>, bb: &Bitboards) -> i32 {
    let p = ev.p;
    let mut phase = 0;
    for c in Color::ALL {
        let flip = if c == Color::White { 0 } else { 56 };
        for k in PieceType::ALL {
            let set = bb.pieces(c, k);
            let n = popcount(set);
            phase += n * p.phase_weight[k.index()];
            if k != PieceType::King {
                ev.add(c, &p.material[k.index()], n);
            }
            for sq in squares(set) {
                ev.add(c, &p.psqt[k.index()][sq ^ flip], 1);
            }
        }
        if bb.pieces(c, PieceType::Bishop).count_ones() >= 2 {
            ev.add(c, &p.bishop_pair, 1);
        }
    }
    phase.min(24)
}

/// Mobility, outposts, open files and seventh rank for side `c`; fills `at`.
#[inline(always)]
fn pieces<T: Tracer>(
    ev: &mut Ev<'_, T>,
    bb: &Bitboards,
    entry: &PawnEntry,
    kings: [usize; 2],
    c: Color,
    at: &mut Attacks,
) {
    let p = ev.p;
    let (ci, them) = (c.index(), c.flip());
    let ti = them.index();
    let occ = bb.occupied();
    let own_pawns = bb.pieces(c, PieceType::Pawn);
    let all_pawns = own_pawns | bb.pieces(them, PieceType::Pawn);
    let pawn_att = [
        pawn_attacks_bb(Color::White, bb.pieces(Color::White, PieceType::Pawn)),
        pawn_attacks_bb(Color::Black, bb.pieces(Color::Black, PieceType::Pawn)),
    ];
    let area = !(pawn_att[ti] | own_pawns | bb.pieces(c, PieceType::King));
    let enemy_ksq = kings[ti];
    let zone = king_attacks(Square::new(enemy_ksq as u8)) | (1u64 << enemy_ksq);
    let outposts = OUTPOST_RANKS[ci] & pawn_att[ci] & !entry.attack_span[ti];
    let seventh = rank_bb(if c == Color::White { 6 } else { 1 });
    let eighth = rank_bb(if c == Color::White { 7 } else { 0 });
    let seventh_ok = (1u64 << enemy_ksq) & eighth != 0 || bb.pieces(them, PieceType::Pawn) & seventh != 0;

    at.planes.by_class[ci][0] = pawn_att[ci];
    at.planes.by_class[ci][3] = king_attacks(Square::new(kings[ci] as u8));

    let note_zone = |at: &mut Attacks, a: u64, k: PieceType| {
        if a & zone != 0 {
            at.zone_attackers[ci] += 1;
            at.zone_weight[ci] += p.ks_attacker_weight[k.index()];
            at.zone_attacks[ci] += popcount(a & zone);
        }
    };

    // Rooks and queens: open or semi-open file, and the seventh rank.
    let file_and_seventh = |ev: &mut Ev<'_, T>, sq: usize, [open, semi_open, on_seventh]: [&Score; 3]| {
        let file = file_bb(sq & 7);
        if all_pawns & file == 0 {
            ev.add(c, open, 1);
        } else if own_pawns & file == 0 {
            ev.add(c, semi_open, 1);
        }
        if seventh >> sq & 1 != 0 && seventh_ok {
            ev.add(c, on_seventh, 1);
        }
    };

    for sq in squares(bb.pieces(c, PieceType::Knight)) {
        let a = knight_attacks(Square::new(sq as u8));
        at.knight[ci] |= a;
        ev.add(c, &p.mob_knight[popcount(a & area) as usize], 1);
        note_zone(at, a, PieceType::Knight);
        if outposts >> sq & 1 != 0 {
            ev.add(c, &p.knight_outpost, 1);
        }
    }
    for sq in squares(bb.pieces(c, PieceType::Bishop)) {
        let a = bishop_attacks(Square::new(sq as u8), occ);
        at.bishop[ci] |= a;
        ev.add(c, &p.mob_bishop[popcount(a & area) as usize], 1);
        note_zone(at, a, PieceType::Bishop);
        if outposts >> sq & 1 != 0 {
            ev.add(c, &p.bishop_outpost, 1);
        }
    }
    for sq in squares(bb.pieces(c, PieceType::Rook)) {
        let a = rook_attacks(Square::new(sq as u8), occ);
        at.rook[ci] |= a;
        ev.add(c, &p.mob_rook[popcount(a & area) as usize], 1);
        note_zone(at, a, PieceType::Rook);
        file_and_seventh(ev, sq, [&p.rook_open_file, &p.rook_semi_open_file, &p.rook_seventh]);
    }
    for sq in squares(bb.pieces(c, PieceType::Queen)) {
        let a = queen_attacks(Square::new(sq as u8), occ);
        at.queen[ci] |= a;
        ev.add(c, &p.mob_queen[popcount(a & area) as usize], 1);
        note_zone(at, a, PieceType::Queen);
        file_and_seventh(ev, sq, [&p.queen_open_file, &p.queen_semi_open_file, &p.queen_seventh]);
    }
    at.planes.by_class[ci][1] = at.knight[ci] | at.bishop[ci];
    at.planes.by_class[ci][2] = at.rook[ci];
    at.planes.by_class[ci][3] |= at.queen[ci];
}

/// The attack on `c`'s king: a non-linear king-danger penalty (recorded as fixed).
#[inline(always)]
fn king_danger<T: Tracer>(ev: &mut Ev<'_, T>, bb: &Bitboards, kings: [usize; 2], c: Color, at: &Attacks) {
    let p = ev.p;
    let (ci, them) = (c.index(), c.flip());
    let ti = them.index();
    let their_queens = bb.pieces(them, PieceType::Queen);
    if at.zone_attackers[ti] <= 1 - popcount(their_queens).min(1) {
        return;
    }
    let ksq = Square::new(kings[ci] as u8);
    let occ = bb.occupied();
    let zone = king_attacks(ksq) | ksq.bit();
    let ours = &at.planes.by_class[ci];
    let their_all = at.planes.all(them);
    let weak = their_all & zone & !(ours[0] | ours[1] | ours[2]);
    let safe = !bb.color(them) & !at.planes.all(c);
    let rook_lines = rook_attacks(ksq, occ);
    let bishop_lines = bishop_attacks(ksq, occ);
    let checks = [
        (PieceType::Knight, knight_attacks(ksq) & at.knight[ti]),
        (PieceType::Bishop, bishop_lines & at.bishop[ti]),
        (PieceType::Rook, rook_lines & at.rook[ti]),
        (PieceType::Queen, (rook_lines | bishop_lines) & at.queen[ti]),
    ];
    let mut danger =
        at.zone_weight[ti] + p.ks_zone_attack * at.zone_attacks[ti] + p.ks_weak_square * popcount(weak) + p.ks_offset;
    for (k, set) in checks {
        danger += p.ks_safe_check[k.index()] * popcount(set & safe);
    }
    if their_queens == 0 {
        danger += p.ks_no_queen;
    }
    let mg = danger.mg().clamp(0, p.ks_max_danger);
    let penalty = S(-(mg * mg) / p.ks_mg_divisor.max(1), -danger.eg().max(0) / p.ks_eg_divisor.max(1));
    ev.s += if c == Color::White { penalty } else { -penalty };
    if T::ON {
        ev.tr.fixed(Term::King, c, penalty);
    }
}

/// Enemy pieces attacked by `c`'s pawns, minors, rooks and king; hanging pieces.
#[inline(always)]
fn threats<T: Tracer>(ev: &mut Ev<'_, T>, bb: &Bitboards, kings: [usize; 2], c: Color, at: &Attacks) {
    let p = ev.p;
    let (ci, them) = (c.index(), c.flip());
    let ours = &at.planes.by_class[ci];
    let victims = bb.color(them) & !bb.pieces(them, PieceType::King);
    if victims & at.planes.all(c) == 0 {
        return;
    }
    for k in [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
        let set = bb.pieces(them, k);
        let ki = k.index();
        if k != PieceType::Pawn {
            ev.add(c, &p.threat_by_pawn[ki], popcount(ours[0] & set));
        }
        ev.add(c, &p.threat_by_minor[ki], popcount(ours[1] & set));
        ev.add(c, &p.threat_by_rook[ki], popcount(ours[2] & set));
    }
    let undefended = victims & !at.planes.all(them);
    let king_att = king_attacks(Square::new(kings[ci] as u8));
    ev.add(c, &p.threat_by_king, popcount(undefended & king_att));
    ev.add(c, &p.hanging, popcount(undefended & at.planes.all(c)));
}

/// Passed-pawn terms that depend on pieces: free path, safe push, square rule.
#[inline(always)]
fn passed<T: Tracer>(
    ev: &mut Ev<'_, T>,
    bb: &Bitboards,
    entry: &PawnEntry,
    kings: [usize; 2],
    c: Color,
    stm: Color,
    at: &Attacks,
) {
    let p = ev.p;
    let (ci, them) = (c.index(), c.flip());
    if entry.passed[ci] == 0 {
        return;
    }
    let occ = bb.occupied();
    let their_att = at.planes.all(them);
    let pawn_ending = bb.color(them) & !bb.pieces(them, PieceType::Pawn) & !bb.pieces(them, PieceType::King) == 0;
    for sq in squares(entry.passed[ci]) {
        let bit = 1u64 << sq;
        let r = relative_rank(c, sq);
        let path = front_span(c, bit);
        let free = path & occ == 0;
        if free {
            ev.add(c, &p.passed_free_path[r], 1);
        }
        if forward(c, bit) & their_att == 0 {
            ev.add(c, &p.passed_safe_push[r], 1);
        }
        if pawn_ending && free {
            let promo = if c == Color::White { 56 + (sq & 7) } else { sq & 7 };
            let moves = 7 - r as i32 - i32::from(r == 1);
            let king_moves = distance(kings[them.index()], promo) - i32::from(stm == them);
            if king_moves > moves {
                ev.add(c, &p.passed_unstoppable, 1);
            }
        }
    }
}
