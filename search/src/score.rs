//! The search's score scale and ply limit: mates, infinity, the deepest ply.
//! Tablebase scores sit between evaluations and mates (`tb::TB_WIN`).

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root (mate in n plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub const INFINITY: i32 = 32_001;
