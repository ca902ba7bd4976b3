//! Syzygy endgame tablebases, probed through the `shakmaty-syzygy` crate (a
//! well-kept reader of the format; writing our own would be thousands of
//! lines of decompression code for no speed that matters: probes happen only
//! in positions of a handful of pieces).
//!
//! Two uses, as in Stockfish:
//! - **in the search**, a WDL probe right after a capture or pawn move (the
//!   only positions whose WDL the tables give exactly) turns the node into a
//!   win, draw or loss: a result that settles the window ends the node; at a
//!   PV node a win that does not is the floor of the node's score, a loss
//!   its ceiling (`alphabeta.rs`);
//! - **at the root**, every legal move is ranked by the DTZ of the position
//!   it leads to, and only the moves that keep the best outcome are
//!   searched. For a win these are all the moves that still win inside the
//!   fifty-move rule: the search plays its own choice when it proves the win
//!   itself (a mate, or a table win inside its tree), a quicker mate than
//!   the tables' path where one exists; otherwise the move with the fewest
//!   plies to the next zeroing move, which always converts under the
//!   fifty-move rule. The root's reported score is the tablebase's unless
//!   the search proves a mate itself.

use crate::score::TB_WIN;
use shakmaty::{Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, FromSetup, Position as _, Setup};
pub use shakmaty_syzygy::Wdl;
use shakmaty_syzygy::{SyzygyError, Tablebase};
use std::collections::HashSet;
use std::num::NonZeroU32;
use std::sync::Mutex;
use tetrad_simd::{Bitboards, Color, Move, PieceType, Position};

/// Loaded tables.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    /// Pieces of the largest table found.
    pub max_pieces: usize,
    /// Table files found.
    pub files: usize,
    /// Material signatures already reported missing (reported once each).
    missing: Mutex<HashSet<String>>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebases({} files, up to {} pieces)", self.files, self.max_pieces)
    }
}

/// Default of `SyzygyProbeDepth`.
pub const DEFAULT_PROBE_DEPTH: i32 = 1;
/// Default of `SyzygyProbeLimit`: every table there is.
pub const DEFAULT_PROBE_LIMIT: usize = 7;
/// Default of `Syzygy50MoveRule`: wins the fifty-move rule spoils count as draws.
pub const DEFAULT_RULE50: bool = true;

/// Tablebase settings of a search. The default is the UCI options' defaults
/// with no tables loaded.
#[derive(Clone, Debug)]
pub struct TbConfig {
    /// The tables, if any are loaded.
    pub tables: Option<std::sync::Arc<Tablebases>>,
    /// Minimum remaining depth for a probe inside the search (`SyzygyProbeDepth`).
    pub probe_depth: i32,
    /// Probe only positions with at most this many pieces (`SyzygyProbeLimit`).
    pub probe_limit: usize,
    /// Count wins and losses that the fifty-move rule spoils as draws (`Syzygy50MoveRule`).
    pub rule50: bool,
}

impl Default for TbConfig {
    fn default() -> Self {
        TbConfig {
            tables: None,
            probe_depth: DEFAULT_PROBE_DEPTH,
            probe_limit: DEFAULT_PROBE_LIMIT,
            rule50: DEFAULT_RULE50,
        }
    }
}

impl TbConfig {
    /// The tables, when `pos` has few enough pieces to probe.
    #[inline]
    pub fn usable(&self, pieces: u32) -> Option<&Tablebases> {
        let t = self.tables.as_deref()?;
        (pieces as usize <= self.probe_limit.min(t.max_pieces)).then_some(t)
    }
}

/// The root's moves as the tables rank them.
#[derive(Clone, Debug)]
pub struct RootTb {
    /// The moves that keep the best outcome (in the order given): for a win,
    /// every move that still wins inside the fifty-move rule, so that the
    /// search can choose a quicker mate than the tables' path.
    pub moves: Vec<Move>,
    /// For a win, the moves among them with the fewest plies to the next
    /// zeroing move: the tables' own path, which always makes progress
    /// (empty for any other outcome).
    pub fastest: Vec<Move>,
    /// The root's score from the tables (side to move's view).
    pub score: i32,
}

