//! The engine score in a PGN move comment, as match runners write it.
//!
//! cutechess-cli and `tools/match.py`: `{+0.34/12 0.123s}`, `{-1.20/9}`,
//! `{+M5/20 0.1s}`; fastchess: `{+0.34/12 0.123s, n=1234, sd=20}`, mate as
//! `+M9` in plies; OpenBench's uploads: `{+0.34/12}`, `{unknown}`. The score
//! is in pawns from the view of the side that moved, searched in the
//! position before the move. Book moves (`{book}`), comments without a score
//! and free text (`{White mates}`) carry none; a comment that starts like a
//! score but is not one is garbage, and makes its game suspect.

/// What a move comment says about the score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CommentScore {
    /// Centipawns from the mover's view.
    Cp(i32),
    /// A mate score: positive when the mover mates (moves or plies, as written).
    Mate(i32),
    /// No score: book move, no comment, free text, a missing score.
    None,
    /// A malformed score.
    Garbage,
}

/// Largest |score| read, in pawns: beyond it a number is garbage, not a score.
const MAX_PAWNS: f64 = 10_000.0;

/// Reads the score at the start of a move comment.
pub fn parse_comment(comment: &str) -> CommentScore {
    let first = comment.split(|c: char| c.is_whitespace() || c == ',').find(|t| !t.is_empty()).unwrap_or("");
    let lower = first.to_ascii_lowercase();
    if first.is_empty() || lower == "book" || lower == "unknown" || lower.starts_with("err") || first.starts_with('/') {
        return CommentScore::None;
    }
    let bytes = first.as_bytes();
    let starts_like_score = matches!(bytes[0], b'+' | b'-' | b'#' | b'0'..=b'9')
        || (bytes[0] == b'M' && bytes.get(1).is_some_and(u8::is_ascii_digit));
    if !starts_like_score {
        return CommentScore::None;
    }
    parse_score(first).unwrap_or(CommentScore::Garbage)
}

/// `[+-](pawns|M<n>|#<n>)[/depth]`.
fn parse_score(token: &str) -> Option<CommentScore> {
    let (value, depth) = match token.split_once('/') {
        Some((v, d)) => (v, Some(d)),
        None => (token, None),
    };
    if let Some(d) = depth {
        if d.is_empty() || d.len() > 4 || !d.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    let (negative, unsigned) = match value.as_bytes().first()? {
        b'+' => (false, &value[1..]),
        b'-' => (true, &value[1..]),
        _ => (false, value),
    };
    let sign = if negative { -1 } else { 1 };
    if let Some(n) = unsigned.strip_prefix('M').or_else(|| unsigned.strip_prefix('#')) {
        // `#-3` (mated in 3) puts its sign after the mark.
        let (n, inner_sign) = n.strip_prefix('-').map_or((n, 1), |n| (n, -1));
        if n.is_empty() || n.len() > 4 || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        return Some(CommentScore::Mate(sign * inner_sign * n.parse::<i32>().ok()?.max(1)));
    }
    let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty()
        || !digits(int)
        || !digits(frac)
        || (unsigned.contains('.') && frac.is_empty())
        || unsigned.len() > 12
    {
        return None;
    }
    let pawns: f64 = unsigned.parse().ok()?;
    (pawns <= MAX_PAWNS).then(|| CommentScore::Cp(sign * (pawns * 100.0).round() as i32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use CommentScore::*;

    #[test]
    fn writers_forms() {
        assert_eq!(parse_comment("+0.34/12 0.123s"), Cp(34));
        assert_eq!(parse_comment(" -1.20/9"), Cp(-120));
        assert_eq!(parse_comment("0.00/7 0.010s"), Cp(0));
        assert_eq!(parse_comment("+0.35/10 0.233s, Draw by adjudication"), Cp(35));
        assert_eq!(parse_comment("-0.07/15 0.512s, n=81234, sd=22, tl=1.2s"), Cp(-7));
        assert_eq!(parse_comment("+12.5/3"), Cp(1250));
        assert_eq!(parse_comment("+0.345/3"), Cp(35));
        assert_eq!(parse_comment("+34"), Cp(3400));
        assert_eq!(parse_comment("+M5/20 0.1s"), Mate(5));
        assert_eq!(parse_comment("-M3"), Mate(-3));
        assert_eq!(parse_comment("M1/1"), Mate(1));
        assert_eq!(parse_comment("#-2/9"), Mate(-2));
    }

    #[test]
    fn no_score() {
        for c in [
            "",
            "  ",
            "book",
            "Book",
            "unknown",
            "ERR/0 0.1s",
            "/12 0.1s",
            "White mates",
            "Draw by 3-fold repetition",
            "[%clk 0:01:00]",
            "Mate",
        ] {
            assert_eq!(parse_comment(c), None, "{c:?}");
        }
    }

    #[test]
    fn garbage() {
        for c in [
            "+",
            "-",
            "+0.3x4/12",
            "+0.34/",
            "+0.34/x",
            "1.2.3/4",
            "+./5",
            "+M/3",
            "#",
            "-1e5/3",
            "+99999999.00/1",
            "0.34/12345",
            "+.5/3",
            "+5./3",
        ] {
            assert_eq!(parse_comment(c), Garbage, "{c:?}");
        }
    }

    #[test]
    fn random_text_never_panics() {
        let alphabet = "+-M#0123456789./, sxé\u{0}";
        let chars: Vec<char> = alphabet.chars().collect();
        let mut rng = 99u64;
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..(rng >> 61) * 3 {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                s.push(chars[(rng >> 40) as usize % chars.len()]);
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
            let _ = parse_comment(&s);
        }
    }
}
