//! A directory a run would write that holds what the run may not replace as asked
//! (`Error::Occupied`). The library words it in its own terms; the edges name the flags
//! that replace or resume (`cli/error_text/`).

/// What a directory holds that the run may not replace as asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupied {
    /// An entry that is not a saved table's: never replaced.
    Foreign,
    /// Saved tables (`many`: more than one), replaced only by a save asked to replace them.
    Tables { many: bool },
    /// One saved table where a table run keeps one a cell.
    OneTable,
    /// Saved tables of cells (`many`: more than one), replaced only by a table run asked
    /// to replace them; a resumed run keeps those of its cells.
    Cells { many: bool },
}

impl Occupied {
    /// "it" or "them", as many tables as it holds.
    pub fn it_or_them(self) -> &'static str {
        match self {
            Occupied::Tables { many: true } | Occupied::Cells { many: true } => "them",
            _ => "it",
        }
    }

    /// The refusal of `dir`, which holds `holds` (in words), with `replace` saying how a
    /// run replaces tables there and `keep` how a run keeps its cells (the library's words,
    /// or an edge's flags): one wording for every edge.
    pub fn text(self, dir: &str, holds: &str, words: &OccupiedWords) -> String {
        let OccupiedWords {
            replace,
            only_into,
            keep,
        } = words;
        match self {
            Occupied::Foreign => {
                format!("{dir} is not empty and not a saved table (it holds {holds}); {only_into}")
            }
            Occupied::Tables { .. } => {
                format!(
                    "{dir} already holds {holds}; {replace} {}",
                    self.it_or_them()
                )
            }
            Occupied::OneTable => {
                format!("{dir} already holds {holds}, not one per cell; {replace} it")
            }
            Occupied::Cells { .. } => format!(
                "{dir} already holds {holds}; {replace} {} ({keep})",
                self.it_or_them()
            ),
        }
    }
}

/// How an edge says what mends an `Occupied` refusal.
pub struct OccupiedWords {
    /// Completed by "it" or "them": what replaces the tables.
    pub replace: &'static str,
    /// Where a table is saved.
    pub only_into: &'static str,
    /// What a resumed run keeps.
    pub keep: &'static str,
}

/// The library's words.
pub const LIBRARY_WORDS: OccupiedWords = OccupiedWords {
    replace: "a run asked to replace saved tables replaces",
    only_into: "a table is saved only into a new or empty directory, or over a saved table \
                it is asked to replace",
    keep: "a resumed run keeps those of its cells",
};
