//! The network file: a header, the quantised weights, a checksum.
//!
//! ```text
//! "TTNUEv01"                       8 bytes
//! inputs, hidden, buckets, 0       4 × u32
//! w1  i16 × inputs·hidden          row per input feature
//! b1  i16 × hidden
//! w2  i16 × buckets·2·hidden       per bucket: side-to-move half, then the other
//! b2  i32 × buckets
//! FNV-1a 64 of all of the above    u64
//! ```
//! All little-endian. A file of another shape, a truncated or padded file,
//! a bad checksum, or output weights outside ±[`MAX_OUTPUT_WEIGHT`] (the
//! SIMD output kernel multiplies them by up to 255 in 16 bits) is refused.

use super::{BUCKETS, HIDDEN, INPUTS};
use std::fmt;

/// First bytes of a network file.
pub const MAGIC: &[u8; 8] = b"TTNUEv01";
/// Largest output weight magnitude: 255 · 128 still fits an `i16`.
pub const MAX_OUTPUT_WEIGHT: i16 = 128;

/// The quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// First-layer weights, `w1[feature * HIDDEN + neuron]`.
    pub w1: Box<[i16]>,
    /// First-layer biases.
    pub b1: [i16; HIDDEN],
    /// Output weights per bucket: side to move's neurons, then the opponent's.
    pub w2: Box<[[i16; 2 * HIDDEN]; BUCKETS]>,
    /// Output biases per bucket (scale `QA·QB`).
    pub b2: [i32; BUCKETS],
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({INPUTS}->{HIDDEN}x2->1, {BUCKETS} buckets)")
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not a Tetrad network file.
    BadMagic,
    /// Made for another architecture.
    Shape {
        /// Inputs, hidden width and buckets found in the file.
        found: [u32; 3],
    },
    /// Too short or too long for its header.
    Size {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match the content.
    Checksum,
    /// An output weight too large for the integer kernel.
    OutputWeight(i16),
    /// The file could not be read.
    Io(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a Tetrad network file (bad header)"),
            NetError::Shape { found: [i, h, b] } => write!(
                f,
                "network is {i}->{h}x2 with {b} buckets; this build needs {INPUTS}->{HIDDEN}x2 with {BUCKETS} buckets"
            ),
            NetError::Size { expected, found } => {
                write!(f, "network file has {found} bytes, expected {expected} (truncated or padded)")
            }
            NetError::Checksum => write!(f, "network file checksum mismatch (corrupt file)"),
            NetError::OutputWeight(w) => write!(f, "output weight {w} beyond ±{MAX_OUTPUT_WEIGHT}"),
            NetError::Io(e) => write!(f, "cannot read network file: {e}"),
        }
    }
}

impl std::error::Error for NetError {}

/// Size in bytes of a file for this build's architecture.
pub const FILE_SIZE: usize = 8 + 16 + 2 * (INPUTS * HIDDEN + HIDDEN + BUCKETS * 2 * HIDDEN) + 4 * BUCKETS + 8;

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01B3))
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().unwrap_or([0; N])
    }
    fn i16s(&mut self, out: &mut [i16]) {
        for v in out {
            *v = i16::from_le_bytes(self.take());
        }
    }
}

impl Network {
    /// Parses and checks a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let dim = |i: usize| u32::from_le_bytes([bytes[8 + 4 * i], bytes[9 + 4 * i], bytes[10 + 4 * i], bytes[11 + 4 * i]]);
        let found = [dim(0), dim(1), dim(2)];
        if found != [INPUTS as u32, HIDDEN as u32, BUCKETS as u32] {
            return Err(NetError::Shape { found });
        }
        if bytes.len() != FILE_SIZE {
            return Err(NetError::Size { expected: FILE_SIZE, found: bytes.len() });
        }
        let (body, sum) = bytes.split_at(FILE_SIZE - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap_or([0; 8])) {
            return Err(NetError::Checksum);
        }
        let mut r = Reader(&body[24..]);
        let mut net = Network::zeroed();
        r.i16s(&mut net.w1);
        r.i16s(&mut net.b1);
        for b in net.w2.iter_mut() {
            r.i16s(b);
        }
        for b in net.b2.iter_mut() {
            *b = i32::from_le_bytes(r.take());
        }
        if let Some(&w) = net.w2.iter().flatten().find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16) {
            return Err(NetError::OutputWeight(w));
        }
        Ok(net)
    }

    /// Reads and checks a network file from disk.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }

    /// The file bytes of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_SIZE);
        out.extend_from_slice(MAGIC);
        for d in [INPUTS as u32, HIDDEN as u32, BUCKETS as u32, 0] {
            out.extend_from_slice(&d.to_le_bytes());
        }
        let i16s = self.w1.iter().chain(&self.b1).chain(self.w2.iter().flatten());
        for v in i16s {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.b2 {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A network of zeros (every position scores 0).
    pub fn zeroed() -> Network {
        Network {
            w1: vec![0; INPUTS * HIDDEN].into_boxed_slice(),
            b1: [0; HIDDEN],
            w2: Box::new([[0; 2 * HIDDEN]; BUCKETS]),
            b2: [0; BUCKETS],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        let mut n = Network::zeroed();
        for (i, w) in n.w1.iter_mut().enumerate() {
            *w = (i as i32 * 7919 % 601 - 300) as i16;
        }
        n.b1[3] = 17;
        n.w2[2][5] = -128;
        n.b2[7] = 123_456;
        n
    }

    #[test]
    fn round_trip_and_refusals() {
        let n = sample();
        let bytes = n.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert!(Network::from_bytes(&bytes).unwrap() == n);
        // Truncated, padded, corrupted, foreign.
        assert!(matches!(Network::from_bytes(&bytes[..bytes.len() - 1]), Err(NetError::Size { .. })));
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(Network::from_bytes(&long), Err(NetError::Size { .. })));
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert_eq!(Network::from_bytes(&bad), Err(NetError::Checksum));
        assert_eq!(Network::from_bytes(b"hello world, not a net"), Err(NetError::BadMagic));
        let mut shape = bytes.clone();
        shape[12] = 0; // hidden width 256 -> 0
        shape[13] = 0;
        assert!(matches!(Network::from_bytes(&shape), Err(NetError::Shape { .. })));
        let mut wide = n.clone();
        wide.w2[0][0] = 129;
        assert_eq!(Network::from_bytes(&wide.to_bytes()), Err(NetError::OutputWeight(129)));
        // Every error says what is wrong.
        assert!(NetError::Checksum.to_string().contains("checksum"));
    }
}
