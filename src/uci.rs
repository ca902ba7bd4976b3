//! The UCI loop. Input is read on its own thread and arrives here through a
//! crossbeam channel; searches run on the engine's pool, so `isready`,
//! `stop` and `quit` are answered while a search is running.
//!
//! Bad input never stops the engine: each problem is reported as one
//! `info string error: …` line and the last good state is kept.

use crate::options::{EngineOption, OPTIONS};
use crate::parse::{parse_go, parse_position, GoError};
use crossbeam::channel::{unbounded, Receiver};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tetrad_search::{emit, Engine};
use tetrad_simd::perft::{perft_until, BitboardGenerator, Generator};
use tetrad_simd::{MoveList, Position};

/// Engine name and version for `id name`.
pub const ENGINE_NAME: &str = concat!("Tetrad ", env!("CARGO_PKG_VERSION"));

/// The state the UCI commands act on.
pub struct Uci {
    engine: Engine,
    position: Position,
    /// Keys of the positions before `position` in the game (for repetition).
    history: Vec<u64>,
    overhead_ms: u64,
    multipv: usize,
    /// A running `perft`: its thread and stop flag (it runs beside the input
    /// loop like a search, so `stop`, `isready` and `quit` are answered).
    perft: Option<(std::thread::JoinHandle<()>, Arc<AtomicBool>)>,
    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo` (the strength is set from all three).
    skill_level: u8,
    limit_strength: bool,
    elo: i32,
    /// `info string error` lines sent so far (the exit status of command-line runs).
    errors: usize,
}

/// The commands [`Uci::handle`] knows: a command-line argument must start with one.
pub const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "setoption",
    "quit",
    "d",
    "eval",
    "perft",
    "bench",
    "genfens",
    "debug",
    "register",
];

fn spawn_reader() -> Receiver<String> {
    let (tx, rx) = unbounded();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match lock.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Invalid UTF-8 is replaced, never fatal.
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
            let _ = tx.send("quit".to_string());
        })
        .expect("spawning the input thread");
    rx
}

impl Uci {
    /// A fresh engine at the start position with default options.
    pub fn new() -> Uci {
        Uci {
            engine: Engine::new(1, 16),
            position: Position::startpos(),
            history: Vec::new(),
            overhead_ms: 30,
            multipv: 1,
            perft: None,
            skill_level: tetrad_search::skill::MAX_LEVEL,
            limit_strength: false,
            elo: crate::options::ELO_MAX as i32,
            errors: 0,
        }
    }

    /// Runs command-line arguments as UCI lines, in order, each to its end:
    /// a `go` waits for its search (so it must be given a limit) and a
    /// `perft` for its count. Stops after `quit`. Returns the exit status:
    /// 1 when any line was answered with an error, else 0.
    pub fn run_lines(&mut self, lines: &[String]) -> i32 {
        for line in lines {
            let go_on = match line.trim().strip_prefix("go") {
                Some(rest) if rest.is_empty() || rest.starts_with(char::is_whitespace) => self.go_to_the_end(rest),
                _ => self.handle(line),
            };
            self.wait_for_work();
            if !go_on {
                break;
            }
        }
        self.stop_and_wait();
        i32::from(self.errors > 0)
    }

    /// `go` from the command line: refused without a limit that ends the search by itself.
    fn go_to_the_end(&mut self, args: &str) -> bool {
        let limits = match parse_go(args, &self.position) {
            Ok(l) | Err(GoError(_, l)) => l,
        };
        let stm = self.position.side_to_move().index();
        let bounded = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || limits.mate.is_some()
            || limits.time[stm].is_some();
        if limits.infinite || limits.ponder || !bounded {
            self.error("go on the command line needs a limit that ends it: depth, nodes, movetime, mate or the mover's wtime/btime");
            return true;
        }
        self.handle(&format!("go {args}"))
    }

    /// Waits for a running search or perft to finish by itself.
    fn wait_for_work(&mut self) {
        if self.engine.is_searching() {
            self.engine.wait();
        }
        if let Some((handle, _)) = self.perft.take() {
            let _ = handle.join();
        }
    }

    /// Answers a bad command: one `info string error: …` line, counted.
    fn error(&mut self, message: &str) {
        self.errors += 1;
        emit(&format!("info string error: {message}"));
    }

    /// Runs until `quit` or end of input.
    pub fn run(&mut self) {
        let rx = spawn_reader();
        while let Ok(line) = rx.recv() {
            if !self.handle(&line) {
                break;
            }
        }
        self.stop_and_wait();
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let rest = line[cmd.len()..].trim();
        match cmd {
            "uci" => self.cmd_uci(),
            "isready" => {
                if !self.engine.is_searching() {
                    self.engine.ensure_ready();
                }
                emit("readyok");
            }
            "ucinewgame" => {
                self.stop_and_wait();
                self.engine.new_game();
                self.position = Position::startpos();
                self.history.clear();
            }
            "position" => {
                self.stop_and_wait();
                self.cmd_position(rest);
            }
            "go" => self.cmd_go(rest),
            "stop" => {
                self.engine.stop();
                self.stop_perft();
            }
            "ponderhit" => self.engine.ponderhit(),
            "setoption" => {
                self.stop_and_wait();
                self.cmd_setoption(rest);
            }
            "quit" => return false,
            "d" => emit(&self.position.to_string()),
            "eval" => {
                let cfg = self.engine.eval_config();
                let hce = tetrad_eval::evaluate_uncached(&self.position);
                let nnue = tetrad_eval::evaluate_nnue_uncached(&self.position, &cfg.net);
                emit(&format!("info string eval hce {hce} nnue {nnue} (side to move; in use: {})", cfg.kind.name()));
            }
            "perft" => {
                self.stop_and_wait();
                self.cmd_perft(rest, false);
            }
            "bench" => {
                self.stop_and_wait();
                self.cmd_bench(rest);
            }
            "genfens" => {
                self.stop_and_wait();
                self.cmd_genfens(rest);
            }
            "debug" | "register" => {}
            _ => self.error(&format!("unknown command '{}'", clip(cmd))),
        }
        true
    }

    /// `bench [DEPTH]`: the command line's bench (50 positions, one thread, 16 MB) at the
    /// given depth or the default one; anything else is refused before it starts.
    fn cmd_bench(&mut self, args: &str) {
        let depth = match args.trim() {
            "" => None,
            word => match word.parse::<i32>() {
                Ok(d) if (1..=64).contains(&d) => Some(d),
                _ => {
                    return self.error(&format!("bench: '{}' is not a depth 1..=64 (usage: bench [DEPTH])", clip(word)))
                }
            },
        };
        crate::cmd::bench::run(depth, None, None, &self.engine.eval_config().clone());
    }

    fn stop_and_wait(&mut self) {
        if self.engine.is_searching() {
            self.engine.stop();
            self.engine.wait();
        }
        self.stop_perft();
    }

    /// Stops a running perft and waits for its thread (it answers within a few milliseconds).
    fn stop_perft(&mut self) {
        if let Some((handle, stop)) = self.perft.take() {
            stop.store(true, Ordering::SeqCst);
            let _ = handle.join();
        }
    }

    fn cmd_uci(&self) {
        emit(&format!("id name {ENGINE_NAME}"));
        emit("id author The Tetrad developers");
        for opt in OPTIONS {
            emit(&opt.declaration());
        }
        // A tune build also offers every search tunable, for SPSA.
        #[cfg(feature = "tune")]
        for t in tetrad_search::params::TUNABLES {
            emit(&format!("option name {} type spin default {} min {} max {}", t.name, t.default, t.min, t.max));
        }
        emit("uciok");
    }

    fn cmd_position(&mut self, args: &str) {
        match parse_position(args) {
            Ok(parsed) => {
                self.position = parsed.position;
                self.history = parsed.history;
                if let Some(err) = parsed.error {
                    self.error(&err);
                }
            }
            Err(e) => self.error(&e),
        }
    }

    fn cmd_go(&mut self, args: &str) {
        self.stop_and_wait();
        // Stockfish's `go perft N`, which perft tools (perftree and the like) send.
        if let Some(depth) = args.strip_prefix("perft").filter(|r| r.is_empty() || r.starts_with(char::is_whitespace)) {
            self.cmd_perft(depth, true);
            return;
        }
        let limits = match parse_go(args, &self.position) {
            Ok(l) => l,
            Err(GoError(msg, l)) => {
                self.error(&msg);
                l
            }
        };
        let (root, chess960) = (self.position, self.engine.chess960());
        self.engine.go(
            self.position,
            self.history.clone(),
            limits,
            self.overhead_ms,
            self.multipv,
            true,
            Box::new(move |o| {
                let mut line = format!("bestmove {}", root.move_to_uci(o.best, chess960));
                if let Some(p) = o.ponder {
                    line += &format!(" ponder {}", root.make_move(o.best).move_to_uci(p, chess960));
                }
                emit(&line);
            }),
        );
    }

    /// A spin option's value: an integer (saturating), clamped to `min..=max`
    /// with an error naming the value when it was outside; `None`, with an
    /// error, when it is not an integer.
    fn spin_value(&mut self, name: &str, text: &str, min: i64, max: i64) -> Option<i64> {
        let Some(v) = crate::parse::parse_int(text) else {
            self.error(&format!("option '{name}' needs an integer value"));
            return None;
        };
        let clamped = v.clamp(min, max);
        if clamped != v {
            let shown = crate::parse::clip(text);
            self.error(&format!("option '{name}' value {shown} out of range {min}..{max}, using {clamped}"));
        }
        Some(clamped)
    }

    fn cmd_setoption(&mut self, args: &str) {
        let (name, value) = match args.strip_prefix("name") {
            Some(rest) => match rest.find(" value") {
                Some(i) => (rest[..i].trim(), Some(rest[i + 6..].trim())),
                None => (rest.trim(), None),
            },
            None => {
                self.error("setoption needs 'name <id> [value <x>]'");
                return;
            }
        };
        #[cfg(feature = "tune")]
        if let Some(t) = tetrad_search::params::TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name)) {
            if let Some(v) = self.spin_value(t.name, value.unwrap_or(""), t.min.into(), t.max.into()) {
                tetrad_search::params::set(t.name, v as i32);
            }
            return;
        }
        let Some(opt) = OPTIONS.iter().find(|o| o.name().eq_ignore_ascii_case(name)) else {
            self.error(&format!("unknown option '{}'", clip(name)));
            return;
        };
        match opt {
            EngineOption::Button { .. } => self.engine.clear_hash(),
            EngineOption::Combo { name, values, .. } => {
                let v = value.unwrap_or("").to_ascii_lowercase();
                if !values.contains(&v.as_str()) {
                    self.error(&format!("option '{name}' needs one of: {}", values.join(", ")));
                    return;
                }
                if *name == "Eval" {
                    let mut cfg = self.engine.eval_config().clone();
                    cfg.kind = tetrad_eval::EvalKind::parse(&v).unwrap_or(cfg.kind);
                    self.engine.set_eval_config(cfg);
                }
            }
            EngineOption::Text { name, .. } => {
                if *name == "EvalFile" {
                    self.set_eval_file(value.unwrap_or(""));
                } else if *name == "SyzygyPath" {
                    self.set_syzygy_path(value.unwrap_or(""));
                }
            }
            EngineOption::Check { name, .. } => match value.map(str::to_ascii_lowercase).as_deref() {
                // Ponder only tells the engine that the GUI may send `go ponder`; nothing to keep.
                Some(v @ ("true" | "false")) => {
                    if name.eq_ignore_ascii_case("UCI_Chess960") {
                        self.engine.set_chess960(v == "true");
                    } else if name.eq_ignore_ascii_case("UCI_LimitStrength") {
                        self.limit_strength = v == "true";
                        self.apply_skill();
                    } else if name.eq_ignore_ascii_case("UCI_ShowWDL") {
                        self.engine.set_show_wdl(v == "true");
                    } else if name.eq_ignore_ascii_case("Syzygy50MoveRule") {
                        self.change_tb(|tb| tb.rule50 = v == "true");
                    }
                }
                _ => self.error(&format!("option '{name}' needs value true or false")),
            },
            EngineOption::Spin { name, min, max, .. } => {
                // The table never takes more than half the machine's memory: the
                // reply names the size that is used.
                let max = if *name == "Hash" { (*max).min(tetrad_search::tt::max_table_mb() as i64) } else { *max };
                let Some(clamped) = self.spin_value(name, value.unwrap_or(""), *min, max) else { return };
                match *name {
                    "Hash" => self.engine.set_hash(clamped as usize),
                    "Threads" => self.engine.set_threads(clamped as usize),
                    "Move Overhead" => self.overhead_ms = clamped as u64,
                    "MultiPV" => self.multipv = clamped as usize,
                    "Skill Level" => {
                        self.skill_level = clamped as u8;
                        self.apply_skill();
                    }
                    "UCI_Elo" => {
                        self.elo = clamped as i32;
                        self.apply_skill();
                    }
                    "SyzygyProbeDepth" | "SyzygyProbeLimit" => {
                        self.change_tb(|tb| {
                            if *name == "SyzygyProbeDepth" {
                                tb.probe_depth = clamped as i32;
                            } else {
                                tb.probe_limit = clamped as usize;
                            }
                        });
                    }
                    _ => {}
                }
            }
        }
    }

    /// Loads a network file; the built-in one for `<built-in>` or an empty value.
    /// A bad file is reported and the current network stays.
    fn set_eval_file(&mut self, path: &str) {
        let net = if path.is_empty() || path == crate::options::BUILTIN_NET || path == "<empty>" {
            std::sync::Arc::clone(tetrad_eval::nnue::default_network())
        } else {
            match tetrad_eval::nnue::Network::load(std::path::Path::new(path)) {
                Ok(n) => std::sync::Arc::new(n),
                Err(e) => {
                    self.error(&format!("EvalFile {e}; keeping the current network"));
                    return;
                }
            }
        };
        let mut cfg = self.engine.eval_config().clone();
        cfg.net = net;
        self.engine.set_eval_config(cfg);
        emit(&format!(
            "info string EvalFile {} loaded",
            if path.is_empty() { crate::options::BUILTIN_NET } else { path }
        ));
    }

    /// Sets the engine's strength: `UCI_Elo` when `UCI_LimitStrength` is on, else `Skill Level`.
    fn apply_skill(&mut self) {
        use tetrad_search::skill::Skill;
        let skill = if self.limit_strength { Skill::from_elo(self.elo) } else { Skill { level: self.skill_level } };
        self.engine.set_skill(skill);
    }

    /// Loads the tables of `SyzygyPath` (`<empty>` or nothing: none). Problems
    /// are reported; the engine plays on with whatever tables were found.
    fn set_syzygy_path(&mut self, paths: &str) {
        let mut tables = None;
        if !paths.is_empty() && paths != "<empty>" {
            let (loaded, messages) = tetrad_search::tb::Tablebases::load(paths);
            for m in messages {
                emit(&format!("info string {m}"));
            }
            tables = loaded.map(std::sync::Arc::new);
        }
        self.change_tb(|tb| tb.tables = tables);
    }

    /// Changes one tablebase setting, keeping the others.
    fn change_tb(&mut self, change: impl FnOnce(&mut tetrad_search::tb::TbConfig)) {
        let mut tb = self.engine.tb_config().clone();
        change(&mut tb);
        self.engine.set_tb_config(tb);
    }

    /// `genfens N seed S book B [extra…]`: see [`crate::data::genfens`].
    fn cmd_genfens(&mut self, args: &str) {
        let chess960 = self.engine.chess960();
        let result = crate::data::genfens::parse(args, chess960).and_then(|req| {
            // Its lines go to stdout: on a shared terminal a bar would break them up.
            let (total, unit) = (req.count as u64, "openings");
            let mut progress = if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                crate::progress::Progress::plain("genfens", total, unit)
            } else {
                crate::progress::Progress::new("genfens", total, unit)
            };
            let done = crate::data::genfens::generate(&req, self.engine.eval_config(), |pos| {
                emit(&format!("info string genfens {}", pos.to_fen()));
                progress.inc(1);
            });
            progress.finish();
            done
        });
        if let Err(e) = result {
            self.error(&e);
        }
    }

    /// `perft N` (one `info string` line with the count) or, with `divide`,
    /// `go perft N` (Stockfish's form: `move: count` per root move, then
    /// `Nodes searched: N`). Runs beside the input loop; `stop` ends it.
    fn cmd_perft(&mut self, args: &str, divide: bool) {
        let depth = match args.trim().parse::<u32>() {
            Ok(d) if d <= 12 => d,
            _ => {
                self.error("perft needs a depth 0..=12");
                return;
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let (pos, chess960) = (self.position, self.engine.chess960());
        let spawned = std::thread::Builder::new().name("perft".into()).spawn(move || {
            let start = std::time::Instant::now();
            let count = if divide {
                divide_until(&pos, depth, chess960, &flag)
            } else {
                perft_until(&BitboardGenerator, &pos, depth, &flag)
            };
            match (count, divide) {
                (Some(n), true) => emit(&format!("\nNodes searched: {n}\n")),
                (Some(n), false) => {
                    emit(&format!("info string perft {depth} nodes {n} time {} ms", start.elapsed().as_millis()))
                }
                (None, _) => {
                    emit(&format!("info string perft {depth} stopped after {} ms", start.elapsed().as_millis()))
                }
            }
        });
        match spawned {
            Ok(handle) => self.perft = Some((handle, stop)),
            Err(e) => self.error(&format!("cannot start perft: {e}")),
        }
    }
}

/// Perft with a `move: count` line per root move as each is counted; `None` when stopped.
fn divide_until(pos: &Position, depth: u32, chess960: bool, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let mut moves = MoveList::new();
    BitboardGenerator.legal(pos, &mut moves);
    let mut total = 0;
    for &m in moves.iter() {
        let n = perft_until(&BitboardGenerator, &pos.make_move(m), depth - 1, stop)?;
        emit(&format!("{}: {n}", pos.move_to_uci(m, chess960)));
        total += n;
    }
    Some(total)
}

impl Default for Uci {
    fn default() -> Self {
        Self::new()
    }
}

/// At most 64 characters of a word from the input, for an error message.
fn clip(word: &str) -> String {
    word.chars().take(64).collect()
}
