//! PGN games: tag pairs, the main line's SAN moves replayed on the board with
//! the comment that follows each, and the result.
//!
//! [`PgnReader`] splits a stream into games and [`parse_game`] reads one, so
//! a bad game costs only itself: the reader carries on with the next one.
//! Both accept what cutechess-cli, fastchess, OpenBench (whose compact form
//! has no move numbers) and python-chess write — comments across lines,
//! `;` and `%` lines, variations, NAGs — and neither panics on any input:
//! invalid UTF-8 is replaced, an unterminated comment or a game without a
//! result token is reported as truncated.

use crate::fen::FenError;
use crate::moves::Move;
use crate::position::Position;
use crate::san::{parse_san, SanError};
use std::fmt;
use std::io::BufRead;

/// How a game ended, as PGN writes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PgnResult {
    /// `1-0`.
    WhiteWin,
    /// `0-1`.
    BlackWin,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unfinished,
}

impl PgnResult {
    /// Reads a result token.
    pub fn parse(s: &str) -> Option<PgnResult> {
        match s {
            "1-0" => Some(PgnResult::WhiteWin),
            "0-1" => Some(PgnResult::BlackWin),
            "1/2-1/2" => Some(PgnResult::Draw),
            "*" => Some(PgnResult::Unfinished),
            _ => None,
        }
    }
}

/// One move of the main line and the comment after it.
#[derive(Clone, Debug)]
pub struct PgnMove {
    /// The move, legal in the position before it.
    pub mv: Move,
    /// The text of the comments right after the move, joined by spaces
    /// (without braces; empty when there are none).
    pub comment: String,
}

/// A game read from PGN.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The position the game starts from (`FEN` tag, or the standard start).
    pub start: Position,
    /// Whether the `Variant` tag says Chess960.
    pub chess960: bool,
    /// The main line.
    pub moves: Vec<PgnMove>,
    /// The result token that ends the movetext.
    pub termination: PgnResult,
}

impl PgnGame {
    /// The value of tag `name` (the first one, if repeated).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The `Result` tag, if present and well formed.
    pub fn result(&self) -> Option<PgnResult> {
        self.tag("Result").and_then(|r| PgnResult::parse(r.trim()))
    }

    /// Each move with the position it is played from.
    pub fn positions(&self) -> impl Iterator<Item = (Position, &PgnMove)> + '_ {
        self.moves.iter().scan(self.start, |pos, m| {
            let before = *pos;
            *pos = pos.make_move(m.mv);
            Some((before, m))
        })
    }

    /// The position after the last move.
    pub fn end(&self) -> Position {
        self.moves.iter().fold(self.start, |p, m| p.make_move(m.mv))
    }
}

/// Why a game could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum PgnError {
    /// The movetext stops before a result token (or inside a comment).
    Truncated,
    /// A tag line that is not `[Name "value"]`.
    BadTag(String),
    /// The `FEN` tag does not parse.
    BadFen(FenError),
    /// A `Variant` other than standard chess or Chess960.
    Variant(String),
    /// A move that does not read in its position.
    Move {
        /// Half-move number of the bad move, from 1.
        ply: usize,
        /// The move as written (clipped).
        san: String,
        /// What is wrong with it.
        error: SanError,
    },
    /// A game longer than the reader keeps (the rest of it was skipped).
    TooLong,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Truncated => write!(f, "truncated: no result at the end of the moves"),
            PgnError::BadTag(t) => write!(f, "bad tag line '{t}'"),
            PgnError::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            PgnError::Variant(v) => write!(f, "unsupported variant '{v}'"),
            PgnError::Move { ply, san, error } => write!(f, "move '{san}' at ply {ply}: {error}"),
            PgnError::TooLong => write!(f, "game longer than {MAX_GAME_BYTES} bytes"),
        }
    }
}

impl std::error::Error for PgnError {}

/// Games longer than this (text) are skipped rather than held in memory.
pub const MAX_GAME_BYTES: usize = 4 << 20;

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Whether a line opens a tag pair: `[Name "`.
fn looks_like_tag(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('[') else { return false };
    let name_len = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    name_len > 0 && rest[name_len..].trim_start().starts_with('"')
}

