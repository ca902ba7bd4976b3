//! `tetrad datagen --from-pgn FILE… --out DIR`: training positions from
//! games already played, so every match (cutechess-cli, fastchess, an
//! OpenBench DATAGEN workload, `tools/match.py`) is data too.
//!
//! Each move's comment carries the mover's search score in the position
//! before the move ([`crate::data::pgn_score`]). That position is kept when the
//! score is a centipawn score and the position passes the same quiet test as
//! `datagen`'s ([`crate::data::quiet`]), with the move played as the best move.
//! Scores go into records from White's view and, for Tetrad's games, in the
//! network's units like `datagen`'s ([`tetrad_eval::EvalConfig::network_units`]:
//! the PGN has the search's scores); another engine's centipawns are kept
//! as they are (`--units`). With `--player NAME` only that player's moves
//! are kept: an opponent's centipawns are not ours.
//!
//! A game is skipped, and counted, when it cannot be read (truncated, an
//! illegal move, a bad tag, FEN or variant), has no result (`*` or no
//! `Result` tag: the record needs one), or has a garbage score comment.

use crate::cli::{DataFormat, DatagenArgs, ScoreUnits};
use crate::data::data_file::DataFile;
use crate::data::pgn::{PgnError, PgnGame, PgnReader, PgnResult};
use crate::data::pgn_score::{parse_comment, CommentScore};
use crate::data::quiet::is_quiet_sample;
use crate::progress::Progress;
use std::fmt;
use std::path::{Path, PathBuf};
use tetrad_eval::learn::dataset::{self, GameResult, Record};
use tetrad_eval::EvalConfig;
use tetrad_simd::Color;

/// Skipped games whose reason is printed; the rest are only counted.
const REASONS_SHOWN: usize = 10;

/// What to keep of a game.
pub struct Options {
    /// Only this player's scores (White/Black tag), or everyone's.
    pub player: Option<String>,
    /// Whose units the scores are in.
    pub units: ScoreUnits,
    /// The evaluation whose units Tetrad's scores are turned into.
    pub eval: EvalConfig,
}

/// Why a game gave no records.
#[derive(Debug)]
pub enum Skip {
    /// The PGN reader refused it.
    Unreadable(PgnError),
    /// No decisive `Result` tag (missing, or `*`).
    NoResult,
    /// A move comment that starts like a score but is not one.
    Garbage {
        /// Half-move number of the move, from 1.
        ply: usize,
        /// The comment (clipped).
        comment: String,
    },
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Unreadable(e) => write!(f, "{e}"),
            Skip::NoResult => write!(f, "no result (Result tag missing or '*')"),
            Skip::Garbage { ply, comment } => write!(f, "garbage score comment '{{{comment}}}' at ply {ply}"),
        }
    }
}

/// Games by what became of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games read and converted (possibly into no positions).
    pub converted: usize,
    /// Positions written.
    pub positions: usize,
    /// Converted games in which `--player` did not play.
    pub without_player: usize,
    /// Skipped: the movetext stops before a result token.
    pub truncated: usize,
    /// Skipped: a move that is illegal or does not parse.
    pub illegal: usize,
    /// Skipped: a bad tag, FEN or variant, or a game too long to hold.
    pub bad_header: usize,
    /// Skipped: no result.
    pub no_result: usize,
    /// Skipped: a garbage score comment.
    pub garbage: usize,
}

impl Tally {
    /// All skipped games.
    pub fn skipped(&self) -> usize {
        self.truncated + self.illegal + self.bad_header + self.no_result + self.garbage
    }

    fn count(&mut self, skip: &Skip) {
        match skip {
            Skip::Unreadable(PgnError::Truncated) => self.truncated += 1,
            Skip::Unreadable(PgnError::Move { .. }) => self.illegal += 1,
            Skip::Unreadable(_) => self.bad_header += 1,
            Skip::NoResult => self.no_result += 1,
            Skip::Garbage { .. } => self.garbage += 1,
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} positions from {} games; {} games skipped ({} truncated, {} illegal move, {} no result, {} garbage comment, {} bad tag/FEN/variant)",
            self.positions,
            self.converted,
            self.skipped(),
            self.truncated,
            self.illegal,
            self.no_result,
            self.garbage,
            self.bad_header
        )?;
        if self.without_player > 0 {
            write!(f, "; the player was in none of {} games", self.without_player)?;
        }
        Ok(())
    }
}

