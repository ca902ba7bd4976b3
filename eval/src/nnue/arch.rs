//! The shape of a network, as its file header describes it: first-layer
//! width and king buckets. Inputs, output buckets and quantisation are the
//! same for every Tetrad network.
//!
//! Feature of a piece for one perspective: `bucket · 768 + (colour relative
//! to the perspective) · 384 + kind · 64 + square`, the square seen from the
//! perspective (rank-flipped for Black) and, with mirroring, reflected a↔h
//! when the perspective's own king stands on files e–h. The bucket is that of
//! the perspective's king square (seen the same way). A network without king
//! buckets has one bucket and no mirroring: the plain 768 inputs.

use tetrad_simd::{Bitboards, Color, PieceType};

/// Inputs of one king bucket: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// Widths the kernels take are multiples of this.
pub const WIDTH_STEP: usize = 128;
/// Widest first layer a file may ask for.
pub const MAX_HIDDEN: usize = 1024;
/// Most king buckets a file may ask for.
pub const MAX_KING_BUCKETS: usize = 32;

/// Which bucket each square of the perspective's king selects.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct KingBuckets {
    /// Bucket of each king square (a1 = 0), seen from the perspective; with
    /// `mirror`, only files a–d are read.
    pub map: [u8; 64],
    /// Reflect the board a↔h when the king stands on files e–h.
    pub mirror: bool,
}

impl KingBuckets {
    /// No king buckets: one bucket, no mirroring.
    pub const NONE: KingBuckets = KingBuckets { map: [0; 64], mirror: false };

    /// Four buckets, mirrored: on the first rank the corners (a, b: a castled
    /// king) apart from the centre (c, d: the king at home or castled long),
    /// the second rank, and everything further up.
    pub const FOUR: KingBuckets =
        KingBuckets::from_ranks([[0, 0, 1, 1], [2, 2, 2, 2], [3; 4], [3; 4], [3; 4], [3; 4], [3; 4], [3; 4]]);

    /// Two buckets, not mirrored: the king on files a–d, or on e–h. Grown from
    /// a network without buckets it is the same function exactly (each bucket
    /// a copy), where mirrored buckets read half the positions reflected.
    pub const SIDES: KingBuckets = {
        let mut map = [0u8; 64];
        let mut sq = 0;
        while sq < 64 {
            map[sq] = (sq % 8 >= 4) as u8;
            sq += 1;
        }
        KingBuckets { map, mirror: false }
    };

    /// A mirrored layout from the buckets of files a–d, rank by rank (rank 1 first).
    pub const fn from_ranks(ranks: [[u8; 4]; 8]) -> KingBuckets {
        let mut map = [0u8; 64];
        let mut sq = 0;
        while sq < 64 {
            let file = sq % 8;
            let half = if file < 4 { file } else { 7 - file };
            map[sq] = ranks[sq / 8][half];
            sq += 1;
        }
        KingBuckets { map, mirror: true }
    }

    /// Number of buckets.
    pub fn count(&self) -> usize {
        *self.map.iter().max().unwrap_or(&0) as usize + 1
    }

    /// A layout by name: `none`, `4` (the built-in four), or 32 digits /
    /// letters (0–9, a–v) giving the buckets of files a–d, rank 1 first, mirrored.
    pub fn parse(s: &str) -> Result<KingBuckets, String> {
        match s {
            "none" | "1" => return Ok(KingBuckets::NONE),
            "4" => return Ok(KingBuckets::FOUR),
            "sides" => return Ok(KingBuckets::SIDES),
            _ => {}
        }
        let digits: Vec<u8> = s
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .map(|c| c.to_digit(32).map_or(255, |d| d as u8))
            .collect();
        if !matches!(digits.len(), 32 | 64) || digits.iter().any(|&d| d as usize >= MAX_KING_BUCKETS) {
            return Err(format!(
                "king buckets: expected none, 4, sides, 32 bucket digits (files a-d, rank 1 first, mirrored) \
                 or 64 (a1..h8, not mirrored), got '{s}'"
            ));
        }
        let kb = if digits.len() == 64 {
            KingBuckets { map: digits.try_into().unwrap_or([0; 64]), mirror: false }
        } else {
            let mut ranks = [[0u8; 4]; 8];
            for (i, d) in digits.into_iter().enumerate() {
                ranks[i / 4][i % 4] = d;
            }
            KingBuckets::from_ranks(ranks)
        };
        let used = kb.count();
        if (0..used as u8).any(|b| !kb.map.contains(&b)) {
            return Err(format!("king buckets: every bucket below {used} must be used"));
        }
        Ok(kb)
    }
}

