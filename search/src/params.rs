//! Every tunable number of the search, in one place.

/// History values saturate here.
pub const HISTORY_MAX: i32 = 16_384;

/// Aspiration window half-width at the first re-search.
pub const ASPIRATION_DELTA: i32 = 16;
/// Iterations before aspiration windows are used.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Reverse futility pruning: maximum depth and margin per ply.
pub const RFP_DEPTH: i32 = 8;
/// Margin per ply of depth for reverse futility pruning.
pub const RFP_MARGIN: i32 = 75;

/// Null-move pruning: minimum depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move base reduction (R ≥ 3, as in the paper's reference).
pub const NMP_BASE: i32 = 3;
/// Extra reduction per this many plies of depth.
pub const NMP_DEPTH_DIV: i32 = 3;
/// Extra reduction per this many centipawns of (eval − beta), capped at 3.
pub const NMP_EVAL_DIV: i32 = 200;

/// Futility pruning of quiet moves: maximum depth, base and per-ply margins.
pub const FP_DEPTH: i32 = 8;
/// Futility base margin.
pub const FP_BASE: i32 = 90;
/// Futility margin per ply.
pub const FP_MARGIN: i32 = 85;

/// Late move pruning: maximum depth.
pub const LMP_DEPTH: i32 = 8;

/// SEE pruning thresholds per ply of depth for quiets and captures.
pub const SEE_QUIET_MARGIN: i32 = -60;
/// SEE threshold per ply squared for captures.
pub const SEE_CAPTURE_MARGIN: i32 = -25;
/// Maximum depth of SEE pruning.
pub const SEE_PRUNE_DEPTH: i32 = 8;

/// Late move reductions: table base and divisor (r = base + ln d · ln m / div).
pub const LMR_BASE: f64 = 0.75;
/// LMR divisor.
pub const LMR_DIV: f64 = 2.25;
/// History points per ply of reduction change.
pub const LMR_HISTORY_DIV: i32 = 6_000;

/// Internal iterative reduction: minimum depth.
pub const IIR_DEPTH: i32 = 4;

/// Quiescence delta-pruning margin.
pub const DELTA_MARGIN: i32 = 200;

/// Material values the search uses for MVV-LVA, pawn..king.
pub const MVV: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// Correction history: entries per table (a power of two).
pub const CORR_SIZE: usize = 16_384;
/// Correction history values are kept in 1/CORR_GRAIN centipawns.
pub const CORR_GRAIN: i32 = 256;
/// Largest stored correction (in grains: 32 cp per table).
pub const CORR_MAX: i32 = 32 * 256;
/// Largest update weight (of 256).
pub const CORR_WEIGHT_MAX: i32 = 16;

/// Singular extensions: minimum depth, and how much below the table's score
/// the other moves must fail (per ply of depth).
pub const SE_DEPTH: i32 = 7;
/// Singular margin per ply of depth.
pub const SE_MARGIN: i32 = 2;
/// A second extension ply when the other moves fail this far below the singular bound.
pub const SE_DOUBLE_MARGIN: i32 = 20;
/// At most this many double extensions along one path.
pub const SE_MAX_DOUBLE: u8 = 6;

/// ProbCut: minimum depth, margin above beta, and the depth it searches less.
pub const PROBCUT_DEPTH: i32 = 5;
/// ProbCut margin above beta.
pub const PROBCUT_MARGIN: i32 = 200;
/// ProbCut searches this much shallower.
pub const PROBCUT_REDUCTION: i32 = 4;

/// Razoring: maximum depth, and the margins (base + per ply squared).
pub const RAZOR_DEPTH: i32 = 3;
/// Razoring base margin.
pub const RAZOR_BASE: i32 = 400;
/// Razoring margin per ply squared.
pub const RAZOR_MARGIN: i32 = 200;
