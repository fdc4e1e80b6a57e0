//! What people read: the results table's files (CSV, JSON, Markdown, SVG) and its check,
//! a position as a text diagram and as an SVG picture.

pub mod diagram;
pub mod picture;
pub mod report;
