//! The subcommands of the command line, one file each (`tetrad bench`,
//! `tetrad datagen`, ...), and train's loss log; `cli.rs` declares their arguments.

pub mod bench;
pub mod datagen;
pub mod eval;
pub mod net;
pub mod perft;
pub mod rescore;
pub mod train;
pub mod train_log;
pub mod tune;
pub mod wdl;