/// Splits a PGN stream into games.
pub struct PgnReader<R: BufRead> {
    input: R,
    /// A line read past the end of the previous game (the next game's first tag).
    pending: Option<String>,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of the games in `input`.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader { input, pending: None, done: false }
    }

    fn next_line(&mut self) -> Option<String> {
        if let Some(l) = self.pending.take() {
            return Some(l);
        }
        let mut buf = Vec::new();
        match self.input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(String::from_utf8_lossy(&buf).into_owned()),
        }
    }

    /// The text of the next game; `Err` when it was too long to keep.
    fn next_chunk(&mut self) -> Option<Result<String, PgnError>> {
        let (mut text, mut movetext, mut in_comment, mut too_long) = (String::new(), false, false, false);
        while let Some(line) = self.next_line() {
            let tag = if in_comment { looks_like_tag(&line) } else { line.trim_start().starts_with('[') };
            if tag && movetext {
                // The next game's tags (a comment left open is the old game's truncation).
                self.pending = Some(line);
                break;
            }
            if tag {
                in_comment = false;
            } else {
                scan_movetext(&line, &mut in_comment, &mut movetext);
            }
            if text.len() + line.len() > MAX_GAME_BYTES {
                too_long = true;
                text.clear();
            }
            if !too_long {
                text.push_str(&line);
            }
        }
        if text.trim().is_empty() && !too_long {
            return None;
        }
        Some(if too_long { Err(PgnError::TooLong) } else { Ok(text) })
    }
}

/// Follows comments through a movetext line and notes whether it holds moves.
fn scan_movetext(line: &str, in_comment: &mut bool, movetext: &mut bool) {
    if !*in_comment && line.starts_with('%') {
        return;
    }
    for c in line.chars() {
        if *in_comment {
            *in_comment = c != '}';
        } else if c == '{' {
            *in_comment = true;
        } else if c == ';' {
            return;
        } else if !c.is_whitespace() {
            *movetext = true;
        }
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_chunk() {
            None => {
                self.done = true;
                None
            }
            Some(chunk) => Some(chunk.and_then(|t| parse_game(&t))),
        }
    }
}

/// Reads one tag line `[Name "value"]` (backslash escapes `\"` and `\\`).
fn parse_tag(line: &str) -> Result<(String, String), PgnError> {
    let bad = || PgnError::BadTag(clip(line.trim()));
    let inner = line.trim().strip_prefix('[').and_then(|s| s.strip_suffix(']')).ok_or_else(bad)?;
    let (name, rest) = inner.trim_start().split_once(char::is_whitespace).ok_or_else(bad)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    let mut chars = rest.trim().strip_prefix('"').ok_or_else(bad)?.chars();
    let mut value = String::new();
    loop {
        match chars.next() {
            Some('\\') => value.push(chars.next().ok_or_else(bad)?),
            Some('"') => break,
            Some(c) => value.push(c),
            None => return Err(bad()),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return Err(bad());
    }
    Ok((name.to_string(), value))
}

/// The start position and variant named by the tags.
fn start_of(tags: &[(String, String)]) -> Result<(Position, bool), PgnError> {
    let tag = |n: &str| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.trim());
    let chess960 = match tag("Variant").map(str::to_ascii_lowercase).as_deref() {
        None | Some("" | "standard" | "from position" | "normal") => false,
        Some("chess960" | "chess 960" | "fischerandom" | "fischer random" | "frc") => true,
        Some(other) => return Err(PgnError::Variant(clip(other))),
    };
    let start = match tag("FEN") {
        Some(fen) => Position::from_fen(fen).map_err(PgnError::BadFen)?,
        None => Position::startpos(),
    };
    Ok((start, chess960))
}

