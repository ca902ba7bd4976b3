//! One output file of training positions, for `datagen --format epd|bullet`
//! (plain and `--from-pgn`): EPD text for `tune`, or bulletformat records
//! for the bullet GPU trainer. Binary shards, for `train`, are written by
//! `tetrad_eval::learn::dataset` instead.

use crate::cli::DataFormat;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use tetrad_eval::learn::dataset::Record;

/// An open output file of one of the single-file formats.
pub struct DataFile {
    out: BufWriter<File>,
    format: DataFormat,
}

impl DataFile {
    /// Creates (truncates) `path`.
    pub fn create(path: &str, format: DataFormat) -> io::Result<DataFile> {
        Ok(DataFile { out: BufWriter::new(File::create(path)?), format })
    }

    /// Appends records; returns how many were written.
    pub fn write(&mut self, records: &[Record]) -> io::Result<usize> {
        match self.format {
            DataFormat::Bullet => tetrad_eval::learn::bullet::write_bullet(&mut self.out, records),
            _ => {
                let mut n = 0;
                for r in records {
                    // A record is made from a legal position, so it reads back; skip one that would not.
                    let Ok(pos) = r.position() else { continue };
                    let full = pos.to_fen();
                    let four: Vec<&str> = full.split(' ').take(4).collect();
                    writeln!(self.out, "{} c9 \"{}\"; ce {};", four.join(" "), r.result().pgn(), r.score)?;
                    n += 1;
                }
                Ok(n)
            }
        }
    }

    /// Flushes the file to disk.
    pub fn finish(mut self) -> io::Result<()> {
        self.out.flush()?;
        self.out.into_inner().map_err(|e| e.into_error())?.sync_all()
    }
}
