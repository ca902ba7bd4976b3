//! A binary built for newer instructions than the CPU it starts on says so
//! and exits, instead of dying later with SIGILL and no message.
//!
//! The build's instruction set is known at compile time (`cfg(target_feature)`,
//! from `-C target-cpu=...`); the CPU's is read with `cpuid` at start-up.
//! This runs first in `main`, before any of the engine's code.

/// Every feature a build may be compiled for: (name, cpuid leaf, subleaf, register 0..4 = eax ebx ecx edx, bit).
#[cfg(target_arch = "x86_64")]
const FEATURES: [(&str, u32, u32, usize, u32); 19] = [
    ("sse3", 1, 0, 2, 0),
    ("ssse3", 1, 0, 2, 9),
    ("fma", 1, 0, 2, 12),
    ("cmpxchg16b", 1, 0, 2, 13),
    ("sse4.1", 1, 0, 2, 19),
    ("sse4.2", 1, 0, 2, 20),
    ("movbe", 1, 0, 2, 22),
    ("popcnt", 1, 0, 2, 23),
    ("avx", 1, 0, 2, 28),
    ("f16c", 1, 0, 2, 29),
    ("bmi1", 7, 0, 1, 3),
    ("avx2", 7, 0, 1, 5),
    ("bmi2", 7, 0, 1, 8),
    ("avx512f", 7, 0, 1, 16),
    ("avx512dq", 7, 0, 1, 17),
    ("avx512cd", 7, 0, 1, 28),
    ("avx512bw", 7, 0, 1, 30),
    ("avx512vl", 7, 0, 1, 31),
    ("lzcnt", 0x8000_0001, 0, 2, 5),
];

/// Whether this build was compiled to use `name`.
#[cfg(target_arch = "x86_64")]
fn compiled_for(name: &str) -> bool {
    macro_rules! any_of {
        ($($f:tt),*) => { false $(|| (name == $f && cfg!(target_feature = $f)))* };
    }
    any_of!(
        "sse3",
        "ssse3",
        "fma",
        "cmpxchg16b",
        "sse4.1",
        "sse4.2",
        "movbe",
        "popcnt",
        "avx",
        "f16c",
        "bmi1",
        "avx2",
        "bmi2",
        "avx512f",
        "avx512dq",
        "avx512cd",
        "avx512bw",
        "avx512vl",
        "lzcnt"
    )
}

/// Whether the CPU has feature `i` of [`FEATURES`], read with `cpuid` itself
/// (`is_x86_feature_detected!` answers "yes" at compile time for every
/// feature the build targets, so it cannot make this check).
#[cfg(target_arch = "x86_64")]
fn cpu_has(i: usize) -> bool {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    let (_, leaf, sub, reg, bit) = FEATURES[i];
    // Leaves beyond the maximum the CPU reports read as zero.
    #[allow(unused_unsafe)]
    // SAFETY: `cpuid` exists on every x86-64 CPU (newer compilers call these safe).
    let (max, r) = unsafe { (__cpuid(leaf & 0x8000_0000).eax, __cpuid_count(leaf, sub)) };
    if leaf > max {
        return false;
    }
    let word = [r.eax, r.ebx, r.ecx, r.edx][reg];
    word >> bit & 1 == 1
}

/// Features this build was compiled to use that this CPU lacks.
#[cfg(test)]
pub fn missing_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing = Vec::new();
    #[cfg(target_arch = "x86_64")]
    for (i, f) in FEATURES.iter().enumerate() {
        if compiled_for(f.0) && !cpu_has(i) {
            missing.push(f.0);
        }
    }
    missing
}

/// Exits with status 3 and a message on stderr when the CPU lacks what the build needs.
///
/// Written to need nothing beyond baseline x86-64 where it can: every other
/// function of a `target-cpu=x86-64-v3` build may be encoded with AVX, and
/// an AVX-encoded instruction here would be the SIGILL this is meant to
/// prevent. So: no formatting, no allocation, only `cpuid` and calls into the
/// standard library (compiled for the baseline) with static strings.
#[inline(never)]
pub fn ensure_supported() {
    #[cfg(target_arch = "x86_64")]
    {
        use std::io::Write;
        let mut bad = false;
        for (i, f) in FEATURES.iter().enumerate() {
            if compiled_for(f.0) && !cpu_has(i) {
                if !bad {
                    let _ =
                        std::io::stderr().write_all(b"tetrad: this binary was built for a newer CPU; this one lacks:");
                }
                bad = true;
                let _ = std::io::stderr().write_all(b" ");
                let _ = std::io::stderr().write_all(f.0.as_bytes());
            }
        }
        if bad {
            let _ = std::io::stderr().write_all(
                b".\nBuild one for this machine with `make native`, or a portable one with `make x86-64-v2` (see README).\n",
            );
            std::process::exit(3);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpuid_reading_agrees_with_std_detection() {
        // The tests run where they were compiled: nothing may be missing, and
        // for the features the build does not assume, the raw cpuid reading
        // must agree with std's run-time detection.
        assert_eq!(super::missing_features(), Vec::<&str>::new());
        #[cfg(target_arch = "x86_64")]
        for (i, f) in super::FEATURES.iter().enumerate() {
            let std_says = match f.0 {
                "sse3" => std::arch::is_x86_feature_detected!("sse3"),
                "ssse3" => std::arch::is_x86_feature_detected!("ssse3"),
                "sse4.2" => std::arch::is_x86_feature_detected!("sse4.2"),
                "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
                "avx2" => std::arch::is_x86_feature_detected!("avx2"),
                "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
                "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
                "lzcnt" => std::arch::is_x86_feature_detected!("lzcnt"),
                _ => continue,
            };
            if !super::compiled_for(f.0) {
                assert_eq!(super::cpu_has(i), std_says, "{}", f.0);
            }
        }
    }
}
