//! `tetrad datagen`: labelled positions from self-play, for `train` and `tune`.
//!
//! Each game starts from a book position (picked by the seed) plus a few
//! random legal plies, then Tetrad plays itself at a fixed node budget per
//! move (one thread, its own small table, histories cleared). Games whose
//! start is already lopsided are dropped; long games are adjudicated (a clear
//! win held for four plies, a dead draw for ten). Quiet positions — not in
//! check, best move quiet, no capture winning material by SEE, no mate score —
//! are recorded with the search score and, once the game ends, its result.
//!
//! Game `g` depends only on (seed, g, nodes, book, random plies), so the
//! output depends only on the arguments, never on the thread count. The
//! binary format writes games `[k·G, (k+1)·G)` to shard `k`; `--resume`
//! makes only the shards that are missing.

use crate::cli::{DataFormat, DatagenArgs, EvalChoice};
use tetrad_eval::EvalConfig;
use rayon::prelude::*;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use tetrad_eval::dataset::{self, GameResult, Record};
use tetrad_search::see::see_ge;
use tetrad_search::worker::{SearchJob, SearchShared, Worker};
use tetrad_search::{Limits, TranspositionTable, MATE_IN_MAX};
use tetrad_simd::{ccr_to_bitboards, generate, in_check, legal_moves, Color, GenType, MoveList, Position};

/// A game's start more lopsided than this (cp, first search) is not played.
const MAX_OPENING_SCORE: i32 = 600;
/// Adjudicated as won after this many consecutive plies at or beyond `WIN_SCORE`.
const WIN_PLIES: usize = 4;
const WIN_SCORE: i32 = 1500;
/// Adjudicated as drawn after this many consecutive plies within `DRAW_SCORE`, from `DRAW_MIN_PLY` on.
const DRAW_PLIES: usize = 10;
const DRAW_SCORE: i32 = 8;
const DRAW_MIN_PLY: usize = 80;
/// Games longer than this are drawn.
const MAX_PLIES: usize = 600;

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

/// A finished game: its recorded positions with White-view scores, and the result.
struct Game {
    positions: Vec<(Position, i32)>,
    result: GameResult,
}

/// Whether the side to move has a capture that wins material by SEE.
fn has_winning_capture(pos: &Position) -> bool {
    let mut caps = MoveList::new();
    generate(pos, GenType::Captures, &mut caps);
    let bb = ccr_to_bitboards(pos.ccr());
    caps.iter().any(|&m| see_ge(pos, &bb, m, 1))
}

/// Plays one game from `start` at `nodes` per move.
fn play_game(start: Position, nodes: u64, eval: &EvalConfig, worker: &mut Worker) -> Game {
    let tt = Arc::new(TranspositionTable::new(4));
    worker.clear();
    let mut pos = start;
    let mut history: Vec<u64> = Vec::new();
    let mut positions = Vec::new();
    let (mut win_streak, mut draw_streak) = (0, 0);
    let result = loop {
        if legal_moves(&pos).is_empty() {
            break match (in_check(&pos), pos.side_to_move()) {
                (false, _) => GameResult::Draw,
                (true, Color::White) => GameResult::BlackWin,
                (true, Color::Black) => GameResult::WhiteWin,
            };
        }
        let reps = history.iter().filter(|&&k| k == pos.key()).count();
        if pos.halfmove_clock() >= 100 || reps >= 2 || history.len() > MAX_PLIES {
            break GameResult::Draw;
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
            eval: eval.clone(),
            chess960: false,
            tb: Default::default(),
            show_wdl: false,
            skill: Default::default(),
        };
        tt.new_search();
        let r = worker.search(&job);
        if history.is_empty() && r.score.abs() > MAX_OPENING_SCORE {
            return Game { positions: Vec::new(), result: GameResult::Draw };
        }
        let white_score = if pos.side_to_move() == Color::White { r.score } else { -r.score };
        win_streak = if r.score.abs() >= WIN_SCORE { win_streak + 1 } else { 0 };
        draw_streak = if r.score.abs() <= DRAW_SCORE && history.len() >= DRAW_MIN_PLY { draw_streak + 1 } else { 0 };
        if win_streak >= WIN_PLIES {
            break if white_score > 0 { GameResult::WhiteWin } else { GameResult::BlackWin };
        }
        if draw_streak >= DRAW_PLIES {
            break GameResult::Draw;
        }
        let quiet_best = !pos.is_capture(r.best) && r.best.promo().is_none();
        if !in_check(&pos) && quiet_best && r.score.abs() < MATE_IN_MAX && !has_winning_capture(&pos) {
            positions.push((pos, white_score));
        }
        history.push(pos.key());
        pos = pos.make_move(r.best);
    };
    Game { positions, result }
}

