//! Progress of the long commands (datagen, rescore, train, tune, genfens,
//! `--from-pgn`): an `indicatif` bar with k of N, rate and ETA when stderr is
//! a terminal; otherwise (a log file, a pipe, OpenBench) a plain line every
//! [`PLAIN_EVERY`], so a log shows the same facts without control characters.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often the plain form prints a line.
pub const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// One long job's progress: `total` units (games, positions, batches, bytes).
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    unit: &'static str,
    total: u64,
    done: u64,
    message: String,
    start: Instant,
    last_line: Instant,
}

impl Progress {
    /// A bar on a terminal, plain lines elsewhere.
    pub fn new(label: &str, total: u64, unit: &'static str) -> Progress {
        Progress::with_terminal(label, total, unit, std::io::stderr().is_terminal())
    }

    /// Always the plain form (a command whose own output shares the terminal).
    pub fn plain(label: &str, total: u64, unit: &'static str) -> Progress {
        Progress::with_terminal(label, total, unit, false)
    }

    fn with_terminal(label: &str, total: u64, unit: &'static str, terminal: bool) -> Progress {
        let bar = terminal.then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template = format!(
                "{label} {{bar:30}} {{human_pos}}/{{human_len}} {unit} ({{percent}}%) {{per_sec}} ETA {{eta}} {{msg}}"
            );
            bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
            bar
        });
        let now = Instant::now();
        Progress {
            bar,
            label: label.to_string(),
            unit,
            total,
            done: 0,
            message: String::new(),
            start: now,
            last_line: now,
        }
    }

    /// `n` more units done.
    pub fn inc(&mut self, n: u64) {
        self.set(self.done + n);
    }

    /// `done` units done in all.
    pub fn set(&mut self, done: u64) {
        self.done = done;
        match &self.bar {
            Some(bar) => bar.set_position(done),
            None if self.last_line.elapsed() >= PLAIN_EVERY => {
                self.last_line = Instant::now();
                errln!("{}", self.line());
            }
            None => {}
        }
    }

    /// Text shown after the figures (a loss, a count of what was kept).
    pub fn message(&mut self, message: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(message.clone());
        }
        self.message = message;
    }

    /// A line of its own above the bar (a shard written, an epoch's result).
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => errln!("{line}"),
        }
    }

    /// The plain progress line: `label: k of N unit (p%), r unit/s, ETA t message`.
    pub fn line(&self) -> String {
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        let rate = self.done as f64 / secs;
        let pct = if self.total > 0 { 100.0 * self.done as f64 / self.total as f64 } else { 100.0 };
        let eta = if self.done > 0 { self.total.saturating_sub(self.done) as f64 / rate } else { f64::NAN };
        let msg = if self.message.is_empty() { String::new() } else { format!(" {}", self.message) };
        format!(
            "{}: {} of {} {} ({pct:.1}%), {} {}/s, ETA {}{msg}",
            self.label,
            self.done,
            self.total,
            self.unit,
            human_rate(rate),
            self.unit,
            clock(eta)
        )
    }

    /// Ends the bar (or prints the last plain line).
    pub fn finish(self) {
        match &self.bar {
            Some(bar) => bar.finish(),
            None => errln!("{}", self.line()),
        }
    }
}

/// A rate with a sensible number of digits.
fn human_rate(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}")
    } else if r >= 1.0 {
        format!("{r:.1}")
    } else {
        format!("{r:.3}")
    }
}

/// Seconds as `1h02m03s`, `4m05s` or `6s`; `?` when unknown.
fn clock(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.round() as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// The positions figure of a progress line (datagen, rescore): count, rate,
/// rate per thread since `start`.
pub fn positions_text(start: Instant, positions: usize, threads: usize) -> String {
    let pps = positions as f64 / start.elapsed().as_secs_f64().max(1e-3);
    format!("{positions} positions ({pps:.0}/s, {:.0}/s/thread)", pps / threads as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_line_says_k_of_n_rate_and_eta() {
        let mut p = Progress::plain("datagen", 400, "games");
        p.set(100);
        p.message("12,345 positions".into());
        let line = p.line();
        assert!(line.starts_with("datagen: 100 of 400 games (25.0%), "), "{line}");
        assert!(line.contains(" games/s, ETA ") && line.ends_with(" 12,345 positions"), "{line}");
        assert_eq!(clock(59.6), "1m00s");
        assert_eq!(clock(3725.0), "1h02m05s");
        assert_eq!(clock(f64::NAN), "?");
    }
}
