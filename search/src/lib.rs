//! Tetrad's search: PVS with quiescence over copied CCR positions, a shared
//! lock-free transposition table, time management and lazy SMP.
#![deny(missing_docs)]

mod alphabeta;
pub mod bench;
pub mod correction;
pub mod cycle;
mod draws;
pub mod history;
mod hugepages;
mod job;
pub mod limits;
mod mate_check;
pub mod movepick;
pub mod output;
pub mod params;
pub mod pool;
mod prefetch;
mod prune;
mod qsearch;
mod reduction;
pub mod score;
pub mod see;
pub mod skill;
mod stack;
pub mod tb;
pub mod tbfiles;
mod tbroot;
mod threats;
pub mod tt;
pub mod worker;

pub use limits::Limits;
pub use pool::{Engine, SearchOutcome};
pub use tt::TranspositionTable;
pub use worker::{SearchJob, SearchShared, ThreadResult, Worker};

pub use output::{emit, format_score, pv_text, set_muted};
pub use score::{INFINITY, MATE, MATE_IN_MAX, MAX_PLY};
