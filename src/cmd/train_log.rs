//! `train`'s loss log: `OUT.loss.csv` beside the network, one row every
//! twentieth of an epoch (the running training loss) and one at each epoch's
//! end (with the validation loss), for `tools/plot.py loss`.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The CSV header `tools/plot.py loss` reads.
pub const HEADER: &str = "epoch,batch,train_loss,val_loss";

/// An open loss log.
pub struct LossLog {
    path: PathBuf,
    file: Option<std::fs::File>,
}

impl LossLog {
    /// The log of the network `out`: a fresh one, or (`resume`) the run's,
    /// appended to. A log that cannot be written is reported once and skipped.
    pub fn open(out: &Path, resume: bool) -> LossLog {
        let mut name = out.as_os_str().to_owned();
        name.push(".loss.csv");
        let path = PathBuf::from(name);
        let fresh = !resume || !path.exists();
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(!fresh)
            .write(true)
            .truncate(fresh)
            .open(&path)
            .and_then(|mut f| if fresh { writeln!(f, "{HEADER}").map(|_| f) } else { Ok(f) });
        match file {
            Ok(f) => LossLog { path, file: Some(f) },
            Err(e) => {
                errln!("warning: no loss log: cannot write {}: {e}", path.display());
                LossLog { path, file: None }
            }
        }
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A row during an epoch (batch `b` of `batches`), at most twenty an epoch.
    pub fn batch(&mut self, epoch: usize, b: usize, batches: usize, train_loss: f64) {
        let every = (batches / 20).max(1);
        if b.is_multiple_of(every) && b < batches {
            self.row(epoch, b, train_loss, None);
        }
    }

    /// The row of a finished epoch.
    pub fn epoch(&mut self, epoch: usize, batches: usize, train_loss: f64, val_loss: f64) {
        self.row(epoch, batches, train_loss, Some(val_loss));
    }

    fn row(&mut self, epoch: usize, batch: usize, train: f64, val: Option<f64>) {
        // NaN is the loss of an empty validation set: left empty like a batch row's.
        let val = val.filter(|v| v.is_finite()).map_or(String::new(), |v| format!("{v:.6}"));
        if let Some(f) = &mut self.file {
            if writeln!(f, "{epoch},{batch},{train:.6},{val}").is_err() {
                errln!("warning: writing {} failed; the loss log stops here", self.path.display());
                self.file = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_what_the_plot_reads() {
        let dir = std::env::temp_dir().join(format!("tetrad-losslog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("net.bin");
        let mut log = LossLog::open(&out, false);
        for b in 1..=40 {
            log.batch(1, b, 40, 0.1);
        }
        log.epoch(1, 40, 0.09, 0.095);
        drop(log);
        let mut log = LossLog::open(&out, true);
        log.epoch(2, 40, 0.08, 0.09);
        drop(log);
        let text = std::fs::read_to_string(dir.join("net.bin.loss.csv")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], HEADER);
        assert_eq!(lines.len(), 1 + 19 + 2, "{text}");
        assert_eq!(lines[1], "1,2,0.100000,");
        assert_eq!(lines[20], "1,40,0.090000,0.095000");
        assert_eq!(lines[21], "2,40,0.080000,0.090000");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
