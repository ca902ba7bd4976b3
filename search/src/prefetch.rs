//! A cache hint: start loading the line that holds a value the node will
//! read soon, so the load overlaps other work (the network's evaluation,
//! sorting the moves) instead of stalling when the value is read.

/// Asks the CPU to bring the cache line holding `*r` into L1. Only a hint:
/// no value changes, and on other architectures it does nothing.
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = r as *const T as *const i8;
        // SAFETY: a prefetch never faults and writes nothing; `p` points into a live reference anyway.
        unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

#[cfg(test)]
mod tests {
    use super::prefetch;

    /// The hint reads nothing back and changes nothing, on the stack, the
    /// heap and at the ends of a large table.
    #[test]
    fn a_prefetch_changes_no_value() {
        let table: Vec<i16> = (0..1 << 16).map(|i| (i % 251) as i16).collect();
        for i in [0, 1, 4095, 4096, table.len() - 1] {
            prefetch(&table[i]);
        }
        let local = [7u64; 3];
        prefetch(&local);
        assert!(table.iter().enumerate().all(|(i, &v)| v == (i % 251) as i16));
        assert_eq!(local, [7; 3]);
    }
}
