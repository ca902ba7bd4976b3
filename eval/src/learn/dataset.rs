//! Training positions in a compact binary form, in numbered shard files.
//!
//! A [`Record`] is 40 bytes: the 32-byte CCR as it is in the search, then
//! side to move, castling, en passant, clocks, the search score and the game
//! result. A shard is a 16-byte header (`TETRADv1`, record size, game count)
//! followed by records; `datagen` writes `shard-00000.bin`, `shard-00001.bin`,
//! … each holding a fixed range of games, so an interrupted run keeps every
//! finished shard and `--resume` makes only the missing ones.

use bytemuck::{Pod, Zeroable};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use tetrad_simd::{CastleRights, Ccr, Color, FenError, Position, Square};

/// Outcome of the game a position came from, from White's view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// Black won.
    BlackWin = 0,
    /// Draw.
    Draw = 1,
    /// White won.
    WhiteWin = 2,
}

impl GameResult {
    /// 0, 0.5 or 1 for White.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// PGN text: `0-1`, `1/2-1/2`, `1-0`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::BlackWin => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::WhiteWin => "1-0",
        }
    }

    fn from_byte(b: u8) -> Option<GameResult> {
        match b {
            0 => Some(GameResult::BlackWin),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }
}

/// One labelled position: 40 bytes, little-endian, no padding.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct Record {
    /// The board: 64 × 4-bit piece codes.
    pub ccr: [u8; 32],
    /// Search score in centipawns from White's view.
    pub score: i16,
    /// Bit 0: side to move (1 = Black); bits 1..5: castling rights.
    pub flags: u8,
    /// En-passant square index, or 64 for none.
    pub ep: u8,
    /// Half-moves since the last capture or pawn move (saturating at 255).
    pub halfmove: u8,
    /// [`GameResult`] as 0, 1, 2.
    pub result: u8,
    /// Full-move number.
    pub fullmove: u16,
}

/// Size of a record on disk.
pub const RECORD_SIZE: usize = std::mem::size_of::<Record>();
const _: () = assert!(RECORD_SIZE == 40);

/// The first bytes of every shard.
pub const MAGIC: &[u8; 8] = b"TETRADv1";
/// Header length: magic, record size (u32), game count (u32).
pub const HEADER_SIZE: usize = 16;

impl Record {
    /// Packs a position with its White-view score and its game's result.
    pub fn new(pos: &Position, white_score: i32, result: GameResult) -> Record {
        let stm = u8::from(pos.side_to_move() == Color::Black);
        Record {
            ccr: pos.ccr().0,
            score: white_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            flags: stm | (pos.castling().0 & 15) << 1,
            ep: pos.ep_square().map_or(64, |e| e.index() as u8),
            halfmove: pos.halfmove_clock().min(255) as u8,
            result: result as u8,
            fullmove: pos.fullmove_number(),
        }
    }

    /// Side to move.
    pub fn side_to_move(&self) -> Color {
        if self.flags & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The board.
    pub fn ccr(&self) -> Ccr {
        Ccr(self.ccr)
    }

    /// The game result (a corrupt byte reads as a draw).
    pub fn result(&self) -> GameResult {
        GameResult::from_byte(self.result).unwrap_or(GameResult::Draw)
    }

    /// The full position, checked like a FEN.
    pub fn position(&self) -> Result<Position, FenError> {
        let ep = (self.ep < 64).then(|| Square::new(self.ep));
        Position::from_board(
            self.ccr(),
            self.side_to_move(),
            CastleRights((self.flags >> 1) & 15),
            ep,
            self.halfmove as u16,
            self.fullmove,
        )
    }
}

/// Name of shard `n` in a data directory.
pub fn shard_path(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("shard-{n:05}.bin"))
}

