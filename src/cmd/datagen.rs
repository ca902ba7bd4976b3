//! `tetrad datagen`: labelled positions from self-play, for `train` and `tune`.
//!
//! Each game starts from a random walk out of the start position (8 or 9
//! plies, kept when a search finds it balanced; `--walks`% of the games) or
//! from a book position plus a few random legal plies, then Tetrad plays
//! itself at a fixed node budget per move (one thread, its own small table,
//! histories cleared). Games whose start is already lopsided are dropped;
//! long games are adjudicated (a clear win held for four plies, a dead draw
//! for ten). Quiet positions — not in check, best move quiet, no capture
//! winning material by SEE, no mate score — are recorded with the search
//! score in the network's own units (the search-time scaling undone) and,
//! once the game ends, its result.
//!
//! Game `g` depends only on (seed, g, nodes, book, random plies, walks, the
//! network), so the output depends only on the arguments, never on the
//! thread count. The binary format writes games `[k·G, (k+1)·G)` to shard
//! `k`; `--resume` makes only the shards that are missing, and `--shards
//! A..B` only shards A to B − 1, so machines given disjoint ranges of one
//! run make one data set between them.

use crate::cli::{DataFormat, DatagenArgs};
use crate::data::data_file::DataFile;
use crate::data::manifest::fnv;
use crate::data::openings::{self, BalanceCheck, Rng, BALANCED_WINDOW, WALK_ATTEMPTS, WALK_PLIES};
use crate::progress::{positions_text, Progress};
use rayon::prelude::*;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use tetrad_eval::learn::dataset::{self, GameResult, Record};
use tetrad_eval::EvalConfig;
use tetrad_search::worker::Worker;
use tetrad_search::TranspositionTable;
use tetrad_simd::{in_check, legal_moves, Color, Position};

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
/// Table size of each player thread, MiB.
const TABLE_MB: usize = 4;

/// A finished game: its recorded positions with White-view scores (in the
/// network's units: see [`EvalConfig::network_units`]), and the result.
struct Game {
    positions: Vec<(Position, i32)>,
    result: GameResult,
}

/// Plays one game from `start` at `nodes` per move.
fn play_game(
    start: Position,
    nodes: u64,
    eval: &EvalConfig,
    worker: &mut Worker,
    tt: &mut Arc<TranspositionTable>,
) -> Game {
    TranspositionTable::clear(tt);
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
        let r = openings::search_move(&pos, history.clone(), nodes, eval, false, worker, tt);
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
        if crate::data::quiet::is_quiet_sample(&pos, r.best, r.score) {
            let units = eval.network_units(white_score, &pos);
            positions.push((pos, units));
        }
        history.push(pos.key());
        pos = pos.make_move(r.best);
    };
    Game { positions, result }
}

/// The start of game `g`: with probability `--walks`%, a random walk of
/// 8 or 9 plies from the start position that a search of `--nodes` finds
/// balanced; otherwise a book position and `--random-plies` random plies.
fn game_start(
    args: &DatagenArgs,
    book: &[Position],
    g: usize,
    check: &BalanceCheck,
    worker: &mut Worker,
    tt: &mut Arc<TranspositionTable>,
) -> Option<Position> {
    let mut rng = Rng::for_item(args.seed, g as u64);
    if args.walks > 0 && rng.below(100) < args.walks as usize {
        let plies = WALK_PLIES + rng.below(2);
        return openings::balanced_walk(&Position::startpos(), plies, &mut rng, check, worker, tt).map(|(p, _)| p);
    }
    let base = book[rng.below(book.len())];
    openings::random_walk(base, args.random_plies, &mut rng)
}

/// Plays games `range` on the rayon pool; results in game order.
fn play_range(args: &DatagenArgs, eval: &EvalConfig, book: &[Position], range: std::ops::Range<usize>) -> Vec<Game> {
    let check = BalanceCheck {
        nodes: args.nodes,
        window: BALANCED_WINDOW,
        attempts: WALK_ATTEMPTS,
        eval: eval.clone(),
        chess960: false,
    };
    range
        .into_par_iter()
        .map_init(
            || (Worker::new(0), Arc::new(TranspositionTable::new(TABLE_MB))),
            |(worker, tt), g| match game_start(args, book, g, &check, worker, tt) {
                Some(pos) => play_game(pos, args.nodes, eval, worker, tt),
                None => Game { positions: Vec::new(), result: GameResult::Draw },
            },
        )
        .collect()
}

