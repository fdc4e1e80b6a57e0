//! The second table, beyond the published one (`table --beyond`): boards of 29 to 81 cells,
//! odd heights as in the published table (up to the standard 9x9 board) and even heights
//! to test "Solving Quoridor"'s claim that every even-height board is a Player 1 win.
//! Boards of over 64 cells are decided by proof search alone (the retrograde analysis
//! handles at most 64).

use crate::output::report::CellRecord;

/// The boards of `table --beyond`, smallest first within each group.
pub const BEYOND_BOARDS: [(usize, usize); 35] = [
    // Height 3: 10x3 to 21x3.
    (10, 3),
    (11, 3),
    (12, 3),
    (13, 3),
    (14, 3),
    (15, 3),
    (16, 3),
    (17, 3),
    (18, 3),
    (19, 3),
    (20, 3),
    (21, 3),
    // Height 5: 6x5 to 12x5.
    (6, 5),
    (7, 5),
    (8, 5),
    (9, 5),
    (10, 5),
    (11, 5),
    (12, 5),
    // Height 7: 5x7 to 9x7.
    (5, 7),
    (6, 7),
    (7, 7),
    (8, 7),
    (9, 7),
    // Height 9: 4x9 to 7x9, and the standard board.
    (4, 9),
    (5, 9),
    (6, 9),
    (7, 9),
    (9, 9),
    // Height 11.
    (3, 11),
    (5, 11),
    // Even heights.
    (5, 6),
    (6, 6),
    (4, 8),
    (8, 8),
];

/// The decided cells of even height: "Solving Quoridor" says they are all Player 1 wins,
/// so any other outcome among them refutes the claim.
pub fn even_heights_decided(records: &[CellRecord]) -> Vec<&CellRecord> {
    records
        .iter()
        .filter(|r| r.height % 2 == 0 && r.is_decided())
        .collect()
}
