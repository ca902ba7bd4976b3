//! Late-move reductions: the table by depth and move number, in 1/1024
//! ply, and a late move's reduction from its entry and the node's facts.
//! The experiment switches of `params.rs` (`lmr_fine`, `lmr_moves_seen`)
//! choose between the whole-ply reductions main plays and the finer ones
//! under test.

use crate::params::*;

/// Late-move reductions by depth and move number, in 1/1024 ply (rounded
/// down; `>> 10` gives the whole plies, rounded down, exactly).
pub(crate) fn lmr_table() -> Box<[[u16; 64]; 64]> {
    let mut lmr = Box::new([[0u16; 64]; 64]);
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let plies = (pct(lmr_base()) + (d as f64).ln() * (m as f64).ln() / pct(lmr_div())).max(0.0);
            // Times a power of two: exact, so the whole plies are those of `plies`.
            *r = (plies * 1024.0) as u16;
        }
    }
    lmr
}

/// The table's move number for a move: the moves searched before it, or
/// (`lmr_moves_seen`) every move seen before it, pruned ones too, as
/// Stockfish's move count.
#[inline(always)]
pub(crate) fn lmr_index(moves_searched: usize, moves_seen_before: usize) -> usize {
    if lmr_moves_seen() != 0 { moves_seen_before } else { moves_searched }.min(63)
}

/// What a late move's reduction reads besides its table entry.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Late {
    /// The move captures or promotes.
    pub noisy: bool,
    /// Its quiet history (0 for a noisy move).
    pub history: i32,
    /// The node's evaluation is improving.
    pub improving: bool,
    /// The node is an expected cut node.
    pub cut_node: bool,
    /// The node is a PV node.
    pub pv_node: bool,
    /// The move gives check.
    pub gives_check: bool,
    /// The node is, or was, on a principal variation (not a PV node now).
    pub tt_pv_only: bool,
    /// A quiet move where the table's move is a capture.
    pub quiet_after_tt_capture: bool,
    /// The children keep cutting off.
    pub children_cut: bool,
}

/// The reduction of a late move in whole plies (not yet clamped to the
/// depth), from its table entry (1/1024 ply) and the node's facts.
#[inline(always)]
pub(crate) fn reduction(table: i32, f: Late) -> i32 {
    // The move's own part in 1/1024 ply: the table's, divided for a noisy
    // move, less the history's share. In whole plies (each part rounded
    // down, the history's toward zero) unless lmr_fine keeps the fractions
    // to the end.
    let own = if lmr_fine() != 0 {
        if f.noisy {
            table / lmr_noisy_div()
        } else {
            table - f.history * 1024 / lmr_history_div()
        }
    } else {
        let plies = table >> 10;
        1024 * if f.noisy { plies / lmr_noisy_div() } else { plies - f.history / lmr_history_div() }
    };
    let mut plies = lmr_not_improving() * i32::from(!f.improving) + lmr_cut_node() * i32::from(f.cut_node);
    plies -= lmr_pv_node() * i32::from(f.pv_node) + lmr_gives_check() * i32::from(f.gives_check);
    plies -= lmr_tt_pv() * i32::from(f.tt_pv_only);
    // The table's move captures: quiet alternatives are unlikely to be better.
    plies += lmr_tt_capture() * i32::from(f.quiet_after_tt_capture);
    // The children keep cutting off: this is likely a cut node in all but name.
    plies += lmr_child_cutoffs() * i32::from(f.children_cut);
    (own + 1024 * plies) >> 10
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table in 1/1024 ply gives, shifted, the whole plies the search
    /// always used (the formula's value rounded down), so the reductions
    /// with `lmr_fine` off are the same as before the table held fractions.
    #[test]
    fn the_fine_reduction_table_rounds_down_to_the_whole_plies() {
        let table = lmr_table();
        let mut fractions = 0;
        for d in 1..64 {
            for m in 1..64 {
                let plies = (pct(lmr_base()) + (d as f64).ln() * (m as f64).ln() / pct(lmr_div())).max(0.0);
                let fine = i32::from(table[d][m]);
                assert_eq!(fine >> 10, plies as i32, "depth {d}, move {m}");
                assert!((f64::from(fine) / 1024.0 - plies).abs() < 1.0 / 1024.0, "depth {d}, move {m}");
                fractions += i32::from(fine & 1023 != 0);
            }
        }
        assert!(fractions > 3000, "only {fractions} entries have a fraction");
    }

    /// With `lmr_fine` off a reduction is the whole-ply sum it always was:
    /// the table's plies (halved for a noisy move), less history / divisor
    /// rounded toward zero, plus or minus a ply a term.
    #[test]
    fn whole_ply_reductions_are_the_old_sum() {
        if lmr_fine() != 0 {
            return;
        }
        let table = 3 * 1024 + 700; // 3.68 plies
        let quiet = Late { improving: true, ..Late::default() };
        assert_eq!(reduction(table, quiet), 3);
        assert_eq!(reduction(table, Late { noisy: true, ..quiet }), 3 / lmr_noisy_div());
        let div = lmr_history_div();
        assert_eq!(reduction(table, Late { history: div + div / 2, ..quiet }), 2, "one ply, rounded toward zero");
        assert_eq!(reduction(table, Late { history: -(div + div / 2), ..quiet }), 4);
        let all = Late {
            improving: false,
            cut_node: true,
            pv_node: true,
            gives_check: true,
            tt_pv_only: true,
            quiet_after_tt_capture: true,
            children_cut: true,
            ..quiet
        };
        let terms = lmr_not_improving() + lmr_cut_node() - lmr_pv_node() - lmr_gives_check() - lmr_tt_pv()
            + lmr_tt_capture()
            + lmr_child_cutoffs();
        assert_eq!(reduction(table, all), 3 + terms);
    }
}
