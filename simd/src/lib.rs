//! The CCR position for Tetrad: types, FEN, legal move generation from the
//! compact 4-bit board, make-move, hashing, perft, and the SIMD kernels that
//! turn the CCR into bitboards.
#![deny(missing_docs)]

pub mod attacks;
pub mod bitboards;
pub mod bitgen;
pub mod ccr;
pub mod convert;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod tables;
pub mod types;
pub mod zobrist;

#[cfg(test)]
mod testutil;

pub use bitboards::{bitboards_to_ccr, ccr_to_bitboards, Bitboards};
pub use ccr::Ccr;
pub use fen::FenError;
pub use movegen::{generate, in_check, is_legal, legal_moves, parse_uci_move, GenType};
pub use moves::{Move, MoveKind, MoveList};
pub use position::{Position, STARTPOS_FEN};
pub use types::{CastleRights, Color, Piece, PieceType, Square};
