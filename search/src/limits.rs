//! Search limits from `go`, and time management.

use crate::params::*;
use std::time::{Duration, Instant};
use tetrad_simd::{Color, Move};

/// Everything `go` can ask for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Remaining clock per colour, milliseconds.
    pub time: [Option<u64>; 2],
    /// Increment per colour, milliseconds.
    pub inc: [u64; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Fixed search depth.
    pub depth: Option<i32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Fixed time per move, milliseconds.
    pub movetime: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<i32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder search: no time limits until `ponderhit`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// The clock to plan with for the side `stm`: its own; when a GUI gives
    /// only the other side's, that one (the sides' clocks are rarely far
    /// apart, and searching without a limit would lose on time); with no
    /// clock at all but an increment or `movestogo`, nothing is left but
    /// the increment. `None`: no clock (`go` alone, depth, nodes, infinite).
    pub fn clock(&self, stm: Color) -> Option<u64> {
        let (ours, theirs) = (stm.index(), 1 - stm.index());
        let timed = self.inc.iter().any(|&i| i > 0) || self.movestogo.is_some();
        self.time[ours].or(self.time[theirs]).or_else(|| timed.then_some(self.inc[ours]))
    }
}

/// Soft and hard time limits for one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    /// When the search (or the ponderhit) started.
    pub start: Instant,
    /// Don't start a new iteration after this (before stability scaling).
    pub soft: Option<Duration>,
    /// Stop the search at once after this.
    pub hard: Option<Duration>,
}

impl TimeManager {
    /// Plans the time for the side `stm` under `limits`, keeping `overhead_ms` in reserve.
    pub fn new(limits: &Limits, stm: Color, overhead_ms: u64, start: Instant) -> TimeManager {
        if let Some(mt) = limits.movetime {
            // A fixed move time is used in full: no soft limit to stop early.
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return TimeManager { start, soft: None, hard: Some(t) };
        }
        let Some(time) = limits.clock(stm) else {
            return TimeManager { start, soft: None, hard: None };
        };
        let inc = limits.inc[stm.index()];
        // Keep the overhead in reserve, and never plan with less than 1 ms.
        let left = time.saturating_sub(overhead_ms).max(1) as f64;
        let mtg = limits
            .movestogo
            .map_or(f64::from(tm_moves_to_go()), |m| f64::from(m.clamp(1, tm_moves_to_go_max().max(1) as u32)) + 1.0);
        let base = left / mtg + inc as f64 * pct(tm_inc_pct());
        let soft = (base * pct(tm_soft_pct())).min(left * pct(tm_soft_max_pct()));
        // The hard limit may borrow from later moves, but never more than a share of the clock.
        let hard_max = if limits.movestogo == Some(1) { tm_hard_last_pct() } else { tm_hard_max_pct() };
        let hard = (base * pct(tm_hard_pct())).min(left * pct(hard_max));
        TimeManager {
            start,
            soft: Some(Duration::from_micros((soft.max(0.5) * 1000.0) as u64)),
            hard: Some(Duration::from_micros((hard.max(0.5) * 1000.0) as u64)),
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to stop before a new iteration; `scale` grows with instability (1.0 = neutral).
    pub fn soft_expired(&self, scale: f64) -> bool {
        match self.soft {
            Some(s) => {
                let limit = s.mul_f64(scale.clamp(pct(tm_scale_min_pct()), pct(tm_scale_max_pct())));
                let limit = self.hard.map_or(limit, |h| limit.min(h));
                self.elapsed() >= limit
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `go` with a clock of any kind plans a finite search, whatever is missing or tiny.
    #[test]
    fn every_clock_gives_a_limit() {
        let cases = [
            Limits { time: [Some(1000), None], ..Default::default() },
            Limits { time: [None, Some(1000)], ..Default::default() },
            Limits { time: [Some(1000), Some(1000)], movestogo: Some(1), ..Default::default() },
            Limits { inc: [0, 100], ..Default::default() },
            Limits { movestogo: Some(5), ..Default::default() },
            Limits { time: [Some(5), Some(5)], ..Default::default() },
            Limits { time: [Some(0), Some(0)], ..Default::default() },
        ];
        for limits in cases {
            for stm in [Color::White, Color::Black] {
                let tm = TimeManager::new(&limits, stm, 30, Instant::now());
                let (soft, hard) = (tm.soft.expect("a soft limit"), tm.hard.expect("a hard limit"));
                assert!(soft <= hard && hard <= Duration::from_millis(1000), "{limits:?} {stm:?}: {tm:?}");
            }
        }
        // movestogo 1: the clock is refilled after this move, so most of it may go.
        let last = Limits { time: [Some(1000), Some(1000)], movestogo: Some(1), ..Default::default() };
        assert!(TimeManager::new(&last, Color::White, 30, Instant::now()).hard.unwrap() >= Duration::from_millis(500));
        // No clock: no limit.
        assert!(TimeManager::new(&Limits::default(), Color::White, 30, Instant::now()).hard.is_none());
    }

    #[test]
    fn short_clock_stays_inside() {
        let limits = Limits { time: [Some(100), Some(100)], ..Default::default() };
        let tm = TimeManager::new(&limits, Color::White, 30, Instant::now());
        assert!(tm.hard.unwrap() < Duration::from_millis(40));
        assert!(tm.soft.unwrap() <= tm.hard.unwrap());
        let limits = Limits { time: [Some(60_000), Some(60_000)], inc: [1000, 1000], ..Default::default() };
        let tm = TimeManager::new(&limits, Color::Black, 30, Instant::now());
        assert!(tm.hard.unwrap() > Duration::from_millis(1000));
        assert!(tm.hard.unwrap() < Duration::from_millis(27_000));
    }
}
