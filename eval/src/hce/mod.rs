//! The hand-written evaluation: a tapered (middlegame/endgame) sum of
//! material, piece-square tables, mobility, pawn structure, passed pawns,
//! king safety, threats and piece placement, with endgame scaling; every
//! weight in one table ([`weights::PARAMS`]).

pub mod attack_planes;
pub mod bits;
pub mod endgame;
pub mod eval;
pub mod params;
pub mod pawns;
pub mod score;
pub mod trace;
pub mod weights;