/// Splits a `SyzygyPath` value into directories (`:`, or `;` as on Windows).
fn split_paths(paths: &str) -> Vec<&str> {
    let sep = if paths.contains(';') { ';' } else { ':' };
    paths.split(sep).map(str::trim).filter(|p| !p.is_empty()).collect()
}

impl Tablebases {
    /// Loads every table of the directories in `paths`. Returns the tables
    /// (none if no file was found) and one message per problem or success.
    pub fn load(paths: &str) -> (Option<Tablebases>, Vec<String>) {
        // Files are memory-mapped at their first probe (see `tbfiles`).
        let mut tables = Tablebase::with_filesystem(std::sync::Arc::new(crate::tbfiles::TableFiles::new()));
        let mut messages = Vec::new();
        let mut files = 0;
        for dir in split_paths(paths) {
            match tables.add_directory(dir) {
                Ok(0) => messages.push(format!("error: SyzygyPath: no table files in {dir}")),
                Ok(n) => files += n,
                Err(e) => messages.push(format!("error: SyzygyPath: cannot read {dir}: {e}")),
            }
        }
        if files == 0 {
            return (None, messages);
        }
        let max_pieces = tables.max_pieces();
        messages.push(format!("Syzygy: {files} table files, up to {max_pieces} pieces"));
        (Some(Tablebases { tables, max_pieces, files, missing: Mutex::new(HashSet::new()) }), messages)
    }

    /// Notes a probe error; a missing table is reported once on `info string`.
    fn note(&self, e: &SyzygyError) {
        if let SyzygyError::MissingTable { material, .. } = e {
            let name = material.to_string();
            let new = self.missing.lock().map(|mut m| m.insert(name.clone())).unwrap_or(false);
            if new {
                crate::output::emit(&format!(
                    "info string error: Syzygy table {name} is missing; searching without it"
                ));
            }
        }
    }

    /// WDL of a position reached by a capture or pawn move (side to move's
    /// view), or `None` when the tables cannot say. `bb` are the position's
    /// bitboards (the search's node view).
    pub fn probe_wdl(&self, pos: &Position, bb: &Bitboards) -> Option<Wdl> {
        let chess = to_chess(pos, bb)?;
        match self.tables.probe_wdl_after_zeroing(&chess) {
            Ok(w) => Some(w),
            Err(e) => {
                self.note(&e);
                None
            }
        }
    }

    /// Ranks the root's legal `moves` by the DTZ after each; `None` when the
    /// root is not in the tables. Also returns the number of probes that
    /// gave a result (UCI `tbhits`).
    pub fn rank_root(&self, root: &Position, moves: &[Move], rule50: bool) -> (Option<RootTb>, u64) {
        let mut ranked = Vec::with_capacity(moves.len());
        let mut probes = 0;
        for &m in moves {
            let child = root.make_move(m);
            let Some(chess) = to_chess(&child, &tetrad_simd::ccr_to_bitboards(child.ccr())) else {
                return (None, probes);
            };
            // (rank: larger is better; plies to the outcome, from the root)
            let rank = if chess.is_checkmate() {
                (4, 1)
            } else if chess.is_stalemate() || chess.is_insufficient_material() {
                (0, 0)
            } else {
                // The child's outcome for the opponent (-1: they lose), whether
                // the fifty-move rule spoils it, and the plies to the next zeroing move.
                let (outcome, spoiled, plies) = if child.halfmove_clock() == 0 {
                    // A capture or pawn move is itself the zeroing move: a win
                    // through it is one ply from the root, the best a winning
                    // move can be (the child's own DTZ counts from afresh).
                    let probe = self.tables.probe_wdl_after_zeroing(&chess);
                    probes += u64::from(probe.is_ok());
                    match probe {
                        Ok(Wdl::Loss) => (-1, false, 1),
                        Ok(Wdl::BlessedLoss) => (-1, rule50, 1),
                        Ok(Wdl::Draw) => (0, false, 0),
                        Ok(Wdl::CursedWin) => (1, rule50, 1),
                        Ok(Wdl::Win) => (1, false, 1),
                        Err(e) => {
                            self.note(&e);
                            return (None, probes);
                        }
                    }
                } else {
                    let probe = self.tables.probe_dtz(&chess);
                    probes += u64::from(probe.is_ok());
                    match probe {
                        Ok(d) => {
                            let dtz = d.ignore_rounding().0;
                            (dtz.signum(), rule50 && dtz.abs() + child.halfmove_clock() as i32 > 100, dtz.abs() + 1)
                        }
                        Err(e) => {
                            self.note(&e);
                            return (None, probes);
                        }
                    }
                };
                match outcome {
                    -1 if spoiled => (1, plies),
                    -1 => (3, plies),
                    0 => (0, 0),
                    _ if spoiled => (-1, plies),
                    _ => (-3, plies),
                }
            };
            ranked.push((m, rank));
        }
        // Wins: fewest plies to the next zeroing move first; losses: the most.
        let key = |(class, plies): (i32, i32)| (class, if class > 0 { -plies } else { plies });
        let Some(best) = ranked.iter().map(|r| key(r.1)).max() else { return (None, probes) };
        let fastest: Vec<Move> = ranked.iter().filter(|r| key(r.1) == best).map(|r| r.0).collect();
        let (class, plies) = ranked.iter().find(|r| key(r.1) == best).map_or((0, 0), |r| r.1);
        let score = match class {
            c if c >= 3 => TB_WIN - plies,
            c if c <= -3 => -(TB_WIN - plies),
            _ => 0,
        };
        // A certain win: every winning move is kept (the mate checked first,
        // then the fastest), and the search chooses among them.
        if class >= 3 {
            let mut wins: Vec<(Move, (i32, i32))> = ranked.into_iter().filter(|r| r.1 .0 >= 3).collect();
            wins.sort_by_key(|r| std::cmp::Reverse(key(r.1)));
            let moves = wins.into_iter().map(|r| r.0).collect();
            return (Some(RootTb { moves, fastest, score }), probes);
        }
        (Some(RootTb { moves: fastest, fastest: Vec::new(), score }), probes)
    }
}

