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
    /// Don't start a new iteration after this (before the iteration's scale).
    pub soft: Option<Duration>,
    /// Stop the search at once after this.
    pub hard: Option<Duration>,
}

/// What the main thread knows after an iteration, for the time it may still take.
#[derive(Clone, Copy, Debug, Default)]
pub struct Signals {
    /// Iterations in a row the best move stayed the same.
    pub stability: i32,
    /// The best move's share of the root's nodes so far (`None` before any were counted).
    pub best_share: Option<f64>,
    /// How far the score fell below the previous iteration's (centipawns; negative: it rose).
    pub iter_drop: i32,
    /// How far it fell below the previous move's search (`None`: no previous move of this game).
    pub move_drop: Option<i32>,
    /// The iteration's aspiration window failed low at least once.
    pub failed_low: bool,
}

impl Signals {
    /// The factor on the soft limit: more time for an unstable best move, one
    /// that took a small share of the nodes, a falling score or a fail-low;
    /// less for a settled move and a rising score.
    pub fn scale(&self) -> f64 {
        let stability = pct(tm_stability_base())
            - pct(tm_stability_step()) * f64::from(self.stability.clamp(0, tm_stability_max()));
        let nodes = self.best_share.map_or(1.0, |share| (pct(tm_node_base()) - share) * pct(tm_node_mul()));
        // Mate scores would swamp the rest: a fall counts up to a queen.
        let drop = |d: i32| f64::from(d.clamp(-1000, 1000));
        let eval = 1.0
            + (drop(self.iter_drop) * f64::from(tm_drop_iter())
                + drop(self.move_drop.unwrap_or(0)) * f64::from(tm_drop_move()))
                / 1000.0;
        let eval = eval.clamp(pct(tm_eval_min_pct()), pct(tm_eval_max_pct()));
        let fail_low = if self.failed_low { pct(tm_fail_low_pct()) } else { 1.0 };
        stability * nodes * eval * fail_low
    }
}

