//! The 960 start positions of Chess960, by their standard number (Scharnagl's
//! scheme: 518 is the ordinary start position).

use crate::position::Position;

/// Where the two knights stand among the five squares left after the
/// bishops and the queen, for the knight digit 0..10 of the number.
const KNIGHTS: [(usize, usize); 10] = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// The back rank of start position `n` (taken modulo 960), a to h, in upper case.
pub fn back_rank(n: u16) -> [u8; 8] {
    let n = (n % 960) as usize;
    let mut rank = [0u8; 8];
    // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
    rank[2 * (n % 4) + 1] = b'B';
    rank[2 * (n / 4 % 4)] = b'B';
    let place = |rank: &mut [u8; 8], nth: usize, piece: u8| {
        if let Some(i) = (0..8).filter(|&i| rank[i] == 0).nth(nth) {
            rank[i] = piece;
        }
    };
    place(&mut rank, n / 16 % 6, b'Q');
    let (k1, k2) = KNIGHTS[n / 96];
    // The second knight's index counts the squares before the first was filled.
    place(&mut rank, k2, b'N');
    place(&mut rank, k1, b'N');
    // Rook, king, rook on the three squares left.
    for piece in [b'R', b'K', b'R'] {
        place(&mut rank, 0, piece);
    }
    rank
}

/// Chess960 start position `n` (taken modulo 960).
pub fn chess960_start(n: u16) -> Position {
    let white = back_rank(n);
    let white = String::from_utf8_lossy(&white).into_owned();
    let fen = format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1", white.to_ascii_lowercase());
    // Every rank made here has a king between two rooks: the FEN is valid.
    Position::from_fen(&fen).unwrap_or_else(|_| Position::startpos())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_standard_table() {
        assert_eq!(&back_rank(518), b"RNBQKBNR");
        assert_eq!(&back_rank(0), b"BBQNNRKR");
        assert_eq!(&back_rank(959), b"RKRNNQBB");
        assert_eq!(chess960_start(518), Position::startpos());
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let r = back_rank(n);
            let k = r.iter().position(|&c| c == b'K').unwrap();
            let rooks: Vec<usize> = (0..8).filter(|&i| r[i] == b'R').collect();
            let bishops: Vec<usize> = (0..8).filter(|&i| r[i] == b'B').collect();
            assert!(rooks.len() == 2 && rooks[0] < k && k < rooks[1], "{n}");
            assert!(bishops.len() == 2 && (bishops[0] + bishops[1]) % 2 == 1, "{n}");
            assert!(seen.insert(r));
            assert!(!crate::legal_moves(&chess960_start(n)).is_empty());
        }
    }
}
