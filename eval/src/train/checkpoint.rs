//! Training checkpoints: float weights, Adam moments and the epoch reached.
//!
//! `"TTCKPTv1"`, epoch (u64), Adam steps (u64), then the weights, the first
//! and the second moments, each as the four arrays of [`Model::parts`] in
//! little-endian `f32`.

use super::{Adam, Model};
use std::io::{self, Read, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"TTCKPTv1";

/// Everything needed to go on with a run.
#[derive(Clone)]
pub struct Checkpoint {
    /// Last finished epoch (0 before the first).
    pub epoch: usize,
    /// The weights.
    pub model: Model,
    /// The optimiser state.
    pub adam: Adam,
}

impl Checkpoint {
    /// A fresh start from seeded random weights.
    pub fn new(seed: u64) -> Checkpoint {
        Checkpoint { epoch: 0, model: Model::random(seed), adam: Adam::new() }
    }
}

/// Writes a checkpoint (to a temporary name, then renamed into place).
pub fn save_checkpoint(path: &Path, c: &Checkpoint) -> io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = io::BufWriter::new(std::fs::File::create(&tmp)?);
        f.write_all(MAGIC)?;
        f.write_all(&(c.epoch as u64).to_le_bytes())?;
        f.write_all(&c.adam.t.to_le_bytes())?;
        for m in [&c.model, &c.adam.m, &c.adam.v] {
            for part in m.parts() {
                f.write_all(bytemuck::cast_slice(part))?;
            }
        }
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    }
    std::fs::rename(tmp, path)
}

/// Reads a checkpoint written by [`save_checkpoint`].
pub fn load_checkpoint(path: &Path) -> io::Result<Checkpoint> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.read_to_end(&mut bytes)?;
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {what}", path.display()));
    let floats = 3 * Model::zeros().parts().iter().map(|p| p.len()).sum::<usize>();
    if bytes.len() != 24 + 4 * floats || &bytes[..8] != MAGIC {
        return Err(bad("not a checkpoint of this network shape"));
    }
    let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
    let mut c = Checkpoint { epoch: word(8) as usize, model: Model::zeros(), adam: Adam::new() };
    c.adam.t = word(16);
    let mut at = 24;
    for m in [&mut c.model, &mut c.adam.m, &mut c.adam.v] {
        for part in m.parts_mut() {
            for x in part.iter_mut() {
                *x = f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
                at += 4;
            }
        }
    }
    Ok(c)
}
