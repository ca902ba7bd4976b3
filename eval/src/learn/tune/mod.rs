//! Texel tuning of the weight table.
//!
//! The evaluation is linear in its weights once a position's *coefficients*
//! are known (how often each weight was added for each side, the phase, the
//! endgame scale) — see [`crate::hce::trace::Coeffs`]. The tuner evaluates every
//! training position once with the compiled-in weights to record these, fits
//! the sigmoid constant `K` that maps scores to expected results, and then
//! minimises the mean squared error between results and `sigmoid(K · eval)`
//! with Adam over all tunable weights.
//!
//! What stays fixed: the king-danger weights (`ks_*`, a quadratic transform
//! of a weighted attack count; their contribution is recorded per position
//! as a constant), the endgame scale of each position (computed with the
//! starting weights), the phase weights and scale constants (plain `i32`s),
//! and dead draws (always 0).

pub mod data;
pub mod optimize;

pub use data::{load_samples, parse_line, parse_search_score, Sample};
pub use optimize::{fit_k, TuneConfig, Tuner};
