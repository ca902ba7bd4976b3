//! Property tests of the UCI line parsers and the command loop: random and
//! mutated `position` / `go` / `setoption` lines must never panic (bad input
//! is reported, not fatal).

use crate::parse::{parse_go, parse_position, GO_KEYWORDS};
use crate::uci::Uci;
use tetrad_simd::{legal_moves, Position};

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/8/8/8/8/8/6q1/7K w - - 0 1",
    "4k3/P7/8/8/8/8/7p/4K3 b - - 0 1",
];

const NUMBERS: [&str; 16] = [
    "0",
    "1",
    "-1",
    "3",
    "50",
    "100",
    "1000",
    "-99999",
    "18446744073709551615",
    "99999999999999999999999",
    "9223372036854775807",
    "-9223372036854775808",
    "1e5",
    "0x10",
    "+7",
    "",
];

const JUNK: [&str; 14] =
    ["", "moves", "fen", "startpos", "value", "name", "é", "\u{0}", "\t", "zzzz", "e2e4e", "a1a1", "e7e8q", "-"];

/// Legal moves from `pos` played at random, with an occasional bad one.
fn move_list(rng: &mut Rng, pos: &Position, plies: usize) -> Vec<String> {
    let mut pos = *pos;
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() || rng.below(40) == 0 {
            out.push(rng.pick(&JUNK).to_string());
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len())];
        out.push(m.to_string());
        pos = pos.make_move(m);
    }
    out
}

fn position_line(rng: &mut Rng) -> String {
    let (head, pos) = if rng.below(2) == 0 {
        ("startpos".to_string(), Position::startpos())
    } else {
        let fen = FENS[rng.below(FENS.len())];
        (format!("fen {fen}"), Position::from_fen(fen).unwrap())
    };
    let plies = rng.below(60);
    format!("position {head} moves {}", move_list(rng, &pos, plies).join(" "))
}

fn go_line(rng: &mut Rng) -> String {
    let mut line = String::from("go");
    for _ in 0..rng.below(6) {
        // One word in thirteen is no keyword at all.
        let key = if rng.below(13) == 12 { "bogus" } else { rng.pick(&GO_KEYWORDS) };
        line += " ";
        line += key;
        match key {
            "infinite" | "ponder" => {}
            "searchmoves" => {
                let n = 1 + rng.below(3);
                for m in move_list(rng, &Position::startpos(), n) {
                    line += " ";
                    line += &m;
                }
            }
            _ => {
                line += " ";
                line += rng.pick(&NUMBERS);
            }
        }
    }
    line
}

fn setoption_line(rng: &mut Rng) -> String {
    const NAMES: [&str; 9] =
        ["Hash", "Threads", "Clear Hash", "Move Overhead", "MultiPV", "Ponder", "hash", "No Such", ""];
    const VALUES: [&str; 10] = ["1", "2", "8", "true", "false", "maybe", "-5", "0", "", "4"];
    match rng.below(4) {
        0 => format!("setoption name {}", rng.pick(&NAMES)),
        1 => format!("setoption {} value {}", rng.pick(&NAMES), rng.pick(&VALUES)),
        _ => format!("setoption name {} value {}", rng.pick(&NAMES), rng.pick(&VALUES)),
    }
}

/// A random line, then with some probability a few random edits.
fn fuzz_line(rng: &mut Rng) -> String {
    let line = match rng.below(3) {
        0 => position_line(rng),
        1 => go_line(rng),
        _ => setoption_line(rng),
    };
    if rng.below(3) != 0 {
        return line;
    }
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        let i = 1 + rng.below(words.len().saturating_sub(1).max(1));
        let i = i.min(words.len());
        match rng.below(6) {
            0 if i < words.len() => {
                words.remove(i);
            }
            1 => words.insert(i, rng.pick(&JUNK).to_string()),
            2 => words.insert(i, rng.pick(&NUMBERS).to_string()),
            3 if i < words.len() => {
                // Change one byte of a word, keeping the text valid UTF-8.
                let mut bytes = words[i].clone().into_bytes();
                if !bytes.is_empty() {
                    let j = rng.below(bytes.len());
                    bytes[j] = b" /-0123456789abcdefghkqrnpKQRBNPwx"[rng.below(34)];
                }
                words[i] = String::from_utf8_lossy(&bytes).into_owned();
            }
            4 if i < words.len() => words.truncate(i),
            _ => {
                let j = rng.below(words.len());
                let k = rng.below(words.len());
                words.swap(j, k);
            }
        }
    }
    words.join(" ")
}

#[test]
fn parsers_never_panic_on_random_lines() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let positions: Vec<Position> = FENS.iter().map(|f| Position::from_fen(f).unwrap()).collect();
    for _ in 0..20_000 {
        let line = fuzz_line(&mut rng);
        let args = line.split_once(' ').map_or("", |(_, rest)| rest);
        match parse_position(args) {
            // A kept position explains a refused move; a refused line says which part was wrong.
            Ok(p) => assert!(
                p.history.len() <= 60 && p.error.as_ref().is_none_or(|e| e.starts_with("illegal or malformed move")),
                "{line}"
            ),
            Err(e) => assert!(e.starts_with("bad FEN: ") || e.starts_with("position: "), "{line}: {e}"),
        }
        let _ = parse_go(args, &positions[rng.below(positions.len())]);
    }
    // Random bytes, too.
    for _ in 0..5_000 {
        let len = rng.below(80);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_position(&text);
        let _ = parse_go(&text, &Position::startpos());
    }
}

#[test]
fn uci_loop_never_panics_on_random_lines() {
    tetrad_search::set_muted(true);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let mut uci = Uci::new();
        for i in 0..1_500 {
            let line = fuzz_line(&mut rng);
            // Keep tables and thread counts small: this runs beside other tests.
            let big_value = line.starts_with("setoption")
                && line
                    .split_once(" value")
                    .is_some_and(|(_, v)| crate::parse::parse_int(v.trim()).is_some_and(|v| v > 8));
            if big_value {
                continue;
            }
            assert!(uci.handle(&line), "{line}");
            if line.starts_with("go") {
                // Searches without a limit of their own would run until stopped.
                if rng.below(4) != 0 {
                    uci.handle("stop");
                }
            }
            match i % 97 {
                0 => assert!(uci.handle("ucinewgame")),
                50 => assert!(uci.handle("isready")),
                _ => {}
            }
        }
        uci.handle("stop");
        assert!(!uci.handle("quit"));
        let _ = tx.send(());
    });
    // A panic in the driver thread drops `tx`; a hang trips the generous guard.
    let done = rx.recv_timeout(std::time::Duration::from_secs(600));
    tetrad_search::set_muted(false);
    assert!(done.is_ok(), "the UCI loop panicked or hung");
}
