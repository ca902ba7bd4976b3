use super::visitor::tetrad_move;
use super::*;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position as _};
use tetrad_simd::legal_moves;

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

fn uci(g: &PgnGame) -> Vec<String> {
    g.positions().map(|(p, m)| p.move_to_uci(m.mv, g.chess960)).collect()
}

#[test]
fn reads_moves_comments_and_tags() {
    let games = read(TWO_GAMES);
    assert_eq!(games.len(), 2);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("Black"), Some("Other \"X\""));
    assert_eq!(g.result(), Some(PgnResult::WhiteWin));
    assert_eq!(g.termination, PgnResult::WhiteWin);
    assert_eq!(uci(g), ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4"]);
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
                [Event \"d\"]\n[Result \"0-1\"]\n\n1. d4 {a} 0-1\n\n\
                [Event \"e\"]\n[FEN \"x\"]\n\n*\n\
                [Bad-Name \"f\"]\n\n*\n\
                [Event \"g\"]\n[Variant \"atomic\"]\n\n*\n\
                [Event \"h\"]\n\n1. e4 { cut at the end";
    let games = read(text);
    assert_eq!(games.len(), 8);
    assert_eq!(games[0].as_ref().unwrap_err(), &PgnError::Truncated);
    assert!(matches!(&games[1], Err(PgnError::Move { ply: 3, error: MoveError::Illegal, san }) if san == "Ke3"));
    // A comment cut off in mid-file ends at the next tag line: game d is whole.
    assert_eq!(games[2].as_ref().unwrap_err(), &PgnError::Truncated);
    let d = games[3].as_ref().unwrap();
    assert_eq!((d.tag("Event"), d.moves.len(), d.moves[0].comment.as_str()), (Some("d"), 1, "a"));
    assert!(matches!(games[4], Err(PgnError::BadFen(_))));
    assert!(matches!(games[5], Err(PgnError::BadTag(_))));
    assert!(matches!(games[6], Err(PgnError::Variant(_))));
    assert_eq!(games[7].as_ref().unwrap_err(), &PgnError::Truncated);
    for e in games.iter().filter_map(|g| g.as_ref().err()) {
        assert!(!e.to_string().is_empty());
    }
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

/// The moves of a one-game text from `fen` (Chess960 when `chess960`).
fn moves_from(fen: &str, chess960: bool, movetext: &str) -> Result<Vec<String>, PgnError> {
    let variant = if chess960 { "[Variant \"Chess960\"]\n" } else { "" };
    parse_game(&format!("{variant}[FEN \"{fen}\"]\n\n{movetext} *")).map(|g| uci(&g))
}

#[test]
fn san_captures_en_passant_promotions_and_disambiguation() {
    let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    assert_eq!(moves_from(ep, false, "exf6 e.p."), Ok(vec!["e5f6".to_string()]));
    let promo = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(moves_from(promo, false, "a8=Q+"), Ok(vec!["a7a8q".to_string()]));
    assert_eq!(moves_from(promo, false, "axb8=N"), Ok(vec!["a7b8n".to_string()]));
    // The promotion piece is required.
    assert!(matches!(moves_from(promo, false, "a8"), Err(PgnError::Move { error: MoveError::Illegal, .. })));
    // Knights on b1 and f1 both reach d2.
    let two = "4k3/8/8/R7/8/8/8/RN2KN2 w - - 0 1";
    assert!(matches!(moves_from(two, false, "Nd2"), Err(PgnError::Move { error: MoveError::Ambiguous, .. })));
    assert_eq!(moves_from(two, false, "Nfd2 Kd7 R5a3"), Ok(vec!["f1d2".into(), "e8d7".into(), "a5a3".into()]));
}

#[test]
fn castling_in_both_spellings_and_chess960() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(moves_from(fen, false, "O-O 0-0-0+"), Ok(vec!["e1g1".into(), "e8c8".into()]));
    // A king step to g1 is never a castle.
    assert!(matches!(moves_from(fen, false, "Kg1"), Err(PgnError::Move { error: MoveError::Illegal, .. })));
    // Chess960: king f1, rook g1; O-O moves the king to g1 and the rook to f1.
    let fen = "1r3kr1/6p1/8/8/8/8/6P1/1R3KR1 w GBgb - 0 1";
    assert_eq!(moves_from(fen, true, "O-O+ Ke7"), Ok(vec!["f1g1".into(), "f8e7".into()]));
    assert_eq!(moves_from(fen, true, "O-O-O Ke8"), Ok(vec!["f1b1".into(), "f8e8".into()]));
    let g = parse_game(&format!("[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n\nO-O *")).unwrap();
    assert!(g.chess960);
    assert_eq!(g.end().to_fen(), "1r3kr1/6p1/8/8/8/8/6P1/1R3RK1 b kq - 1 1");
}

#[test]
fn every_legal_move_reads_back_as_the_same_tetrad_move() {
    // Each of shakmaty's legal moves, written in SAN and read back on its
    // board, matches a different one of Tetrad's legal moves, and all of them.
    let fens = [
        tetrad_simd::STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut checked = 0;
    for fen in fens {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut board: Chess = Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Chess960).unwrap();
        for _ in 0..40 {
            let moves = board.legal_moves();
            let mut found: Vec<Move> = Vec::new();
            for &m in &moves {
                let san = SanPlus::from_move(board.clone(), m).to_string();
                let back = SanPlus::from_ascii(san.as_bytes()).unwrap().san.to_move(&board).unwrap();
                let t = tetrad_move(&pos, &back).unwrap_or_else(|| panic!("{san} in {}", pos.to_fen()));
                assert!(!found.contains(&t), "{san} in {}", pos.to_fen());
                found.push(t);
            }
            assert_eq!(found.len(), legal_moves(&pos).len(), "{}", pos.to_fen());
            checked += found.len();
            if moves.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = moves[(rng % moves.len() as u64) as usize];
            pos = pos.make_move(tetrad_move(&pos, &m).unwrap());
            board.play_unchecked(m);
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn long_comments_are_kept_and_huge_games_skipped() {
    let long = "x".repeat(100_000);
    let g = parse_game(&format!("1. e4 {{{long}}} 1-0")).unwrap();
    assert_eq!(g.moves[0].comment.len(), 100_000);
    let huge =
        format!("[Event \"big\"]\n\n1. e4 {{{}}}\n1-0\n\n[Event \"next\"]\n\n1. d4 *\n", "y\n".repeat(MAX_GAME_BYTES));
    let games = read(&huge);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].as_ref().unwrap_err(), &PgnError::TooLong);
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
}

#[test]
fn byte_order_mark_and_invalid_utf8() {
    let g = read("\u{feff}[Event \"bom\"]\n\n1. e4 *\n");
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].as_ref().unwrap().tag("Event"), Some("bom"));
    let bytes = b"[Event \"\xff\"]\n\n1. e4 {\xfe} *\n";
    let g: Vec<_> = PgnReader::new(&bytes[..]).collect();
    let g = g[0].as_ref().unwrap();
    assert_eq!((g.tag("Event"), g.moves[0].comment.as_str()), (Some("\u{fffd}"), "\u{fffd}"));
}

#[test]
fn random_bytes_never_panic() {
    let pieces: [&[u8]; 18] = [
        b"[Event \"x\"]\n",
        b"[Result \"1-0\"]\n",
        b"[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n",
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
        b"[",
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
