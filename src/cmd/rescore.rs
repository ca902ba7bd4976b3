//! `tetrad rescore`: new labels for `datagen` shards from a deeper search.
//!
//! A 5,000-node self-play search labels a position cheaply but noisily. The
//! shards keep the positions, so the labels can be made better afterwards,
//! on any machine: every position is searched again at `--nodes` and gets
//! that search's score (in the network's own units, as `datagen` writes it);
//! a position the deeper search finds tactical (best move a capture or a
//! promotion, a mate score) is dropped, as `datagen` would have dropped it.
//! Game results and game counts stay. The positions of a shard are searched
//! in chunks of [`CHUNK`], each with a freshly cleared table and histories,
//! so the output depends only on the arguments, never on the thread count;
//! `--shards A..B` and `--resume` split and continue a run as in `datagen`.

use crate::data::manifest::fnv;
use crate::data::openings;
use crate::eval_choice::EvalSelection;
use clap::Args;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use tetrad_eval::learn::dataset::{self, Record};
use tetrad_eval::EvalConfig;
use tetrad_search::worker::Worker;
use tetrad_search::TranspositionTable;
use tetrad_simd::Color;

/// Arguments of `tetrad rescore`.
#[derive(Args, Debug)]
pub struct RescoreArgs {
    /// The `datagen` shards to label again.
    #[arg(long)]
    pub data: PathBuf,
    /// Where the relabelled shards go (same names; never the `--data` directory).
    #[arg(long)]
    pub out: PathBuf,
    /// Nodes of each position's search.
    #[arg(long, default_value_t = 20_000, value_parser = crate::parse::count::<u64>, allow_negative_numbers = true)]
    pub nodes: u64,
    /// Only shards A to B − 1 (`A..B`; each must exist in `--data`); default: every shard there.
    #[arg(long, value_parser = crate::parse::parse_range)]
    pub shards: Option<std::ops::Range<usize>>,
    /// Go on with an interrupted run in `--out`: make only the missing shards.
    #[arg(long)]
    pub resume: bool,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0, value_parser = crate::parse::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// The evaluation of the searches.
    #[command(flatten)]
    pub eval: EvalSelection,
}

/// Positions searched one after another with one table and one set of
/// histories, cleared before each chunk (their warmth carries from a position
/// to the next of the same game, as in self-play).
const CHUNK: usize = 64;
/// An old and a new label further apart than this (network units) count as "far" in the report.
const FAR: i32 = 100;
/// Table size of each thread, MiB (as `datagen`'s players).
const TABLE_MB: usize = 4;

/// How the new labels differ from the old ones.
#[derive(Default, Clone, Copy, Debug, PartialEq)]
struct Stats {
    read: usize,
    kept: usize,
    abs_diff: u64,
    far: usize,
    flipped: usize,
    /// Sums of |old| and |new| over the kept positions: their ratio says whether the deeper search's scale differs.
    abs_old: u64,
    abs_new: u64,
}

impl Stats {
    fn add(&mut self, o: Stats) {
        self.read += o.read;
        self.kept += o.kept;
        self.abs_diff += o.abs_diff;
        self.far += o.far;
        self.flipped += o.flipped;
        self.abs_old += o.abs_old;
        self.abs_new += o.abs_new;
    }

    fn line(&self) -> String {
        let kept = self.kept.max(1) as f64;
        format!(
            "{} of {} positions kept ({:.1}%), mean |new − old| {:.1}, |new − old| > {FAR} in {:.1}%, sign changed in {:.1}%, mean |new| / mean |old| {:.3}",
            self.kept,
            self.read,
            100.0 * self.kept as f64 / self.read.max(1) as f64,
            self.abs_diff as f64 / kept,
            100.0 * self.far as f64 / kept,
            100.0 * self.flipped as f64 / kept,
            self.abs_new as f64 / self.abs_old.max(1) as f64
        )
    }
}

/// One chunk's positions labelled again: the kept records, in order, and what changed.
fn rescore_chunk(
    records: &[Record],
    nodes: u64,
    eval: &EvalConfig,
    worker: &mut Worker,
    tt: &mut Arc<TranspositionTable>,
) -> (Vec<Record>, Stats) {
    TranspositionTable::clear(tt);
    worker.clear();
    let mut stats = Stats { read: records.len(), ..Stats::default() };
    let mut out = Vec::with_capacity(records.len());
    for rec in records {
        // A record that is no legal position (a corrupt shard) is dropped, not searched.
        let Ok(pos) = rec.position() else { continue };
        let r = openings::search_move(&pos, Vec::new(), nodes, eval, false, worker, tt);
        if !crate::data::quiet::is_quiet_sample(&pos, r.best, r.score) {
            continue;
        }
        let white = if pos.side_to_move() == Color::White { r.score } else { -r.score };
        let new = Record::new(&pos, eval.network_units(white, &pos), rec.result());
        let (old, now) = (i32::from(rec.score), i32::from(new.score));
        stats.kept += 1;
        stats.abs_diff += old.abs_diff(now) as u64;
        stats.far += usize::from(old.abs_diff(now) > FAR as u32);
        stats.flipped += usize::from(old.signum() * now.signum() < 0);
        stats.abs_old += u64::from(old.unsigned_abs());
        stats.abs_new += u64::from(now.unsigned_abs());
        out.push(new);
    }
    (out, stats)
}