/// The training records of one game (none of whose moves are the player's
/// when `--player` names someone else), or why it is skipped.
pub fn game_records(game: &PgnGame, opts: &Options) -> Result<Vec<Record>, Skip> {
    let result = match game.result() {
        Some(PgnResult::WhiteWin) => GameResult::WhiteWin,
        Some(PgnResult::BlackWin) => GameResult::BlackWin,
        Some(PgnResult::Draw) => GameResult::Draw,
        Some(PgnResult::Unfinished) | None => return Err(Skip::NoResult),
    };
    let name = |c: Color| game.tag(if c == Color::White { "White" } else { "Black" }).unwrap_or("").trim();
    let keep = |c: Color| opts.player.as_deref().is_none_or(|p| name(c) == p.trim());
    let tetrad = |c: Color| match opts.units {
        ScoreUnits::Auto => name(c).to_ascii_lowercase().contains("tetrad"),
        ScoreUnits::Tetrad => true,
        ScoreUnits::AsIs => false,
    };
    let mut records = Vec::new();
    for (ply, (pos, m)) in game.positions().enumerate() {
        let cp = match parse_comment(&m.comment) {
            CommentScore::Cp(cp) => cp,
            CommentScore::Mate(_) | CommentScore::None => continue,
            CommentScore::Garbage => {
                return Err(Skip::Garbage { ply: ply + 1, comment: m.comment.chars().take(40).collect() })
            }
        };
        let mover = pos.side_to_move();
        if !keep(mover) || !is_quiet_sample(&pos, m.mv, cp) {
            continue;
        }
        let white_cp = if mover == Color::White { cp } else { -cp };
        let score = if tetrad(mover) { opts.eval.network_units(white_cp, &pos) } else { white_cp };
        let mut rec = Record::new(&pos, score, result);
        if game.chess960 {
            // The record has no rook files; the network's inputs do not see castling anyway.
            rec.flags &= 1;
        }
        records.push(rec);
    }
    Ok(records)
}

/// Where the records go: numbered shards in a directory, or one file.
enum Output {
    Shards { dir: PathBuf, shard_games: usize, next: usize, games: usize, records: Vec<Record> },
    File(DataFile),
}

impl Output {
    fn add_game(&mut self, records: Vec<Record>) -> std::io::Result<()> {
        match self {
            Output::File(f) => f.write(&records).map(|_| ()),
            Output::Shards { shard_games, games, records: pending, .. } => {
                pending.extend(records);
                *games += 1;
                if *games >= *shard_games {
                    self.flush_shard()?;
                }
                Ok(())
            }
        }
    }

    fn flush_shard(&mut self) -> std::io::Result<()> {
        if let Output::Shards { dir, next, games, records, .. } = self {
            if *games > 0 {
                dataset::write_shard(&dataset::shard_path(dir, *next), *games as u32, records)?;
                *next += 1;
                *games = 0;
                records.clear();
            }
        }
        Ok(())
    }

    fn finish(mut self) -> std::io::Result<()> {
        self.flush_shard()?;
        match self {
            Output::File(f) => f.finish(),
            Output::Shards { .. } => Ok(()),
        }
    }
}

