//! The network file: a header that describes the network, the quantised
//! weights, a checksum.
//!
//! ```text
//! "TTNUEv02"                              8 bytes
//! inputs per king bucket (768)            u32
//! hidden (first-layer width)              u32
//! output buckets (8)                      u32
//! king buckets                            u32
//! mirror (0 or 1)                         u32
//! QA (255), QB (64)                       2 × u32
//! output scale: centipawns per unit       u32
//! search percentage                       u32
//! king bucket of each square              64 bytes
//! description (UTF-8, NUL-padded)         64 bytes
//! w1  i16 × kings·768·hidden              row per input feature
//! b1  i16 × hidden
//! w2  i16 × buckets·2·hidden              per bucket: side-to-move half, then the other
//! b2  i32 × buckets
//! FNV-1a 64 of all of the above           u64
//! ```
//! All little-endian. The output scale is what `train` fitted the network
//! to (its target is `sigmoid(cp / scale)`); the search percentage is the
//! share of those centipawns the search sees (its margins were tuned on the
//! hand-written evaluation's scale). Version 1 files (`TTNUEv01`: 768 → 256,
//! no king buckets, a header of four `u32`) still load, with scale 400 and
//! 73%, the values they were made for.
//!
//! Refused: another version or shape than the kernels take, a truncated or
//! padded file, a bad checksum, and weights whose integer sums could
//! overflow: a first-layer neuron whose bias plus 32 of its largest weights
//! leaves `i16`, an output weight beyond ±[`MAX_OUTPUT_WEIGHT`] (the output
//! kernel multiplies it by up to 255 in 16 bits), or an output bucket whose
//! weights could carry the 32-bit dot product past `i32`.

use super::aligned::AlignedI16;
use super::arch::{Arch, KingBuckets, INPUTS};
use super::{BUCKETS, QA, QB};
use std::fmt;

/// First bytes of a network file of this version.
pub const MAGIC: &[u8; 8] = b"TTNUEv02";
/// First bytes of a version 1 file.
pub const MAGIC_V1: &[u8; 8] = b"TTNUEv01";
/// Largest output weight magnitude: 255 · 128 still fits an `i16`.
pub const MAX_OUTPUT_WEIGHT: i16 = 128;
/// Output scale of version 1 files and of `train` by default.
pub const DEFAULT_SCALE: i32 = 400;
/// Search percentage of version 1 files.
pub const V1_SEARCH_PCT: i32 = 73;
/// Pieces on a board at most: the first layer adds at most this many rows.
const MAX_PIECES: i64 = 32;
const HEADER_V2: usize = 8 + 9 * 4 + 64 + 64;
const HEADER_V1: usize = 8 + 4 * 4;

/// The quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Shape.
    pub arch: Arch,
    /// First-layer weights, `w1[feature * hidden + neuron]`.
    pub w1: AlignedI16,
    /// First-layer biases.
    pub b1: AlignedI16,
    /// Output weights, `w2[bucket * 2 * hidden + i]`: side to move's neurons, then the opponent's.
    pub w2: AlignedI16,
    /// Output biases per bucket (scale `QA·QB`).
    pub b2: [i32; BUCKETS],
    /// Centipawns per output unit.
    pub scale: i32,
    /// Percentage of the network's centipawns the search sees.
    pub search_pct: i32,
    /// Free text: how the network was made.
    pub description: String,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({}x2->1, {BUCKETS} buckets, scale {}, search {}%)",
            self.arch.describe(),
            self.scale,
            self.search_pct
        )
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not a Tetrad network file, or a version this build does not read.
    BadMagic,
    /// A shape or quantisation this build cannot run.
    Shape(String),
    /// Too short or too long for its header.
    Size {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match the content.
    Checksum,
    /// Weights whose integer sums could overflow.
    Range(String),
    /// The file could not be read.
    Io(String),
    /// An error in a named file.
    InFile(String, Box<NetError>),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a Tetrad network file (bad header)"),
            NetError::Shape(s) => write!(f, "unsupported network: {s}"),
            NetError::Size { expected, found } => {
                write!(f, "network file has {found} bytes, expected {expected} (truncated or padded)")
            }
            NetError::Checksum => write!(f, "network file checksum mismatch (corrupt file)"),
            NetError::Range(s) => write!(f, "weights out of range: {s}"),
            NetError::Io(e) => write!(f, "cannot read network file: {e}"),
            NetError::InFile(path, e) => write!(f, "{path}: {e}"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01B3))
}