/// A network's shape.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Arch {
    /// First-layer width per perspective (a multiple of [`WIDTH_STEP`]).
    pub hidden: usize,
    /// King buckets of the inputs.
    pub kings: KingBuckets,
}

impl Arch {
    /// The shape of every network before king buckets: 768 → 256.
    pub const PLAIN_256: Arch = Arch { hidden: 256, kings: KingBuckets::NONE };

    /// Input features per perspective.
    pub fn inputs(&self) -> usize {
        INPUTS * self.kings.count()
    }

    /// Whether the kernels and the file format can take this shape.
    pub fn check(&self) -> Result<(), String> {
        if self.hidden == 0 || !self.hidden.is_multiple_of(WIDTH_STEP) || self.hidden > MAX_HIDDEN {
            return Err(format!("width {} is not a multiple of {WIDTH_STEP} up to {MAX_HIDDEN}", self.hidden));
        }
        if self.kings.count() > MAX_KING_BUCKETS {
            return Err(format!("{} king buckets, at most {MAX_KING_BUCKETS}", self.kings.count()));
        }
        Ok(())
    }

    /// Short description: `768x4->512`.
    pub fn describe(&self) -> String {
        let kb = self.kings.count();
        let kb = if kb > 1 || self.kings.mirror {
            format!("x{kb}{}", if self.kings.mirror { "m" } else { "" })
        } else {
            String::new()
        };
        format!("{INPUTS}{kb}->{}", self.hidden)
    }

    /// How one perspective reads the board, given its king's square.
    #[inline(always)]
    pub fn view(&self, perspective: Color, king_sq: usize) -> PerspectiveView {
        let flip = if perspective == Color::White { 0 } else { 56 };
        let k = king_sq ^ flip;
        let mirror = if self.kings.mirror && k % 8 >= 4 { 7 } else { 0 };
        let bucket = self.kings.map[k ^ mirror] as usize;
        PerspectiveView {
            perspective,
            base: bucket * INPUTS,
            squares: flip ^ mirror,
            key: (bucket * 2 + usize::from(mirror != 0)) as u16,
        }
    }

    /// Both perspectives' views of a position.
    #[inline(always)]
    pub fn views(&self, bb: &Bitboards) -> [PerspectiveView; 2] {
        let king = |code: u8| bb.by_code[code as usize].trailing_zeros() as usize & 63;
        [self.view(Color::White, king(6)), self.view(Color::Black, king(14))]
    }
}

/// One perspective's reading of the board: its bucket and square transform.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PerspectiveView {
    perspective: Color,
    base: usize,
    squares: usize,
    /// Bucket and mirror together: accumulators of equal keys differ only by pieces.
    pub key: u16,
}

impl PerspectiveView {
    /// Feature index of a piece.
    #[inline(always)]
    pub fn feature(&self, color: Color, kind: PieceType, sq: usize) -> usize {
        self.base + usize::from(color != self.perspective) * 384 + kind.index() * 64 + (sq ^ self.squares)
    }

