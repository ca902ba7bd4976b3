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
pub mod sample;
pub mod tables;
pub mod types;
pub mod zobrist;

#[cfg(test)]
mod testutil;

/// The faster legal move generator, under names the search can use without
/// caring which one it is (today: [`bitgen`], the bitboard generator).
pub use bitgen::{
    count_moves as count_moves_fast, generate as generate_fast, generate_with as generate_fast_with,
    in_check as in_check_fast, is_legal as is_legal_fast, king_info as king_info_fast, legal_moves as legal_moves_fast,
};
/// The faster generator for perft and tools that take a [`perft::Generator`].
pub use perft::BitboardGenerator as FastGenerator;
pub use bitboards::{bitboards_to_ccr, ccr_to_bitboards, Bitboards};
pub use ccr::Ccr;
pub use fen::FenError;
pub use movegen::{generate, in_check, is_legal, legal_moves, parse_uci_move, GenType};
pub use moves::{Move, MoveKind, MoveList};
pub use position::{Position, STARTPOS_FEN};
pub use types::{CastleRights, Color, Piece, PieceType, Square};