/// The arguments a shard's content depends on (everything but games and
/// threads; the evaluation is named only when it is not the hand-written one,
/// which runs made before the network existed used).
fn manifest(args: &DatagenArgs, eval: &EvalConfig, book_text: &str) -> String {
    let eval = if eval.kind == tetrad_eval::EvalKind::Hce {
        String::new()
    } else {
        format!("eval {}\nnet-fnv {:016x}\n", eval.kind.name(), fnv(&eval.net.to_bytes()))
    };
    format!(
        "tetrad datagen v2\nscores network\nseed {}\nnodes {}\nrandom-plies {}\nwalks {}\nshard-games {}\nbook-fnv {:016x}\n{eval}",
        args.seed,
        args.nodes,
        args.random_plies,
        args.walks,
        args.shard_games,
        fnv(book_text.as_bytes()),
    )
}

/// Game count in a shard's header, if the file is a readable shard.
fn shard_games(path: &Path) -> Option<u32> {
    let mut head = [0u8; dataset::HEADER_SIZE];
    std::fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    (&head[..8] == dataset::MAGIC).then(|| u32::from_le_bytes([head[12], head[13], head[14], head[15]]))
}

fn run_bin(args: &DatagenArgs, eval: &EvalConfig, book: &[Position], book_text: &str, threads: usize) -> i32 {
    let dir = Path::new(&args.out);
    if let Err(e) = std::fs::create_dir_all(dir) {
        errln!("error: cannot create {}: {e}", dir.display());
        return 2;
    }
    let want = manifest(args, eval, book_text);
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
    let range = match &args.shards {
        Some(r) => r.start.min(shards)..r.end.min(shards),
        None => 0..shards,
    };
    let todo: Vec<usize> = range
        .filter(|&k| {
            let expected = ((k + 1) * g).min(args.games) - k * g;
            shard_games(&dataset::shard_path(dir, k)) != Some(expected as u32)
        })
        .collect();
    errln!("{} of {shards} shards to make ({g} games each) in {}, {threads} threads", todo.len(), dir.display());
    let start = Instant::now();
    let (mut positions, mut games_done) = (0usize, 0usize);
    let total_games: usize = todo.iter().map(|&k| ((k + 1) * g).min(args.games) - k * g).sum();
    let mut progress = Progress::new("datagen", total_games as u64, "games");
    for &k in &todo {
        let range = k * g..((k + 1) * g).min(args.games);
        let n = range.len();
        let games = play_range(args, eval, book, range);
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
        progress.println(&format!("shard {k:05}: {n} games, {} positions", records.len()));
        progress.message(positions_text(start, positions, threads));
        progress.inc(n as u64);
    }
    progress.finish();
    outln!("{positions} positions from {games_done} games written to {} ({} shards in all)", dir.display(), shards);
    0
}

/// `--format epd|bullet`: one file at `--out`, written in batches of games.
fn run_file(args: &DatagenArgs, eval: &EvalConfig, book: &[Position], threads: usize) -> i32 {
    let mut out = match DataFile::create(&args.out, args.format) {
        Ok(f) => f,
        Err(e) => {
            errln!("error: cannot create {}: {e}", args.out);
            return 2;
        }
    };
    let start = Instant::now();
    let mut written = 0usize;
    let batch = 64;
    let mut index = 0;
    let mut progress = Progress::new("datagen", args.games as u64, "games");
    while index < args.games {
        let end = (index + batch).min(args.games);
        let records: Vec<Record> = play_range(args, eval, book, index..end)
            .iter()
            .flat_map(|game| game.positions.iter().map(move |(p, s)| Record::new(p, *s, game.result)))
            .collect();
        match out.write(&records) {
            Ok(n) => written += n,
            Err(e) => {
                errln!("\nerror: writing {} failed: {e}", args.out);
                return 1;
            }
        }
        index = end;
        progress.message(positions_text(start, written, threads));
        progress.set(index as u64);
    }
    progress.finish();
    if let Err(e) = out.finish() {
        errln!("error: writing {} failed: {e}", args.out);
        return 1;
    }
    outln!("{written} positions from {} games written to {}", args.games, args.out);
    0
}

/// Runs the command; returns the exit code.
pub fn run(args: &DatagenArgs) -> i32 {
    let eval = match args.eval.config() {
        Ok(e) => e,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    if !args.from_pgn.is_empty() {
        return crate::data::from_pgn::run(args, &eval);
    }
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
    let book = openings::parse_book(&book_text);
    if book.is_empty() {
        errln!("error: the book has no positions");
        return 2;
    }
    if args.threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global();
    }
    let threads = rayon::current_num_threads();
    match args.format {
        DataFormat::Bin => run_bin(args, &eval, &book, &book_text, threads),
        DataFormat::Epd | DataFormat::Bullet if args.shards.is_some() || args.resume => {
            errln!("error: --shards and --resume need --format bin (shards are its files)");
            2
        }
        DataFormat::Epd | DataFormat::Bullet => run_file(args, &eval, &book, threads),
    }
}
