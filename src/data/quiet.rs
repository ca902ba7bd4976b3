//! Which positions of a game become training data: quiet ones, whose score
//! a static evaluation can learn. `datagen` and `datagen --from-pgn` share
//! this test, so their shards hold the same kind of positions.

use tetrad_search::see::see_ge;
use tetrad_search::MATE_IN_MAX;
use tetrad_simd::{generate, in_check, GenType, Move, MoveList, NodeView, Position};

/// Whether the side to move has a capture that wins material by SEE.
pub fn has_winning_capture(pos: &Position) -> bool {
    let mut caps = MoveList::new();
    generate(pos, GenType::Captures, &mut caps);
    let view = NodeView::new(pos);
    caps.iter().any(|&m| see_ge(&view, m, 1))
}

/// Whether `pos`, where `best` was played on a search score of `score`
/// (the mover's view), is a training position: not in check, the best move
/// neither a capture nor a promotion, no mate score, and no capture that
/// wins material (the score would hang on tactics the evaluation cannot see).
pub fn is_quiet_sample(pos: &Position, best: Move, score: i32) -> bool {
    !in_check(pos)
        && !pos.is_capture(best)
        && best.promo().is_none()
        && score.abs() < MATE_IN_MAX
        && !has_winning_capture(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_simd::parse_uci_move;

    fn sample(fen: &str, mv: &str, score: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        is_quiet_sample(&pos, parse_uci_move(&pos, mv).unwrap(), score)
    }

    #[test]
    fn quiet_and_not() {
        let start = tetrad_simd::STARTPOS_FEN;
        assert!(sample(start, "e2e4", 30));
        assert!(!sample(start, "e2e4", MATE_IN_MAX));
        // A capture played, a promotion, a check, a hanging queen to take.
        assert!(!sample("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", 0));
        assert!(!sample("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 900));
        assert!(!sample("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "e1e2", 0));
        assert!(!sample("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e1f1", 0));
    }
}
