//! The segments of a split file: a split's values are compressed as a run of zstd frames
//! (gzip members in files written before 2026-11-30: `codec.rs`), one for each segment, a fixed run of whole groups of stored configurations. The cut
//! depends only on the layout and the precision, never on how the layer was solved (in
//! memory, in parts of any size, or by any number of ranks), so:
//!
//! - a part or a rank whose share is a run of whole segments compresses its members on its
//!   own, and the members joined in order are the file the analysis in memory writes, byte
//!   for byte (the same SHA-256 whatever the parts or the ranks);
//! - the header records each member's compressed length, so a reader can start at any
//!   segment (a rank streams its share of the layer above from the joined file).
//!
//! A file of several frames or members inflates to their contents one after another
//! (`Codec::decoder`). Tables written before segments are one gzip member a file and read
//! the same way.

use super::codec::{Codec, Effort, Encoder};
use crate::retro::engine::layout::Layout;
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

/// A writer that compresses what it is given as frames (members) cut at the segments'
/// lengths, whatever the cut of the writes, and counts each one's compressed bytes.
pub struct SegmentWriter<W: Write> {
    codec: Codec,
    /// How hard the members to come are compressed (`with_effort`; `Fast` unless told).
    effort: Effort,
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
    Segment(Encoder<Counted<W>>),
    /// Only while moving from one to the other.
    Moving,
}

