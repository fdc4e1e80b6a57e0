//! `analysis.rs` (what `analyze` and `play` print) against the retrograde analysis, position
//! by position: the proof-search analyst's verdict of a position and of each of its moves
//! equals the exact values of the retrograde one (a draw there is "unknown" by search,
//! which cannot prove draws), and a position's value is its best move's. On every position
//! reachable from the start of 3x3 with 1-2 walls and 4x3 with 1-2 walls; on the positions
//! of seeded random games (and every move from them) of 4x3 with 3 walls, 3x5 with 3 and
//! 8x3 with 3 (draws); and every reachable position of 4x3 and 3x5 with 3 walls.

use quoridor_solver::cell::analysis::{Analyst, Verdict, random_games, reachable};
use quoridor_solver::configs::Tables;
use quoridor_solver::retro::saved_dir;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::rules::position::Position;
use quoridor_solver::search::Limits;
use quoridor_solver::support::progress::Silent;

/// Deeper than any remoteness of the cells below, so that "unknown" can only be a draw.
const MAX_DEPTH: u8 = 60;

/// The search's verdict as the retrograde analysis would give it: what the search cannot
/// decide within `MAX_DEPTH` is a draw.
fn as_exact(v: Verdict) -> Verdict {
    match v {
        Verdict::Unknown { depth } => {
            assert!(depth >= MAX_DEPTH as u32 - 1, "undecided at depth {depth}");
            Verdict::Draw
        }
        v => v,
    }
}

/// Which positions of a cell to compare.
enum Which {
    Reachable,
    Games(usize),
}

/// Compares the two analysts on the positions `which` of the cell; returns how many of
/// them are draws.
fn compare(width: usize, height: usize, walls: u8, which: Which) -> usize {
    let board = Board::new(width, height).unwrap();
    let tables = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
    let mut retro = Analyst::retro(&tables, u64::MAX, 0..usize::MAX, &Silent).unwrap();
    let limits = Limits::new(MAX_DEPTH, 64 << 20);
    let mut search = Analyst::search(&tables, &limits);
    let positions = match which {
        Which::Reachable => reachable(&tables, usize::MAX).unwrap(),
        Which::Games(n) => random_games(&tables, n),
    };
    let mut draws = 0;
    for pos in &positions {
        let exact = retro.verdict(pos, &Silent);
        draws += (exact == Verdict::Draw) as usize;
        assert_eq!(as_exact(search.verdict(pos, &Silent)), exact, "{pos:?}");
        let by_retro = retro.moves(pos, &Silent);
        let by_search = search.moves(pos, &Silent);
        assert_eq!(by_retro.len(), by_search.len());
        for (r, s) in by_retro.iter().zip(&by_search) {
            // Both sorts are stable over the legal actions in one order, and "unknown"
            // (a draw) ranks where a draw does among the other verdicts.
            assert_eq!(
                (r.action, r.verdict),
                (s.action, as_exact(s.verdict)),
                "{pos:?}"
            );
        }
        assert!(retro.consistent(pos, &Silent), "{pos:?}");
    }
    draws
}

#[test]
fn search_equals_retro_on_every_reachable_position_of_3x3_and_4x3() {
    for (w, h, walls) in [(3, 3, 1), (3, 3, 2), (4, 3, 1), (4, 3, 2)] {
        compare(w, h, walls, Which::Reachable);
    }
}

#[test]
fn search_equals_retro_on_random_games_of_4x3_3x5_and_8x3_with_draws() {
    compare(4, 3, 3, Which::Games(20));
    compare(3, 5, 3, Which::Games(20));
    let draws = compare(8, 3, 3, Which::Games(20));
    assert!(draws > 0, "8x3 with 3 walls has draws to compare");
}

#[test]
fn search_equals_retro_on_every_reachable_position_of_4x3_and_3x5_with_3_walls() {
    // About 33 s on 2 cores: the largest test in CI, kept for being the issue's own check.
    compare(4, 3, 3, Which::Reachable);
    compare(3, 5, 3, Which::Reachable);
}