/// Size in bytes of the weights and biases of a shape.
fn body_size(arch: &Arch) -> usize {
    let h = arch.hidden;
    2 * (arch.inputs() * h + h + BUCKETS * 2 * h) + 4 * BUCKETS
}

/// Size in bytes of a (version 2) file of this shape.
pub fn file_size(arch: &Arch) -> usize {
    HEADER_V2 + body_size(arch) + 8
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let n = N.min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head.try_into().unwrap_or([0; N])
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i16s(&mut self, out: &mut [i16]) {
        for v in out {
            *v = i16::from_le_bytes(self.take());
        }
    }
}

/// The header fields of a version 2 file.
struct Header {
    arch: Arch,
    scale: i32,
    search_pct: i32,
    description: String,
}

fn read_header_v2(r: &mut Reader) -> Result<Header, NetError> {
    let [inputs, hidden, buckets, kings, mirror, qa, qb, scale, pct] = std::array::from_fn(|_| r.u32());
    let map: [u8; 64] = r.take();
    let text: [u8; 64] = r.take();
    if inputs as usize != INPUTS || buckets as usize != BUCKETS {
        return Err(NetError::Shape(format!(
            "{inputs} inputs and {buckets} output buckets; this build takes {INPUTS} and {BUCKETS}"
        )));
    }
    if (qa, qb) != (QA as u32, QB as u32) {
        return Err(NetError::Shape(format!("quantisation {qa}/{qb}; this build takes {QA}/{QB}")));
    }
    if mirror > 1 {
        return Err(NetError::Shape(format!("mirror flag {mirror}")));
    }
    let arch = Arch { hidden: hidden as usize, kings: KingBuckets { map, mirror: mirror == 1 } };
    arch.check().map_err(NetError::Shape)?;
    if arch.kings.count() != kings as usize {
        return Err(NetError::Shape(format!("header says {kings} king buckets, its map has {}", arch.kings.count())));
    }
    if !(1..=100_000).contains(&scale) || !(1..=1000).contains(&pct) {
        return Err(NetError::Shape(format!("output scale {scale} or search percentage {pct} out of range")));
    }
    let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
    let description = String::from_utf8_lossy(&text[..end]).into_owned();
    Ok(Header { arch, scale: scale as i32, search_pct: pct as i32, description })
}