impl TimeManager {
    /// Plans the time for the side `stm` under `limits`, keeping `overhead_ms` in reserve.
    ///
    /// The soft limit is a share of the clock plus the increment in full:
    /// every move gets the increment back, so planning less of it only
    /// hoards time that the end of the game cannot use. As the clock runs
    /// low the caps (a share of what is left) take over, so it settles near
    /// a few increments instead of running out.
    pub fn new(limits: &Limits, stm: Color, overhead_ms: u64, start: Instant) -> TimeManager {
        if let Some(mt) = limits.movetime {
            // A fixed move time is used in full: no soft limit to stop early.
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return TimeManager { start, soft: None, hard: Some(t) };
        }
        let Some(time) = limits.clock(stm) else {
            return TimeManager { start, soft: None, hard: None };
        };
        let inc = limits.inc[stm.index()] as f64;
        // Keep the overhead in reserve, and never plan with less than 1 ms.
        let left = time.saturating_sub(overhead_ms).max(1) as f64;
        let horizon = if inc > 0.0 { tm_moves_to_go() } else { tm_moves_to_go_sd() };
        let mtg = limits
            .movestogo
            .map_or(f64::from(horizon), |m| f64::from(m.clamp(1, tm_moves_to_go_max().max(1) as u32)) + 1.0);
        let soft = (left / mtg * pct(tm_soft_pct()) + inc * pct(tm_inc_pct())).min(left * pct(tm_soft_max_pct()));
        // The hard limit may borrow from later moves, but never more than a share of the clock.
        let hard_max = if limits.movestogo == Some(1) { tm_hard_last_pct() } else { tm_hard_max_pct() };
        let hard = (soft * pct(tm_hard_pct())).min(left * pct(hard_max)).max(soft);
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

    /// The time after which no new iteration starts, for an iteration's `scale` (1.0 = neutral).
    pub fn soft_limit(&self, scale: f64) -> Option<Duration> {
        let limit = self.soft?.mul_f64(scale.clamp(pct(tm_scale_min_pct()), pct(tm_scale_max_pct())));
        Some(self.hard.map_or(limit, |h| limit.min(h)))
    }

    /// Whether to stop before a new iteration; `scale` grows with instability (1.0 = neutral).
    pub fn soft_expired(&self, scale: f64) -> bool {
        self.soft_limit(scale).is_some_and(|l| self.elapsed() >= l)
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
    /// A game against the clock without a wall clock: each move the search
    /// stops after `soft × scale × overrun` (an iteration in progress runs
    /// past the soft limit) or at the hard limit, and the GUI charges a
    /// fixed overshoot the engine never sees. Returns the clock (ms) after each move.
    fn play(base_ms: u64, inc_ms: u64, moves: usize, overshoot_ms: u64) -> Vec<i64> {
        let mut left = base_ms as i64;
        let mut seed = 0x9E37_79B9_u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as f64 / (1u64 << 31) as f64
        };
        let mut clock = Vec::with_capacity(moves);
        for _ in 0..moves {
            let limits = Limits { time: [Some(left.max(0) as u64), None], inc: [inc_ms, 0], ..Default::default() };
            let tm = TimeManager::new(&limits, Color::White, 30, Instant::now());
            // Settled moves mostly (as the searches of real games end), now
            // and then an unstable one with a falling score.
            let settled = next() < 0.7;
            let signals = Signals {
                stability: if settled { 8 } else { (next() * 5.0) as i32 },
                best_share: Some(if settled { 0.7 + 0.25 * next() } else { 0.3 + 0.5 * next() }),
                iter_drop: (next() * 30.0) as i32 - 10,
                move_drop: Some((next() * 40.0) as i32 - 20),
                failed_low: next() < 0.1,
            };
            let overrun = 1.0 + 0.8 * next();
            let searched = tm.soft_limit(signals.scale()).unwrap().mul_f64(overrun).min(tm.hard.unwrap());
            left -= (searched.as_millis() as u64 + overshoot_ms) as i64;
            assert!(left > 0, "lost on time at move {}: {clock:?}", clock.len() + 1);
            left += inc_ms as i64;
            clock.push(left);
        }
        clock
    }

    /// 10+0.1 with 10 ms lost per move: the clock is spent (the time is worth
    /// more in the game than on the clock at its end) and never runs out.
    #[test]
    fn an_increment_game_spends_its_clock() {
        let clock = play(10_000, 100, 120, 10);
        let at = |m: usize| clock[m - 1];
        // Move 20 still has most of the clock, move 80 very little of it.
        assert!(at(20) > 4_000, "{clock:?}");
        assert!(at(80) < 700, "{clock:?}");
        assert!(clock[60..].iter().all(|&l| l >= 100), "{clock:?}");
        // 40+0.4: the same shape at four times the scale.
        let clock = play(40_000, 400, 120, 10);
        assert!(clock[79] < 2_500 && clock[60..].iter().all(|&l| l >= 400), "{clock:?}");
    }

    /// Sudden death (10+0) with 3 ms lost per move (a local GUI): spent
    /// gradually, never out, something left at move 150. (No plan survives
    /// a fixed loss per move for ever without an increment.)
    #[test]
    fn sudden_death_lasts_the_game() {
        let clock = play(10_000, 0, 150, 3);
        assert!(clock[39] > 1_500, "{}", clock[39]);
        assert!(clock[149] > 30, "{}", clock[149]);
    }

    /// The scale: a settled move with most of the nodes takes less than the
    /// plan; a new best move, a fall against the previous move or a fail-low more.
    #[test]
    fn signals_scale_the_time() {
        let settled = Signals { stability: 8, best_share: Some(0.9), ..Default::default() };
        assert!(settled.scale() < 0.8, "{}", settled.scale());
        let new_best = Signals { stability: 0, best_share: Some(0.4), ..Default::default() };
        assert!(new_best.scale() > 1.8, "{}", new_best.scale());
        let falling = Signals { move_drop: Some(40), ..settled };
        assert!(falling.scale() > 1.4 * settled.scale());
        let rising = Signals { move_drop: Some(-40), ..settled };
        assert!(rising.scale() < settled.scale());
        let failed = Signals { failed_low: true, ..settled };
        assert!(failed.scale() > settled.scale());
        // Stability settles within a handful of iterations.
        let at = |n| Signals { stability: n, ..Default::default() }.scale();
        assert!(at(5) < at(4) && at(6) == at(5) && at(12) == at(5));
    }
}
