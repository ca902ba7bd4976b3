//! Learning from games: the training data set, the network's trainer, the
//! Texel tuner of the hand-written weights, the win/draw/loss fit, and the
//! `bulletformat` export for GPU trainers.

pub mod bullet;
pub mod dataset;
pub mod train;
pub mod tune;
pub mod wdl;