/// A movetext token.
enum Token<'a> {
    Comment(&'a str),
    Open,
    Close,
    Symbol(&'a str),
}

/// Splits movetext into tokens; `None` for an unterminated comment.
fn tokenize(text: &str) -> Option<Vec<Token<'_>>> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut line_start = true;
    while let Some(c) = rest.chars().next() {
        let n = c.len_utf8();
        let at_line_start = std::mem::replace(&mut line_start, c == '\n');
        match c {
            // An escape line: not PGN, left for other programs.
            '%' if at_line_start => rest = rest.find('\n').map_or("", |e| &rest[e..]),
            '{' => {
                let end = rest.find('}')?;
                out.push(Token::Comment(&rest[1..end]));
                rest = &rest[end + 1..];
            }
            ';' => rest = rest.find('\n').map_or("", |e| &rest[e..]),
            '(' => {
                out.push(Token::Open);
                rest = &rest[n..];
            }
            ')' => {
                out.push(Token::Close);
                rest = &rest[n..];
            }
            c if c.is_whitespace() => rest = &rest[n..],
            _ => {
                // At least one character: a stray `}` is a (bad) symbol of its own.
                let end = rest.find(|c: char| c.is_whitespace() || "{};()".contains(c)).unwrap_or(rest.len()).max(n);
                out.push(Token::Symbol(&rest[..end]));
                rest = &rest[end..];
            }
        }
    }
    Some(out)
}

/// The SAN move in a symbol, without a move number in front (`12.`,
/// `12...e5`); `None` for a bare move number, a NAG or `e.p.`.
fn move_of_symbol(sym: &str) -> Option<&str> {
    if sym.starts_with('$') || sym == "e.p." {
        return None;
    }
    let digits = sym.trim_start_matches(|c: char| c.is_ascii_digit());
    let after = digits.trim_start_matches('.');
    if digits.len() < sym.len() && after.len() < digits.len() {
        // A move number, maybe with the move run on (`12.e4`).
        return (!after.is_empty()).then_some(after);
    }
    Some(sym)
}

