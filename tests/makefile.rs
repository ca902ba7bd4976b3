//! The Makefile's native build leaves AVX-512 out exactly where it is told
//! to (AVX512=off) or where the CPU is Intel family 6 model 85, which lowers
//! its clock for 512-bit work (README, Builds), with dry runs (`make -n`); and
//! `make -j EXE=path`, the build an OpenBench worker runs, for real.

use std::process::Command;

/// `make -n TARGET ARGS` in the repository root, or None when make is missing.
fn dry_run(args: &[&str]) -> Option<String> {
    let out = Command::new("make").arg("-n").args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().ok()?;
    assert!(out.status.success(), "make -n {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn make_missing() {
    assert!(std::env::var_os("CI").is_none(), "make is missing on CI");
    eprintln!("skipped: make is missing");
}

#[test]
fn avx512_switch_reaches_every_native_build() {
    for target in ["native", "openbench"] {
        let Some(off) = dry_run(&[target, "AVX512=off", "EXE=/tmp/tetrad-dry-run"]) else { return make_missing() };
        assert!(off.contains("-C target-cpu=native -C target-feature=-avx512f"), "{target} off: {off}");
        assert!(off.contains("target/native-no-avx512"), "{target} off keeps its own folder: {off}");
        let on = dry_run(&[target, "AVX512=on", "EXE=/tmp/tetrad-dry-run"]).unwrap();
        assert!(!on.contains("avx512f") && !on.contains("RUSTFLAGS"), "{target} on uses .cargo/config.toml: {on}");
    }
}

#[test]
fn avx512_guess_follows_the_cpu_model() {
    let Some(auto) = dry_run(&["native"]) else { return make_missing() };
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else { return };
    let field = |name: &str| {
        info.lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim().to_string())
    };
    let slow = field("vendor_id").as_deref() == Some("GenuineIntel")
        && field("cpu family").as_deref() == Some("6")
        && field("model").as_deref() == Some("85");
    assert_eq!(auto.contains("-avx512f"), slow, "model 85 Intel: {slow}; make -n native: {auto}");
}

/// An OpenBench worker builds with `make -j EXE=<name>` in the repository root
/// (Client/utils.py, makefile_command) and runs that file: the Makefile's first
/// target must leave it there, the same engine as the tests' binary (the same
/// bench). tests/openbench.rs checks the bench and genfens output it reads.
#[test]
fn make_exe_leaves_the_binary_openbench_runs() {
    let dir = std::env::temp_dir().join(format!("tetrad-make-exe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("Tetrad-openbench");
    let Ok(out) = Command::new("make")
        .args(["-j", &format!("EXE={}", exe.display())])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
    else {
        return make_missing();
    };
    assert!(out.status.success(), "make -j EXE=...: {}", String::from_utf8_lossy(&out.stderr));
    let exe = if cfg!(windows) { exe.with_extension("exe") } else { exe };
    assert!(exe.is_file(), "make -j EXE={} made no such file", exe.display());
    let last_line = |binary: &std::path::Path| {
        let out = Command::new(binary).args(["bench", "6"]).output().expect("run bench");
        String::from_utf8_lossy(&out.stdout).trim_end().lines().last().unwrap_or("").to_string()
    };
    let nodes = |line: String| line.split(' ').next().unwrap().to_string();
    assert_eq!(nodes(last_line(&exe)), nodes(last_line(env!("CARGO_BIN_EXE_tetrad").as_ref())), "another engine");
    let _ = std::fs::remove_dir_all(&dir);
}
