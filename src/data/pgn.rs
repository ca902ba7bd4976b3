//! PGN games through the ecosystem's reader: `pgn-reader` tokenizes the
//! movetext and `shakmaty` reads each SAN move on its own board, which is
//! kept in step with a Tetrad [`Position`] so that the game comes out as
//! Tetrad's moves.
//!
//! [`PgnReader`] first cuts the stream into games itself, so that a bad game
//! costs only itself: a comment cut off in mid-file ends at the next tag line
//! (pgn-reader would read on to the next `}`, swallowing the next game and
//! taking its result), and a game larger than [`MAX_GAME_BYTES`] is skipped
//! rather than held. Then pgn-reader reads each game's text. Nothing panics
//! on any input: invalid UTF-8 is replaced, a comment left open or a game
//! without a result token is reported as truncated.
//!
//! pgn-reader passes over a token that is not SAN at all (`Zf3`) without a
//! word; the move after it then usually falls to the wrong side and is
//! reported as illegal.

mod visitor;

use std::fmt;
use std::io::BufRead;
use tetrad_simd::{Move, Position};

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

/// What is wrong with a move of the movetext.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// No legal move fits it.
    Illegal,
    /// More than one legal move fits it (missing disambiguation).
    Ambiguous,
    /// Legal on shakmaty's board but not on Tetrad's: the two move
    /// generators disagree (a bug, or a FEN the two read differently).
    Disagree,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::Illegal => "no legal move fits it",
            MoveError::Ambiguous => "more than one legal move fits it",
            MoveError::Disagree => "legal for shakmaty but not for Tetrad's move generator",
        })
    }
}

/// Why a game could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum PgnError {
    /// The movetext stops before a result token (or inside a comment).
    Truncated,
    /// A tag pair that does not read: a bad name or an unterminated value.
    BadTag(String),
    /// The `FEN` tag does not give a legal position (the reason).
    BadFen(String),
    /// A `Variant` other than standard chess or Chess960.
    Variant(String),
    /// A move that does not read in its position.
    Move {
        /// Half-move number of the bad move, from 1.
        ply: usize,
        /// The move (as SAN, clipped).
        san: String,
        /// What is wrong with it.
        error: MoveError,
    },
    /// A game longer than the reader keeps (the rest of it was skipped).
    TooLong,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Truncated => write!(f, "truncated: no result at the end of the moves"),
            PgnError::BadTag(t) => write!(f, "bad tag pair: {t}"),
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

/// The first 40 characters of `s` (for error messages).
fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Reads the first game of `text`: tags, then movetext up to a result token
/// (the tests' way in; files go through [`PgnReader`]).
#[cfg(test)]
pub fn parse_game(text: &str) -> Result<PgnGame, PgnError> {
    visitor::read_game(text.as_bytes()).unwrap_or(Err(PgnError::Truncated))
}

/// Splits a PGN stream into games and reads each.
pub struct PgnReader<R: BufRead> {
    input: R,
    /// A line read past the end of the previous game (the next game's first tag).
    pending: Option<Vec<u8>>,
    /// Whether the first line (which may start with a byte-order mark) is read.
    started: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of the games in `input`.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader { input, pending: None, started: false }
    }

    /// The next line; a read error ends the input like its end does.
    fn next_line(&mut self) -> Option<Vec<u8>> {
        if let Some(l) = self.pending.take() {
            return Some(l);
        }
        let mut buf = Vec::new();
        match self.input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                // A byte-order mark would hide the first tag line from the splitting.
                if !std::mem::replace(&mut self.started, true) && buf.starts_with(b"\xef\xbb\xbf") {
                    buf.drain(..3);
                }
                Some(buf)
            }
        }
    }

    /// The text of the next game: up to the next tag line after its
    /// movetext, or (in an open comment) up to the next line that looks like
    /// a tag pair. `Err` when it was too long to keep.
    fn next_chunk(&mut self) -> Option<Result<Vec<u8>, PgnError>> {
        let (mut text, mut movetext, mut in_comment, mut too_long) = (Vec::new(), false, false, false);
        while let Some(line) = self.next_line() {
            let tag = if in_comment { looks_like_tag(&line) } else { line.trim_ascii_start().starts_with(b"[") };
            if tag && movetext {
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
                text.extend_from_slice(&line);
            }
        }
        if text.trim_ascii().is_empty() && !too_long {
            return None;
        }
        Some(if too_long { Err(PgnError::TooLong) } else { Ok(text) })
    }
}

/// Whether a line opens a tag pair: `[Name "`.
fn looks_like_tag(line: &[u8]) -> bool {
    let Some(rest) = line.trim_ascii_start().strip_prefix(b"[") else { return false };
    let name_len = rest.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    name_len > 0 && rest[name_len..].trim_ascii_start().starts_with(b"\"")
}

/// Follows comments through a movetext line and notes whether it holds moves.
fn scan_movetext(line: &[u8], in_comment: &mut bool, movetext: &mut bool) {
    if !*in_comment && line.starts_with(b"%") {
        return;
    }
    for &c in line {
        if *in_comment {
            *in_comment = c != b'}';
        } else if c == b'{' {
            *in_comment = true;
        } else if c == b';' {
            return;
        } else if !c.is_ascii_whitespace() {
            *movetext = true;
        }
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.next_chunk()? {
                Err(e) => return Some(Err(e)),
                // A chunk with no game in it (only `%` lines) is passed over.
                Ok(text) => {
                    if let Some(game) = visitor::read_game(&text) {
                        return Some(game);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
