//! Training positions in `bulletformat`'s chess record, the data format of
//! bullet, the GPU trainer most engines now use; so a user with a GPU can
//! train Tetrad's network shapes there. Tetrad's own trainer keeps reading
//! its own shards ([`crate::learn::dataset`]).
//!
//! A `ChessBoard` is 32 bytes: occupancy, 4-bit piece codes in square order,
//! the score and the result, all from the side to move's view (the crate
//! flips a Black-to-move board), and both kings' squares. Files have no
//! header: concatenated files are one file, and bullet's own tools shuffle
//! and interleave them.

use crate::learn::dataset::Record;
use bulletformat::{BulletFormat, ChessBoard};
use std::io::{self, Write};
use tetrad_simd::Square;

/// The bullet record of a position: its pieces, White-view score (as
/// stored, the network's units) and result, turned to the mover's view by
/// the crate's own constructor.
pub fn to_bullet(rec: &Record) -> Result<ChessBoard, String> {
    // White, Black, then pawn, knight, bishop, rook, queen, king: the crate's order.
    let mut bbs = [0u64; 8];
    let ccr = rec.ccr();
    for sq in Square::all() {
        if let Some(p) = ccr.piece(sq) {
            bbs[p.color().index()] |= sq.bit();
            bbs[2 + p.kind().index()] |= sq.bit();
        }
    }
    ChessBoard::from_raw(bbs, rec.side_to_move().index(), rec.score, rec.result().white_score())
}

/// Writes records as bullet records; a record the crate refuses (a corrupt
/// board) is left out. Returns how many were written.
pub fn write_bullet(out: &mut impl Write, records: &[Record]) -> io::Result<usize> {
    let boards: Vec<ChessBoard> = records.iter().filter_map(|r| to_bullet(r).ok()).collect();
    out.write_all(ChessBoard::as_bytes_slice(&boards))?;
    Ok(boards.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::dataset::GameResult;
    use bulletformat::DataLoader;
    use tetrad_simd::Position;

    #[test]
    fn round_trip_through_the_crates_reader() {
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 31, GameResult::WhiteWin),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 17", -120, GameResult::Draw),
            ("8/8/4k3/8/8/4K3/8/7R b - - 12 60", 900, GameResult::BlackWin),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0, GameResult::WhiteWin),
        ];
        let records: Vec<Record> =
            cases.iter().map(|(f, s, r)| Record::new(&Position::from_fen(f).unwrap(), *s, *r)).collect();
        let path = std::env::temp_dir().join(format!("tetrad-bullet-{}.data", std::process::id()));
        let mut file = std::fs::File::create(&path).unwrap();
        assert_eq!(write_bullet(&mut file, &records).unwrap(), 4);
        drop(file);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 4 * 32);
        let mut read = Vec::new();
        DataLoader::<ChessBoard>::new(&path, 1).unwrap().map_positions(|b| read.push(*b));
        assert_eq!(read.len(), 4);
        for ((fen, score, result), board) in cases.iter().zip(&read) {
            // The crate's own text reader (`FEN | White-view score | White's result`) agrees.
            let text = format!("{fen} | {score} | {:.1}", result.white_score());
            assert_eq!(*board, text.parse::<ChessBoard>().unwrap(), "{text}");
            let black = fen.contains(" b ");
            assert_eq!(board.score(), if black { -score } else { *score } as i16);
            let mover_result = if black { 1.0 - result.white_score() } else { result.white_score() };
            assert_eq!(board.result(), mover_result);
            let pieces = fen.split(' ').next().unwrap().chars().filter(char::is_ascii_alphabetic).count();
            assert_eq!(board.into_iter().count(), pieces);
        }
        std::fs::remove_file(&path).unwrap();
    }
}