/// The arguments the output depends on, and the source it was made from.
fn manifest(args: &RescoreArgs, eval: &EvalConfig, source: &str) -> String {
    format!(
        "tetrad rescore v1\nsource-fnv {:016x}\nnodes {}\neval {}\nnet-fnv {:016x}\n",
        fnv(source.as_bytes()),
        args.nodes,
        eval.kind.name(),
        fnv(&eval.net.to_bytes()),
    )
}

/// Checks the output directory against this run's manifest, writing it for a new run.
fn claim_output(args: &RescoreArgs, want: &str) -> Result<(), String> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(&args.data, &args.out) {
        return Err("--out must not be the --data directory (its shards would be overwritten)".into());
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let path = args.out.join("rescore.txt");
    match std::fs::read_to_string(&path) {
        Ok(have) if have != want => {
            Err(format!("{} was made with other arguments:\n{have}these arguments give:\n{want}", args.out.display()))
        }
        Ok(_) if !args.resume => {
            Err(format!("{} already holds a run; add --resume to go on with it", args.out.display()))
        }
        Ok(_) => Ok(()),
        Err(_) => std::fs::write(&path, want).map_err(|e| format!("cannot write {}: {e}", path.display())),
    }
}

/// The shard numbers to read: `--shards`, or every `shard-NNNNN.bin` in `--data`.
fn shard_numbers(args: &RescoreArgs) -> Result<Vec<usize>, String> {
    let paths =
        dataset::select_shards(&args.data, args.shards.clone()).map_err(|e| format!("{}: {e}", args.data.display()))?;
    Ok(paths.iter().filter_map(|p| p.file_stem()?.to_str()?.strip_prefix("shard-")?.parse().ok()).collect())
}

/// Runs the command; returns the exit code.
pub fn run(args: &RescoreArgs) -> i32 {
    match try_run(args) {
        Ok(()) => 0,
        Err(e) => {
            errln!("error: {e}");
            2
        }
    }
}

fn try_run(args: &RescoreArgs) -> Result<(), String> {
    let eval = args.eval.config()?;
    if args.nodes == 0 {
        return Err("--nodes must be at least 1".into());
    }
    let shards = shard_numbers(args)?;
    if shards.is_empty() {
        return Err(format!("{} holds no shards", args.data.display()));
    }
    // The source's own manifest names what was relabelled (shards without one count as "none").
    let source = std::fs::read_to_string(args.data.join("datagen.txt")).unwrap_or_else(|_| "none".into());
    claim_output(args, &manifest(args, &eval, &source))?;
    if args.threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build_global();
    }
    let threads = rayon::current_num_threads();
    let start = Instant::now();
    let mut total = Stats::default();
    let mut made = 0;
    let mut progress = crate::progress::Progress::new("rescore", shards.len() as u64, "shards");
    for (i, &k) in shards.iter().enumerate() {
        progress.set(i as u64);
        let (src, dst) = (dataset::shard_path(&args.data, k), dataset::shard_path(&args.out, k));
        let (games, records) = dataset::read_shard(&src).map_err(|e| format!("{}: {e}", src.display()))?;
        if args.resume && dataset::read_shard(&dst).is_ok_and(|(g, _)| g == games) {
            continue;
        }
        let chunks: Vec<(Vec<Record>, Stats)> = records
            .par_chunks(CHUNK)
            .map_init(
                || (Worker::new(0), Arc::new(TranspositionTable::new(TABLE_MB))),
                |(worker, tt), chunk| rescore_chunk(chunk, args.nodes, &eval, worker, tt),
            )
            .collect();
        let mut stats = Stats::default();
        let mut kept = Vec::with_capacity(records.len());
        for (recs, s) in chunks {
            kept.extend(recs);
            stats.add(s);
        }
        dataset::write_shard(&dst, games, &kept).map_err(|e| format!("writing {} failed: {e}", dst.display()))?;
        total.add(stats);
        made += 1;
        progress.println(&format!("shard {k:05}: {}", stats.line()));
        progress.message(crate::progress::positions_text(start, total.read, threads));
    }
    progress.set(shards.len() as u64);
    progress.finish();
    if made == 0 {
        // A finished run resumed: say so, not "0 of 0 positions".
        outln!("nothing to do: all {} shards are already relabelled in {}", shards.len(), args.out.display());
        return Ok(());
    }
    outln!("{made} shards relabelled at {} nodes into {}: {}", args.nodes, args.out.display(), total.line());
    Ok(())
}