/// Opens the output: an empty (or new) directory of shards, or a file.
fn open_output(args: &DatagenArgs) -> Result<Output, String> {
    if args.format != DataFormat::Bin {
        return DataFile::create(&args.out, args.format)
            .map(Output::File)
            .map_err(|e| format!("cannot create {}: {e}", args.out));
    }
    let dir = Path::new(&args.out);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let taken = dataset::list_shards(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    if !taken.is_empty() || dir.join("datagen.txt").exists() {
        return Err(format!(
            "{} already holds data; convert into an empty directory (train takes several --data)",
            dir.display()
        ));
    }
    let manifest = format!(
        "tetrad datagen --from-pgn v1\nscores network\nunits {:?}\nplayer {}\nfiles {}\n",
        args.units,
        args.player.as_deref().unwrap_or("*"),
        args.from_pgn.join(" ")
    );
    std::fs::write(dir.join("datagen.txt"), manifest).map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
    Ok(Output::Shards {
        dir: dir.to_path_buf(),
        shard_games: args.shard_games.max(1),
        next: 0,
        games: 0,
        records: Vec::new(),
    })
}

/// A reader that counts the bytes read through it (the progress of a PGN file).
struct Counted<R> {
    inner: R,
    read: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// Runs the conversion with `eval` (the network whose units Tetrad's scores
/// are turned into); returns the exit code.
pub fn run(args: &DatagenArgs, eval: &EvalConfig) -> i32 {
    // Every input must open before anything is written.
    for path in &args.from_pgn {
        if let Err(e) = std::fs::File::open(path) {
            errln!("error: cannot read {path}: {e}");
            return 2;
        }
    }
    let mut out = match open_output(args) {
        Ok(o) => o,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let opts = Options { player: args.player.clone(), units: args.units, eval: eval.clone() };
    let mut tally = Tally::default();
    let total: u64 = args.from_pgn.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let mut progress = Progress::new("from-pgn", total, "bytes");
    let read = std::rc::Rc::new(std::cell::Cell::new(0u64));
    for path in &args.from_pgn {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                errln!("error: cannot read {path}: {e}");
                return 2;
            }
        };
        let counted = Counted { inner: file, read: std::rc::Rc::clone(&read) };
        for (i, game) in PgnReader::new(std::io::BufReader::new(counted)).enumerate() {
            progress.set(read.get());
            progress.message(format!("{} games, {} positions", tally.converted, tally.positions));
            let converted = game.map_err(Skip::Unreadable).and_then(|g| {
                let played =
                    opts.player.as_deref().is_none_or(|p| [g.tag("White"), g.tag("Black")].contains(&Some(p.trim())));
                game_records(&g, &opts).map(|r| (r, played))
            });
            match converted {
                Ok((records, played)) => {
                    tally.converted += 1;
                    tally.without_player += usize::from(!played);
                    tally.positions += records.len();
                    if let Err(e) = out.add_game(records) {
                        errln!("error: writing to {} failed: {e}", args.out);
                        return 1;
                    }
                }
                Err(skip) => {
                    if tally.skipped() < REASONS_SHOWN {
                        progress.println(&format!("{path}: game {} skipped: {skip}", i + 1));
                    }
                    tally.count(&skip);
                }
            }
        }
    }
    progress.set(read.get());
    progress.finish();
    if let Err(e) = out.finish() {
        errln!("error: writing to {} failed: {e}", args.out);
        return 1;
    }
    outln!("{tally}; written to {}", args.out);
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::pgn::parse_game;

    fn opts(player: Option<&str>, units: ScoreUnits) -> Options {
        Options { player: player.map(str::to_string), units, eval: EvalConfig::default() }
    }

    const GAME: &str = "[White \"Tetrad A\"]\n[Black \"Other\"]\n[Result \"0-1\"]\n\n\
        1. e4 {book} e5 {book} 2. Nf3 {+0.40/10 0.1s} Nc6 {+0.25/9 0.1s} 3. Bb5 {-0.10/10} Nf6 {+M7/12} 4. d3 {/0 0.1s} a6 {-0.50/9} 0-1\n";

    #[test]
    fn scores_take_the_movers_sign_and_the_units_of_its_engine() {
        let g = parse_game(GAME).unwrap();
        let recs = game_records(&g, &opts(None, ScoreUnits::AsIs)).unwrap();
        // Nf3 (White +40), Nc6 (Black +25 → White −25), Bb5 (White −10), a6 (Black −50 → White +50);
        // book moves, the mate score and the missing score are not kept.
        let scores: Vec<i16> = recs.iter().map(|r| r.score).collect();
        assert_eq!(scores, [40, -25, -10, 50]);
        assert!(recs.iter().all(|r| r.result() == GameResult::BlackWin));
        assert_eq!(recs[1].side_to_move(), Color::Black);
        // Only the named player's moves; a Tetrad player's scores in the network's units.
        let white = game_records(&g, &opts(Some("Tetrad A"), ScoreUnits::Auto)).unwrap();
        let eval = EvalConfig::default();
        let units: Vec<i16> = white.iter().map(|r| r.score).collect();
        let want: Vec<i16> = [(40, &recs[0]), (-10, &recs[2])]
            .iter()
            .map(|(s, r)| eval.network_units(*s, &r.position().unwrap()) as i16)
            .collect();
        assert_eq!(units, want);
        assert!(units[0] > 40 && units[1] < -10, "the network's units are larger than the search's: {units:?}");
        let black = game_records(&g, &opts(Some("Other"), ScoreUnits::Auto)).unwrap();
        assert_eq!(black.iter().map(|r| r.score).collect::<Vec<_>>(), [-25, 50]);
        assert!(game_records(&g, &opts(Some("Nobody"), ScoreUnits::Auto)).unwrap().is_empty());
    }

    #[test]
    fn games_without_result_or_with_garbage_are_skipped() {
        let unfinished = GAME.replace("[Result \"0-1\"]", "[Result \"*\"]");
        assert!(matches!(
            game_records(&parse_game(&unfinished).unwrap(), &opts(None, ScoreUnits::AsIs)),
            Err(Skip::NoResult)
        ));
        let untagged = GAME.replace("[Result \"0-1\"]\n", "");
        assert!(matches!(
            game_records(&parse_game(&untagged).unwrap(), &opts(None, ScoreUnits::AsIs)),
            Err(Skip::NoResult)
        ));
        let garbage = GAME.replace("{-0.10/10}", "{-0.1x/10}");
        let skip = game_records(&parse_game(&garbage).unwrap(), &opts(None, ScoreUnits::AsIs)).unwrap_err();
        assert!(matches!(skip, Skip::Garbage { ply: 5, .. }), "{skip}");
    }

    #[test]
    fn captures_checks_and_winning_captures_are_not_kept() {
        // 1. e4 d5 2. exd5 (a capture) Qxd5 (a capture) 3. Nc3 (attacks the queen: quiet, kept)
        // Qa5 4. Qg4?? (Black can take it: 4... Bxg4 is not a quiet position for Black).
        let text = "[Result \"1-0\"]\n\n1. e4 {+0.1/1} d5 {-0.1/1} 2. exd5 {+0.2/1} Qxd5 {-0.2/1} 3. Nc3 {+0.3/1} Qa5 {-0.3/1} 4. Qg4 {-9.0/1} Bxg4 {+9.0/1} 1-0\n";
        let recs = game_records(&parse_game(text).unwrap(), &opts(None, ScoreUnits::AsIs)).unwrap();
        let kept: Vec<i16> = recs.iter().map(|r| r.score).collect();
        // e4, d5, Nc3, Qa5, Qg4 kept; exd5, Qxd5 (captures), Bxg4 (a capture) not.
        assert_eq!(kept, [10, 10, 30, 30, -900]);
    }
}
