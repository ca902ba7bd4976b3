//! A UCI session with the real binary over pipes, for the UCI tests.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};

/// A `tetrad` process spoken to over pipes; its output lines arrive on a channel.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// The engine's output, a line at a time.
    pub lines: Receiver<String>,
}

impl Engine {
    /// Starts the binary under test.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tetrad"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tetrad");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine { child, stdin, lines: rx }
    }

    /// Sends one line.
    pub fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns all lines read.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            // No wall-clock assertion: a generous timeout only guards against a hung test.
            let line = self.lines.recv_timeout(std::time::Duration::from_secs(120)).expect("engine answered");
            let done = line.starts_with(prefix);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// Sends `quit` and checks that the process exits cleanly.
    pub fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }

    /// Lines that arrived within `ms` milliseconds, without waiting for any in particular.
    pub fn drain_for(&mut self, ms: u64) -> Vec<String> {
        let end = std::time::Instant::now() + std::time::Duration::from_millis(ms);
        let mut out = Vec::new();
        while let Some(left) = end.checked_duration_since(std::time::Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(l) => out.push(l),
                Err(_) => break,
            }
        }
        out
    }
}

/// The last `info depth` line with a score (not a `currmove` line) of a search's output.
pub fn last_info(out: &[String]) -> &str {
    out.iter().rev().find(|l| l.starts_with("info depth") && l.contains(" score ")).expect("an info depth line")
}

/// The words after `key` in an `info` line (`score cp 5 ...` → `["cp", "5", ...]`).
pub fn info_after<'a>(line: &'a str, key: &str) -> Vec<&'a str> {
    line.split_whitespace().skip_while(|w| *w != key).skip(1).collect()
}
