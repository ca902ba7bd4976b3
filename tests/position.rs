//! FEN parsing, hashing and make-move invariants.

mod common;

use common::{random_positions, Rng};
use std::collections::HashMap;
use tetrad_simd::perft::parse_suite;
use tetrad_simd::{legal_moves, Move, MoveKind, Position};

#[test]
fn fen_round_trips() {
    let mut fens: Vec<String> = random_positions(7, 200, 150).iter().map(|p| p.to_fen()).collect();
    {
        let path = common::test_data("perft.epd");
        let cases = parse_suite(&std::fs::read_to_string(path).unwrap()).unwrap();
        fens.extend(cases.into_iter().map(|c| Position::from_fen(&c.fen).unwrap().to_fen()));
    }
    for fen in fens {
        let pos = Position::from_fen(&fen).unwrap();
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
    }
}

#[test]
fn random_and_mutated_fens_never_panic() {
    let mut rng = Rng(0xF00D);
    let base: Vec<String> = random_positions(3, 50, 80).iter().map(|p| p.to_fen()).collect();
    let alphabet = b"pnbrqkPNBRQK12345678/ -wbKQkqa3e6h09x";
    for i in 0..60_000 {
        let mut s: Vec<u8> = if i % 3 == 0 {
            (0..rng.below(80)).map(|_| alphabet[rng.below(alphabet.len())]).collect()
        } else {
            base[rng.below(base.len())].clone().into_bytes()
        };
        for _ in 0..1 + rng.below(3) {
            if s.is_empty() {
                break;
            }
            let at = rng.below(s.len());
            match rng.below(3) {
                0 => s[at] = alphabet[rng.below(alphabet.len())],
                1 => {
                    s.remove(at);
                }
                _ => s.insert(at, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text = String::from_utf8_lossy(&s);
        if let Ok(p) = Position::from_fen(&text) {
            // Anything accepted must be usable: moves generate and FEN re-reads.
            let _ = legal_moves(&p);
            assert!(Position::from_fen(&p.to_fen()).is_ok(), "{text}");
        }
    }
}

#[test]
fn incremental_zobrist_matches_scratch() {
    for pos in random_positions(11, 300, 200) {
        assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.to_fen());
    }
}

/// The prefetch key is the child's key for every plain move and capture
/// that changes no castling right and leaves no en-passant square; any raw
/// move, legal or not, gives some key without panicking.
#[test]
fn key_after_guesses_the_child_key() {
    let (mut exact, mut total) = (0, 0);
    for pos in random_positions(13, 200, 150) {
        for &m in legal_moves(&pos).as_slice() {
            let child = pos.make_move(m);
            total += 1;
            let plain = m.kind() == MoveKind::Normal && child.castling() == pos.castling();
            if plain {
                assert_eq!(pos.key_after(m), child.key(), "{} {}", pos.to_fen(), m);
                exact += 1;
            }
        }
        for raw in (0..=u16::MAX).step_by(97) {
            let _ = pos.key_after(Move::from_raw(raw));
        }
    }
    assert!(exact * 10 > total * 8, "{exact} of {total} moves are plain");
}

#[test]
fn transpositions_share_keys_in_both_schemes() {
    let play = |moves: &[&str]| {
        let mut p = Position::startpos();
        for m in moves {
            p = p.make_move(tetrad_simd::parse_uci_move(&p, m).unwrap());
        }
        p
    };
    let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.key(), b.key());
    assert_eq!(a.direct_key(), b.direct_key());
    let c = play(&["g1f3", "g8f6", "b1c3"]);
    assert_ne!(a.key(), c.key());
    assert_ne!(a.direct_key(), c.direct_key());
    // Along random games: equal positions (by FEN) have equal keys, and the
    // direct key sees no collision among distinct positions.
    let mut by_direct: HashMap<u64, String> = HashMap::new();
    for p in random_positions(5, 400, 120) {
        let fen = p.to_fen();
        let board: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        if let Some(other) = by_direct.insert(p.direct_key(), board.clone()) {
            assert_eq!(other, board, "direct-key collision");
        }
    }
}