/// Writes a shard atomically: to a temporary name, then renamed into place,
/// so a shard file that exists is always complete.
pub fn write_shard(path: &Path, games: u32, records: &[Record]) -> io::Result<()> {
    let tmp = path.with_extension("bin.tmp");
    {
        let mut f = io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(MAGIC)?;
        f.write_all(&(RECORD_SIZE as u32).to_le_bytes())?;
        f.write_all(&games.to_le_bytes())?;
        f.write_all(bytemuck::cast_slice(records))?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Reads a whole shard: its game count and records.
pub fn read_shard(path: &Path) -> io::Result<(u32, Vec<Record>)> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.read_to_end(&mut bytes)?;
    parse_shard(&bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", path.display())))
}

/// Parses shard bytes (header and records).
pub fn parse_shard(bytes: &[u8]) -> Result<(u32, Vec<Record>), String> {
    if bytes.len() < HEADER_SIZE || &bytes[..8] != MAGIC {
        return Err("not a Tetrad data shard (bad header)".into());
    }
    let size = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    let games = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
    if size != RECORD_SIZE {
        return Err(format!("record size {size}, expected {RECORD_SIZE}"));
    }
    let body = &bytes[HEADER_SIZE..];
    if !body.len().is_multiple_of(RECORD_SIZE) {
        return Err(format!("truncated: {} bytes after the header is not a whole number of records", body.len()));
    }
    let records = body.chunks_exact(RECORD_SIZE).map(bytemuck::pod_read_unaligned::<Record>).collect();
    Ok((games, records))
}

/// Every `shard-*.bin` in a directory, in shard order.
pub fn list_shards(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("shard-") && n.ends_with(".bin"))
        })
        .collect();
    v.sort();
    Ok(v)
}

/// The shards `range` of a data directory (every shard when `None`), in
/// shard order. A range names exactly the shards to read: one missing from
/// it is an error (naming the file), so that a training command taken from a
/// directory that a `datagen` run is still filling reads the same data
/// whenever it is run.
pub fn select_shards(dir: &Path, range: Option<std::ops::Range<usize>>) -> io::Result<Vec<PathBuf>> {
    let Some(range) = range else { return list_shards(dir) };
    range
        .map(|n| {
            let path = shard_path(dir, n);
            if path.is_file() {
                Ok(path)
            } else {
                // The caller names the directory.
                Err(io::Error::new(io::ErrorKind::NotFound, format!("shard-{n:05}.bin is missing")))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_round_trip() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq - 3 17",
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
            "8/8/4k3/8/8/4K3/8/7R b - - 99 140",
        ];
        let results = [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin, GameResult::WhiteWin];
        let records: Vec<Record> = fens
            .iter()
            .zip(results)
            .enumerate()
            .map(|(i, (f, r))| Record::new(&Position::from_fen(f).unwrap(), 37 * i as i32 - 50, r))
            .collect();
        let dir = std::env::temp_dir().join(format!("tetrad-shard-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = shard_path(&dir, 3);
        write_shard(&path, 2, &records).unwrap();
        assert_eq!(list_shards(&dir).unwrap(), vec![path.clone()]);
        assert_eq!(select_shards(&dir, Some(3..4)).unwrap(), vec![path.clone()]);
        assert_eq!(select_shards(&dir, None).unwrap(), vec![path.clone()]);
        let missing = select_shards(&dir, Some(2..4)).unwrap_err().to_string();
        assert!(missing.contains("shard-00002.bin"), "{missing}");
        let (games, back) = read_shard(&path).unwrap();
        assert_eq!((games, &back), (2, &records));
        for ((rec, fen), r) in back.iter().zip(fens).zip(results) {
            assert_eq!(rec.position().unwrap().to_fen(), fen);
            assert_eq!(rec.result(), r);
        }
        // A truncated shard is refused with a reason.
        let bytes = std::fs::read(&path).unwrap();
        assert!(parse_shard(&bytes[..bytes.len() - 1]).unwrap_err().contains("truncated"));
        assert!(parse_shard(b"TETRADv0").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
