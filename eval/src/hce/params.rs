//! The layout of the evaluation's weights: one [`Params`] struct holding
//! every number the evaluation uses, with a flat view for the tuner and a
//! printer that writes the whole set back as Rust source.
//!
//! The values themselves live in one table, [`crate::hce::weights::PARAMS`]; the
//! tuner's output has exactly that file's format.
//!
//! Every field is four bytes wide (a packed [`Score`] or an `i32`) and the
//! struct is `repr(C)`, so a field element's *slot* — its index in the flat
//! view — is its byte offset divided by four ([`Params::slot_of`]).

use crate::hce::score::Score;
use std::fmt::Write;

/// The rows of the trace: which part of the evaluation a weight belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Term {
    /// Piece values.
    Material,
    /// Bishop pair.
    Imbalance,
    /// Piece-square tables.
    Psqt,
    /// Pawn structure (doubled, isolated, backward, connected).
    Pawns,
    /// Passed pawns.
    Passed,
    /// Mobility of knights, bishops, rooks and queens.
    Mobility,
    /// Knight placement (outposts).
    Knights,
    /// Bishop placement (outposts).
    Bishops,
    /// Rooks on open files and the seventh rank.
    Rooks,
    /// Queens on open files and the seventh rank.
    Queens,
    /// King shelter, pawn storm, open files and the attack on the king.
    King,
    /// Pieces attacked by lesser pieces, hanging pieces.
    Threats,
    /// Bonus for the side to move.
    Tempo,
    /// Constants of phase and endgame scaling (never part of the score sum).
    Endgame,
}

impl Term {
    /// All terms in trace order.
    pub const ALL: [Term; 14] = [
        Term::Material,
        Term::Imbalance,
        Term::Psqt,
        Term::Pawns,
        Term::Passed,
        Term::Mobility,
        Term::Knights,
        Term::Bishops,
        Term::Rooks,
        Term::Queens,
        Term::King,
        Term::Threats,
        Term::Tempo,
        Term::Endgame,
    ];

    /// Position in [`Term::ALL`].
    pub fn index(self) -> usize {
        Term::ALL.iter().position(|&t| t == self).unwrap_or(0)
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Imbalance => "Imbalance",
            Term::Psqt => "PSQT",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed pawns",
            Term::Mobility => "Mobility",
            Term::Knights => "Knights",
            Term::Bishops => "Bishops",
            Term::Rooks => "Rooks",
            Term::Queens => "Queens",
            Term::King => "King safety",
            Term::Threats => "Threats",
            Term::Tempo => "Tempo",
            Term::Endgame => "Endgame",
        }
    }
}