    /// Feature index of the piece with CCR code `code` on square 0 of its
    /// block: add [`PerspectiveView::square`] of the square.
    #[inline(always)]
    pub fn code_base(&self, code: u8) -> usize {
        let theirs = usize::from((code & 8 == 0) != (self.perspective == Color::White));
        self.base + theirs * 384 + ((code & 7) as usize).saturating_sub(1) * 64
    }

    /// A square as this perspective reads it.
    #[inline(always)]
    pub fn square(&self, sq: usize) -> usize {
        sq ^ self.squares
    }

    /// Feature index of the piece with CCR code `code` (1..6, 9..14) on `sq`.
    #[inline(always)]
    pub fn feature_of_code(&self, code: u8, sq: usize) -> usize {
        self.code_base(code) + self.square(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_shape_is_the_old_feature_set() {
        let a = Arch::PLAIN_256;
        for sq in 0..64 {
            let w = a.view(Color::White, sq);
            let b = a.view(Color::Black, sq);
            assert_eq!(w.feature(Color::White, PieceType::Knight, 10), 64 + 10);
            assert_eq!(b.feature(Color::White, PieceType::Knight, 10), 384 + 64 + (10 ^ 56));
            assert_eq!((w.key, b.key), (0, 0));
            for code in [1u8, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14] {
                let color = if code & 8 == 0 { Color::White } else { Color::Black };
                let kind = PieceType::from_bits(code & 7).unwrap();
                assert_eq!(b.feature_of_code(code, sq), b.feature(color, kind, sq));
            }
        }
    }

    #[test]
    fn four_buckets_mirror() {
        let a = Arch { hidden: 256, kings: KingBuckets::FOUR };
        assert_eq!(a.kings.count(), 4);
        // g1 is b1 mirrored: castled short and long share a bucket, e1 ~ d1.
        let g1 = a.view(Color::White, 6);
        let b1 = a.view(Color::White, 1);
        assert_eq!(g1.key >> 1, b1.key >> 1);
        assert_ne!(g1.key, b1.key);
        assert_eq!(g1.feature(Color::White, PieceType::Pawn, 15), PieceType::Pawn.index() * 64 + 8);
        // Black's king on g8 reads like White's on g1.
        assert_eq!(a.view(Color::Black, 62).key, g1.key);
        assert_eq!(
            a.view(Color::Black, 62).feature(Color::Black, PieceType::Pawn, 55),
            g1.feature(Color::White, PieceType::Pawn, 15)
        );
        assert_eq!(a.view(Color::White, 4).key >> 1, 1);
        assert_eq!(a.view(Color::White, 12).key >> 1, 2);
        assert_eq!(a.view(Color::White, 60).key >> 1, 3);
        assert_eq!(KingBuckets::parse("00112222333333333333333333333333").unwrap(), KingBuckets::FOUR);
        assert!(KingBuckets::parse("0022").is_err());
        assert!(KingBuckets::parse("00222222333333333333333333333333").is_err(), "bucket 1 unused");
    }

    #[test]
    fn sides_are_not_mirrored() {
        let a = Arch { hidden: 256, kings: KingBuckets::SIDES };
        assert_eq!(a.kings.count(), 2);
        let (b1, g1) = (a.view(Color::White, 1), a.view(Color::White, 6));
        assert_eq!((b1.key, g1.key), (0, 2), "own buckets, no reflection");
        // A pawn on h2 reads as h2 from either side: nothing is reflected.
        assert_eq!(g1.feature(Color::White, PieceType::Pawn, 15), INPUTS + 15);
        assert_eq!(b1.feature(Color::White, PieceType::Pawn, 15), 15);
        // Black's king on g8 is on its kingside too.
        assert_eq!(a.view(Color::Black, 62).key, g1.key);
        let digits = "0000111100001111".repeat(4);
        assert_eq!(KingBuckets::parse(&digits).unwrap(), KingBuckets::SIDES);
        assert_eq!(KingBuckets::parse("sides").unwrap(), KingBuckets::SIDES);
    }
}