/// What `play` does on both sides: the best move every time. The game must end as the
/// start's value says, in as many plies, and no move may change the value for the worse.
fn self_play(width: usize, height: usize, walls: u8) {
    let board = Board::new(width, height).unwrap();
    let tables = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
    let mut analyst = Analyst::retro(&tables, u64::MAX, 0..usize::MAX, &Silent).unwrap();
    let start = Position::start(board, walls).unwrap();
    let value = analyst.verdict(&start, &Silent);
    let mut pos = start;
    let mut plies = 0;
    while pos.winner(board).is_none() && plies < 200 {
        let here = analyst.verdict(&pos, &Silent);
        let best = analyst.moves(&pos, &Silent)[0];
        assert_eq!(best.verdict, here, "{pos:?}");
        pos = pos.play(best.action);
        plies += 1;
    }
    match value {
        Verdict::Win { plies: n } => {
            assert_eq!((pos.winner(board), plies), (Some(start.to_move), n));
        }
        Verdict::Loss { plies: n } => {
            assert_eq!((pos.winner(board), plies), (Some(start.to_move.other()), n));
        }
        Verdict::Draw => assert_eq!(pos.winner(board), None),
        Verdict::Unknown { .. } => unreachable!("the retrograde analysis decides"),
    }
}

#[test]
fn perfect_play_on_both_sides_ends_as_the_value_says() {
    for (w, h, walls) in [(3, 3, 1), (4, 3, 2), (3, 5, 2), (5, 3, 3), (8, 3, 3)] {
        self_play(w, h, walls);
    }
}

