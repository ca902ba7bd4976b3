//! The search's score scale and ply limit: mates, tablebase results, infinity, the deepest ply.
//! Tablebase scores sit between evaluations and mates ([`TB_WIN`]).

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root (mate in n plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32;
/// Score of a tablebase win at the root, minus the plies to it: above any
/// evaluation (±15,000), below mate scores.
pub const TB_WIN: i32 = 20_000;
/// Scores at or beyond this (in absolute value) are tablebase results.
pub const TB_WIN_IN_MAX: i32 = TB_WIN - 2 * MAX_PLY as i32;
/// Larger than any score.
pub const INFINITY: i32 = 32_001;
