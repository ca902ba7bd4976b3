//! Properties of the evaluation: colour symmetry, cache transparency, trace
//! consistency, bounds, and the insufficient-material draws.

use tetrad_eval::{coefficients, evaluate_uncached, hce::weights::PARAMS, trace, Evaluator};
use tetrad_simd::{legal_moves, Position};

const PERFT_EPD: &str = "../tests/data/perft.epd";

fn perft_positions() -> Vec<Position> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PERFT_EPD);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(!ci, "CI is set but {} is not readable ({e})", path.display());
        String::new()
    });
    text.lines().filter_map(|l| l.split(';').next()).filter_map(|f| Position::from_fen(f.trim()).ok()).collect()
}

/// Positions from seeded random play (restarting every game or 160 plies).
fn random_positions(n: usize, mut seed: u64) -> Vec<Position> {
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out = Vec::with_capacity(n);
    let mut pos = Position::startpos();
    let mut ply = 0;
    while out.len() < n {
        let moves = legal_moves(&pos);
        if moves.is_empty() || ply >= 160 || pos.halfmove_clock() >= 100 {
            pos = Position::startpos();
            ply = 0;
            continue;
        }
        let m = moves.as_slice()[(next() % moves.len() as u64) as usize];
        pos = pos.make_move(m);
        ply += 1;
        out.push(pos);
    }
    out
}

fn check(ev: &mut Evaluator, pos: &Position, traced: bool) {
    let v = ev.evaluate(pos);
    let flipped = pos.flip_colors();
    assert_eq!(v, ev.evaluate(&flipped), "colour-flip asymmetry: {} vs {}", pos.to_fen(), flipped.to_fen());
    assert_eq!(v, evaluate_uncached(pos), "pawn hash changed the score: {}", pos.to_fen());
    assert!(v.abs() < 16000, "out of range {v}: {}", pos.to_fen());
    if traced {
        let (c, s) = coefficients(pos);
        assert_eq!(s, v, "traced evaluation differs: {}", pos.to_fen());
        assert_eq!(c.score(&PARAMS), v, "coefficients do not reproduce the score: {}", pos.to_fen());
    }
}

#[test]
fn symmetric_on_perft_suite() {
    let positions = perft_positions();
    assert!(positions.len() > 100, "perft.epd not found or empty");
    let mut ev = Evaluator::hce();
    for pos in &positions {
        check(&mut ev, pos, true);
    }
}

#[test]
fn symmetric_on_random_play() {
    let mut ev = Evaluator::hce();
    for (i, pos) in random_positions(100_000, 0x5EED_1234_ABCD_0001).iter().enumerate() {
        check(&mut ev, pos, i % 20 == 0);
    }
}

#[test]
fn insufficient_material_is_zero() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3BK3 b - - 0 1",
        "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1",
        "3nk3/8/8/8/8/8/8/2NNK3 w - - 0 1",
        "3bk3/8/8/8/8/8/8/3BK3 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(Evaluator::hce().evaluate(&pos), 0, "{fen}");
        assert_eq!(trace(&pos).score, 0, "{fen}");
    }
    // Not dead draws: a pawn, a rook, bishop and knight.
    for fen in ["4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "4k3/8/8/8/8/8/8/2BNK3 w - - 0 1"]
    {
        let pos = Position::from_fen(fen).unwrap();
        assert!(Evaluator::hce().evaluate(&pos) > 100, "{fen}");
    }
}

#[test]
fn drawish_endings_are_scaled() {
    let eval = |fen: &str| Evaluator::hce().evaluate(&Position::from_fen(fen).unwrap());
    // Opposite-coloured bishops two pawns up: scaled well below the same-coloured case.
    let ocb = eval("4k1b1/8/8/8/8/8/4PP2/2B1K3 w - - 0 1");
    let same = eval("4kb2/8/8/8/8/8/4PP2/2B1K3 w - - 0 1");
    assert!(ocb * 3 < same * 2, "ocb {ocb} same {same}");
    // Rook against bishop, no pawns: small.
    assert!(eval("4kb2/8/8/8/8/8/8/R3K3 w - - 0 1").abs() < 60);
    // Queen against rook stays winning.
    assert!(eval("4kr2/8/8/8/8/8/8/Q3K3 w - - 0 1") > 200);
}

#[test]
fn sensible_signs() {
    let eval = |fen: &str| Evaluator::hce().evaluate(&Position::from_fen(fen).unwrap());
    assert!(eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").abs() < 40);
    assert!(eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1") < -700);
    assert!(eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1") > 700);
    // Unstoppable passer in a pawn ending vs. a catchable one.
    let free = eval("7k/8/8/8/P7/8/8/K7 w - - 0 1");
    let caught = eval("1k6/8/8/8/P7/8/8/K7 w - - 0 1");
    assert!(free > caught + 300, "free {free} caught {caught}");
}

#[test]
fn trace_prints_every_term() {
    let t = trace(&Position::startpos()).to_string();
    for row in ["Material", "PSQT", "Mobility", "King safety", "Threats", "Passed pawns", "Final evaluation"] {
        assert!(t.contains(row), "{row} missing from\n{t}");
    }
}
