use super::ccr;
use super::*;
use crate::perft::{parse_suite, perft, BitboardGenerator, CcrGenerator};
use crate::testutil::{random_positions, suite_positions, suite_text, XorShift};
use crate::view::CheckInfo;

fn sorted(pos: &Position, gen: GenType, bit: bool) -> Vec<u16> {
    let mut list = MoveList::new();
    if bit {
        generate(pos, gen, &mut list);
    } else {
        ccr::generate(pos, gen, &mut list);
    }
    let mut v: Vec<u16> = list.iter().map(|m| m.raw()).collect();
    v.sort_unstable();
    v
}

/// Both generators, every stage, the counter and the king facts on one position.
fn compare(pos: &Position) {
    let all = sorted(pos, GenType::All, true);
    assert_eq!(all, sorted(pos, GenType::All, false), "All differs on {}", pos.to_fen());
    let caps = sorted(pos, GenType::Captures, true);
    let quiets = sorted(pos, GenType::Quiets, true);
    assert_eq!(caps, sorted(pos, GenType::Captures, false), "Captures differ on {}", pos.to_fen());
    assert_eq!(quiets, sorted(pos, GenType::Quiets, false), "Quiets differ on {}", pos.to_fen());
    assert_eq!(caps.len() + quiets.len(), all.len());
    assert_eq!(count_moves(pos), all.len() as u64);
    let (a, b) = (king_info(pos), ccr::king_info(pos));
    assert_eq!((a.checkers, a.pinned), (b.checkers, b.pinned), "king info on {}", pos.to_fen());
    if a.checkers.count_ones() < 2 {
        assert_eq!(a.check_mask, b.check_mask);
    }
    assert_eq!(in_check(pos), ccr::in_check(pos));
    // The view decides "gives check" without making the move, exactly.
    let view = NodeView::new(pos);
    assert_eq!(view.in_check(), in_check(pos));
    for m in legal_moves(pos).iter() {
        let child = pos.make_move(*m);
        assert_eq!(
            CheckInfo::new(&view).gives_check(&view, pos, *m),
            in_check(&child),
            "gives_check {m} on {}",
            pos.to_fen()
        );
        assert!(is_legal_in(pos, &view, *m));
    }
}

/// Visits up to `budget` positions of the move tree below `pos` (depth first).
fn walk(pos: &Position, depth: u32, budget: &mut usize, f: &mut impl FnMut(&Position)) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    f(pos);
    if depth > 0 {
        for &m in legal_moves(pos).iter() {
            walk(&pos.make_move(m), depth - 1, budget, f);
        }
    }
}

#[test]
fn same_move_sets_as_ccr_generator() {
    let mut n = 0usize;
    for pos in suite_positions() {
        let mut budget = 3000;
        walk(&pos, 3, &mut budget, &mut |p| {
            compare(p);
            n += 1;
        });
    }
    let games = random_positions(1_000_000usize.saturating_sub(n), 11);
    for p in &games {
        compare(p);
        // The colour-flipped position too: every rule from the other side.
        compare(&p.flip_colors());
    }
    n += 2 * games.len();
    assert!(n >= 1_000_000, "only {n} positions compared");
}

#[test]
fn suite_perft_counts() {
    let Some(text) = suite_text() else { return };
    let cases = parse_suite(&text).expect("suite parses");
    for case in cases {
        let pos = Position::from_fen(&case.fen).expect("suite FEN is valid");
        for &(depth, expected) in case.depths.iter().filter(|d| d.1 <= 200_000) {
            assert_eq!(perft(&BitboardGenerator, &pos, depth), expected, "{} depth {depth}", case.fen);
        }
    }
    let start = Position::startpos();
    assert_eq!(perft(&BitboardGenerator, &start, 5), 4_865_609);
    assert_eq!(perft(&CcrGenerator, &start, 4), 197_281);
}

fn naive_attackers(pos: &Position, sq: Square) -> u64 {
    // Every piece of either colour that could capture on `sq` if an enemy stood there.
    let mut out = 0;
    for from in Square::all() {
        let Some(p) = pos.piece_at(from) else { continue };
        let occ = !ccr_to_bitboards(pos.ccr()).empty();
        let hits = match p.kind() {
            PieceType::Pawn => PAWN_ATTACKS[p.color().index()][from.index()],
            PieceType::Knight => KNIGHT_ATTACKS[from.index()],
            PieceType::Bishop => crate::attacks::bishop_attacks(from, occ),
            PieceType::Rook => crate::attacks::rook_attacks(from, occ),
            PieceType::Queen => crate::attacks::queen_attacks(from, occ),
            PieceType::King => KING_ATTACKS[from.index()],
        };
        if hits & sq.bit() != 0 {
            out |= from.bit();
        }
    }
    out
}

#[test]
fn attackers_to_matches_naive() {
    for pos in random_positions(2000, 3) {
        let bb = ccr_to_bitboards(pos.ccr());
        for sq in Square::all() {
            assert_eq!(attackers_to(&bb, sq, !bb.empty()), naive_attackers(&pos, sq));
        }
    }
}

#[test]
fn is_legal_agrees_with_generation_on_every_raw_move() {
    let mut positions = suite_positions();
    positions.extend(random_positions(300, 21));
    for pos in &positions {
        let list = legal_moves(pos);
        for raw in 0..=u16::MAX {
            let m = Move::from_raw(raw);
            assert_eq!(is_legal(pos, m), list.contains(m), "{m:?} (raw {raw:#06x}) on {}", pos.to_fen());
        }
    }
}

#[test]
fn is_legal_on_near_misses() {
    let mut rng = XorShift::new(77);
    for pos in random_positions(100_000, 31) {
        let list = legal_moves(&pos);
        for &m in list.iter() {
            assert!(is_legal(&pos, m), "{m} on {}", pos.to_fen());
            // Nudge one field: another kind, a neighbouring square, from and to swapped.
            let raw = m.raw();
            let near = [
                raw ^ (1 << (12 + rng.below(4))),
                raw ^ (1 << rng.below(6)),
                raw ^ (1 << (6 + rng.below(6))),
                (raw & 0xF000) | (raw >> 6 & 63) | (raw & 63) << 6,
            ];
            for n in near {
                let n = Move::from_raw(n);
                assert_eq!(is_legal(&pos, n), list.contains(n), "{n:?} on {}", pos.to_fen());
            }
        }
    }
}

/// The most crowded boards a FEN allows (a king and fifteen queens, with and
/// without room to move) generate without panicking and agree with the CCR
/// generator and perft.
#[test]
fn fifteen_queens_do_not_overflow() {
    for fen in [
        "Q5nk/1Q1Q2pp/Q1Q1Q1Q1/8/1Q1Q1Q1Q/8/Q1Q1Q1Q1/K7 w - - 0 1",
        "Q5nk/2Q3pp/8/1Q1Q1Q1Q/Q1Q1Q1Q1/1Q1Q1Q1Q/8/K7 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).expect("a valid crowded FEN");
        let n = legal_moves(&pos).len();
        assert_eq!(n as u64, count_moves(&pos), "{fen}");
        assert_eq!(sorted(&pos, GenType::All, true), sorted(&pos, GenType::All, false), "{fen}");
        assert!(n > 120, "{fen}: {n}");
    }
}
