//! Every tunable number of the search, in one place.
//!
//! Each tunable is a function of no arguments named for what it does
//! (`rfp_margin()`). In a normal build it is a `const fn` returning its
//! literal, so the search compiles exactly as if the number were written
//! in place. Built with `--features tune`, each one reads an atomic instead,
//! set by a UCI spin option of the same name, so that an SPSA tuner
//! (OpenBench, locally `tools/openbench/run.sh spsa`) can play games with
//! changed values without a rebuild. [`TUNABLES`] lists them with the ranges SPSA
//! may move them in; `tetrad tune-params` prints that list in OpenBench's
//! SPSA input form.
//!
//! Numbers that are not tuning choices stay plain constants below the table
//! (table sizes, units).

/// One tunable number: its name (also its UCI option under `tune`), its
/// value in this build, and the range and step SPSA uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// Name, the function's and the UCI option's.
    pub name: &'static str,
    /// The value the search uses without the `tune` feature.
    pub default: i32,
    /// Smallest value SPSA may try.
    pub min: i32,
    /// Largest value SPSA may try.
    pub max: i32,
    /// SPSA perturbation at the end of a run (OpenBench's `c_end`).
    pub c_end: f64,
}

/// OpenBench's `r_end` for every tunable: the learning rate at the end of a
/// run, relative to `c_end²` (0.002 is the value OpenBench's documentation
/// suggests).
pub const R_END: f64 = 0.002;

impl Tunable {
    /// The tunable as one line of OpenBench's SPSA input:
    /// `NAME, int, value, min, max, c_end, r_end`.
    pub fn spsa_line(&self, value: i32) -> String {
        format!("{}, int, {}, {}, {}, {}, {}", self.name, value, self.min, self.max, self.c_end, R_END)
    }
}

