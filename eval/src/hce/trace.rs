//! Recording what the evaluation added up: the [`Tracer`] hook, the
//! per-position coefficient vector the tuner learns from, and the readable
//! term-by-term table of `tetrad eval`.

use crate::hce::params::{field_of_slot, Params, Term};
use crate::hce::score::Score;
use std::fmt;
use tetrad_simd::Color;

/// Receives every weight the evaluation adds. The plain evaluation uses
/// [`NoTrace`], whose calls compile to nothing.
pub trait Tracer {
    /// Whether calls do anything (lets the evaluation skip work for them).
    const ON: bool;
    /// Weight in `slot` was added `n` times for side `c`.
    fn add(&mut self, slot: usize, c: Color, n: i32);
    /// A non-linear contribution (king danger) for side `c`.
    fn fixed(&mut self, term: Term, c: Color, s: Score);
    /// Phase, endgame scale and side to move of the finished evaluation.
    fn finish(&mut self, phase: i32, scale: i32, stm: Color, draw: bool);
}

/// The tracer of the plain evaluation: records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn add(&mut self, _: usize, _: Color, _: i32) {}
    #[inline(always)]
    fn fixed(&mut self, _: Term, _: Color, _: Score) {}
    #[inline(always)]
    fn finish(&mut self, _: i32, _: i32, _: Color, _: bool) {}
}

/// Everything the evaluation of one position added up: per slot of
/// [`Params`] how often each side got it, the non-linear parts, and the
/// phase and scale. The score is linear in the weights given these.
#[derive(Clone, Debug, PartialEq)]
pub struct Coeffs {
    /// `counts[slot][colour]`.
    pub counts: Vec<[i32; 2]>,
    /// Non-linear contributions per term and colour (king danger).
    pub fixed: Vec<[Score; 2]>,
    /// Game phase, 0 (bare kings and pawns) ..= 24 (all pieces).
    pub phase: i32,
    /// Endgame scale of 128.
    pub scale: i32,
    /// Side to move.
    pub stm: Color,
    /// Drawn by insufficient material (score 0 whatever the weights).
    pub draw: bool,
}

impl Default for Coeffs {
    fn default() -> Coeffs {
        Coeffs {
            counts: vec![[0; 2]; Params::SLOTS],
            fixed: vec![[Score::ZERO; 2]; Term::ALL.len()],
            phase: 0,
            scale: 128,
            stm: Color::White,
            draw: false,
        }
    }
}

impl Tracer for Coeffs {
    const ON: bool = true;
    fn add(&mut self, slot: usize, c: Color, n: i32) {
        if let Some(e) = self.counts.get_mut(slot) {
            e[c.index()] += n;
        }
    }
    fn fixed(&mut self, term: Term, c: Color, s: Score) {
        self.fixed[term.index()][c.index()] += s;
    }
    fn finish(&mut self, phase: i32, scale: i32, stm: Color, draw: bool) {
        self.phase = phase;
        self.scale = scale;
        self.stm = stm;
        self.draw = draw;
    }
}

/// The largest magnitude the evaluation returns.
pub const EVAL_LIMIT: i32 = 15000;

/// Blends middlegame and endgame by phase (of 24) and scales the endgame
/// part (of 128). Shared by the evaluation, the trace and the tuner's check.
#[inline(always)]
pub fn taper(mg: i32, eg: i32, phase: i32, scale: i32) -> i32 {
    let v = (mg * phase * 128 + eg * (24 - phase) * scale) / (24 * 128);
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

impl Coeffs {
    /// Per term and colour, the (mg, eg) sums under the given weights.
    pub fn term_sums(&self, p: &Params) -> Vec<[(i64, i64); 2]> {
        let fields = Params::fields();
        let slots = p.to_slots();
        let mut sums = vec![[(0i64, 0i64); 2]; Term::ALL.len()];
        for (slot, n) in self.counts.iter().enumerate() {
            if n == &[0, 0] {
                continue;
            }
            let Some(f) = field_of_slot(&fields, slot) else { continue };
            let w = Score::from_raw(slots[slot]);
            for c in 0..2 {
                let e = &mut sums[f.term.index()][c];
                e.0 += (w.mg() * n[c]) as i64;
                e.1 += (w.eg() * n[c]) as i64;
            }
        }
        for (t, fx) in self.fixed.iter().enumerate() {
            for c in 0..2 {
                sums[t][c].0 += fx[c].mg() as i64;
                sums[t][c].1 += fx[c].eg() as i64;
            }
        }
        sums
    }

    /// The score these coefficients give under weights `p`, from the side
    /// to move's view — equal to the evaluation's for the weights traced.
    pub fn score(&self, p: &Params) -> i32 {
        if self.draw {
            return 0;
        }
        let (mut mg, mut eg) = (0i64, 0i64);
        for t in self.term_sums(p) {
            mg += t[0].0 - t[1].0;
            eg += t[0].1 - t[1].1;
        }
        let v = taper(mg as i32, eg as i32, self.phase, self.scale);
        if self.stm == Color::White {
            v
        } else {
            -v
        }
    }
}

/// A traced evaluation, printed as a term-by-term table.
#[derive(Clone, Debug)]
pub struct Trace {
    /// The recorded coefficients.
    pub coeffs: Coeffs,
    /// The weights used.
    pub params: Params,
    /// The evaluation's own result (side to move's view).
    pub score: i32,
}

fn cp(v: i64) -> String {
    format!("{:6.2}", v as f64 / 100.0)
}

impl fmt::Display for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.coeffs;
        let sums = c.term_sums(&self.params);
        writeln!(f, "         Term    |    White      |    Black      |    Total")?;
        writeln!(f, "                 |   MG     EG   |   MG     EG   |   MG     EG")?;
        writeln!(f, " ----------------+---------------+---------------+---------------")?;
        let (mut mg, mut eg) = (0i64, 0i64);
        for t in Term::ALL {
            if t == Term::Endgame {
                continue;
            }
            let [w, b] = sums[t.index()];
            mg += w.0 - b.0;
            eg += w.1 - b.1;
            writeln!(
                f,
                " {:>15} | {} {} | {} {} | {} {}",
                t.name(),
                cp(w.0),
                cp(w.1),
                cp(b.0),
                cp(b.1),
                cp(w.0 - b.0),
                cp(w.1 - b.1)
            )?;
        }
        writeln!(f, " ----------------+---------------+---------------+---------------")?;
        writeln!(f, " {:>15} |               |               | {} {}", "Total", cp(mg), cp(eg))?;
        writeln!(f)?;
        writeln!(f, "Phase: {}/24 (24 = opening)   Endgame scale: {}/128", c.phase, c.scale)?;
        if c.draw {
            writeln!(f, "Insufficient material: draw")?;
        }
        let white = if c.draw { 0 } else { taper(mg as i32, eg as i32, c.phase, c.scale) };
        writeln!(f, "Total evaluation: {} (white side)", cp(white as i64))?;
        let stm = if c.stm == Color::White { "white" } else { "black" };
        write!(f, "Final evaluation: {} ({} to move, side-to-move view)", cp(self.score as i64), stm)
    }
}
