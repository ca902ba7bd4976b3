//! Constant geometry tables, built at compile time by `const fn`s: leaper
//! attack sets, ray walks for the CCR generator, and between/line masks.

/// The eight ray directions as (file step, rank step): the first four are
/// orthogonal (rook-like), the last four diagonal (bishop-like).
pub const DIRECTIONS: [(i8, i8); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (-1, 1), (1, -1)];

const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

const fn leaper_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i8;
        let r = (sq / 8) as i8;
        let mut i = 0;
        while i < steps.len() {
            let (df, dr) = steps[i];
            if on_board(f + df, r + dr) {
                t[sq] |= 1u64 << ((r + dr) * 8 + f + df);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Knight attack sets.
pub const KNIGHT_ATTACKS: [u64; 64] =
    leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);

/// King attack sets.
pub const KING_ATTACKS: [u64; 64] =
    leaper_table(&[(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]);

/// Pawn capture sets, `[colour][square]`: the squares a pawn on `square` attacks.
pub const PAWN_ATTACKS: [[u64; 64]; 2] = [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];

/// A ray walk: up to seven squares from a square in one direction, nearest first.
#[derive(Clone, Copy)]
pub struct Ray {
    /// Squares along the ray.
    pub squares: [u8; 7],
    /// How many of `squares` are on the board.
    pub len: u8,
}

const fn ray_table() -> [[Ray; 8]; 64] {
    let mut t = [[Ray { squares: [0; 7], len: 0 }; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            let mut f = (sq % 8) as i8 + df;
            let mut r = (sq / 8) as i8 + dr;
            let mut n = 0;
            while on_board(f, r) {
                t[sq][d].squares[n] = (r * 8 + f) as u8;
                n += 1;
                f += df;
                r += dr;
            }
            t[sq][d].len = n as u8;
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Ray walks, `[square][direction]`.
pub static RAYS: [[Ray; 8]; 64] = ray_table();

const fn ray_masks() -> [[u64; 8]; 64] {
    let rays = ray_table();
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let mut i = 0;
            while i < rays[sq][d].len as usize {
                t[sq][d] |= 1u64 << rays[sq][d].squares[i];
                i += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Ray masks, `[square][direction]`: all squares a slider would see on an empty board.
pub static RAY_MASKS: [[u64; 8]; 64] = ray_masks();

const fn between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let rays = ray_table();
    let masks = ray_masks();
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let mut acc = 0u64;
            let mut i = 0;
            while i < rays[a][d].len as usize {
                let b = rays[a][d].squares[i] as usize;
                between[a][b] = acc;
                // The whole line through a and b: both rays from a, plus a.
                let opposite = d ^ 1;
                line[a][b] = masks[a][d] | masks[a][opposite] | (1u64 << a);
                acc |= 1u64 << b;
                i += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

const BETWEEN_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = between_and_line();

/// Squares strictly between two squares on a common line (0 if not aligned).
pub static BETWEEN: [[u64; 64]; 64] = BETWEEN_LINE.0;

/// The full line through two aligned squares, edge to edge (0 if not aligned).
pub static LINE: [[u64; 64]; 64] = BETWEEN_LINE.1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposite_directions_pair_up() {
        // between_and_line relies on d ^ 1 being the opposite direction.
        for d in 0..8 {
            let (f, r) = DIRECTIONS[d];
            assert_eq!(DIRECTIONS[d ^ 1], (-f, -r));
        }
    }

    #[test]
    fn geometry() {
        assert_eq!(KNIGHT_ATTACKS[0].count_ones(), 2);
        assert_eq!(KING_ATTACKS[27].count_ones(), 8);
        // a1..h8 diagonal: between a1 and h8 are 6 squares.
        assert_eq!(BETWEEN[0][63].count_ones(), 6);
        assert_eq!(LINE[0][9].count_ones(), 8);
        assert_eq!(BETWEEN[0][10], 0);
        assert_eq!(PAWN_ATTACKS[0][8], 1 << 17);
    }
}