/// Makes the tunables from one table: a function per row (a `const fn` of
/// the literal, or a read of an atomic under the `tune` feature), and the
/// [`TUNABLES`] list. `name = default, min..=max, c_end;`
macro_rules! tunables {
    ($( $(#[doc = $doc:literal])+ $name:ident = $value:literal, $min:literal..=$max:literal, $c_end:literal; )*) => {
        /// Every tunable of the search, in the order of the table.
        pub const TUNABLES: &[Tunable] = &[
            $( Tunable { name: stringify!($name), default: $value, min: $min, max: $max, c_end: $c_end as f64 }, )*
        ];

        $(
            $(#[doc = $doc])+
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $value
            }
        )*

        /// The live values of a `tune` build, one atomic per tunable.
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod live {
            use std::sync::atomic::AtomicI32;
            $( pub static $name: AtomicI32 = AtomicI32::new($value); )*
        }

        $(
            $(#[doc = $doc])+
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                live::$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// Sets the tunable `name` (case-insensitive) to `value`, clamped to
        /// its range; returns the value set, or `None` for an unknown name.
        /// Only a `tune` build has values to set.
        #[cfg(feature = "tune")]
        pub fn set(name: &str, value: i32) -> Option<i32> {
            $(
                if name.eq_ignore_ascii_case(stringify!($name)) {
                    let v = value.clamp($min, $max);
                    live::$name.store(v, std::sync::atomic::Ordering::Relaxed);
                    return Some(v);
                }
            )*
            None
        }

        /// The value the search uses now for the tunable `name`.
        pub fn value(name: &str) -> Option<i32> {
            $(
                if name.eq_ignore_ascii_case(stringify!($name)) {
                    return Some($name());
                }
            )*
            None
        }
    };
}

tunables! {
    /// Aspiration window half-width at the first re-search.
    aspiration_delta = 16, 5..=60, 3;
    /// Iterations before aspiration windows are used.
    aspiration_min_depth = 5, 2..=10, 1;
    /// Added to the aspiration delta (beside half of it) at each widening.
    aspiration_widen = 8, 0..=40, 2;
    /// Fail-highs in a row at the root cut at most this many plies from the re-search.
    aspiration_max_fail_high_cut = 3, 0..=6, 0.5;
    /// An aspiration delta beyond this gives up the window for a full one.
    aspiration_full_window = 1000, 300..=3000, 100;

    /// Table cut-offs only below this fifty-move counter (near 100 the stored
    /// score may not know the draw coming).
    tt_cut_max_clock = 90, 60..=100, 3;
    /// A tablebase result is stored this many plies deeper than the node.
    tb_store_depth_bonus = 6, 0..=12, 1;

    /// Razoring: maximum depth.
    razor_depth = 3, 1..=6, 0.5;
    /// Razoring base margin.
    razor_base = 400, 150..=800, 30;
    /// Razoring margin per ply squared.
    razor_margin = 200, 50..=400, 15;

    /// Reverse futility pruning: maximum depth.
    rfp_depth = 8, 4..=12, 1;
    /// Margin per ply of depth for reverse futility pruning.
    rfp_margin = 75, 30..=150, 6;

    /// Null-move pruning: minimum depth.
    nmp_min_depth = 3, 2..=6, 0.5;
    /// Null-move base reduction (R ≥ 3, as in the paper's reference).
    nmp_base = 3, 2..=5, 0.5;
    /// Extra null-move reduction per this many plies of depth.
    nmp_depth_div = 3, 2..=6, 0.5;
    /// Extra null-move reduction per this many centipawns of (eval − beta).
    nmp_eval_div = 200, 80..=400, 15;
    /// Most plies of the eval-based null-move reduction.
    nmp_eval_max = 3, 1..=6, 0.5;
    /// A null-move cut-off from this depth is verified by a normal search (zugzwang).
    nmp_verify_depth = 14, 8..=20, 1;

    /// ProbCut: minimum depth.
    probcut_depth = 5, 3..=8, 0.5;
    /// ProbCut margin above beta.
    probcut_margin = 200, 80..=400, 15;
    /// ProbCut searches this much shallower.
    probcut_reduction = 4, 2..=6, 0.5;
    /// ProbCut is skipped when a table entry at most this much shallower
    /// already scores below its bound.
    probcut_tt_depth_slack = 3, 1..=6, 0.5;

    /// Internal iterative reduction: minimum depth.
    iir_depth = 4, 2..=8, 0.5;

    /// Late move pruning: maximum depth.
    lmp_depth = 8, 4..=12, 1;
    /// Late move pruning: quiets allowed at depth d are (base + d²) × pct / 100.
    lmp_base = 3, 0..=10, 1;
    /// Late move pruning share (percent) when the evaluation is improving.
    lmp_improving_pct = 100, 50..=200, 8;
    /// Late move pruning share (percent) when it is not.
    lmp_pct = 50, 25..=100, 5;

    /// History pruning of quiet moves: maximum (reduced) depth.
    hp_depth = 4, 1..=8, 0.5;
    /// History pruning: a quiet whose history is below −margin × depth is skipped.
    hp_margin = 2500, 500..=8000, 200;

    /// Futility pruning of quiet moves: maximum (reduced) depth.
    fp_depth = 8, 4..=12, 1;
    /// Futility base margin.
    fp_base = 90, 30..=200, 8;
    /// Futility margin per ply.
    fp_margin = 85, 30..=200, 8;

    /// Futility pruning of captures: maximum (reduced) depth.
    cfp_depth = 6, 2..=10, 0.5;
    /// Capture futility base margin (beside the captured piece's value).
    cfp_base = 225, 50..=500, 20;
    /// Capture futility margin per ply.
    cfp_margin = 220, 50..=500, 20;

    /// SEE pruning: maximum depth.
    see_prune_depth = 8, 4..=12, 1;
    /// SEE threshold per ply of (reduced) depth for quiets.
    see_quiet_margin = -60, -150..=-10, 6;
    /// SEE threshold per ply squared for captures.
    see_capture_margin = -25, -80..=-5, 3;

    /// Singular extensions: minimum depth.
    se_depth = 7, 4..=10, 0.5;
    /// Singular margin per ply of depth.
    se_margin = 2, 1..=5, 0.5;
    /// The table entry may be this much shallower than the node.
    se_tt_depth_slack = 3, 1..=6, 0.5;
    /// A second extension ply when the other moves fail this far below the singular bound.
    se_double_margin = 20, 5..=50, 3;
    /// At most this many double extensions along one path.
    se_max_double = 6, 0..=12, 1;

    /// Late move reductions: table base, in hundredths of a ply
    /// (r = base + ln d · ln m / div).
    lmr_base = 75, 25..=150, 8;
    /// LMR divisor, in hundredths.
    lmr_div = 225, 150..=350, 12;
    /// Reductions only from this depth.
    lmr_min_depth = 3, 2..=5, 0.5;
    /// Noisy moves get the table's reduction divided by this.
    lmr_noisy_div = 2, 1..=4, 0.5;
    /// History points per ply of reduction change.
    lmr_history_div = 6000, 2000..=16000, 500;
    /// Plies more when the evaluation is not improving.
    lmr_not_improving = 1, 0..=3, 0.5;
    /// Plies more at an expected cut node.
    lmr_cut_node = 1, 0..=3, 0.5;
    /// Plies less at a PV node.
    lmr_pv_node = 1, 0..=3, 0.5;
    /// Plies less for a checking move.
    lmr_gives_check = 1, 0..=3, 0.5;
    /// Plies less at a node that was on a principal variation.
    lmr_tt_pv = 1, 0..=3, 0.5;

    /// Experiment switches (0 off, 1 on; docs/search.md, "Finer reductions"),
    /// each off until a 10+0.1 SPRT keeps it, so that a dev branch is the one
    /// line that turns it on. Reductions kept in 1/1024 ply to the end, the
    /// history's share continuous.
    lmr_fine = 0, 0..=1, 0.5;
    /// Reductions (and the reduced depth of the shallow pruning) indexed by
    /// every move seen before this one, pruned ones too.
    lmr_moves_seen = 0, 0..=1, 0.5;
    /// Late move pruning by every move seen (Stockfish's move count), not
    /// the quiets searched.
    lmp_moves_seen = 0, 0..=1, 0.5;
    /// A checking move is extended only when it does not lose material by SEE.
    check_ext_see = 0, 0..=1, 0.5;

    /// A reduced move that beats the best score by base + per_ply · depth is
    /// re-searched a ply deeper…
    lmr_deeper_base = 40, 10..=100, 4;
    /// … per ply of depth.
    lmr_deeper_per_ply = 2, 0..=8, 0.5;
    /// … and one that beats it by less than this a ply shallower.
    lmr_shallower_margin = 10, 0..=40, 2;

    /// The butterfly history of the opponent's quiet move into a node moves
    /// by this many per centipawn the static evaluation fell for them…
    /// 16 gained +15.4 [+1.5, +29.3] at 50,000 nodes (1,200 games,
    /// tools/examples/eval_diff_history_50k.txt).
    eval_diff_hist_mul = 16, 0..=64, 2;
    /// … up to this much either way.
    eval_diff_hist_max = 1600, 200..=4000, 100;

    /// Plies more for a quiet move when the table's move is a capture.
    lmr_tt_capture = 1, 0..=3, 0.5;
    /// Plies more when the children have cut off more than…
    lmr_child_cutoffs = 1, 0..=3, 0.5;
    /// … this many times.
    lmr_child_cutoffs_min = 3, 1..=8, 0.5;

    /// Quiescence delta-pruning margin.
    delta_margin = 200, 50..=400, 15;

    /// History bonus of a cut-off: quad · d² + lin · d, at most max.
    history_bonus_quad = 16, 4..=32, 2;
    /// Linear part of the history bonus.
    history_bonus_lin = 32, 0..=96, 4;
    /// Largest history bonus.
    history_bonus_max = 1600, 400..=4000, 100;

    /// Low-ply history in quiet ordering: its value × this / (1 + 2·ply).
    /// 0 (off): at 4 it scored −5.8 ± 19.9 Elo at 10+0.1 (300 games); SPSA may raise it.
    low_ply_history_mul = 0, 0..=16, 1;
    /// Low-ply history moves by this percent of the history bonus.
    low_ply_bonus_pct = 75, 25..=200, 8;

    /// A fail-low rewards the opponent's quiet move into the node from this depth (PV nodes always).
    prior_bonus_min_depth = 3, 1..=8, 0.5;

    /// Quiet ordering: a queen leaving a square a pawn, minor or rook attacks, for a safe one.
    threat_escape_queen = 32000, 0..=64000, 2000;
    /// Quiet ordering: a rook leaving a square a pawn or minor attacks, for a safe one.
    threat_escape_rook = 16000, 0..=48000, 1500;
    /// Quiet ordering: a knight or bishop leaving a square a pawn attacks, for a safe one.
    threat_escape_minor = 10000, 0..=32000, 1000;
    /// Quiet ordering: a piece stepping onto such a square loses this percent of the escape's bonus.
    threat_into_pct = 100, 0..=200, 10;

    /// Capture ordering: victim value × this, less the attacker's kind.
    capture_victim_mul = 16, 4..=64, 2;
    /// Capture ordering: capture history divided by this.
    capture_history_div = 16, 4..=64, 2;
    /// Capture ordering bonus of a queen promotion.
    capture_queen_promo = 900, 300..=2000, 60;
    /// Capture ordering score of an under-promotion.
    capture_underpromo = -2000, -4000..=-1000, 100;
    /// Captures scoring at or below this are searched late, with the bad ones.
    good_capture_min = -1000, -3000..=0, 100;
    /// Victim value of a pawn, for capture ordering (MVV-LVA).
    mvv_pawn = 100, 50..=200, 8;
    /// Victim value of a knight.
    mvv_knight = 320, 200..=500, 15;
    /// Victim value of a bishop.
    mvv_bishop = 330, 200..=500, 15;
    /// Victim value of a rook.
    mvv_rook = 500, 350..=750, 20;
    /// Victim value of a queen.
    mvv_queen = 950, 700..=1400, 40;

    /// Correction history: largest update weight (of 256).
    corr_weight_max = 16, 4..=64, 2;
    /// Correction history: largest stored correction per table, centipawns.
    corr_max_cp = 32, 8..=96, 3;

    /// Correction history: the two non-pawn tables count this percent.
    corr_non_pawn_pct = 50, 0..=150, 8;
    /// Correction history: the table of the last two moves counts this percent.
    corr_cont_pct = 50, 0..=150, 8;

    /// The table keeps a result for the same position this much deeper than a new bound.
    tt_keep_depth_margin = 3, 0..=8, 1;
    /// Replacement: an entry from each older search counts this many plies shallower.
    tt_age_weight = 4, 1..=16, 1;

    /// Lazy SMP vote of a thread: (score − lowest + base) × depth.
    smp_vote_base = 14, 1..=50, 3;

    /// Time: the clock is planned as if this many moves were left (without `movestogo`).
    tm_moves_to_go = 22, 10..=50, 2;
    /// Time: the same without an increment (sudden death plans further ahead).
    tm_moves_to_go_sd = 32, 15..=60, 3;
    /// Time: `movestogo` is capped at this.
    tm_moves_to_go_max = 40, 10..=80, 3;
    /// Time: percent of the increment planned per move (every move gets it back).
    tm_inc_pct = 100, 50..=150, 5;
    /// Time: soft limit, percent of the clock's share (the increment is added in full).
    tm_soft_pct = 65, 30..=150, 5;
    /// Time: soft limit at most this percent of the clock.
    tm_soft_max_pct = 25, 10..=60, 3;
    /// Time: hard limit, percent of the soft limit.
    tm_hard_pct = 400, 150..=800, 25;
    /// Time: hard limit at most this percent of the clock.
    tm_hard_max_pct = 40, 20..=80, 3;
    /// Time: hard limit at most this percent of the clock on the last move before the control.
    tm_hard_last_pct = 80, 50..=95, 3;
    /// Time: the soft limit's scale is kept within this percent and…
    tm_scale_min_pct = 30, 10..=100, 5;
    /// … this percent.
    tm_scale_max_pct = 400, 150..=600, 20;
    /// Time: scale (percent) of a best move that just changed…
    tm_stability_base = 160, 100..=250, 8;
    /// … less this (percent) per iteration it stayed the same…
    tm_stability_step = 16, 0..=30, 2;
    /// … for at most this many iterations.
    tm_stability_max = 5, 2..=12, 1;
    /// Time: per mille more per centipawn the score fell below the previous iteration's…
    tm_drop_iter = 8, 0..=40, 3;
    /// … and per centipawn below the previous move's (a rise gives back as much).
    tm_drop_move = 15, 0..=50, 4;
    /// Time: the score scale is kept within this percent…
    tm_eval_min_pct = 70, 40..=100, 5;
    /// … and this percent.
    tm_eval_max_pct = 200, 120..=300, 10;
    /// Time: percent scale after an iteration whose aspiration window failed low.
    tm_fail_low_pct = 130, 100..=200, 8;
    /// Time: node-share scale (percent) = (base − best move's share) × mul…
    tm_node_base = 150, 100..=250, 8;
    /// … with this mul (percent).
    tm_node_mul = 135, 50..=250, 8;
    /// Time: a single legal move is played after this depth.
    tm_single_move_depth = 4, 1..=10, 1;
}

/// A tunable percentage as a factor (exact: `pct(60)` is the literal `0.6`).
#[inline(always)]
pub fn pct(x: i32) -> f64 {
    f64::from(x) / 100.0
}

/// Victim values for capture ordering, pawn..king (a king is never captured).
#[inline(always)]
pub fn mvv(kind: usize) -> i32 {
    [mvv_pawn(), mvv_knight(), mvv_bishop(), mvv_rook(), mvv_queen(), 0][kind]
}

/// The history bonus (and malus) of a cut-off at `depth`.
#[inline(always)]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * history_bonus_quad() + history_bonus_lin() * depth).min(history_bonus_max())
}

/// History values saturate here (the tables are `i16`).
pub const HISTORY_MAX: i32 = 16_384;

/// Plies from the root that keep a low-ply history (Stockfish's `LOW_PLY_HISTORY_SIZE`).
pub const LOW_PLY: usize = 4;

/// Correction history: entries per table (a power of two).
pub const CORR_SIZE: usize = 16_384;
/// Correction history values are kept in 1/CORR_GRAIN centipawns.
pub const CORR_GRAIN: i32 = 256;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_starts_inside_its_range_under_a_unique_name() {
        let mut names = std::collections::HashSet::new();
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.c_end > 0.0 && t.c_end <= f64::from(t.max - t.min), "{t:?}");
            assert!(names.insert(t.name.to_ascii_lowercase()), "{} twice", t.name);
            assert_eq!(value(t.name), Some(t.default), "{}", t.name);
        }
        assert_eq!(value("no_such_tunable"), None);
    }

    /// The line OpenBench's `spsa_utils.py` splits into seven fields.
    #[test]
    fn spsa_lines_have_openbenchs_seven_fields() {
        let line = TUNABLES[0].spsa_line(TUNABLES[0].default);
        assert_eq!(line, "aspiration_delta, int, 16, 5, 60, 3, 0.002");
        for t in TUNABLES {
            let line = t.spsa_line(t.default);
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            assert_eq!(fields.len(), 7, "{fields:?}");
            assert_eq!(fields[1], "int");
            for f in &fields[2..] {
                assert!(f.parse::<f64>().is_ok(), "{fields:?}");
            }
        }
    }

    #[test]
    fn exact_factors_and_tables() {
        assert_eq!(pct(60), 0.6);
        assert_eq!(pct(135), 1.35);
        assert_eq!(pct(7), 0.07);
        assert_eq!(mvv(4), 950);
        assert_eq!(history_bonus(1), 48);
        assert_eq!(history_bonus(20), 1600);
    }

    /// The experiment switches ship off: a dev branch turns one on, and only
    /// a 10+0.1 SPRT puts it on in main.
    #[test]
    fn experiment_switches_ship_off() {
        for name in ["lmr_fine", "lmr_moves_seen", "lmp_moves_seen", "check_ext_see"] {
            let t = TUNABLES.iter().find(|t| t.name == name).expect(name);
            assert_eq!((t.default, t.min, t.max), (0, 0, 1), "{name}");
        }
    }

    #[cfg(feature = "tune")]
    #[test]
    fn a_tune_build_sets_values_by_name_within_range() {
        assert_eq!(set("RFP_Margin", 80), Some(80));
        assert_eq!(rfp_margin(), 80);
        assert_eq!(set("rfp_margin", 10_000), Some(150));
        assert_eq!(set("rfp_margin", 75), Some(75));
        assert_eq!(set("nothing", 1), None);
    }
}
