//! Files the user names (`show --svg`, `table --out`'s files, `--checkpoint`, `--save`)
//! are written without replacing what stands at the path (issue 49 item 6): a symbolic
//! link stays a link and its target gets the new content, a FIFO is written through and
//! stays a FIFO, a directory is refused in one line.

mod common;
use common::cli::{ok, refused, run, scratch, stderr};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// A fresh directory for a test's files.
fn dir(name: &str) -> PathBuf {
    let d = scratch(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A symbolic link at `dir/name` to `dir/target`, and the two paths.
fn link(dir: &Path, name: &str, target: &str) -> (PathBuf, PathBuf) {
    let (link, target) = (dir.join(name), dir.join(target));
    std::os::unix::fs::symlink(&target, &link).unwrap();
    (link, target)
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).unwrap().is_symlink()
}

fn show_svg(path: &Path) -> std::process::Output {
    run(&[
        "show",
        "3x3",
        "--walls",
        "1",
        "--svg",
        path.to_str().unwrap(),
    ])
}

#[test]
fn a_symlink_stays_a_link_to_the_new_content() {
    let d = dir("svg-link");
    let (link, target) = link(&d, "picture.svg", "target.svg");
    std::fs::write(&target, "old").unwrap();
    assert!(show_svg(&link).status.success());
    assert!(is_link(&link), "the link was replaced by a file");
    let svg = std::fs::read_to_string(&target).unwrap();
    assert!(svg.starts_with("<svg "), "{svg}");
    // A link to nothing yet: its target is made, the link kept.
    let (link, target) = self::link(&d, "new.svg", "made.svg");
    assert!(show_svg(&link).status.success());
    assert!(
        is_link(&link)
            && std::fs::read_to_string(&target)
                .unwrap()
                .starts_with("<svg ")
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_fifo_is_written_through_and_stays_a_fifo() {
    let d = dir("svg-fifo");
    let fifo = d.join("picture.svg");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // The reader is open before the writer (without blocking): the writer's open does not
    // wait, and the picture fits the pipe's buffer, so no thread is needed.
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let out = show_svg(&fifo);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo(),
        "the FIFO was replaced"
    );
    let mut svg = String::new();
    // Nothing written (the FIFO replaced) reads as "would block": an empty picture.
    let _ = std::io::Read::read_to_string(&mut reader, &mut svg);
    assert!(svg.starts_with("<svg "), "{svg}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_directory_is_refused_in_one_line() {
    let d = dir("svg-dir");
    let err = refused(&["show", "3x3", "--walls", "1", "--svg", d.to_str().unwrap()]);
    assert!(
        err.contains(&format!("cannot write {}: it is a directory", d.display())),
        "{err}"
    );
    // A checkpoint is read back: a directory or a FIFO cannot be one.
    for path in [d.clone(), d.join("fifo")] {
        if path != d {
            let made = std::process::Command::new("mkfifo").arg(&path).status();
            assert!(made.unwrap().success());
        }
        let p = path.to_str().unwrap();
        let err = refused(&[
            "solve",
            "4x4",
            "--walls",
            "2",
            "--method",
            "search",
            "--checkpoint",
            p,
        ]);
        assert!(
            err.contains(&format!("cannot keep a checkpoint in {p}: it is ")),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn every_output_flag_keeps_a_link_a_link() {
    let d = dir("links");
    // A checkpoint.
    let (checkpoint, target) = link(&d, "c.checkpoint", "c.target");
    let c = checkpoint.to_str().unwrap();
    ok(&[
        "solve",
        "4x4",
        "--walls",
        "2",
        "--method",
        "search",
        "--checkpoint",
        c,
        "--max-depth",
        "8",
    ]);
    assert!(is_link(&checkpoint));
    let saved = std::fs::read(&target).unwrap();
    assert!(saved.starts_with(b"quoridor-solver checkpoint "));
    // A results table's file.
    let out = d.join("out");
    std::fs::create_dir(&out).unwrap();
    let (csv, target) = link(&out, "table.csv", "../kept.csv");
    std::fs::write(&target, "old").unwrap();
    let o = out.to_str().unwrap();
    ok(&["table", "--boards", "3x3", "--walls", "0", "--out", o, "-q"]);
    assert!(is_link(&csv));
    let table = std::fs::read_to_string(&target).unwrap();
    assert!(table.contains("\n3,3,0,"), "{table}");
    // A saved table's directory.
    std::fs::create_dir(d.join("tables")).unwrap();
    let (save, target) = link(&d, "save", "tables");
    let s = save.to_str().unwrap();
    ok(&[
        "solve", "4x3", "--walls", "2", "--method", "retro", "--save", s, "-q",
    ]);
    assert!(is_link(&save), "the link was replaced by a directory");
    assert!(target.join("MANIFEST.sha256").exists());
    std::fs::remove_dir_all(&d).unwrap();
}
