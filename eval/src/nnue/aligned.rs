//! `i16` storage that starts on a 64-byte boundary, so that a SIMD load of
//! a weight row or an accumulator slice never straddles two cache lines.

use bytemuck::{Pod, Zeroable};
use std::ops::{Deref, DerefMut};

/// One cache line of `i16`.
#[derive(Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
#[repr(C, align(64))]
struct Line([i16; 32]);

/// A growable array of `i16` on 64-byte boundaries (its length is any number).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct AlignedI16 {
    lines: Vec<Line>,
    len: usize,
}

impl AlignedI16 {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> AlignedI16 {
        AlignedI16 { lines: vec![Line([0; 32]); len.div_ceil(32)], len }
    }

    /// Sets the length to `len`, new values zero.
    pub fn resize(&mut self, len: usize) {
        self.lines.resize(len.div_ceil(32), Line([0; 32]));
        self.len = len;
    }
}

impl Deref for AlignedI16 {
    type Target = [i16];
    fn deref(&self) -> &[i16] {
        &bytemuck::cast_slice(&self.lines)[..self.len]
    }
}

impl DerefMut for AlignedI16 {
    fn deref_mut(&mut self) -> &mut [i16] {
        &mut bytemuck::cast_slice_mut(&mut self.lines)[..self.len]
    }
}

impl From<&[i16]> for AlignedI16 {
    fn from(v: &[i16]) -> AlignedI16 {
        let mut a = AlignedI16::zeroed(v.len());
        a.copy_from_slice(v);
        a
    }
}

impl std::fmt::Debug for AlignedI16 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AlignedI16({} values)", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_on_a_cache_line_and_keeps_its_length() {
        let mut a = AlignedI16::zeroed(100);
        assert_eq!(a.len(), 100);
        assert_eq!(a.as_ptr() as usize % 64, 0);
        a[99] = 7;
        a.resize(300);
        assert_eq!((a.len(), a[99], a[299]), (300, 7, 0));
        assert_eq!(a.as_ptr() as usize % 64, 0);
        assert_eq!(AlignedI16::from(&[1i16, 2, 3][..]).to_vec(), vec![1, 2, 3]);
    }
}
