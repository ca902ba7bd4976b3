//! Training checkpoints: float weights, Adam moments and the epoch reached.
//!
//! `"TTCKPTv3"`, epoch (u64), Adam steps (u64), the shape (width `u32`,
//! mirror `u32`, the 64-byte king bucket map), output scale and search
//! percentage (`u32` each), whether the first layer is factorised (`u32`),
//! then the weights, the first and the second moments, each as the arrays
//! of [`Model::parts`] in little-endian `f32`. (`"TTCKPTv2"` files, the same
//! without the factoriser flag, and `"TTCKPTv1"` ones, of the 768 → 256
//! shape, still load.)

use super::{Adam, Model};
use crate::nnue::{Arch, KingBuckets};
use std::io::{self, Read, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"TTCKPTv3";
const MAGIC_V2: &[u8; 8] = b"TTCKPTv2";
const MAGIC_V1: &[u8; 8] = b"TTCKPTv1";
const SHAPE_BYTES: usize = 4 + 4 + 64 + 4 + 4;

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
    /// A fresh start from seeded random weights of shape `arch`.
    pub fn new(arch: Arch, seed: u64) -> Checkpoint {
        Checkpoint::from_model(Model::random(arch, seed))
    }

    /// A fresh start from `model`'s weights.
    pub fn from_model(model: Model) -> Checkpoint {
        let adam = Adam::new(&model);
        Checkpoint { epoch: 0, model, adam }
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
        let m = &c.model;
        f.write_all(&(m.arch.hidden as u32).to_le_bytes())?;
        f.write_all(&u32::from(m.arch.kings.mirror).to_le_bytes())?;
        f.write_all(&m.arch.kings.map)?;
        f.write_all(&(m.scale as u32).to_le_bytes())?;
        f.write_all(&(m.search_pct as u32).to_le_bytes())?;
        f.write_all(&u32::from(m.factorised()).to_le_bytes())?;
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
    let word = |i: usize| u64::from_le_bytes(bytes.get(i..i + 8).and_then(|b| b.try_into().ok()).unwrap_or([0; 8]));
    let half = |i: usize| u32::from_le_bytes(bytes.get(i..i + 4).and_then(|b| b.try_into().ok()).unwrap_or([0; 4]));
    let (model, mut at) = match bytes.get(..8) {
        Some(m) if m == MAGIC_V1 => (Model::zeros(Arch::PLAIN_256), 24),
        Some(m) if (m == MAGIC || m == MAGIC_V2) && bytes.len() >= 24 + SHAPE_BYTES + 4 => {
            let map: [u8; 64] = bytes[32..96].try_into().unwrap_or([0; 64]);
            let arch = Arch { hidden: half(24) as usize, kings: KingBuckets { map, mirror: half(28) == 1 } };
            arch.check().map_err(|e| bad(&e))?;
            let mut model = Model::zeros(arch);
            (model.scale, model.search_pct) = (half(96) as i32, half(100) as i32);
            if m == MAGIC_V2 {
                (model, 24 + SHAPE_BYTES)
            } else {
                if half(24 + SHAPE_BYTES) == 1 {
                    model = model.factorise();
                }
                (model, 24 + SHAPE_BYTES + 4)
            }
        }
        _ => return Err(bad("not a training checkpoint")),
    };
    let floats = 3 * model.parts().iter().map(|p| p.len()).sum::<usize>();
    if bytes.len() != at + 4 * floats {
        return Err(bad("truncated or padded checkpoint"));
    }
    let mut c = Checkpoint::from_model(model);
    c.epoch = word(8) as usize;
    c.adam.t = word(16);
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