/// Reads the text of one game: tags, then movetext up to a result token.
pub fn parse_game(text: &str) -> Result<PgnGame, PgnError> {
    let mut tags = Vec::new();
    let mut body_start = text.len();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('[') {
            tags.push(parse_tag(t)?);
        } else if !t.is_empty() && !t.starts_with('%') {
            body_start = offset;
            break;
        }
        offset += line.len();
    }
    let (start, chess960) = start_of(&tags)?;
    let mut game = PgnGame { tags, start, chess960, moves: Vec::new(), termination: PgnResult::Unfinished };
    let mut pos = start;
    let mut depth = 0usize;
    let mut ended = false;
    for token in tokenize(&text[body_start..]).ok_or(PgnError::Truncated)? {
        match token {
            Token::Open => depth += 1,
            Token::Close => depth = depth.saturating_sub(1),
            Token::Comment(c) if depth == 0 => {
                if let Some(last) = game.moves.last_mut() {
                    if !last.comment.is_empty() {
                        last.comment.push(' ');
                    }
                    last.comment.push_str(c.trim());
                }
            }
            Token::Comment(_) => {}
            Token::Symbol(s) if depth == 0 => {
                if let Some(r) = PgnResult::parse(s) {
                    game.termination = r;
                    ended = true;
                    break;
                }
                let Some(san) = move_of_symbol(s) else { continue };
                let mv = parse_san(&pos, san).map_err(|error| PgnError::Move {
                    ply: game.moves.len() + 1,
                    san: clip(san),
                    error,
                })?;
                pos = pos.make_move(mv);
                game.moves.push(PgnMove { mv, comment: String::new() });
            }
            Token::Symbol(_) => {}
        }
    }
    if !ended {
        return Err(PgnError::Truncated);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = r#"[Event "t"]
[White "Tetrad"]
[Black "Other \"X\""]
[Result "1-0"]

1. e4 {+0.30/10 0.1s} 1... e5 {-0.25/9 0.1s} 2. Nf3 $1 (2. Nc3 Nc6 {alt}) 2...
Nc6 {book} 3. Bb5 a6 {+M5/3} {second} 4. Ba4 ; rest of line
% escaped line
1-0

[Event "t2"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]
[Result "1/2-1/2"]

O-O {+1.00/1} Kd7 {-1.00/1} 1/2-1/2
"#;

    fn read(text: &str) -> Vec<Result<PgnGame, PgnError>> {
        PgnReader::new(text.as_bytes()).collect()
    }

    #[test]
    fn reads_moves_comments_and_tags() {
        let games = read(TWO_GAMES);
        assert_eq!(games.len(), 2);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.tag("Black"), Some("Other \"X\""));
        assert_eq!(g.result(), Some(PgnResult::WhiteWin));
        assert_eq!(g.termination, PgnResult::WhiteWin);
        let uci: Vec<String> = g.positions().map(|(p, m)| p.move_to_uci(m.mv, false)).collect();
        assert_eq!(uci, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4"]);
        let comments: Vec<&str> = g.moves.iter().map(|m| m.comment.as_str()).collect();
        assert_eq!(comments, ["+0.30/10 0.1s", "-0.25/9 0.1s", "", "book", "", "+M5/3 second", ""]);
        let g = games[1].as_ref().unwrap();
        assert_eq!(g.moves.len(), 2);
        assert_eq!(g.result(), Some(PgnResult::Draw));
        assert_eq!(g.end().to_fen(), "8/3k4/8/8/8/8/8/5RK1 w - - 2 2");
    }

    #[test]
    fn bad_games_are_reported_and_the_next_one_read() {
        let text = "[Event \"a\"]\n\n1. e4 e5 2. Nf3\n\n\
                    [Event \"b\"]\n\n1. e4 e5 2. Ke3 1-0\n\n\
                    [Event \"c\"]\n\n1. e4 { +0.1/2\n\n\
                    [Event \"d\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n\n\
                    [Event \"e\"]\n[FEN \"x\"]\n\n*\n\
                    [Event \"f\" junk]\n\n*\n\
                    [Event \"g\"]\n[Variant \"atomic\"]\n\n*\n";
        let games = read(text);
        assert_eq!(games.len(), 7);
        assert_eq!(games[0].as_ref().unwrap_err(), &PgnError::Truncated);
        assert!(matches!(games[1], Err(PgnError::Move { ply: 3, error: SanError::Illegal, .. })));
        assert_eq!(games[2].as_ref().unwrap_err(), &PgnError::Truncated);
        assert_eq!(games[3].as_ref().unwrap().moves.len(), 1);
        assert!(matches!(games[4], Err(PgnError::BadFen(_))));
        assert!(matches!(games[5], Err(PgnError::BadTag(_))));
        assert!(matches!(games[6], Err(PgnError::Variant(_))));
    }

    #[test]
    fn openbench_compact_form_and_run_on_numbers() {
        let g = parse_game("[White \"a\"]\n\ne4 {+0.34/12} e5 {unknown} 2.Nf3 2...Nc6 3.O-O-O *").unwrap_err();
        assert!(matches!(g, PgnError::Move { ply: 5, .. }));
        let g = parse_game("e4 {+0.34/12} e5 {unknown} 2.Nf3 2...Nc6 *").unwrap();
        assert_eq!(g.moves.len(), 4);
        assert_eq!(g.termination, PgnResult::Unfinished);
        assert_eq!(g.result(), None);
    }

    #[test]
    fn random_bytes_never_panic() {
        let pieces: [&[u8]; 16] = [
            b"[Event \"x\"]\n",
            b"[Result \"1-0\"]\n",
            b"1. ",
            b"e4 ",
            b"e5 ",
            b"Nf3 ",
            b"{+0.3/1}",
            b"{",
            b"}",
            b"(",
            b")",
            b"1-0",
            b"\n",
            b"O-O ",
            b"\xff\xfe",
            b";c\n",
        ];
        let mut rng = 7u64;
        let mut next = || {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            rng >> 33
        };
        for _ in 0..3000 {
            let mut bytes = Vec::new();
            for _ in 0..next() % 40 {
                if next() % 3 == 0 {
                    bytes.push(next() as u8);
                } else {
                    bytes.extend_from_slice(pieces[next() as usize % pieces.len()]);
                }
            }
            for g in PgnReader::new(bytes.as_slice()).flatten() {
                let _ = g.end();
            }
        }
    }
}
