//! How the Syzygy reader gets at table files: read whole into memory when
//! they are small, through the operating system's `pread` otherwise.
//!
//! The probing crate's default reader issues one system call per read, and
//! a DTZ probe makes hundreds of small reads (about 2,000 `pread`s per root
//! move were counted on KRvK): 15 root moves cost 20 ms, more than a bullet
//! game's increment, so the clock drained in won endings. A file read into
//! memory once (at its first probe) answers the same reads with a copy. The
//! crate's memory-mapped reader would do the same for big files, but needs
//! `unsafe` from its caller; the 3- to 5-piece tables are small enough to
//! hold, and bigger files keep the system-call reader.

use shakmaty_syzygy::filesystem::{Filesystem, OsFilesystem, RandomAccessFile, ReadHint};
use std::io;
use std::path::{Path, PathBuf};

/// Files up to this size are read into memory at their first probe (every
/// 3-, 4- and 5-piece table; the largest 6-piece ones stay on disk).
pub const MAX_IN_MEMORY: u64 = 64 << 20;

/// A filesystem that holds small table files in memory.
#[derive(Debug, Default)]
pub struct TableFiles {
    os: OsFilesystem,
}

impl TableFiles {
    /// The filesystem, reading from disk through the operating system.
    pub fn new() -> TableFiles {
        TableFiles { os: OsFilesystem::new() }
    }
}

/// A whole table file in memory.
struct InMemory(Vec<u8>);

impl RandomAccessFile for InMemory {
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX).min(self.0.len());
        let n = buf.len().min(self.0.len() - start);
        buf[..n].copy_from_slice(&self.0[start..start + n]);
        Ok(n)
    }
}

impl Filesystem for TableFiles {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        self.os.regular_file_size(path)
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        self.os.read_dir(path)
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        if self.os.regular_file_size(path)? <= MAX_IN_MEMORY {
            Ok(Box::new(InMemory(std::fs::read(path)?)))
        } else {
            self.os.open(path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_past_the_end_are_short_not_errors() {
        let f = InMemory(vec![1, 2, 3, 4]);
        let mut buf = [0u8; 3];
        assert_eq!(f.read_at(&mut buf, 2, ReadHint::Data).unwrap(), 2);
        assert_eq!(&buf[..2], &[3, 4]);
        assert_eq!(f.read_at(&mut buf, 9, ReadHint::Data).unwrap(), 0);
        let mut exact = [0u8; 2];
        f.read_exact_at(&mut exact, 1, ReadHint::Data).unwrap();
        assert_eq!(exact, [2, 3]);
        assert!(f.read_exact_at(&mut exact, 3, ReadHint::Data).is_err());
    }
}
