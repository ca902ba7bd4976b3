//! One game's text read by `pgn-reader`, each SAN move found by `shakmaty`
//! on its board and matched to the same move of Tetrad's position.

use super::{clip, MoveError, PgnError, PgnGame, PgnMove, PgnResult};
use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::SanError;
use shakmaty::{CastlingMode, Chess, PositionError};
use std::ops::ControlFlow;
use tetrad_simd::{legal_moves, Move, Position};

/// Reads the first game of `text`; `None` when it holds none.
pub(super) fn read_game(text: &[u8]) -> Option<Result<PgnGame, PgnError>> {
    // Room for a comment or tag as long as the whole text: the reader's
    // default (255 bytes) would call a longer comment unterminated.
    let mut reader =
        Reader::build(text).set_supported_comment_length(text.len()).set_supported_tag_line_length(text.len()).finish();
    let mut visitor = GameVisitor { in_movetext: false };
    match reader.read_game(&mut visitor) {
        Ok(game) => game,
        // Reading from memory, the only errors are the parser's: a comment
        // left open in the movetext, a tag value left open before it.
        Err(_) if visitor.in_movetext => Some(Err(PgnError::Truncated)),
        Err(e) => Some(Err(PgnError::BadTag(e.to_string()))),
    }
}

/// Builds a [`PgnGame`] from the reader's events.
struct GameVisitor {
    /// Whether the tags are read (so an error is in the movetext).
    in_movetext: bool,
}

/// The game so far and the two boards after its last move.
struct Movetext {
    game: PgnGame,
    /// Tetrad's position after the last move.
    pos: Position,
    /// shakmaty's, in step with `pos`.
    board: Chess,
    /// Whether the result token was read (what follows it is ignored).
    ended: bool,
}

impl Movetext {
    /// Plays a SAN move on both boards.
    fn play(&mut self, san: &SanPlus) -> Result<(), PgnError> {
        let bad = |error| PgnError::Move { ply: self.game.moves.len() + 1, san: clip(&san.to_string()), error };
        let m = san.san.to_move(&self.board).map_err(|e| match e {
            SanError::IllegalSan => bad(MoveError::Illegal),
            SanError::AmbiguousSan => bad(MoveError::Ambiguous),
        })?;
        let mv = tetrad_move(&self.pos, &m).ok_or_else(|| bad(MoveError::Disagree))?;
        shakmaty::Position::play_unchecked(&mut self.board, m);
        self.pos = self.pos.make_move(mv);
        self.game.moves.push(PgnMove { mv, comment: String::new() });
        Ok(())
    }
}

/// The legal move of `pos` that is shakmaty's `m`: the same UCI text in the
/// Chess960 form, where castling (king takes own rook) cannot be mistaken for
/// a king step.
pub(super) fn tetrad_move(pos: &Position, m: &shakmaty::Move) -> Option<Move> {
    let from = m.from()?.to_usize();
    let uci = m.to_uci(CastlingMode::Chess960).to_string();
    legal_moves(pos).iter().copied().find(|&t| t.from().index() == from && pos.move_to_uci(t, true) == uci)
}

/// The start position on both boards and whether the game is Chess960.
fn start_of(tags: &[(String, String)]) -> Result<(Position, Chess, bool), PgnError> {
    let tag = |n: &str| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.trim());
    let chess960 = match tag("Variant").map(str::to_ascii_lowercase).as_deref() {
        None | Some("" | "standard" | "from position" | "normal") => false,
        Some("chess960" | "chess 960" | "fischerandom" | "fischer random" | "frc") => true,
        Some(other) => return Err(PgnError::Variant(clip(other))),
    };
    let Some(fen) = tag("FEN") else { return Ok((Position::startpos(), Chess::default(), chess960)) };
    let pos = Position::from_fen(fen).map_err(|e| PgnError::BadFen(e.to_string()))?;
    let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    let setup = Fen::from_ascii(fen.as_bytes()).map_err(|e| PgnError::BadFen(e.to_string()))?;
    // Tetrad plays on from positions with more material than a game can
    // reach or with an odd check; so must its twin.
    let board = setup
        .into_position(mode)
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|e| PgnError::BadFen(e.to_string()))?;
    Ok((pos, board, chess960))
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl Visitor for GameVisitor {
    type Tags = Vec<(String, String)>;
    type Movetext = Movetext;
    type Output = Result<PgnGame, PgnError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let name = name.trim_ascii();
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_') {
            return ControlFlow::Break(Err(PgnError::BadTag(format!("name '{}'", clip(&lossy(name))))));
        }
        tags.push((lossy(name), lossy(&value.decode())));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        self.in_movetext = true;
        match start_of(&tags) {
            Ok((pos, board, chess960)) => {
                let game =
                    PgnGame { tags, start: pos, chess960, moves: Vec::new(), termination: PgnResult::Unfinished };
                ControlFlow::Continue(Movetext { game, pos, board, ended: false })
            }
            Err(e) => ControlFlow::Break(Err(e)),
        }
    }

    fn san(&mut self, movetext: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        if movetext.ended {
            return ControlFlow::Continue(());
        }
        match movetext.play(&san) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(Err(e)),
        }
    }

    fn comment(&mut self, movetext: &mut Self::Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        // A comment belongs to the main-line move before it (none before the first).
        if let (false, Some(last)) = (movetext.ended, movetext.game.moves.last_mut()) {
            let text = lossy(comment.as_bytes());
            if !last.comment.is_empty() {
                last.comment.push(' ');
            }
            last.comment.push_str(text.trim());
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, movetext: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        if !std::mem::replace(&mut movetext.ended, true) {
            movetext.game.termination = match outcome {
                Outcome::Known(KnownOutcome::Decisive { winner: shakmaty::Color::White }) => PgnResult::WhiteWin,
                Outcome::Known(KnownOutcome::Decisive { winner: shakmaty::Color::Black }) => PgnResult::BlackWin,
                Outcome::Known(KnownOutcome::Draw) => PgnResult::Draw,
                Outcome::Unknown => PgnResult::Unfinished,
            };
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        if movetext.ended {
            Ok(movetext.game)
        } else {
            Err(PgnError::Truncated)
        }
    }
}