impl Network {
    /// Parses and checks a network file (version 2, or version 1).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let magic = bytes.get(..8).ok_or(NetError::BadMagic)?;
        let mut r = Reader(&bytes[8..]);
        let (header, header_len) = if magic == MAGIC {
            (read_header_v2(&mut r)?, HEADER_V2)
        } else if magic == MAGIC_V1 {
            let dims = [r.u32(), r.u32(), r.u32()];
            r.u32();
            if dims != [INPUTS as u32, 256, BUCKETS as u32] {
                return Err(NetError::Shape(format!(
                    "version 1 network {}->{}x2 with {} buckets",
                    dims[0], dims[1], dims[2]
                )));
            }
            let header = Header {
                arch: Arch::PLAIN_256,
                scale: DEFAULT_SCALE,
                search_pct: V1_SEARCH_PCT,
                description: "version 1 file".into(),
            };
            (header, HEADER_V1)
        } else {
            return Err(NetError::BadMagic);
        };
        let expected = header_len + body_size(&header.arch) + 8;
        if bytes.len() != expected {
            return Err(NetError::Size { expected, found: bytes.len() });
        }
        let (body, sum) = bytes.split_at(expected - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap_or([0; 8])) {
            return Err(NetError::Checksum);
        }
        let mut r = Reader(&body[header_len..]);
        let mut net = Network::zeroed(header.arch);
        r.i16s(&mut net.w1);
        r.i16s(&mut net.b1);
        r.i16s(&mut net.w2);
        for b in net.b2.iter_mut() {
            *b = i32::from_le_bytes(r.take());
        }
        (net.scale, net.search_pct, net.description) = (header.scale, header.search_pct, header.description);
        net.check_ranges()?;
        Ok(net)
    }

    /// Checks that no sum the integer kernels form can overflow.
    pub fn check_ranges(&self) -> Result<(), NetError> {
        let h = self.arch.hidden;
        let mut largest = vec![0i64; h];
        for row in self.w1.chunks_exact(h) {
            for (m, &w) in largest.iter_mut().zip(row) {
                *m = (*m).max(i64::from(w).abs());
            }
        }
        for (i, (&b, &m)) in self.b1.iter().zip(&largest).enumerate() {
            if i64::from(b).abs() + MAX_PIECES * m > i64::from(i16::MAX) {
                return Err(NetError::Range(format!(
                    "first-layer neuron {i}: bias {b} plus {MAX_PIECES} weights of up to {m} can leave i16"
                )));
            }
        }
        if let Some(&w) = self.w2.iter().find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16) {
            return Err(NetError::Range(format!("output weight {w} beyond ±{MAX_OUTPUT_WEIGHT}")));
        }
        let top = i64::from(QA) * i64::from(QA);
        for (b, ws) in self.w2.chunks_exact(2 * h).enumerate() {
            let sum: i64 = ws.iter().map(|&w| i64::from(w).abs() * top).sum();
            if sum > i64::from(i32::MAX) {
                return Err(NetError::Range(format!(
                    "output bucket {b}: its weights can carry the dot product past i32 ({sum})"
                )));
            }
        }
        Ok(())
    }

    /// Reads and checks a network file from disk; errors name the file.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        let named = |e: NetError| NetError::InFile(path.display().to_string(), Box::new(e));
        let bytes = std::fs::read(path).map_err(|e| named(NetError::Io(e.to_string())))?;
        Network::from_bytes(&bytes).map_err(named)
    }

    /// The file bytes of this network (version 2).
    pub fn to_bytes(&self) -> Vec<u8> {
        let a = &self.arch;
        let mut out = Vec::with_capacity(file_size(a));
        out.extend_from_slice(MAGIC);
        let fields =
            [INPUTS, a.hidden, BUCKETS, a.kings.count(), usize::from(a.kings.mirror), QA as usize, QB as usize];
        for d in fields.into_iter().chain([self.scale.max(0) as usize, self.search_pct.max(0) as usize]) {
            out.extend_from_slice(&(d as u32).to_le_bytes());
        }
        out.extend_from_slice(&a.kings.map);
        let mut text = [0u8; 64];
        let desc = truncate_utf8(&self.description, 64);
        text[..desc.len()].copy_from_slice(desc.as_bytes());
        out.extend_from_slice(&text);
        for v in self.w1.iter().chain(self.b1.iter()).chain(self.w2.iter()) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.b2 {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A network of zeros (every position scores 0) of shape `arch`.
    pub fn zeroed(arch: Arch) -> Network {
        let h = arch.hidden;
        Network {
            arch,
            w1: AlignedI16::zeroed(arch.inputs() * h),
            b1: AlignedI16::zeroed(h),
            w2: AlignedI16::zeroed(BUCKETS * 2 * h),
            b2: [0; BUCKETS],
            scale: DEFAULT_SCALE,
            search_pct: V1_SEARCH_PCT,
            description: String::new(),
        }
    }
}

/// The longest prefix of `s` of at most `max` bytes that ends on a character boundary.
fn truncate_utf8(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(arch: Arch) -> Network {
        let mut n = Network::zeroed(arch);
        for (i, w) in n.w1.iter_mut().enumerate() {
            *w = (i as i32 * 7919 % 601 - 300) as i16;
        }
        n.b1[3] = 17;
        n.w2[2 * 2 * arch.hidden + 5] = -128;
        n.b2[7] = 123_456;
        n.scale = 380;
        n.search_pct = 81;
        n.description = "test net".into();
        n
    }

    #[test]
    fn round_trip_and_refusals() {
        for arch in [Arch::PLAIN_256, Arch { hidden: 384, kings: KingBuckets::FOUR }] {
            let n = sample(arch);
            let bytes = n.to_bytes();
            assert_eq!(bytes.len(), file_size(&arch));
            assert!(Network::from_bytes(&bytes).unwrap() == n);
            // Truncated, padded, corrupted, foreign.
            assert!(matches!(Network::from_bytes(&bytes[..bytes.len() - 1]), Err(NetError::Size { .. })));
            let mut long = bytes.clone();
            long.push(0);
            assert!(matches!(Network::from_bytes(&long), Err(NetError::Size { .. })));
            let mut bad = bytes.clone();
            bad[500] ^= 1;
            assert_eq!(Network::from_bytes(&bad), Err(NetError::Checksum));
        }
        assert_eq!(Network::from_bytes(b"hello world, not a net"), Err(NetError::BadMagic));
        assert_eq!(Network::from_bytes(b"TTNUE"), Err(NetError::BadMagic));
        let bytes = sample(Arch::PLAIN_256).to_bytes();
        let mut shape = bytes.clone();
        shape[12..16].copy_from_slice(&100u32.to_le_bytes()); // width 100: not a multiple of 128
        assert!(matches!(Network::from_bytes(&shape), Err(NetError::Shape(_))));
        let mut quant = bytes.clone();
        quant[28..32].copy_from_slice(&127u32.to_le_bytes()); // QA 127
        assert!(matches!(Network::from_bytes(&quant), Err(NetError::Shape(_))));
        // Every error says what is wrong.
        assert!(NetError::Checksum.to_string().contains("checksum"));
    }

    #[test]
    fn version_1_files_load_with_their_scale() {
        let n = sample(Arch::PLAIN_256);
        let mut v1 = Vec::new();
        v1.extend_from_slice(MAGIC_V1);
        for d in [768u32, 256, 8, 0] {
            v1.extend_from_slice(&d.to_le_bytes());
        }
        for v in n.w1.iter().chain(n.b1.iter()).chain(n.w2.iter()) {
            v1.extend_from_slice(&v.to_le_bytes());
        }
        for v in &n.b2 {
            v1.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&v1);
        v1.extend_from_slice(&sum.to_le_bytes());
        let back = Network::from_bytes(&v1).unwrap();
        assert_eq!((back.scale, back.search_pct), (DEFAULT_SCALE, V1_SEARCH_PCT));
        assert!(back.w1 == n.w1 && back.w2 == n.w2 && back.b2 == n.b2);
    }

    /// Hostile files: weights that would overflow the integer sums are
    /// refused at load, each layer on its own, with the file's name.
    #[test]
    fn weights_that_could_overflow_are_refused() {
        let ok = sample(Arch::PLAIN_256);
        let mut first = ok.clone();
        first.w1[5 * 256 + 9] = 2000; // 32 · 2000 > 32767
        assert!(matches!(Network::from_bytes(&first.to_bytes()), Err(NetError::Range(s)) if s.contains("neuron 9")));
        let mut bias = ok.clone();
        bias.b1[4] = 32_000;
        assert!(matches!(Network::from_bytes(&bias.to_bytes()), Err(NetError::Range(_))));
        let mut out = ok.clone();
        out.w2[0] = 129;
        assert!(matches!(Network::from_bytes(&out.to_bytes()), Err(NetError::Range(s)) if s.contains("129")));
        let mut dot = ok.clone();
        dot.w2[..512].iter_mut().for_each(|w| *w = 100); // 512 · 100 · 255² > 2^31
        assert!(matches!(Network::from_bytes(&dot.to_bytes()), Err(NetError::Range(s)) if s.contains("bucket 0")));
        let path = std::env::temp_dir().join(format!("tetrad-hostile-{}.tnn", std::process::id()));
        std::fs::write(&path, first.to_bytes()).unwrap();
        let e = Network::load(&path).unwrap_err().to_string();
        let _ = std::fs::remove_file(&path);
        assert!(e.contains("tetrad-hostile") && e.contains("out of range"), "{e}");
    }
}
