//! Configuration counts against tests/data/configs.csv: the counting dynamic programme for
//! every row, and the enumeration itself for the rows small enough to build.

use quoridor_solver::configs::{Enumeration, count_by_walls};
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::support::progress::Silent;

#[test]
fn counts_match_the_data_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/configs.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (w, h, max_walls): (usize, usize, usize) = (
            f[0].parse().unwrap(),
            f[1].parse().unwrap(),
            f[2].parse().unwrap(),
        );
        let want: u128 = f[3].parse().unwrap();
        let board = Board::new(w, h).unwrap();
        let counts = count_by_walls(board, max_walls);
        assert_eq!(
            counts.iter().sum::<u128>(),
            want,
            "{w}x{h} up to {max_walls} walls"
        );
        if want <= 3_000_000 {
            let e = Enumeration::build(board, max_walls, &Silent);
            assert_eq!(e.len() as u128, want, "enumerated {w}x{h}");
        }
        rows += 1;
    }
    assert!(rows >= 8);
}
