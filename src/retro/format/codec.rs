//! How a split file is compressed, told by its name: `.bin.zst`, zstd at level 1 (what is
//! written since 2026-11-30), or `.bin.gz`, gzip at deflate's fastest level (what was
//! written before; still read, and still written to go on with a layer begun so). One
//! frame (zstd) or member (gzip) a segment (`segments.rs`), so a reader may start at any
//! segment and the frames of shares joined are the whole file.
//!
//! Why zstd: on a layer of 5x5 with 4 walls (83 MB of exact values) level 1 compressed in
//! 0.17 s against gzip -1's 0.79 s, inflated in 0.07 s against 0.35 s, and to 10.3 MB
//! against 17.8 MB (the command-line tools, 2026-11-30); in parts, deflating and inflating
//! had been a quarter of the analysis's cycles (docs/PERFORMANCE.md).

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use std::io::{BufReader, Read, Write};

/// The compression of a split file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    Gzip,
    Zstd,
}

/// How hard a new split file is compressed (zstd; gzip, written only to go on with a layer
/// begun so, at its fastest either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Effort {
    /// Level 1: zstd's fastest but the negative levels, which lose a quarter of the ratio
    /// on value planes for no measurable speed (`zstd --fast=1`: 0.16 s against 0.17 s
    /// above).
    #[default]
    Fast,
    /// Level 9, for a disk that would not hold the analysis at `Fast`: files about 0.8
    /// times as large, 5 times the seconds to compress. Measured on 2026-11-30: with the
    /// command-line tool, a layer of 5x5 w4's exact values (83 MB) took 10.9 MB in 0.22 s
    /// at level 1 and 7.6 MB in 1.13 s at level 9; of 5x5 w5's outcomes (29 MB), 5.8 and
    /// 3.8 MB. The whole analysis of 5x5 w4 in parts at `--memory 192M`, a frame a
    /// segment: 73.9 MB at level 1, 57.5 MB at level 9. Reading is as fast at any level.
    Small,
}

impl Effort {
    /// About what a file written with this effort weighs against one written `Fast`.
    pub const fn size_factor(self) -> f64 {
        match self {
            Effort::Fast => 1.0,
            Effort::Small => 0.80,
        }
    }

    fn zstd_level(self) -> i32 {
        match self {
            Effort::Fast => 1,
            Effort::Small => 9,
        }
    }
}

impl Codec {
    /// What a new layer is written with.
    pub const NEW: Codec = Codec::Zstd;

    /// The codec of the split file `name` (by its ending).
    pub fn of(name: &str) -> Codec {
        match name.ends_with(".zst") {
            true => Codec::Zstd,
            false => Codec::Gzip,
        }
    }

    /// The ending of a split file's name.
    pub fn extension(self) -> &'static str {
        match self {
            Codec::Gzip => "bin.gz",
            Codec::Zstd => "bin.zst",
        }
    }

    /// The name `name` would have under the other codec: the file an older run may have
    /// begun where this one writes `name`.
    pub fn other_name(name: &str) -> String {
        let (stem, codec) = match Codec::of(name) {
            Codec::Zstd => (name.strip_suffix(".bin.zst"), Codec::Gzip),
            Codec::Gzip => (name.strip_suffix(".bin.gz"), Codec::Zstd),
        };
        format!("{}.{}", stem.unwrap_or(name), codec.extension())
    }

    /// An encoder of one segment of `len` bytes into `out`, compressed with `effort`.
    pub fn encoder<W: Write>(
        self,
        out: W,
        len: usize,
        effort: Effort,
    ) -> std::io::Result<Encoder<W>> {
        Ok(match self {
            Codec::Gzip => Encoder::Gzip(GzEncoder::new(out, Compression::fast())),
            Codec::Zstd => {
                let mut z = zstd::stream::write::Encoder::new(out, effort.zstd_level())?;
                // The length in the frame's header, and a checksum of the frame: a reader
                // that starts at a segment (a rank's share) cannot check the file's SHA-256.
                z.set_pledged_src_size(Some(len as u64))?;
                z.include_contentsize(true)?;
                z.include_checksum(true)?;
                Encoder::Zstd(z)
            }
        })
    }

    /// A reader of the segments in `input`, one after another, inflated.
    pub fn decoder<R: Read>(self, input: R) -> std::io::Result<Decoder<R>> {
        Ok(match self {
            Codec::Gzip => Decoder::Gzip(MultiGzDecoder::new(input)),
            // Every frame to the end of the input, not the first alone.
            Codec::Zstd => Decoder::Zstd(zstd::stream::read::Decoder::new(input)?),
        })
    }
}

/// The encoder of one segment.
pub enum Encoder<W: Write> {
    Gzip(GzEncoder<W>),
    Zstd(zstd::stream::write::Encoder<'static, W>),
}

impl<W: Write> Encoder<W> {
    /// Ends the segment: its last bytes written out, and the output back.
    pub fn finish(self) -> std::io::Result<W> {
        match self {
            Encoder::Gzip(gz) => gz.finish(),
            Encoder::Zstd(z) => z.finish(),
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Encoder::Gzip(gz) => gz.write(buf),
            Encoder::Zstd(z) => z.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Encoder::Gzip(gz) => gz.flush(),
            Encoder::Zstd(z) => z.flush(),
        }
    }
}

/// A reader of a run of segments, inflated.
pub enum Decoder<R: Read> {
    Gzip(MultiGzDecoder<R>),
    Zstd(zstd::stream::read::Decoder<'static, BufReader<R>>),
}

impl<R: Read> Decoder<R> {
    /// The input back (what the decoder had read ahead of what it gave is not in it).
    pub fn into_inner(self) -> R {
        match self {
            Decoder::Gzip(gz) => gz.into_inner(),
            Decoder::Zstd(z) => z.finish().into_inner(),
        }
    }
}

impl<R: Read> Read for Decoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Decoder::Gzip(gz) => gz.read(buf),
            Decoder::Zstd(z) => z.read(buf),
        }
    }
}
