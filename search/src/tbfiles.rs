//! How the Syzygy reader gets at table files: memory-mapped.
//!
//! The probing crate's default reader issues one system call per read, and
//! a DTZ probe makes hundreds of small reads (about 2,000 `pread`s per root
//! move were counted on KRvK): 15 root moves cost 20 ms, more than a bullet
//! game's increment, so the clock drained in won endings. A mapped file
//! answers the same reads with a copy from the page cache, and costs no
//! memory of the engine's own: a full 5-piece set (~1 GB) is mapped, not
//! read, and only the pages that probes touch are ever loaded. Opening a
//! file (at its first probe) is one `mmap` call, not a read of the file.
//! A file that cannot be mapped (an odd filesystem) is read through the
//! operating system instead.

use memmap2::Mmap;
use shakmaty_syzygy::filesystem::{Filesystem, OsFilesystem, RandomAccessFile, ReadHint};
use std::io;
use std::path::{Path, PathBuf};

/// A filesystem whose table files are memory-mapped.
#[derive(Debug, Default)]
pub struct TableFiles {
    os: OsFilesystem,
}

impl TableFiles {
    /// The filesystem (directories are listed through the operating system).
    pub fn new() -> TableFiles {
        TableFiles { os: OsFilesystem::new() }
    }
}

/// A table file mapped into memory, read-only.
struct Mapped(Mmap);

impl Mapped {
    fn open(path: &Path) -> io::Result<Mapped> {
        let file = std::fs::File::open(path)?;
        // SAFETY: the mapping is read-only and private to this process, so
        // nothing here writes through it. What memory-mapping leaves to the
        // caller is that the file is not truncated or rewritten in place
        // while mapped: table files are read-only data that nothing rewrites
        // while an engine uses them (Stockfish maps them the same way). A
        // file deleted or replaced by a new one (a fresh download renamed
        // over it) keeps the mapped, old contents: see the tests.
        let map = unsafe { Mmap::map(&file)? };
        // Probes jump about the file: read-ahead would load pages for nothing.
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Random);
        Ok(Mapped(map))
    }
}

impl RandomAccessFile for Mapped {
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
        match Mapped::open(path) {
            Ok(m) => Ok(Box::new(m)),
            Err(_) => self.os.open(path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
        let p = std::env::temp_dir().join(format!("tetrad-tbfiles-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).unwrap();
        p
    }

    #[test]
    fn mapped_reads_are_the_files_bytes_and_short_past_the_end() {
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let p = temp_file("bytes", &bytes);
        let f = TableFiles::new().open(&p).unwrap();
        let mut buf = [0u8; 100];
        for offset in [0u64, 1, 4095, 4096, 9_900] {
            assert_eq!(f.read_at(&mut buf, offset, ReadHint::Data).unwrap(), 100);
            assert_eq!(&buf[..], &bytes[offset as usize..offset as usize + 100], "offset {offset}");
        }
        assert_eq!(f.read_at(&mut buf, 9_950, ReadHint::Data).unwrap(), 50);
        assert_eq!(&buf[..50], &bytes[9_950..]);
        assert_eq!(f.read_at(&mut buf, 20_000, ReadHint::Data).unwrap(), 0);
        let mut exact = [0u8; 2];
        f.read_exact_at(&mut exact, 9_998, ReadHint::Data).unwrap();
        assert!(f.read_exact_at(&mut exact, 9_999, ReadHint::Data).is_err());
        let _ = std::fs::remove_file(p);
    }

    /// What the `// SAFETY:` argument leans on: a table file deleted, or
    /// replaced by a new file renamed over it, leaves the mapping reading the
    /// contents it had when it was opened.
    #[cfg(unix)]
    #[test]
    fn a_mapping_keeps_its_contents_when_the_file_is_replaced_or_deleted() {
        let p = temp_file("old", &[1u8; 8192]);
        let f = TableFiles::new().open(&p).unwrap();
        let fresh = temp_file("new", &[2u8; 100]);
        std::fs::rename(&fresh, &p).unwrap();
        let mut buf = [0u8; 16];
        assert_eq!(f.read_at(&mut buf, 8000, ReadHint::Data).unwrap(), 16);
        assert_eq!(buf, [1u8; 16]);
        std::fs::remove_file(&p).unwrap();
        assert_eq!(f.read_at(&mut buf, 0, ReadHint::Data).unwrap(), 16);
        assert_eq!(buf, [1u8; 16]);
    }

    #[test]
    fn a_missing_file_is_an_error() {
        assert!(TableFiles::new().open(Path::new("/no/such/table.rtbw")).is_err());
    }
}
