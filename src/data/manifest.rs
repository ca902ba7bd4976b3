//! The manifests of `datagen` and `rescore` runs: the content hashes that
//! name their inputs, and what a reader of their data needs from them.

/// FNV-1a of `bytes`: a book's, a network's or a source run's content in a
/// manifest, so that a run resumed with other inputs is refused.
pub fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01B3))
}

/// The evaluation whose search labelled a data directory, as its manifest
/// (written by `cmd::datagen` and `cmd::rescore`) names it: `rescore.txt`
/// (relabelled shards) in its `eval` line; `datagen.txt` of self-play in its
/// `eval` line, which a run of the hand-written evaluation leaves out. `None`
/// for PGN-scored data or no manifest: a reader takes the labels as they are.
pub fn labelling_eval(dir: &std::path::Path) -> Option<String> {
    let eval_line = |text: &str| text.lines().find_map(|l| l.strip_prefix("eval ")).map(|e| e.trim().to_string());
    if let Ok(text) = std::fs::read_to_string(dir.join("rescore.txt")) {
        return eval_line(&text);
    }
    let text = std::fs::read_to_string(dir.join("datagen.txt")).ok()?;
    let self_play = text.lines().next().is_some_and(|l| l.starts_with("tetrad datagen v"));
    self_play.then(|| eval_line(&text).unwrap_or_else(|| "hce".to_string()))
}
