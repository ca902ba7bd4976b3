//! Tetrad's search: PVS with quiescence over copied CCR positions, a shared
//! lock-free transposition table, time management and lazy SMP.
#![deny(missing_docs)]

mod alphabeta;
pub mod correction;
mod prune;
pub mod bench;
pub mod history;
mod hugepages;
pub mod limits;
pub mod movepick;
pub mod params;
pub mod pool;
pub mod see;
pub mod skill;
pub mod tb;
pub mod tbfiles;
pub mod tt;
pub mod worker;

pub use limits::Limits;
pub use pool::{Engine, SearchOutcome};
pub use tt::TranspositionTable;
pub use worker::{SearchJob, SearchShared, ThreadResult, Worker};

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Score of a mate at the root (mate in n plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub const INFINITY: i32 = 32_001;

static MUTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Silences (or restores) [`emit`] for the whole process; used by tests that
/// drive the UCI loop in-process with thousands of commands.
pub fn set_muted(muted: bool) {
    MUTED.store(muted, std::sync::atomic::Ordering::Relaxed);
}

/// Writes one protocol line to stdout and flushes it. Errors (a GUI that
/// closed the pipe) are ignored: the input side notices and quits.
pub fn emit(line: &str) {
    use std::io::Write;
    if MUTED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let out = std::io::stdout();
    let mut lock = out.lock();
    let _ = writeln!(lock, "{line}");
    let _ = lock.flush();
}

/// A principal variation in UCI text, each move written in the position it
/// is played from (castling as king takes rook when `chess960`).
pub fn pv_text(root: &tetrad_simd::Position, pv: &[tetrad_simd::Move], chess960: bool) -> String {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !tetrad_simd::is_legal(&pos, m) {
            break;
        }
        out.push(pos.move_to_uci(m, chess960));
        pos = pos.make_move(m);
    }
    out.join(" ")
}

/// UCI score text: `cp N` or `mate N` (moves, negative when being mated).
pub fn format_score(score: i32) -> String {
    if score >= MATE_IN_MAX {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_IN_MAX {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}
