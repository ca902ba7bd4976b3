//! Transparent huge pages for the transposition table.
//!
//! Every probe lands on a random bucket, so with 4 KiB pages a probe (and
//! the prefetch before it) often misses the TLB and walks the page tables;
//! in the profile the prefetch itself stalled. Backed by 2 MiB pages, a
//! 16 MiB table needs 8 TLB entries instead of 4096. Linux grants huge pages to ordinary allocations only when the
//! system setting is `always`; under the common `madvise` setting the program
//! has to ask, as Stockfish and Ethereal do. Elsewhere this does nothing.

/// Asks the kernel to back `mem` with huge pages where it can. A hint only:
/// contents are unchanged and a refusal (old kernel, THP off) is ignored.
/// `mem` should start on a 2 MiB boundary and be untouched so far, so that
/// its pages are faulted in huge from the start.
pub fn advise<T>(mem: &mut [T]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = mem.as_mut_ptr() as usize;
        // madvise needs a page-aligned start; round inwards.
        let first = start.next_multiple_of(PAGE);
        let end = start + std::mem::size_of_val(mem);
        if end > first {
            // SAFETY: [first, end) lies inside `mem`, which we hold exclusively;
            // MADV_HUGEPAGE changes only how the kernel backs those pages,
            // never their contents, and its result is ignored on purpose.
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = mem;
}
