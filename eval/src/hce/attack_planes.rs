//! Attack bitboards by attacker class, gathered by the evaluation while it
//! scores the pieces (king safety and threats read them).
//!
//! The classes follow the paper's attack maps (section 4.4): pawns, minor
//! pieces, rooks, queens with the king. (The paper packs them into CCR-shaped
//! nibbles; nothing in the engine read the nibbles, so only the planes remain.)

use tetrad_simd::Color;

/// Four attack bitboards per side, by attacker class.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct AttackPlanes {
    /// `by_class[colour][class]`: squares attacked by that side's pawns (0),
    /// knights and bishops (1), rooks (2), queens and king (3).
    pub by_class: [[u64; 4]; 2],
}

impl AttackPlanes {
    /// Every square a side attacks.
    #[inline(always)]
    pub fn all(&self, c: Color) -> u64 {
        let p = &self.by_class[c.index()];
        p[0] | p[1] | p[2] | p[3]
    }
}
