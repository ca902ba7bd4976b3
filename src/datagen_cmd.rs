//! `tetrad datagen`: labelled positions for Texel tuning from self-play.
//!
//! Each game starts from a book position (picked by the seed) plus a few
//! random legal plies, then Tetrad plays itself at a fixed node budget per
//! move (one thread, its own small table). Quiet positions — not in check,
//! best move quiet, no capture winning material by SEE, no mate score — are
//! recorded with the search score and, once the game ends, its result:
//! `FEN c9 "1-0"; ce 34;` (score in centipawns from White's view).
//! The output depends only on the arguments, not on the thread count.

use crate::cli::DatagenArgs;
use rayon::prelude::*;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;
use tetrad_search::see::see_ge;
use tetrad_search::worker::{SearchJob, SearchShared, Worker};
use tetrad_search::{Limits, TranspositionTable, MATE_IN_MAX};
use tetrad_simd::{ccr_to_bitboards, generate_fast, in_check_fast, legal_moves_fast, Color, GenType, MoveList, Position};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Whether the side to move has a capture that wins material by SEE.
fn has_winning_capture(pos: &Position) -> bool {
    let mut caps = MoveList::new();
    generate_fast(pos, GenType::Captures, &mut caps);
    let bb = ccr_to_bitboards(pos.ccr());
    caps.iter().any(|&m| see_ge(pos, &bb, m, 1))
}

/// Plays one game; returns its recorded lines (without results) and the result text.
fn play_game(start: Position, nodes: u64, worker: &mut Worker) -> Vec<String> {
    let tt = Arc::new(TranspositionTable::new(4));
    worker.clear();
    let mut pos = start;
    let mut history: Vec<u64> = Vec::new();
    let mut records: Vec<(String, i32)> = Vec::new();
    let mut win_streak = 0;
    let mut draw_streak = 0;
    let result: &str;
    loop {
        if legal_moves_fast(&pos).is_empty() {
            result = if in_check_fast(&pos) {
                if pos.side_to_move() == Color::White { "0-1" } else { "1-0" }
            } else {
                "1/2-1/2"
            };
            break;
        }
        let reps = history.iter().filter(|&&k| k == pos.key()).count();
        if pos.halfmove_clock() >= 100 || reps >= 2 || history.len() > 600 {
            result = "1/2-1/2";
            break;
        }
        let job = SearchJob {
            root: pos,
            history: history.clone(),
            limits: Limits { nodes: Some(nodes), ..Default::default() },
            start: Instant::now(),
            overhead_ms: 0,
            multipv: 1,
            tt: Arc::clone(&tt),
            shared: Arc::new(SearchShared::new(1)),
            print_info: false,
        };
        tt.new_search();
        let r = worker.search(&job);
        let white_score = if pos.side_to_move() == Color::White { r.score } else { -r.score };
        // Adjudicate clear wins and dead draws, as fast self-play generators do.
        win_streak = if r.score.abs() >= 1500 { win_streak + 1 } else { 0 };
        draw_streak = if r.score.abs() <= 8 && history.len() >= 80 { draw_streak + 1 } else { 0 };
        if win_streak >= 4 {
            result = if white_score > 0 { "1-0" } else { "0-1" };
            break;
        }
        if draw_streak >= 10 {
            result = "1/2-1/2";
            break;
        }
        let quiet_best = pos.piece_at(r.best.to()).is_none() && r.best.promo().is_none();
        if !in_check_fast(&pos) && quiet_best && r.score.abs() < MATE_IN_MAX && !has_winning_capture(&pos) {
            let full = pos.to_fen();
            let four: Vec<&str> = full.split(' ').take(4).collect();
            records.push((four.join(" "), white_score));
        }
        history.push(pos.key());
        pos = pos.make_move(r.best);
    }
    records.into_iter().map(|(fen, score)| format!("{fen} c9 \"{result}\"; ce {score};")).collect()
}

/// Runs the command; returns the exit code.
pub fn run(args: &DatagenArgs) -> i32 {
    let book: Vec<String> = match &args.book {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(t) => t.lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect(),
            Err(e) => {
                errln!("error: cannot read {path}: {e}");
                return 2;
            }
        },
        None => vec![tetrad_simd::STARTPOS_FEN.to_string()],
    };
    let mut out = match std::fs::File::create(&args.out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            errln!("error: cannot create {}: {e}", args.out);
            return 2;
        }
    };
    if args.threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global();
    }
    let start = Instant::now();
    let mut written = 0usize;
    // Games are played in batches; each game's start depends only on (seed, index).
    let batch = 64;
    let mut index = 0;
    while index < args.games {
        let end = (index + batch).min(args.games);
        let lines: Vec<Vec<String>> = (index..end)
            .into_par_iter()
            .map_init(
                || Worker::new(0),
                |worker, g| {
                    let mut rng = Rng(args.seed ^ (g as u64).wrapping_mul(0xA24B_AED4_963E_E407));
                    let fen = &book[rng.below(book.len())];
                    let Ok(mut pos) = Position::from_fen(fen.split(';').next().unwrap_or("")) else { return Vec::new() };
                    for _ in 0..args.random_plies {
                        let moves = legal_moves_fast(&pos);
                        if moves.is_empty() {
                            return Vec::new();
                        }
                        pos = pos.make_move(moves.as_slice()[rng.below(moves.len())]);
                    }
                    play_game(pos, args.nodes, worker)
                },
            )
            .collect();
        for game in lines {
            for l in game {
                let _ = writeln!(out, "{l}");
                written += 1;
            }
        }
        index = end;
        err!("\rgames {index}/{} positions {written} ({:.0} s)", args.games, start.elapsed().as_secs_f64());
    }
    errln!();
    if out.flush().is_err() {
        errln!("error: writing {} failed", args.out);
        return 1;
    }
    outln!("{written} positions from {} games written to {}", args.games, args.out);
    0
}
