//! How every message counts things, repeats the user's text and gives a size: one place
//! each, so no message says "1 walls", echoes 2 MB or prints a size it is not.

use std::fmt;

/// `n` and its noun, singular for exactly one ("1 wall", "3 walls", "1 ply", "8 plies"), for
/// every message that counts something: one place that knows the plural, rather than an
/// if/else or a "1 walls" at each. A noun ending in a consonant and `y` takes `ies`.
pub fn count<N: fmt::Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        return format!("{n} {noun}");
    }
    match noun.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

/// The most characters of the user's text an error message repeats.
const CLIP_CHARS: usize = 40;

/// The user's `text` as an error message repeats it: whole when it is short, else its
/// first characters, an ellipsis and its length, so that a message stays one readable
/// line whatever was typed (a 2 MB argument used to be echoed whole). Control characters
/// are escaped, so a newline in the text cannot split the line either. Every message that
/// repeats what the user typed goes through here; each keeps its own quotes around it.
pub fn clip(text: &str) -> String {
    let shown: String = text
        .chars()
        .take(CLIP_CHARS)
        .flat_map(|c| match c.is_control() {
            true => c.escape_default().collect::<Vec<_>>(),
            false => vec![c],
        })
        .collect();
    let length = text.chars().count();
    match length > CLIP_CHARS {
        true => format!("{shown}... ({length} characters)"),
        false => shown,
    }
}

/// Bytes in the largest binary unit that keeps the number at or above 1 (e.g. `3.50 GiB`).
/// The sizes are computed saturating, so `u64::MAX` stands for any size past 64 bits and
/// says so rather than print a number it is not.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes == u64::MAX {
        return "over 16 EiB".into();
    }
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::{clip, count, format_bytes};

    #[test]
    fn sizes_past_a_tebibyte_keep_their_unit() {
        assert_eq!(format_bytes(1023), "1023 B");
        assert_eq!(format_bytes(3 << 40), "3.00 TiB");
        assert_eq!(format_bytes(5 << 50), "5.00 PiB");
        assert_eq!(format_bytes(u64::MAX - 1), "16.00 EiB");
        assert_eq!(format_bytes(u64::MAX), "over 16 EiB");
    }

    #[test]
    fn clipped_text_is_short_and_on_one_line() {
        assert_eq!(clip("5x5"), "5x5");
        assert_eq!(clip("a\nb"), "a\\nb");
        let long = "x".repeat(2_000_000);
        assert_eq!(
            clip(&long),
            format!("{}... (2000000 characters)", "x".repeat(40))
        );
        // Characters, not bytes: a multi-byte letter is never cut in half.
        assert_eq!(
            clip(&"é".repeat(41)),
            format!("{}... (41 characters)", "é".repeat(40))
        );
    }

    #[test]
    fn counts_are_singular_for_one() {
        assert_eq!(count(1u8, "wall"), "1 wall");
        assert_eq!(count(0u8, "wall"), "0 walls");
        assert_eq!(count(1u32, "ply"), "1 ply");
        assert_eq!(count(8u32, "ply"), "8 plies");
        assert_eq!(count(2usize, "day"), "2 days");
        assert_eq!(count(12u64, "cell"), "12 cells");
    }
}
