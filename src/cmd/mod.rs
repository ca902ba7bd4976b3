//! The subcommands of the command line, one file each (`tetrad bench`,
//! `tetrad datagen`, ...); `cli.rs` declares their arguments.

pub mod bench;
pub mod datagen;
pub mod eval;
pub mod net;
pub mod perft;
pub mod rescore;
pub mod train;
pub mod tune;
pub mod wdl;
