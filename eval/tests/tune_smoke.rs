//! Tuner smoke test on the 1000-position sample: the data loads, K is
//! finite, the error falls over a few epochs, and a fixed seed repeats.

use tetrad_eval::hce::weights::PARAMS;
use tetrad_eval::learn::tune::{load_samples, TuneConfig, Tuner};

fn sample_text() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/texel_sample.epd");
    std::fs::read_to_string(path).expect("texel_sample.epd")
}

#[test]
fn tuner_reduces_error_and_repeats() {
    let (samples, skipped) = load_samples(&sample_text());
    assert_eq!(skipped, 0);
    assert_eq!(samples.len(), 1000);
    let config = TuneConfig { epochs: 5, learning_rate: 1.0, seed: 7, ..TuneConfig::default() };
    let run = || {
        let mut t = Tuner::new(samples.clone(), &PARAMS, config.clone());
        assert!(t.k.is_finite() && t.k > 0.01 && t.k < 10.0, "K = {}", t.k);
        let before = t.train_error();
        for _ in 0..config.epochs {
            t.epoch();
        }
        let after = t.train_error();
        assert!(after < before, "error {before} -> {after}");
        (t.k, t.params(&PARAMS))
    };
    let (k1, p1) = run();
    let (k2, p2) = run();
    assert_eq!(k1, k2);
    assert_eq!(p1, p2);
    assert_ne!(p1, PARAMS);
    // The tuned set prints to source the engine can compile (same printer as weights.rs).
    assert!(p1.to_rust_source().starts_with("//! The evaluation weights"));
}

#[test]
fn linear_form_matches_the_evaluation() {
    // At the starting weights the tuner's linear evaluation (before rounding)
    // agrees with the engine's integer evaluation to within rounding.
    let text = sample_text();
    for line in text.lines().take(200) {
        let (pos, _) = tetrad_eval::learn::tune::parse_line(line).unwrap();
        let tunable = tetrad_eval::learn::tune::data::tunable_slots();
        let s = tetrad_eval::learn::tune::Sample::new(&pos, 0.5, &tunable);
        let mut white = s.const_mg * s.mg_weight + s.const_eg * s.eg_weight;
        let slots = PARAMS.to_slots();
        for &(slot, n) in &s.terms {
            let w = tetrad_eval::Score::from_raw(slots[slot as usize]);
            white += (w.mg() * n) as f64 * s.mg_weight + (w.eg() * n) as f64 * s.eg_weight;
        }
        let engine = tetrad_eval::evaluate_uncached(&pos);
        let engine_white = if pos.side_to_move() == tetrad_simd::Color::White { engine } else { -engine };
        assert!((white - engine_white as f64).abs() <= 1.0, "{line}: linear {white} engine {engine_white}");
    }
}