/// A value that occupies whole four-byte slots of [`Params`]: a [`Score`],
/// an `i32`, or an array of them.
pub trait Slots {
    /// Array dimensions, outermost first (empty for a single value).
    fn dims() -> Vec<usize>;
    /// Whether the slots hold packed scores (else plain integers).
    fn is_score() -> bool;
    /// Appends the raw slot values.
    fn put(&self, out: &mut Vec<i32>);
    /// Reads raw slot values back (missing values leave the slot unchanged).
    fn take(&mut self, src: &mut std::slice::Iter<'_, i32>);
    /// Writes the value as Rust source.
    fn source(&self, out: &mut String, indent: usize);
}

impl Slots for Score {
    fn dims() -> Vec<usize> {
        Vec::new()
    }
    fn is_score() -> bool {
        true
    }
    fn put(&self, out: &mut Vec<i32>) {
        out.push(self.raw());
    }
    fn take(&mut self, src: &mut std::slice::Iter<'_, i32>) {
        if let Some(&v) = src.next() {
            *self = Score::from_raw(v);
        }
    }
    fn source(&self, out: &mut String, _indent: usize) {
        let _ = write!(out, "S({}, {})", self.mg(), self.eg());
    }
}

impl Slots for i32 {
    fn dims() -> Vec<usize> {
        Vec::new()
    }
    fn is_score() -> bool {
        false
    }
    fn put(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
    fn take(&mut self, src: &mut std::slice::Iter<'_, i32>) {
        if let Some(&v) = src.next() {
            *self = v;
        }
    }
    fn source(&self, out: &mut String, _indent: usize) {
        let _ = write!(out, "{self}");
    }
}

impl<T: Slots, const N: usize> Slots for [T; N] {
    fn dims() -> Vec<usize> {
        let mut d = vec![N];
        d.extend(T::dims());
        d
    }
    fn is_score() -> bool {
        T::is_score()
    }
    fn put(&self, out: &mut Vec<i32>) {
        self.iter().for_each(|x| x.put(out));
    }
    fn take(&mut self, src: &mut std::slice::Iter<'_, i32>) {
        self.iter_mut().for_each(|x| x.take(src));
    }
    fn source(&self, out: &mut String, indent: usize) {
        let pad = " ".repeat(indent + 4);
        let nested = !T::dims().is_empty();
        let per_line = if T::is_score() { 8 } else { 16 };
        out.push('[');
        for (i, x) in self.iter().enumerate() {
            if nested || i % per_line == 0 {
                out.push('\n');
                out.push_str(&pad);
            } else {
                out.push(' ');
            }
            x.source(out, indent + 4);
            out.push(',');
        }
        out.push('\n');
        out.push_str(&" ".repeat(indent));
        out.push(']');
    }
}

/// Description of one field of [`Params`].
#[derive(Clone, Debug)]
pub struct Field {
    /// Field name.
    pub name: &'static str,
    /// Trace row it contributes to.
    pub term: Term,
    /// Whether the linear tuner may change it.
    pub tunable: bool,
    /// Whether its slots are packed scores.
    pub is_score: bool,
    /// Array dimensions (empty for a single value).
    pub dims: Vec<usize>,
    /// First slot.
    pub start: usize,
    /// Number of slots.
    pub len: usize,
}

macro_rules! params {
    ($( $(#[doc = $doc:literal])* $name:ident : $ty:ty => $term:ident, $tune:literal; )*) => {
        /// Every weight of the evaluation (values in [`crate::hce::weights::PARAMS`]).
        ///
        /// Arrays indexed by piece kind go pawn..king; by square a1..h8 from
        /// White's side (Black looks squares up rank-mirrored); by rank the
        /// rank relative to the owner (0 = own back rank).
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[repr(C)]
        pub struct Params {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        impl Params {
            /// The fields in declaration (= slot) order.
            #[allow(unused_assignments)]
            pub fn fields() -> Vec<Field> {
                let mut start = 0;
                let mut out = Vec::new();
                $(
                    let dims = <$ty as Slots>::dims();
                    let len = dims.iter().product::<usize>();
                    out.push(Field {
                        name: stringify!($name),
                        term: Term::$term,
                        tunable: $tune && <$ty as Slots>::is_score(),
                        is_score: <$ty as Slots>::is_score(),
                        dims,
                        start,
                        len,
                    });
                    start += len;
                )*
                out
            }

            /// All slots as raw `i32`s (scores in their packed form).
            pub fn to_slots(&self) -> Vec<i32> {
                let mut out = Vec::with_capacity(Self::SLOTS);
                $( self.$name.put(&mut out); )*
                out
            }

            /// The set with slots read from `slots` (as produced by [`Params::to_slots`]).
            pub fn from_slots(&self, slots: &[i32]) -> Params {
                let mut p = *self;
                let mut it = slots.iter();
                $( p.$name.take(&mut it); )*
                p
            }

            /// The whole set as the Rust source of `eval/src/weights.rs`.
            pub fn to_rust_source(&self) -> String {
                let mut out = String::from(WEIGHTS_HEADER);
                $(
                    out.push_str("    ");
                    out.push_str(stringify!($name));
                    out.push_str(": ");
                    self.$name.source(&mut out, 4);
                    out.push_str(",\n");
                )*
                out.push_str("};\n");
                out
            }
        }
    };
}

const WEIGHTS_HEADER: &str = "//! The evaluation weights: every number the evaluation uses, in one table.
//!
//! Layout and meaning of the fields: [`crate::hce::params::Params`]. `tetrad tune`
//! writes a file of exactly this format; copy it here and rebuild.

use crate::hce::params::Params;
use crate::hce::score::S;

/// The evaluation weights compiled into the engine.
#[rustfmt::skip]
pub static PARAMS: Params = Params {
";

params! {
    /// Piece values by kind (king unused).
    material: [Score; 6] => Material, true;
    /// Piece-square tables by kind and square.
    psqt: [[Score; 64]; 6] => Psqt, true;
    /// Two or more bishops.
    bishop_pair: Score => Imbalance, true;
    /// A pawn with a friendly pawn in front of it on the same file.
    pawn_doubled: Score => Pawns, true;
    /// A pawn with no friendly pawns on the adjacent files.
    pawn_isolated: Score => Pawns, true;
    /// A pawn behind its neighbours whose stop square an enemy pawn attacks.
    pawn_backward: Score => Pawns, true;
    /// A pawn defended by a pawn or beside one, by rank.
    pawn_connected: [Score; 8] => Pawns, true;
    /// A passed pawn, by rank.
    passed_rank: [Score; 8] => Passed, true;
    /// Per square of distance from the own king to the stop square, by rank.
    passed_own_king_dist: [Score; 8] => Passed, true;
    /// Per square of distance from the enemy king to the stop square, by rank.
    passed_enemy_king_dist: [Score; 8] => Passed, true;
    /// No piece stands between the passed pawn and its promotion square, by rank.
    passed_free_path: [Score; 8] => Passed, true;
    /// The stop square is not attacked by the enemy, by rank.
    passed_safe_push: [Score; 8] => Passed, true;
    /// Square rule: the enemy has only pawns and its king cannot catch the pawn.
    passed_unstoppable: Score => Passed, true;
    /// Knight mobility by number of safe squares attacked.
    mob_knight: [Score; 9] => Mobility, true;
    /// Bishop mobility.
    mob_bishop: [Score; 14] => Mobility, true;
    /// Rook mobility.
    mob_rook: [Score; 15] => Mobility, true;
    /// Queen mobility.
    mob_queen: [Score; 28] => Mobility, true;
    /// Knight on an outpost (ranks 4-6, pawn-protected, out of enemy pawn reach).
    knight_outpost: Score => Knights, true;
    /// Bishop on an outpost.
    bishop_outpost: Score => Bishops, true;
    /// Rook on a file without pawns.
    rook_open_file: Score => Rooks, true;
    /// Rook on a file without own pawns.
    rook_semi_open_file: Score => Rooks, true;
    /// Rook on the seventh rank with the enemy king on the eighth or pawns on the seventh.
    rook_seventh: Score => Rooks, true;
    /// Queen on a file without pawns.
    queen_open_file: Score => Queens, true;
    /// Queen on a file without own pawns.
    queen_semi_open_file: Score => Queens, true;
    /// Queen on the seventh rank (same condition as rooks).
    queen_seventh: Score => Queens, true;
    /// For each of the three files at the king: nearest own pawn's rank (0 = none).
    king_shelter: [Score; 8] => King, true;
    /// For each of the three files at the king: nearest enemy pawn's rank (0 = none).
    king_storm: [Score; 8] => King, true;
    /// As `king_storm`, for an enemy pawn blocked by an own pawn.
    king_storm_blocked: [Score; 8] => King, true;
    /// A file at the king with no pawns at all.
    king_open_file: Score => King, true;
    /// A file at the king with enemy pawns only.
    king_semi_open_file: Score => King, true;
    /// King danger per enemy piece attacking the king zone, by kind.
    ks_attacker_weight: [Score; 6] => King, false;
    /// King danger per attack on a king-zone square.
    ks_zone_attack: Score => King, false;
    /// King danger per king-zone square attacked and defended only by king or queen.
    ks_weak_square: Score => King, false;
    /// King danger per safe checking square, by kind of checker.
    ks_safe_check: [Score; 6] => King, false;
    /// King danger when the attacker has no queen.
    ks_no_queen: Score => King, false;
    /// King danger offset.
    ks_offset: Score => King, false;
    /// King danger is capped at this (middlegame half) before squaring.
    ks_max_danger: i32 => King, false;
    /// Middlegame penalty = danger² / this.
    ks_mg_divisor: i32 => King, false;
    /// Endgame penalty = danger / this.
    ks_eg_divisor: i32 => King, false;
    /// Enemy piece attacked by a pawn, by victim kind.
    threat_by_pawn: [Score; 6] => Threats, true;
    /// Enemy piece attacked by a knight or bishop, by victim kind.
    threat_by_minor: [Score; 6] => Threats, true;
    /// Enemy piece attacked by a rook, by victim kind.
    threat_by_rook: [Score; 6] => Threats, true;
    /// Undefended enemy piece attacked by the king.
    threat_by_king: Score => Threats, true;
    /// Enemy piece attacked and not defended at all.
    hanging: Score => Threats, true;
    /// Bonus for the side to move.
    tempo: Score => Tempo, true;
    /// Game-phase weight by kind (the full phase is 24).
    phase_weight: [i32; 6] => Endgame, false;
    /// Endgame scale (of 128) for opposite-coloured bishops and nothing else.
    scale_ocb: i32 => Endgame, false;
    /// Endgame scale for opposite-coloured bishops with one rook each and nothing else.
    scale_ocb_pieces: i32 => Endgame, false;
    /// Endgame scale when the stronger side has no pawns and too small an edge.
    scale_pawnless: i32 => Endgame, false;
    /// Largest non-pawn material edge (middlegame values) still counted as too small.
    pawnless_margin: i32 => Endgame, false;
}

impl Params {
    /// Total number of slots.
    pub const SLOTS: usize = std::mem::size_of::<Params>() / 4;

    /// The slot of a field element given a reference into `self`.
    ///
    /// Safe pointer arithmetic on addresses only; meaningful because every
    /// field is four bytes wide and the struct is `repr(C)`.
    #[inline(always)]
    pub fn slot_of<T>(&self, field: &T) -> usize {
        (field as *const T as usize).wrapping_sub(self as *const Params as usize) / 4
    }
}

/// The [`Field`] holding a slot.
pub fn field_of_slot(fields: &[Field], slot: usize) -> Option<&Field> {
    fields.iter().find(|f| slot >= f.start && slot < f.start + f.len)
}

/// A readable name of a slot, e.g. `psqt[1][27]`.
pub fn slot_name(fields: &[Field], slot: usize) -> String {
    match field_of_slot(fields, slot) {
        None => format!("slot{slot}"),
        Some(f) => {
            let mut name = f.name.to_string();
            let mut rest = slot - f.start;
            let mut stride: usize = f.dims.iter().product();
            for d in &f.dims {
                stride /= d;
                let _ = write!(name, "[{}]", rest / stride.max(1));
                rest %= stride.max(1);
            }
            name
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hce::weights::PARAMS;

    #[test]
    fn slots_round_trip_and_match_layout() {
        let slots = PARAMS.to_slots();
        assert_eq!(slots.len(), Params::SLOTS);
        assert_eq!(PARAMS.from_slots(&slots), PARAMS);
        let fields = Params::fields();
        let last = fields.last().unwrap();
        assert_eq!(last.start + last.len, Params::SLOTS);
        let p = &PARAMS;
        assert_eq!(p.slot_of(&p.psqt[2][5]), fields[1].start + 2 * 64 + 5);
        assert_eq!(p.slot_of(&p.tempo), fields.iter().find(|f| f.name == "tempo").unwrap().start);
        assert_eq!(slot_name(&fields, fields[1].start + 64 + 3), "psqt[1][3]");
    }

    #[test]
    fn source_matches_weights_file() {
        let src = PARAMS.to_rust_source();
        let file = include_str!("weights.rs");
        assert_eq!(src, file, "weights.rs is not in canonical printed form");
    }
}
