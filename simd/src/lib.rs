//! The CCR position for Tetrad: types, FEN, make-move, hashing, the SIMD
//! kernels that turn the CCR into bitboards, attack tables, legal move
//! generation on those bitboards (and the paper's generator on the CCR
//! itself, as the reference), and perft.
#![deny(missing_docs)]

pub mod attacks;
pub mod bitboards;
pub mod ccr;
pub mod chess960;
pub mod convert;
pub mod fen;
pub mod mailbox;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod sample;
pub mod tables;
pub mod types;
pub mod view;
pub mod zobrist;

#[cfg(test)]
mod testutil;

pub use bitboards::Bitboards;
pub use ccr::Ccr;
pub use convert::{bitboards_to_ccr, ccr_to_bitboards};
pub use fen::FenError;
pub use mailbox::Mailbox;
pub use movegen::{
    count_moves, generate, generate_in, in_check, is_legal, is_legal_in, king_info, legal_moves, parse_uci_move,
    GenType,
};
pub use moves::{Move, MoveKind, MoveList};
pub use position::{Position, STARTPOS_FEN};
pub use types::{CastleRights, Color, Piece, PieceType, Square};
pub use view::{CheckInfo, KingInfo, NodeView};