impl<W: Write> SegmentWriter<W> {
    /// A writer over `inner` of a whole split, of segments of `lengths` bytes, compressed
    /// by `codec`.
    pub fn new(inner: W, lengths: &[usize], codec: Codec) -> SegmentWriter<W> {
        SegmentWriter {
            codec,
            effort: Effort::Fast,
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
    pub fn share(inner: W, lengths: &[usize], codec: Codec) -> SegmentWriter<W> {
        SegmentWriter {
            empty_segment: false,
            ..SegmentWriter::new(inner, lengths, codec)
        }
    }

    /// A writer over `inner` that goes on with a split an earlier writer left between two
    /// members: `inner` holds `file_bytes` of output (at its end), the members written
    /// were `members`, of `bytes` uncompressed, and `lengths` are the segments still to
    /// come.
    pub fn resume(
        inner: W,
        (lengths, codec): (&[usize], Codec),
        (segments, bytes, file_bytes): (Vec<u64>, u64, u64),
    ) -> SegmentWriter<W> {
        SegmentWriter {
            codec,
            effort: Effort::Fast,
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

    /// This writer, compressing the members to come with `effort`.
    pub fn with_effort(self, effort: Effort) -> SegmentWriter<W> {
        SegmentWriter { effort, ..self }
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
        let State::Segment(encoder) = std::mem::replace(&mut self.state, State::Moving) else {
            unreachable!("a member is open")
        };
        let counted = encoder.finish()?;
        let before: u64 = self.segments.iter().sum();
        self.segments.push(counted.bytes - before);
        self.state = State::Between(counted);
        Ok(())
    }

    /// The member being written, opened if need be (of the current segment's length, none
    /// past the last).
    fn segment(&mut self) -> std::io::Result<&mut Encoder<Counted<W>>> {
        if let State::Between(_) = self.state {
            let State::Between(counted) = std::mem::replace(&mut self.state, State::Moving) else {
                unreachable!()
            };
            let len = self.to_come.last().copied().unwrap_or(0);
            self.state = State::Segment(self.codec.encoder(counted, len, self.effort)?);
        }
        match &mut self.state {
            State::Segment(encoder) => Ok(encoder),
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
            self.segment()?.write_all(&bytes[..take])?;
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
            self.segment()?;
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
    use std::io::Read;

    const CODECS: [Codec; 2] = [Codec::Gzip, Codec::Zstd];

    /// Bytes with runs and noise, as value planes have: long enough that zstd cuts blocks.
    fn bytes(n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| match i / 5000 % 3 {
                0 => 0,
                1 => (i * 7 % 13) as u8,
                _ => (i.wrapping_mul(2654435761) >> 13) as u8,
            })
            .collect()
    }

    fn write_in(
        codec: Codec,
        pieces: &[usize],
        data: &[u8],
        lengths: &[usize],
    ) -> (Vec<u8>, Vec<u64>) {
        let mut w = SegmentWriter::new(Vec::new(), lengths, codec);
        let mut at = 0;
        for &p in pieces {
            w.write_all(&data[at..at + p]).unwrap();
            at += p;
        }
        let (out, members, written) = w.finish().unwrap();
        assert_eq!(written as usize, data.len());
        (out, members)
    }

    fn inflate(codec: Codec, bytes: &[u8]) -> Vec<u8> {
        let mut back = Vec::new();
        codec
            .decoder(bytes)
            .unwrap()
            .read_to_end(&mut back)
            .unwrap();
        back
    }

    /// A split written `Small` reads back as written, member by member, and is smaller
    /// than one written `Fast`; gzip (written only to go on with an old layer) ignores it.
    #[test]
    fn a_split_compressed_harder_reads_back_the_same() {
        let lengths = [1000, 250_000, 300_000];
        let data = bytes(lengths.iter().sum());
        for codec in CODECS {
            let write = |effort| {
                let mut w = SegmentWriter::new(Vec::new(), &lengths, codec).with_effort(effort);
                w.write_all(&data).unwrap();
                w.finish().unwrap()
            };
            let (fast, _, _) = write(Effort::Fast);
            let (small, members, written) = write(Effort::Small);
            assert_eq!(written as usize, data.len());
            assert_eq!(members.len(), lengths.len());
            assert_eq!(inflate(codec, &small), data);
            match codec {
                Codec::Zstd => assert!(small.len() < fast.len(), "{} {}", small.len(), fast.len()),
                Codec::Gzip => assert_eq!(small, fast),
            }
        }
    }

    #[test]
    fn the_bytes_do_not_depend_on_the_cut_of_the_writes() {
        for codec in CODECS {
            let lengths = [1000, 1, 250_000, 700, 300_000];
            let data = bytes(lengths.iter().sum());
            let (whole, members) = write_in(codec, &[data.len()], &data, &lengths);
            assert_eq!(members.len(), 5);
            assert_eq!(members.iter().sum::<u64>() as usize, whole.len());
            let mut odd: Vec<usize> = (1..).map(|i| i * 977 % 70_001).take(14).collect();
            odd.push(data.len() - odd.iter().sum::<usize>());
            for pieces in [
                &[1, 999, 1, 250_000, 700, 300_000][..],
                &[3000, 548_701],
                &[251_001, 300_700],
                &odd,
            ] {
                assert_eq!(
                    write_in(codec, pieces, &data, &lengths).0,
                    whole,
                    "{codec:?}"
                );
            }
            // The members joined inflate to the bytes; each member alone to its segment.
            assert_eq!(inflate(codec, &whole), data);
            let start = members[0] + members[1];
            let end = start + members[2];
            let third = inflate(codec, &whole[start as usize..end as usize]);
            assert_eq!(third, data[1001..251_001]);
        }
    }

    #[test]
    fn zstd_writes_value_planes_smaller_than_gzip() {
        let data = bytes(600_000);
        let [gz, zst] = CODECS.map(|codec| write_in(codec, &[600_000], &data, &[600_000]).0);
        assert!(zst.len() < gz.len(), "{} against {}", zst.len(), gz.len());
        assert_eq!(Codec::of("layer-03-split-01.bin.zst"), Codec::Zstd);
        assert_eq!(Codec::of("layer-03-split-01.bin.gz"), Codec::Gzip);
        let name = "layer-03-split-01.rank-002.bin.zst";
        assert_eq!(Codec::other_name(name), "layer-03-split-01.rank-002.bin.gz");
        assert_eq!(Codec::other_name(&Codec::other_name(name)), name);
    }

    #[test]
    fn a_damaged_or_cut_frame_is_an_error() {
        for codec in CODECS {
            let data = bytes(20_000);
            let (whole, _) = write_in(codec, &[20_000], &data, &[20_000]);
            let mut back = Vec::new();
            let cut = codec.decoder(&whole[..whole.len() - 3]).unwrap();
            assert!(
                cut.take(1 << 20).read_to_end(&mut back).is_err(),
                "{codec:?}"
            );
            let mut flipped = whole.clone();
            let at = flipped.len() / 2;
            flipped[at] ^= 0x40;
            let mut back = Vec::new();
            let read = codec.decoder(&flipped[..]).unwrap().read_to_end(&mut back);
            assert!(read.is_err() || back != data, "{codec:?}");
        }
    }

    #[test]
    fn shares_of_whole_segments_joined_are_the_whole() {
        for codec in CODECS {
            let lengths = [300, 500, 200, 900];
            let data = bytes(1900);
            let (whole, _) = write_in(codec, &[1900], &data, &lengths);
            let (first, _) = write_in(codec, &[800], &data[..800], &lengths[..2]);
            let (second, _) = write_in(codec, &[1100], &data[800..], &lengths[2..]);
            assert_eq!([first, second].concat(), whole);
            let share = SegmentWriter::share(Vec::new(), &[], codec);
            let (none, members, _) = share.finish().unwrap();
            assert!(none.is_empty() && members.is_empty());
        }
    }

    #[test]
    fn a_writer_resumed_between_members_ends_as_the_whole() {
        for codec in CODECS {
            let lengths = [300, 500, 200, 900];
            let data = bytes(1900);
            let (whole, whole_members) = write_in(codec, &[1900], &data, &lengths);
            let mut w = SegmentWriter::new(Vec::new(), &lengths, codec);
            w.write_all(&data[..700]).unwrap();
            assert!(w.between().is_none(), "inside the second member");
            w.write_all(&data[700..800]).unwrap();
            let (out, members, bytes) = w
                .between()
                .map(|(o, m, b)| (o.clone(), m.to_vec(), b))
                .unwrap();
            assert_eq!((members.len(), bytes), (2, 800));
            let file_bytes = out.len() as u64;
            let done = (members, bytes, file_bytes);
            let mut rest = SegmentWriter::resume(out, (&lengths[2..], codec), done);
            rest.write_all(&data[800..]).unwrap();
            let (out, members, bytes) = rest.finish().unwrap();
            assert_eq!((out, members, bytes), (whole, whole_members, 1900));
        }
    }

    #[test]
    fn too_few_or_too_many_bytes_are_refused() {
        for codec in CODECS {
            let mut w = SegmentWriter::new(Vec::new(), &[10], codec);
            assert!(w.write_all(&[0; 11]).is_err());
            let mut w = SegmentWriter::new(Vec::new(), &[10, 10], codec);
            w.write_all(&[0; 15]).unwrap();
            assert!(w.finish().is_err());
        }
    }

    #[test]
    fn no_segment_is_one_empty_member() {
        for codec in CODECS {
            let w = SegmentWriter::new(Vec::new(), &[], codec);
            let (out, members, written) = w.finish().unwrap();
            assert_eq!((members, written), (vec![out.len() as u64], 0));
            assert!(inflate(codec, &out).is_empty());
        }
    }

    #[test]
    fn covering_finds_the_segments_of_a_share() {
        let cut = [0..3, 3..5, 5..9, 9..10];
        assert_eq!(covering(&cut, &(3..9)), 1..3);
        assert_eq!(covering(&cut, &(0..10)), 0..4);
        assert_eq!(covering(&cut, &(10..10)), 4..4);
    }
}
