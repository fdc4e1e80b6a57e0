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
    /// An entry that is neither layers of an analysis nor a saved table's, where the
    /// layers of an analysis in parts go.
    ForeignForLayers,
    /// The tables of a table run's cells where one cell's layers go.
    NotOneCell,
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
            Occupied::ForeignForLayers => format!(
                "{dir} is not empty and holds neither layers of an analysis nor a saved table \
                 (it holds {holds}): the layers go into a new or empty directory, or one of \
                 this cell's layers, taken up where they stopped"
            ),
            Occupied::NotOneCell => format!("{dir} holds {holds}, not one cell's layers"),
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

#[cfg(test)]
mod tests {
    use super::super::Error;
    use super::Occupied;

    /// The refusals that name no flag print as the library printed them as strings.
    #[test]
    fn layers_refusals_print_as_before() {
        let occupied = |holds: &str, what| {
            Error::Occupied {
                dir: "/s".into(),
                holds: holds.into(),
                what,
            }
            .to_string()
        };
        assert_eq!(
            occupied("notes.txt", Occupied::ForeignForLayers),
            "/s is not empty and holds neither layers of an analysis nor a saved table (it \
             holds notes.txt): the layers go into a new or empty directory, or one of this \
             cell's layers, taken up where they stopped"
        );
        assert_eq!(
            occupied("the saved table of 1 cell (3x3-w1)", Occupied::NotOneCell),
            "/s holds the saved table of 1 cell (3x3-w1), not one cell's layers"
        );
    }
}
