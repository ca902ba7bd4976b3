//! Names of content in the manifests of `datagen` and `rescore` runs.

/// FNV-1a of `bytes`: a book's, a network's or a source run's content in a
/// manifest, so that a run resumed with other inputs is refused.
pub fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01B3))
}
