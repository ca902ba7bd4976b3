//! Texel tuning (placeholder).