/// The start of game `g`: a book position and `random_plies` random legal moves.
fn game_start(args: &DatagenArgs, book: &[String], g: usize) -> Option<Position> {
    let mut rng = Rng(args.seed ^ (g as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    let fen = &book[rng.below(book.len())];
    let mut pos = Position::from_fen(fen.split(';').next().unwrap_or("")).ok()?;
    for _ in 0..args.random_plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        pos = pos.make_move(moves.as_slice()[rng.below(moves.len())]);
    }
    Some(pos)
}

/// Plays games `range` on the rayon pool; results in game order.
fn play_range(args: &DatagenArgs, book: &[String], range: std::ops::Range<usize>) -> Vec<Game> {
    let eval = EvalChoice::config(args.eval);
    range
        .into_par_iter()
        .map_init(
            || Worker::new(0),
            |worker, g| match game_start(args, book, g) {
                Some(pos) => play_game(pos, args.nodes, &eval, worker),
                None => Game { positions: Vec::new(), result: GameResult::Draw },
            },
        )
        .collect()
}

/// FNV-1a, to name the book's content in the manifest.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01B3))
}

/// The arguments a shard's content depends on (everything but games and
/// threads; the evaluation is named only when it is not the hand-written one,
/// which runs made before the network existed used).
fn manifest(args: &DatagenArgs, book_text: &str) -> String {
    let kind = EvalChoice::config(args.eval).kind;
    let eval = if kind == tetrad_eval::EvalKind::Hce { String::new() } else { format!("eval {}\n", kind.name()) };
    format!(
        "tetrad datagen v1\nseed {}\nnodes {}\nrandom-plies {}\nshard-games {}\nbook-fnv {:016x}\n{eval}",
        args.seed,
        args.nodes,
        args.random_plies,
        args.shard_games,
        fnv(book_text.as_bytes()),
    )
}

/// Rate and ETA for the progress line.
fn progress(start: Instant, positions: usize, games_done: usize, games_left: usize, threads: usize) -> String {
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let pps = positions as f64 / secs;
    let eta = if games_done > 0 { secs / games_done as f64 * games_left as f64 } else { 0.0 };
    format!(
        "positions {positions} ({pps:.0} pos/s, {:.0} pos/s/thread) ETA {:.0}h{:02.0}m",
        pps / threads as f64,
        (eta / 3600.0).floor(),
        (eta % 3600.0) / 60.0
    )
}

/// Game count in a shard's header, if the file is a readable shard.
fn shard_games(path: &Path) -> Option<u32> {
    let mut head = [0u8; dataset::HEADER_SIZE];
    std::fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    (&head[..8] == dataset::MAGIC).then(|| u32::from_le_bytes([head[12], head[13], head[14], head[15]]))
}

