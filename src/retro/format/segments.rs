//! The segments of a split file: a split's values are compressed as a run of gzip members,
//! one for each segment, a fixed run of whole groups of stored configurations. The cut
//! depends only on the layout and the precision, never on how the layer was solved (in
//! memory, in parts of any size, or by any number of ranks), so:
//!
//! - a part or a rank whose share is a run of whole segments compresses its members on its
//!   own, and the members joined in order are the file the analysis in memory writes, byte
//!   for byte (the same SHA-256 whatever the parts or the ranks);
//! - the header records each member's compressed length, so a reader can start at any
//!   segment (a rank streams its share of the layer above from the joined file).
//!
//! A multi-member gzip file inflates to the members' contents one after another: readers
//! use `MultiGzDecoder`. Tables written before segments are one member a file and read the
//! same way.

use crate::retro::engine::layout::Layout;
use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;
use std::ops::Range;

/// The most bytes of values (uncompressed) in one segment of one split: what a reader
/// inflates to reach a segment's first byte at most, and little of the compression lost.
pub const SEGMENT_BYTES: usize = 16 << 20;

/// The fewest segments a split is cut into when it has that many groups: so that small
/// layers too can be shared out among ranks (at most this many take a share each).
pub const MIN_SEGMENTS: usize = 16;

/// The segments of every split of layer `k` at `per_byte` slots a byte: runs of whole
/// groups of its stored configurations, in order, covering them all (none for an empty
/// layer).
pub fn cut(layout: &Layout, k: usize, per_byte: usize) -> Vec<Range<usize>> {
    let stored = layout.stored(k).len();
    let per_config = (layout.stored_len() / per_byte).max(1);
    let most = most_configs(per_config, stored);
    crate::retro::engine::layout::runs(layout, k, 0..stored, most)
}

/// The most stored configurations in a segment of a layer of `stored` of them, each
/// `per_config` bytes a split: what `cut` runs them in, and what the estimates count.
pub fn most_configs(per_config: usize, stored: usize) -> usize {
    (SEGMENT_BYTES / per_config.max(1))
        .min(stored.div_ceil(MIN_SEGMENTS))
        .max(1)
}

/// The bytes of each segment of a split under `cut` (`per_config` bytes a configuration).
pub fn lengths(cut: &[Range<usize>], per_config: usize) -> Vec<usize> {
    cut.iter().map(|r| r.len() * per_config).collect()
}

/// The segments of `cut` that a share of configurations `share` covers: `share` must be a
/// run of whole segments.
pub fn covering(cut: &[Range<usize>], share: &Range<usize>) -> Range<usize> {
    let first = cut.partition_point(|s| s.start < share.start);
    let end = cut.partition_point(|s| s.start < share.end);
    first..end
}

/// A writer that compresses what it is given as gzip members cut at the segments' lengths,
/// whatever the cut of the writes, and counts each member's compressed bytes.
pub struct SegmentWriter<W: Write> {
    state: State<W>,
    /// The bytes of each segment still to come, in reverse (the current one last).
    to_come: Vec<usize>,
    /// Bytes of the current segment written so far.
    in_segment: usize,
    /// Each finished member's compressed bytes.
    segments: Vec<u64>,
    /// Bytes written (uncompressed).
    bytes: u64,
    /// Whether no segment at all is one empty member (a whole split) or nothing (a share).
    empty_segment: bool,
}

/// Between members (the counted output), or inside one (its encoder over the output).
enum State<W: Write> {
    Between(Counted<W>),
    Segment(GzEncoder<Counted<W>>),
    /// Only while moving from one to the other.
    Moving,
}

impl<W: Write> SegmentWriter<W> {
    /// A writer over `inner` of a whole split, of segments of `lengths` bytes.
    pub fn new(inner: W, lengths: &[usize]) -> SegmentWriter<W> {
        SegmentWriter {
            state: State::Between(Counted { inner, bytes: 0 }),
            to_come: lengths.iter().rev().copied().collect(),
            in_segment: 0,
            segments: Vec::new(),
            bytes: 0,
            empty_segment: true,
        }
    }