/// The position for the probing crate (no castling rights: the tables have none).
fn to_chess(pos: &Position, bb: &Bitboards) -> Option<Chess> {
    if pos.castling().0 != 0 {
        return None;
    }
    let kind = |k: PieceType| Bitboard(bb.pieces(Color::White, k) | bb.pieces(Color::Black, k));
    let by_role = ByRole {
        pawn: kind(PieceType::Pawn),
        knight: kind(PieceType::Knight),
        bishop: kind(PieceType::Bishop),
        rook: kind(PieceType::Rook),
        queen: kind(PieceType::Queen),
        king: kind(PieceType::King),
    };
    let by_color = ByColor { white: Bitboard(bb.color(Color::White)), black: Bitboard(bb.color(Color::Black)) };
    let board = Board::try_from_bitboards(by_role, by_color).ok()?;
    let setup = Setup {
        board,
        promoted: Bitboard(0),
        pockets: None,
        turn: if pos.side_to_move() == Color::White { shakmaty::Color::White } else { shakmaty::Color::Black },
        castling_rights: Bitboard(0),
        ep_square: pos.ep_square().and_then(|s| shakmaty::Square::try_from(s.index() as u32).ok()),
        remaining_checks: None,
        halfmoves: pos.halfmove_clock() as u32,
        fullmoves: NonZeroU32::new(pos.fullmove_number().max(1) as u32).unwrap_or(NonZeroU32::MIN),
    };
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

/// A search score for a WDL seen `ply` plies from the root: wins and losses
/// just inside the tablebase range, draws 0 (the fifty-move rule decides
/// what cursed wins and blessed losses count as).
pub fn wdl_score(wdl: Wdl, ply: usize, rule50: bool) -> i32 {
    let win = TB_WIN - ply as i32;
    match wdl {
        Wdl::Win => win,
        Wdl::Loss => -win,
        Wdl::CursedWin if !rule50 => win,
        Wdl::BlessedLoss if !rule50 => -win,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_on_colon_or_semicolon() {
        assert_eq!(split_paths("/a:/b/c"), vec!["/a", "/b/c"]);
        assert_eq!(split_paths("C:\\tb;D:\\tb"), vec!["C:\\tb", "D:\\tb"]);
        assert!(split_paths(" ").is_empty());
    }

    #[test]
    fn missing_directories_are_reported() {
        let (t, msgs) = Tablebases::load("/no/such/dir");
        assert!(t.is_none());
        assert!(msgs[0].contains("cannot read /no/such/dir"), "{msgs:?}");
    }
}
