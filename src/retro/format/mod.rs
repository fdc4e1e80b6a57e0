//! What the analysis leaves on disk, and reading it back: a saved table's header, manifest
//! and split files (`saved.rs`), their compressed segments (`segments.rs`, `codec.rs`) hashed as they go
//! (`hashed.rs`), where a table may be written (`saved_dir.rs`), a layer directory being
//! written and its record (`spill.rs`, `record.rs`, `room.rs`), a layer written in parts
//! (`layer_writer.rs`), read as a stream (`stream.rs`) or joined from the ranks' shares
//! (`shares.rs`), and a table too large to load read for the positions asked
//! (`sampled.rs`). Depends on `engine/` only: nothing here runs the analysis.

pub(super) mod codec;
pub(super) mod hashed;
pub(super) mod layer_writer;
pub(super) mod record;
pub(super) mod room;
pub mod sampled;
pub mod saved;
pub mod saved_dir;
pub(super) mod segments;
pub(super) mod shares;
pub mod spill;
pub(super) mod stream;
pub(super) mod symmetry_cache;