    /// A writer over `inner` of a share of a split (some of its segments, of `lengths`
    /// bytes): a share of no segment writes nothing, so that the shares joined are the
    /// whole split.
    pub fn share(inner: W, lengths: &[usize]) -> SegmentWriter<W> {
        SegmentWriter {
            empty_segment: false,
            ..SegmentWriter::new(inner, lengths)
        }
    }

    /// A writer over `inner` that goes on with a split an earlier writer left between two
    /// members: `inner` holds `file_bytes` of output (at its end), the members written
    /// were `members`, of `bytes` uncompressed, and `lengths` are the segments still to
    /// come.
    pub fn resume(
        inner: W,
        lengths: &[usize],
        (segments, bytes, file_bytes): (Vec<u64>, u64, u64),
    ) -> SegmentWriter<W> {
        SegmentWriter {
            state: State::Between(Counted {
                inner,
                bytes: file_bytes,
            }),
            to_come: lengths.iter().rev().copied().collect(),
            in_segment: 0,
            segments,
            bytes,
            empty_segment: false,
        }
    }

    /// Between two members (every byte given so far is in an ended member): the output,
    /// the members' compressed bytes and the bytes written, for a checkpoint; `None`
    /// inside a member.
    pub fn between(&mut self) -> Option<(&mut W, &[u64], u64)> {
        match &mut self.state {
            State::Between(counted) if self.in_segment == 0 => {
                Some((&mut counted.inner, &self.segments, self.bytes))
            }
            _ => None,
        }
    }

    /// Ends the member being written: its compressed bytes are recorded.
    fn end_segment(&mut self) -> std::io::Result<()> {
        let State::Segment(gz) = std::mem::replace(&mut self.state, State::Moving) else {
            unreachable!("a member is open")
        };
        let counted = gz.finish()?;
        let before: u64 = self.segments.iter().sum();
        self.segments.push(counted.bytes - before);
        self.state = State::Between(counted);
        Ok(())
    }

    /// The member being written, opened if need be.
    fn segment(&mut self) -> &mut GzEncoder<Counted<W>> {
        if let State::Between(_) = self.state {
            let State::Between(counted) = std::mem::replace(&mut self.state, State::Moving) else {
                unreachable!()
            };
            self.state = State::Segment(GzEncoder::new(counted, Compression::fast()));
        }
        match &mut self.state {
            State::Segment(gz) => gz,
            _ => unreachable!("a member was just opened"),
        }
    }

    /// Writes `bytes`, which must not run past the last segment.
    pub fn write_all(&mut self, mut bytes: &[u8]) -> std::io::Result<()> {
        self.bytes += bytes.len() as u64;
        while !bytes.is_empty() {
            let Some(&len) = self.to_come.last() else {
                return Err(std::io::Error::other("more bytes than the segments hold"));
            };
            let take = (len - self.in_segment).min(bytes.len());
            self.segment().write_all(&bytes[..take])?;
            self.in_segment += take;
            bytes = &bytes[take..];
            if self.in_segment == len {
                self.end_segment()?;
                self.to_come.pop();
                self.in_segment = 0;
            }
        }
        Ok(())
    }

    /// Ends the writing, which must have filled every segment: the output, each member's
    /// compressed bytes and the bytes written (uncompressed). A whole split without
    /// segments (no configuration) is one empty member.
    pub fn finish(mut self) -> std::io::Result<(W, Vec<u64>, u64)> {
        if !self.to_come.is_empty() {
            return Err(std::io::Error::other("fewer bytes than the segments hold"));
        }
        if self.segments.is_empty() && self.empty_segment {
            self.segment();
            self.end_segment()?;
        }
        let State::Between(counted) = self.state else {
            unreachable!("every member is ended")
        };
        Ok((counted.inner, self.segments, self.bytes))
    }
}

