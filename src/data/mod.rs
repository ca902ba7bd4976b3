//! The data pipeline behind `datagen`, `rescore` and `genfens`: openings,
//! quiet-position filtering, shard files and their manifests, and scored
//! PGNs read back as training data.

pub mod data_file;
pub mod from_pgn;
pub mod genfens;
pub mod manifest;
pub mod openings;
pub mod pgn;
pub mod pgn_score;
pub mod quiet;