fn run_bin(args: &DatagenArgs, book: &[String], book_text: &str, threads: usize) -> i32 {
    let dir = Path::new(&args.out);
    if let Err(e) = std::fs::create_dir_all(dir) {
        errln!("error: cannot create {}: {e}", dir.display());
        return 2;
    }
    let want = manifest(args, book_text);
    let manifest_path = dir.join("datagen.txt");
    match std::fs::read_to_string(&manifest_path) {
        Ok(have) if have != want => {
            errln!("error: {} was made with other arguments:\n{have}these arguments give:\n{want}", dir.display());
            return 2;
        }
        Ok(_) if !args.resume => {
            errln!("error: {} already holds a run; add --resume to go on with it", dir.display());
            return 2;
        }
        Ok(_) => {}
        Err(_) => {
            if let Err(e) = std::fs::write(&manifest_path, &want) {
                errln!("error: cannot write {}: {e}", manifest_path.display());
                return 2;
            }
        }
    }
    let g = args.shard_games.max(1);
    let shards = args.games.div_ceil(g);
    let todo: Vec<usize> = (0..shards)
        .filter(|&k| {
            let expected = ((k + 1) * g).min(args.games) - k * g;
            shard_games(&dataset::shard_path(dir, k)) != Some(expected as u32)
        })
        .collect();
    errln!("{} of {shards} shards to make ({g} games each) in {}, {threads} threads", todo.len(), dir.display());
    let start = Instant::now();
    let (mut positions, mut games_done) = (0usize, 0usize);
    let total_games: usize = todo.iter().map(|&k| ((k + 1) * g).min(args.games) - k * g).sum();
    for &k in &todo {
        let range = k * g..((k + 1) * g).min(args.games);
        let n = range.len();
        let games = play_range(args, book, range);
        let records: Vec<Record> = games
            .iter()
            .flat_map(|game| game.positions.iter().map(move |(p, s)| Record::new(p, *s, game.result)))
            .collect();
        let path = dataset::shard_path(dir, k);
        if let Err(e) = dataset::write_shard(&path, n as u32, &records) {
            errln!("error: writing {} failed: {e}", path.display());
            return 1;
        }
        positions += records.len();
        games_done += n;
        errln!(
            "shard {k:05}: {n} games, {} positions | {games_done}/{total_games} games, {}",
            records.len(),
            progress(start, positions, games_done, total_games - games_done, threads)
        );
    }
    outln!("{positions} positions from {games_done} games written to {} ({} shards in all)", dir.display(), shards);
    0
}

fn run_epd(args: &DatagenArgs, book: &[String], threads: usize) -> i32 {
    let mut out = match std::fs::File::create(&args.out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            errln!("error: cannot create {}: {e}", args.out);
            return 2;
        }
    };
    let start = Instant::now();
    let mut written = 0usize;
    let batch = 64;
    let mut index = 0;
    while index < args.games {
        let end = (index + batch).min(args.games);
        for game in play_range(args, book, index..end) {
            for (pos, score) in &game.positions {
                let full = pos.to_fen();
                let four: Vec<&str> = full.split(' ').take(4).collect();
                let _ = writeln!(out, "{} c9 \"{}\"; ce {score};", four.join(" "), game.result.pgn());
                written += 1;
            }
        }
        index = end;
        err!("\rgames {index}/{} {}", args.games, progress(start, written, index, args.games - index, threads));
    }
    errln!();
    if out.flush().is_err() {
        errln!("error: writing {} failed", args.out);
        return 1;
    }
    outln!("{written} positions from {} games written to {}", args.games, args.out);
    0
}

/// Runs the command; returns the exit code.
pub fn run(args: &DatagenArgs) -> i32 {
    let book_text = match &args.book {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                errln!("error: cannot read {path}: {e}");
                return 2;
            }
        },
        None => tetrad_simd::STARTPOS_FEN.to_string(),
    };
    let book: Vec<String> = book_text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect();
    if book.is_empty() {
        errln!("error: the book has no positions");
        return 2;
    }
    if args.threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global();
    }
    let threads = rayon::current_num_threads();
    match args.format {
        DataFormat::Bin => run_bin(args, &book, &book_text, threads),
        DataFormat::Epd => run_epd(args, &book, threads),
    }
}
