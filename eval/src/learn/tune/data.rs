//! Training data: EPD-like lines with a game result, turned into samples
//! holding the evaluation's coefficient vector.

use crate::hce::params::{Params, Term};
use crate::hce::score::Score;
use crate::hce::weights::PARAMS;
use rayon::prelude::*;
use tetrad_simd::{Color, Position};

/// One training position: its result and the linear form of its evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Training target from White's view: the game result (1, 0.5 or 0),
    /// or after [`crate::learn::tune::Tuner::new`] its blend with the search score.
    pub result: f64,
    /// The search score recorded with the position (`ce N;`, White's view, cp).
    pub search_score: Option<f64>,
    /// Tunable slots used, with White's count minus Black's.
    pub terms: Vec<(u32, i32)>,
    /// Middlegame constant (fixed weights and non-linear parts), White's view.
    pub const_mg: f64,
    /// Endgame constant.
    pub const_eg: f64,
    /// Weight of the middlegame half: phase / 24.
    pub mg_weight: f64,
    /// Weight of the endgame half: (24 − phase) / 24 · scale / 128.
    pub eg_weight: f64,
}

impl Sample {
    /// Builds the sample of a position (using the compiled-in weights for the
    /// fixed parts); `tunable[slot]` says which slots the tuner owns.
    pub fn new(pos: &Position, result: f64, tunable: &[bool]) -> Sample {
        let (c, _) = crate::coefficients(pos);
        let mut s = Sample {
            result,
            search_score: None,
            terms: Vec::new(),
            const_mg: 0.0,
            const_eg: 0.0,
            mg_weight: 0.0,
            eg_weight: 0.0,
        };
        if c.draw {
            return s; // score 0 whatever the weights
        }
        let slots = PARAMS.to_slots();
        for (slot, n) in c.counts.iter().enumerate() {
            let net = n[0] - n[1];
            if net == 0 {
                continue;
            }
            if tunable.get(slot).copied().unwrap_or(false) {
                s.terms.push((slot as u32, net));
            } else {
                let w = Score::from_raw(slots[slot]);
                s.const_mg += (w.mg() * net) as f64;
                s.const_eg += (w.eg() * net) as f64;
            }
        }
        for t in Term::ALL {
            let f = c.fixed[t.index()];
            let d = f[Color::White.index()] - f[Color::Black.index()];
            s.const_mg += d.mg() as f64;
            s.const_eg += d.eg() as f64;
        }
        s.mg_weight = c.phase as f64 / 24.0;
        s.eg_weight = (24 - c.phase) as f64 / 24.0 * c.scale as f64 / 128.0;
        s
    }
}

/// Reads a result from the text after the FEN: `c9 "1-0";`, `"1/2-1/2"`,
/// `[1.0]`/`[0.5]`/`[0.0]`, or a bare `1-0` / `0-1` / `1/2-1/2`.
fn parse_result(rest: &str) -> Option<f64> {
    let t = rest.replace(' ', "");
    if t.contains("1/2-1/2") || t.contains("[0.5]") || t.contains("[.5]") {
        Some(0.5)
    } else if t.contains("1-0") || t.contains("[1.0]") || t.contains("[1]") {
        Some(1.0)
    } else if t.contains("0-1") || t.contains("[0.0]") || t.contains("[0]") {
        Some(0.0)
    } else {
        None
    }
}

/// Reads the search score `ce N;` (centipawns, White's view) if the line has one.
pub fn parse_search_score(line: &str) -> Option<f64> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "ce" {
            return words.next()?.trim_end_matches(';').parse::<i32>().ok().map(f64::from);
        }
    }
    None
}

/// Parses one line: a FEN (four fields, optionally the two move counters)
/// followed by a result. `None` for blank, comment or malformed lines.
pub fn parse_line(line: &str) -> Option<(Position, f64)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 5 {
        return None;
    }
    let counters =
        fields.len() >= 7 && fields[4].parse::<u32>().is_ok() && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
    let (fen, rest_start) = if counters {
        (format!("{} {}", fields[..5].join(" "), fields[5].trim_end_matches(';')), 6)
    } else {
        (format!("{} 0 1", fields[..4].join(" ")), 4)
    };
    let result = parse_result(&fields[rest_start..].join(" "))?;
    let pos = Position::from_fen(&fen).ok()?;
    Some((pos, result))
}

/// Parses a whole file's text into samples (in parallel, order kept).
/// Returns the samples and the number of lines that were skipped.
pub fn load_samples(text: &str) -> (Vec<Sample>, usize) {
    let tunable = tunable_slots();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let parsed: Vec<Option<Sample>> = lines
        .par_iter()
        .map(|l| {
            parse_line(l)
                .map(|(pos, r)| Sample { search_score: parse_search_score(l), ..Sample::new(&pos, r, &tunable) })
        })
        .collect();
    let skipped = parsed.iter().filter(|s| s.is_none()).count();
    (parsed.into_iter().flatten().collect(), skipped)
}

/// Per slot of [`Params`], whether the tuner may change it.
pub fn tunable_slots() -> Vec<bool> {
    let mut t = vec![false; Params::SLOTS];
    for f in Params::fields() {
        if f.tunable {
            t[f.start..f.start + f.len].iter_mut().for_each(|x| *x = true);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_formats() {
        let r = |l: &str| parse_line(l).map(|x| x.1);
        assert_eq!(r("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-0\";"), Some(1.0));
        assert_eq!(r("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - c9 \"0-1\";"), Some(0.0));
        assert_eq!(r("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";"), Some(0.5));
        assert_eq!(r("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [0.5]"), Some(0.5));
        assert_eq!(r("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - [1.0]"), Some(1.0));
        assert_eq!(r("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 10 ; result 0-1"), Some(0.0));
        assert_eq!(r("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"), None);
        assert_eq!(r("garbage line here and more"), None);
    }

    #[test]
    fn search_scores() {
        let l = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-0\"; ce -34;";
        assert_eq!(parse_search_score(l), Some(-34.0));
        assert_eq!(parse_search_score("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - [1.0]"), None);
        assert_eq!(parse_search_score("x ce ;"), None);
    }
}