/// A writer that counts the bytes through it.
pub struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::MultiGzDecoder;
    use std::io::Read;

    fn bytes(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 % 13) as u8).collect()
    }

    fn write_in(pieces: &[usize], data: &[u8], lengths: &[usize]) -> (Vec<u8>, Vec<u64>) {
        let mut w = SegmentWriter::new(Vec::new(), lengths);
        let mut at = 0;
        for &p in pieces {
            w.write_all(&data[at..at + p]).unwrap();
            at += p;
        }
        let (out, members, written) = w.finish().unwrap();
        assert_eq!(written as usize, data.len());
        (out, members)
    }

    #[test]
    fn the_bytes_do_not_depend_on_the_cut_of_the_writes() {
        let lengths = [1000, 1, 2500, 700];
        let data = bytes(lengths.iter().sum());
        let (whole, members) = write_in(&[data.len()], &data, &lengths);
        assert_eq!(members.len(), 4);
        assert_eq!(members.iter().sum::<u64>() as usize, whole.len());
        for pieces in [
            &[1, 999, 1, 2500, 700][..],
            &[4201],
            &[3000, 1201],
            &[1001, 3200],
        ] {
            assert_eq!(write_in(pieces, &data, &lengths).0, whole);
        }
        // The members joined inflate to the bytes; each member alone to its segment.
        let mut back = Vec::new();
        MultiGzDecoder::new(&whole[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, data);
        let (start, end) = (
            members[0] + members[1],
            members[0] + members[1] + members[2],
        );
        let mut third = Vec::new();
        MultiGzDecoder::new(&whole[start as usize..end as usize])
            .read_to_end(&mut third)
            .unwrap();
        assert_eq!(third, data[1001..3501]);
    }

    #[test]
    fn shares_of_whole_segments_joined_are_the_whole() {
        let lengths = [300, 500, 200, 900];
        let data = bytes(1900);
        let (whole, _) = write_in(&[1900], &data, &lengths);
        let (first, _) = write_in(&[800], &data[..800], &lengths[..2]);
        let (second, _) = write_in(&[1100], &data[800..], &lengths[2..]);
        assert_eq!([first, second].concat(), whole);
        let (none, members, _) = SegmentWriter::share(Vec::new(), &[]).finish().unwrap();
        assert!(none.is_empty() && members.is_empty());
    }

    #[test]
    fn a_writer_resumed_between_members_ends_as_the_whole() {
        let lengths = [300, 500, 200, 900];
        let data = bytes(1900);
        let (whole, whole_members) = write_in(&[1900], &data, &lengths);
        let mut w = SegmentWriter::new(Vec::new(), &lengths);
        w.write_all(&data[..700]).unwrap();
        assert!(w.between().is_none(), "inside the second member");
        w.write_all(&data[700..800]).unwrap();
        let (out, members, bytes) = w
            .between()
            .map(|(o, m, b)| (o.clone(), m.to_vec(), b))
            .unwrap();
        assert_eq!((members.len(), bytes), (2, 800));
        let file_bytes = out.len() as u64;
        let mut rest = SegmentWriter::resume(out, &lengths[2..], (members, bytes, file_bytes));
        rest.write_all(&data[800..]).unwrap();
        let (out, members, bytes) = rest.finish().unwrap();
        assert_eq!((out, members, bytes), (whole, whole_members, 1900));
    }

    #[test]
    fn too_few_or_too_many_bytes_are_refused() {
        let mut w = SegmentWriter::new(Vec::new(), &[10]);
        assert!(w.write_all(&[0; 11]).is_err());
        let mut w = SegmentWriter::new(Vec::new(), &[10, 10]);
        w.write_all(&[0; 15]).unwrap();
        assert!(w.finish().is_err());
    }

    #[test]
    fn no_segment_is_one_empty_member() {
        let (out, members, written) = SegmentWriter::new(Vec::new(), &[]).finish().unwrap();
        assert_eq!((members, written), (vec![out.len() as u64], 0));
        let mut back = Vec::new();
        MultiGzDecoder::new(&out[..])
            .read_to_end(&mut back)
            .unwrap();
        assert!(back.is_empty());
    }

    #[test]
    fn covering_finds_the_segments_of_a_share() {
        let cut = [0..3, 3..5, 5..9, 9..10];
        assert_eq!(covering(&cut, &(3..9)), 1..3);
        assert_eq!(covering(&cut, &(0..10)), 0..4);
        assert_eq!(covering(&cut, &(10..10)), 4..4);
    }
}
