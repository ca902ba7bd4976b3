//! Playing strength below full: `Skill Level` 0..20 and `UCI_LimitStrength`
//! with `UCI_Elo`.
//!
//! A level below 20 does two things: it caps the nodes of each move (the
//! cap grows by 1.6× a level), and it searches the best three moves and
//! plays the one whose score plus a random amount (up to 10 cp per level
//! below 20) is highest, so weak levels make the mistakes of a weak player
//! (they miss deep tactics and now and then prefer a worse move) rather
//! than random ones. `UCI_Elo` is turned into a level by the calibration
//! table [`ELO_TABLE`], measured in games against engines of known
//! strength (README has the matches).

use tetrad_simd::Move;

/// Full strength.
pub const MAX_LEVEL: u8 = 20;

/// Most noise added to a line's score, per level below full (centipawns).
/// (25 made level 10 lose 39 of 40 games to Phalanx and level 5 all 40 to
/// Sjeng: too random to be a player.)
pub const NOISE_CP_PER_LEVEL: i64 = 10;

/// Measured (level, Elo) pairs, strongest last: `UCI_Elo` interpolates
/// between them. Levels 15 and 12 were measured against Glaurung 2.2 and
/// Phalanx XXV (taken as 2730 and 2390), 9, 6 and 3 each against the level
/// three above, 20 from the 400-game Glaurung match; README, "Strength
/// levels", has the games and their error bars (±100 to ±360).
pub const ELO_TABLE: [(u8, i32); 6] = [(3, 970), (6, 1150), (9, 1780), (12, 2250), (15, 2640), (20, 3030)];

/// A strength setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 0 (weakest) ..= 20 (full strength).
    pub level: u8,
}

impl Default for Skill {
    fn default() -> Self {
        Skill { level: MAX_LEVEL }
    }
}

impl Skill {
    /// The level that plays at about `elo` (clamped to the table's range).
    pub fn from_elo(elo: i32) -> Skill {
        let (lo, hi) = (ELO_TABLE[0], ELO_TABLE[ELO_TABLE.len() - 1]);
        if elo <= lo.1 {
            return Skill { level: lo.0 };
        }
        if elo >= hi.1 {
            return Skill { level: hi.0 };
        }
        for w in ELO_TABLE.windows(2) {
            let ((l0, e0), (l1, e1)) = (w[0], w[1]);
            if elo <= e1 {
                let t = (elo - e0) as f64 / (e1 - e0) as f64;
                return Skill { level: (l0 as f64 + t * (l1 - l0) as f64).round() as u8 };
            }
        }
        Skill::default()
    }

    /// Whether this is below full strength.
    pub fn limited(&self) -> bool {
        self.level < MAX_LEVEL
    }

    /// The node cap of one move, if any.
    pub fn nodes(&self) -> Option<u64> {
        self.limited().then(|| (64.0 * 1.6f64.powi(self.level as i32)) as u64)
    }

    /// How many lines to search (the candidates the choice is made from).
    pub fn multipv(&self) -> usize {
        if self.limited() {
            3
        } else {
            1
        }
    }

    /// Chooses among `lines` (move, score; best first) with random noise of
    /// up to [`NOISE_CP_PER_LEVEL`] per level below full; `seed` makes the choice.
    pub fn pick(&self, lines: &[(Move, i32)], seed: u64) -> Option<Move> {
        let spread = NOISE_CP_PER_LEVEL * (MAX_LEVEL - self.level.min(MAX_LEVEL)) as i64;
        let mut s = seed | 1;
        lines
            .iter()
            .map(|&(m, score)| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let noise = if spread > 0 { (s % (spread as u64 + 1)) as i64 } else { 0 };
                (score as i64 + noise, m)
            })
            .max_by_key(|x| x.0)
            .map(|x| x.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_maps_monotonically_onto_levels() {
        let mut last = 0;
        for elo in (800..3200).step_by(50) {
            let l = Skill::from_elo(elo).level;
            assert!(l >= last, "{elo}");
            last = l;
        }
        assert_eq!(Skill::from_elo(5000).level, MAX_LEVEL);
        assert_eq!(Skill::from_elo(0).level, ELO_TABLE[0].0);
        assert!(Skill { level: 3 }.nodes().unwrap() < Skill { level: 4 }.nodes().unwrap());
        assert_eq!(Skill::default().nodes(), None);
    }

    #[test]
    fn full_strength_picks_the_best_line_and_weak_levels_vary() {
        let m = |r| Move::from_raw(r);
        let lines = [(m(1), 50), (m(2), 20), (m(3), -300)];
        assert_eq!(Skill::default().pick(&lines, 7), Some(m(1)));
        let weak = Skill { level: 0 };
        let picks: std::collections::HashSet<u16> =
            (0..200).filter_map(|s| weak.pick(&lines, s)).map(|m| m.raw()).collect();
        assert!(picks.contains(&1) && picks.contains(&2), "{picks:?}");
    }
}
