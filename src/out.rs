//! Console output for the command-line tools that survives a closed pipe
//! (`tetrad bench | head -1`): `println!` would panic on EPIPE, these helpers
//! end the process quietly instead (stdout) or drop the text (stderr).

use std::io::Write;

/// Writes `text` to stdout and flushes; if the reader has gone away, exits quietly with status 0.
pub fn stdout_text(text: &str) {
    let out = std::io::stdout();
    let mut lock = out.lock();
    if lock.write_all(text.as_bytes()).and_then(|_| lock.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Writes `text` to stderr, ignoring errors.
pub fn stderr_text(text: &str) {
    let err = std::io::stderr();
    let mut lock = err.lock();
    let _ = lock.write_all(text.as_bytes());
    let _ = lock.flush();
}

/// `println!` that exits quietly when stdout is closed.
macro_rules! outln {
    () => { $crate::out::stdout_text("\n") };
    ($($arg:tt)*) => { $crate::out::stdout_text(&format!("{}\n", format_args!($($arg)*))) };
}

/// `print!` that exits quietly when stdout is closed.
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::stdout_text(&format!($($arg)*)) };
}

/// `eprintln!` that ignores write errors.
macro_rules! errln {
    () => { $crate::out::stderr_text("\n") };
    ($($arg:tt)*) => { $crate::out::stderr_text(&format!("{}\n", format_args!($($arg)*))) };
}