/// A fresh directory under the temporary directory for this test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("qs-analysis-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_saved_table_reads_back_the_same_values_and_a_flipped_byte_is_caught() {
    use quoridor_solver::retro::{self, saved};
    for (w, h, walls) in [(3, 3, 2), (4, 3, 3), (8, 3, 3)] {
        let board = Board::new(w, h).unwrap();
        let tables = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
        let solved = retro::solve(&tables, &retro::Request::exact(u64::MAX), &Silent).unwrap();
        let dir = scratch(&format!("{w}x{h}-{walls}"));
        saved_dir::save(&solved, &dir).unwrap();
        let mut memory = Analyst::from_solved(solved);
        let mut disk = Analyst::from_solved(saved::load(&tables, &dir, 0..usize::MAX).unwrap());
        for pos in random_games(&tables, 30) {
            assert_eq!(memory.verdict(&pos, &Silent), disk.verdict(&pos, &Silent));
            assert_eq!(memory.moves(&pos, &Silent), disk.moves(&pos, &Silent));
        }
        // One flipped bit in any value file, or in the header, and loading refuses, naming it.
        for file in ["layer-01-split-00.bin.zst", "header.json"] {
            let path = dir.join(file);
            let mut bytes = std::fs::read(&path).unwrap();
            bytes[2] ^= 0x10;
            std::fs::write(&path, &bytes).unwrap();
            let err = saved::load(&tables, &dir, 0..usize::MAX)
                .err()
                .expect("a damaged table is refused");
            assert!(err.to_string().contains(file), "{err}");
            bytes[2] ^= 0x10;
            std::fs::write(&path, &bytes).unwrap();
        }
        assert!(saved::load(&tables, &dir, 0..usize::MAX).is_ok());
        // Another cell's tables do not read it.
        let other = Tables::build(board, walls - 1, u64::MAX, &Silent).unwrap();
        assert!(saved::load(&other, &dir, 0..usize::MAX).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `dir`'s table as a binary before 2026-11-30 wrote it: every split file gzip (one member
/// a segment, as `segments.rs` cut them), named `.bin.gz`, under the header format of
/// version 1, with its manifest.
fn as_gzip_table(dir: &std::path::Path) {
    use std::io::Write;
    let sha = |bytes: &[u8]| -> String {
        use sha2::Digest;
        sha2::Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let header_path = dir.join("header.json");
    let mut header: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&header_path).unwrap()).unwrap();
    let format = header["format"].as_str().unwrap().to_string() + " (gzip)";
    header["format"] = format.replace(" 2 (gzip)", " 1 (gzip)").into();
    let mut manifest = String::new();
    let layers = header["layers"].as_array_mut().unwrap();
    for split in layers.iter_mut().flat_map(|l| l.as_array_mut().unwrap()) {
        let name = split["file"].as_str().unwrap().to_string();
        let zst = std::fs::read(dir.join(&name)).unwrap();
        std::fs::remove_file(dir.join(&name)).unwrap();
        let (mut at, mut gz, mut members) = (0usize, Vec::new(), Vec::new());
        for member in split["segments"].as_array().unwrap() {
            let end = at + member.as_u64().unwrap() as usize;
            let values = zstd::stream::decode_all(&zst[at..end]).unwrap();
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(&values).unwrap();
            let bytes = e.finish().unwrap();
            members.push(bytes.len());
            gz.extend(bytes);
            at = end;
        }
        let name = name.replace(".bin.zst", ".bin.gz");
        std::fs::write(dir.join(&name), &gz).unwrap();
        manifest.push_str(&format!("{}  {name}\n", sha(&gz)));
        split["file"] = name.into();
        split["file_bytes"] = gz.len().into();
        split["segments"] = members.into();
    }
    let json = serde_json::to_string_pretty(&header).unwrap() + "\n";
    std::fs::write(&header_path, &json).unwrap();
    manifest.push_str(&format!("{}  header.json\n", sha(json.as_bytes())));
    std::fs::write(dir.join("MANIFEST.sha256"), manifest).unwrap();
}

#[test]
fn a_table_written_with_gzip_before_zstd_reads_the_same() {
    use quoridor_solver::cell::analysis::random_games_by;
    use quoridor_solver::retro::{self, sampled, saved};
    let (board, walls) = (Board::new(4, 3).unwrap(), 3);
    let tables = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
    let solved = retro::solve(&tables, &retro::Request::exact(u64::MAX), &Silent).unwrap();
    let dir = scratch("gzip");
    saved_dir::save(&solved, &dir).unwrap();
    assert!(dir.join("layer-03-split-00.bin.zst").exists());
    as_gzip_table(&dir);
    assert!(dir.join("layer-03-split-00.bin.gz").exists());
    assert!(saved::header(&dir).unwrap().format.ends_with("1 (gzip)"));
    let mut memory = Analyst::from_solved(solved);
    let mut disk = Analyst::from_solved(saved::load(&tables, &dir, 0..usize::MAX).unwrap());
    let positions = random_games_by(board, walls, 40, |p| p.legal_actions(board));
    for pos in &positions {
        assert_eq!(memory.verdict(pos, &Silent), disk.verdict(pos, &Silent));
        assert_eq!(memory.moves(pos, &Silent), disk.moves(pos, &Silent));
    }
    assert_eq!(sampled::check(&tables, &dir, &positions, &Silent), Ok(()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_analysis_kept_from_a_position_up_answers_as_the_whole_one() {
    // Positions with 2 walls on the board of random games of 4x3 with 3 walls: an analyst
    // that solved and kept only layers 2 and 3 values them and their moves as the full one.
    let board = Board::new(4, 3).unwrap();
    let tables = Tables::build(board, 3, u64::MAX, &Silent).unwrap();
    let mut full = Analyst::retro(&tables, u64::MAX, 0..usize::MAX, &Silent).unwrap();
    let mut part = Analyst::retro(&tables, u64::MAX, 2..4, &Silent).unwrap();
    let mut seen = 0;
    for pos in random_games(&tables, 40)
        .iter()
        .filter(|p| p.walls.len() == 2)
    {
        assert_eq!(part.verdict(pos, &Silent), full.verdict(pos, &Silent));
        assert_eq!(part.moves(pos, &Silent), full.moves(pos, &Silent));
        seen += 1;
    }
    assert!(seen > 20, "{seen} positions with 2 walls");
}

/// The table written from memory (`saved_dir::save`, every layer kept) and the one written layer
/// by layer while solving (`retro::Storage::Dir`, two layers kept, then every layer) are
/// the same files, and their analyses the same answer: whatever the memory, a saved table
/// does not depend on how it was made.
#[test]
fn a_table_saved_layer_by_layer_is_the_table_saved_from_memory() {
    use quoridor_solver::retro;
    for (w, h, walls) in [(3, 3, 2), (4, 3, 3), (2, 5, 4)] {
        let board = Board::new(w, h).unwrap();
        let tables = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
        let solved = retro::solve(&tables, &retro::Request::exact(u64::MAX), &Silent).unwrap();
        let memory = scratch(&format!("{w}x{h}-{walls}-memory"));
        saved_dir::save(&solved, &memory).unwrap();
        let manifest = |dir: &std::path::Path| std::fs::read(dir.join("MANIFEST.sha256")).unwrap();
        let e = retro::cell_estimate(&tables);
        // Every layer in memory; only two; all but the last (kept from layer 0 up: they
        // bound a search with more walls, `solve --fewer-walls`).
        let storing = |kept| e.peak_storing(retro::Precision::Exact, 0..kept);
        let all_but_last = e.layers - 1;
        for budget in [
            u64::MAX,
            tables.bytes() + storing(2),
            tables.bytes() + storing(all_but_last),
        ] {
            let dir = scratch(&format!("{w}x{h}-{walls}-through-{budget}"));
            let to = saved_dir::Target::scratch(dir.clone());
            let request = retro::Request {
                storage: retro::Storage::Dir(to),
                ..retro::Request::exact(budget)
            };
            let mut through = retro::solve(&tables, &request, &Silent).unwrap();
            if budget == u64::MAX {
                assert!(through.keeps_all_layers());
            }
            if budget == tables.bytes() + storing(all_but_last) {
                let (kept, of) = through.layers_kept();
                assert!(
                    kept >= all_but_last && of == e.layers,
                    "{board}: {kept} of {of}"
                );
                for pos in random_games(&tables, 100).iter().take(2000) {
                    if through.value(pos).is_some() {
                        assert_eq!(through.value(pos), solved.value(pos), "{board}");
                    }
                }
                // The indices of the layers not kept freed (for the search that reads
                // the kept ones): those answer as before, the others nothing.
                let held = through.held_bytes();
                through.free_indices_past_kept();
                assert!(through.held_bytes() < held, "{board}: {held} bytes held");
                for pos in random_games(&tables, 100).iter().take(2000) {
                    match (pos.walls.len() as usize) < kept {
                        true => assert_eq!(through.value(pos), solved.value(pos), "{board}"),
                        // Only a position that is over, read from no store.
                        false => assert!(
                            through.value(pos).is_none() || pos.winner(board).is_some(),
                            "{board}"
                        ),
                    }
                }
            }
            assert_eq!(through.stats(), solved.stats(), "{board} with {walls}");
            assert_eq!(through.result().plies, solved.result().plies);
            assert_eq!(manifest(&dir), manifest(&memory), "{board} with {walls}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
        // Every layer in parts through the disk: as small as they go (a group each, the
        // stream read in pieces as small), a few groups each, on one thread and on two.
        let least = e.least_part(retro::Precision::Exact);
        let positions = random_games(&tables, 100);
        for (part, threads) in [(least, 2), (5 * least, 1), (5 * least, 2)] {
            let dir = scratch(&format!("{w}x{h}-{walls}-parts-{part}-{threads}"));
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let to = saved_dir::Target::scratch(dir.clone());
            let request = retro::Request {
                storage: retro::Storage::Parts {
                    to,
                    part_bytes: part,
                },
                ..retro::Request::exact(u64::MAX)
            };
            let parted = pool.install(|| retro::solve(&tables, &request, &Silent).unwrap());
            // Read back: as many layers as the budget holds (here every one), each value
            // the analysis in memory's (they bound a search with more walls).
            assert!(parted.keeps_all_layers(), "{board} with {walls}");
            for pos in positions.iter().take(2000) {
                assert_eq!(parted.value(pos), solved.value(pos), "{board} with {walls}");
            }
            assert_eq!(parted.stats(), solved.stats(), "{board} with {walls}");
            assert_eq!(parted.result().plies, solved.result().plies);
            assert_eq!(
                manifest(&dir),
                manifest(&memory),
                "{board} with {walls}, parts {part}"
            );
            std::fs::remove_dir_all(&dir).unwrap();
        }
        std::fs::remove_dir_all(&memory).unwrap();
    }
}

/// The compact analysis through a directory sizes its parts by `parts_budget` (they are
/// freed before it returns) and the layers it keeps by `budget`: fewer parts, the same
/// files byte for byte, the same layers kept.
#[test]
fn compact_parts_take_the_parts_budget_and_the_layers_kept_the_budget() {
    use quoridor_solver::retro::{self, Precision};
    /// The parts the analysis told of, over every layer.
    #[derive(Default)]
    struct Parts(std::sync::Mutex<usize>);
    impl quoridor_solver::support::progress::Progress for Parts {
        fn begin(&self, _stage: &str, _total: u64) {}
        fn advance(&self, _units: u64) {}
        fn message(&self, text: &str) {
            // "layer K: N parts" or "layer K: N parts, the layer above held (...)".
            let told = text.split_once(": ").and_then(|(_, rest)| {
                let mut words = rest.split([' ', ',']);
                let n = words.next()?.parse::<usize>().ok()?;
                words.next()?.starts_with("part").then_some(n)
            });
            if let Some(n) = told {
                *self.0.lock().unwrap() += n;
            }
        }
        fn finish(&self) {}
    }
    let board = Board::new(4, 4).unwrap();
    let tables = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
    let e = retro::cell_estimate(&tables);
    let least = e.least_part(Precision::Compact);
    let budget = tables.bytes() + e.peak_in_parts(Precision::Compact, least);
    let run = |parts_budget: Option<u64>| {
        let dir = scratch(&format!("4x4-2-parts-budget-{parts_budget:?}"));
        let request = retro::Request {
            storage: retro::Storage::Dir(saved_dir::Target::scratch(dir.clone())),
            parts_budget,
            ..retro::Request::outcomes(budget)
        };
        let parts = Parts::default();
        let solved = retro::solve(&tables, &request, &parts).unwrap();
        let manifest = std::fs::read_to_string(dir.join("MANIFEST.sha256")).unwrap();
        let told = *parts.0.lock().unwrap();
        let seen = (told, solved.layers_kept(), solved.stats(), manifest);
        std::fs::remove_dir_all(&dir).unwrap();
        seen
    };
    let (many, kept, stats, manifest) = run(None);
    let larger = tables.bytes() + e.peak_in_parts(Precision::Compact, 8 * least);
    let (fewer, kept_larger, stats_larger, manifest_larger) = run(Some(larger));
    assert!(
        fewer < many,
        "{fewer} parts with the parts' budget, {many} without"
    );
    assert_eq!(kept_larger, kept);
    assert_eq!(stats_larger, stats);
    assert_eq!(manifest_larger, manifest);
}

/// `solve --stats` says how many placements the analysis leaves out (a pawn cut off from
/// its goal); counted here the slow way, placement by placement over every configuration,
/// split of walls left and side to move.
#[test]
fn the_placements_left_out_are_those_with_a_pawn_cut_off() {
    use quoridor_solver::cell::solver::{Method, SolveOptions, Store, solve};
    use quoridor_solver::rules::geometry::Player;
    for (w, h, n) in [(3, 3, 1), (3, 4, 2), (4, 3, 2), (2, 5, 3)] {
        let board = Board::new(w, h).unwrap();
        let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
        let mut cut_off = 0u64;
        for id in 0..tables.len() as u32 {
            let k = tables.walls(id).len() as u8;
            // Player 1's walls left: from max(0, N - k) to min(N, 2N - k).
            let splits = (n.min(2 * n - k) + 1 - n.saturating_sub(k)) as u64;
            let [reach1, reach2] = [Player::One, Player::Two].map(|p| tables.reach(id, p));
            for p1 in 0..board.squares() {
                for p2 in (0..board.squares()).filter(|&c| c != p1) {
                    if reach1 >> p1 & 1 == 0 || reach2 >> p2 & 1 == 0 {
                        cut_off += 2 * splits;
                    }
                }
            }
        }
        let options = SolveOptions {
            method: Method::Retro,
            threads: 2,
            memory_budget: 1 << 30,
            tt_bytes: Some(1 << 24),
            store: Store::Full,
            ..SolveOptions::default()
        };
        let r = solve(board, n, &options, &Silent).unwrap();
        assert_eq!(r.left_out, Some(cut_off), "{board} with {n} walls");
    }
}

/// The check of a table too large to load (`retro::sampled`: random games' positions and
/// their moves, read from the files in one pass) passes a whole table, over the ranked
/// numbering, and fails one with a wrong value (the manifest rewritten to match) or a
/// damaged file, naming it.
#[test]
fn the_check_of_a_table_read_in_one_pass_finds_a_wrong_value_and_a_damaged_file() {
    use quoridor_solver::cell::analysis::random_games_by;
    use quoridor_solver::configs::Ranked;
    use quoridor_solver::retro::{self, sampled};
    let (board, walls) = (Board::new(4, 4).unwrap(), 3);
    let ranked = Ranked::build(board, walls);
    let dir = scratch("sampled");
    let solved = retro::solve(&ranked, &retro::Request::exact(u64::MAX), &Silent).unwrap();
    saved_dir::save(&solved, &dir).unwrap();
    let positions = random_games_by(board, walls, 300, |p| p.legal_actions(board));
    assert_eq!(sampled::check(&ranked, &dir, &positions, &Silent), Ok(()));
    // Every position of layer 0 (the start's) a draw: the start is not its best move's.
    let file = dir.join("layer-00-split-00.bin.zst");
    let raw = std::fs::read(&file).unwrap();
    let mut values = zstd::stream::decode_all(&raw[..]).unwrap();
    values.fill(127);
    let gz = zstd::stream::encode_all(&values[..], 1).unwrap();
    std::fs::write(&file, &gz).unwrap();
    let sha = |bytes: &[u8]| -> String {
        use sha2::Digest;
        sha2::Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.sha256"))
        .unwrap()
        .replace(&sha(&raw), &sha(&gz));
    std::fs::write(dir.join("MANIFEST.sha256"), manifest).unwrap();
    let wrong = sampled::check(&ranked, &dir, &positions, &Silent).unwrap_err();
    assert!(
        wrong.to_string().starts_with("inconsistent value at "),
        "{wrong}"
    );
    // A flipped bit in another file: named, whatever the values.
    let other = dir.join("layer-03-split-00.bin.zst");
    let mut bytes = std::fs::read(&other).unwrap();
    bytes[20] ^= 1;
    std::fs::write(&other, bytes).unwrap();
    let damaged = sampled::check(&ranked, &dir, &positions, &Silent).unwrap_err();
    assert!(
        damaged.to_string().contains("layer-03-split-00.bin.zst"),
        "{damaged}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The compact analysis through the disk in parts (`--precision compact --scratch`) keeps
/// the outcome of every slot of the exact table (a code below 127 is a loss, 127 a draw,
/// above a win; 2 bits: 00 loss, 01 draw, 10 win), whatever the parts, with the same
/// counts; its table is checked by `retro::sampled`.
#[test]
fn outcomes_in_parts_through_the_disk_are_the_exact_tables_outcomes() {
    use quoridor_solver::cell::analysis::random_games_by;
    use quoridor_solver::retro::{self, Precision, sampled, saved};
    let inflate = |path: std::path::PathBuf| {
        let mut out = Vec::new();
        let zst = std::fs::read(&path).unwrap();
        out.extend(zstd::stream::decode_all(&zst[..]).unwrap());
        out
    };
    for (w, h, walls) in [(3, 3, 2), (4, 3, 3), (2, 5, 4), (4, 4, 2)] {
        let board = Board::new(w, h).unwrap();
        let tables = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
        let exact = scratch(&format!("{w}x{h}-{walls}-exact"));
        saved_dir::save(
            &retro::solve(&tables, &retro::Request::exact(u64::MAX), &Silent).unwrap(),
            &exact,
        )
        .unwrap();
        let header = saved::header(&exact).unwrap();
        let e = retro::cell_estimate(&tables);
        for parts in [1, 4] {
            let least = e.least_part(Precision::Compact);
            let budget = tables.bytes() + e.peak_in_parts(Precision::Compact, parts * least);
            let dir = scratch(&format!("{w}x{h}-{walls}-compact-{parts}"));
            let to = saved_dir::Target::scratch(dir.clone());
            let request = retro::Request {
                storage: retro::Storage::Dir(to),
                ..retro::Request::outcomes(budget)
            };
            retro::solve(&tables, &request, &Silent).unwrap();
            let compact = saved::header(&dir).unwrap();
            assert_eq!(compact.precision, "compact");
            let counts = |h: &saved::Header| (h.positions, h.p1_wins, h.p2_wins, h.draws);
            assert_eq!(counts(&compact), counts(&header), "{board} with {walls}");
            for (k, files) in header.layers.iter().enumerate() {
                for (j, f) in files.iter().enumerate() {
                    let bytes = inflate(exact.join(&f.file));
                    let packed = inflate(dir.join(&compact.layers[k][j].file));
                    for (slot, &code) in bytes.iter().enumerate() {
                        let outcome = (code > 127) as u8 * 2 + (code == 127) as u8;
                        let two = packed[slot / 4] >> (slot % 4 * 2) & 3;
                        assert_eq!(
                            two, outcome,
                            "{board} {walls}: layer {k} split {j} slot {slot}"
                        );
                    }
                }
            }
            let positions = random_games_by(board, walls, 50, |p| p.legal_actions(board));
            sampled::check(&tables, &dir, &positions, &Silent).unwrap();
            std::fs::remove_dir_all(&dir).unwrap();
        }
        std::fs::remove_dir_all(&exact).unwrap();
    }
}
