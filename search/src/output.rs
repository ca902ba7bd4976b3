//! What the search writes for the GUI: protocol lines on stdout (mutable
//! for tests), and principal variations, scores and WDL figures in UCI text
//! (a search's whole `info` line is `SearchJob::info_line`, which uses them).

use crate::score::{MATE, MATE_IN_MAX, TB_WIN_IN_MAX};
use std::sync::atomic::{AtomicBool, Ordering};

static MUTED: AtomicBool = AtomicBool::new(false);

/// Silences (or restores) [`emit`] for the whole process; used by tests that
/// drive the UCI loop in-process with thousands of commands.
pub fn set_muted(muted: bool) {
    MUTED.store(muted, Ordering::Relaxed);
}

/// Writes one protocol line to stdout and flushes it. Errors (a GUI that
/// closed the pipe) are ignored: the input side notices and quits.
pub fn emit(line: &str) {
    use std::io::Write;
    if MUTED.load(Ordering::Relaxed) {
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

/// The ` wdl W D L` of a root score: mates and tablebase results are
/// certain; other scores go through `model` (the evaluation's: `wdl::model_for`).
pub(crate) fn wdl_text(root: &tetrad_simd::Position, score: i32, model: &tetrad_eval::wdl::WdlModel) -> String {
    let [w, d, l] = if score >= TB_WIN_IN_MAX {
        [1000, 0, 0]
    } else if score <= -TB_WIN_IN_MAX {
        [0, 0, 1000]
    } else {
        let m = tetrad_eval::wdl::material(&tetrad_simd::ccr_to_bitboards(root.ccr()));
        model.per_mille(score, m)
    };
    format!(" wdl {w} {d} {l}")
}

/// A principal variation for `best`: `pv` when it starts with that move,
/// else the move alone (an `info` line must not name another move first).
pub(crate) fn pv_for(best: tetrad_simd::Move, pv: &[tetrad_simd::Move]) -> Vec<tetrad_simd::Move> {
    if pv.first() == Some(&best) {
        pv.to_vec()
    } else {
        vec![best]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_uci_text() {
        assert_eq!(format_score(35), "cp 35");
        assert_eq!(format_score(MATE - 1), "mate 1");
        assert_eq!(format_score(MATE - 3), "mate 2");
        assert_eq!(format_score(-MATE + 2), "mate -1");
    }
}
