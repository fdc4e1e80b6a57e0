//! A fixture for scripts/import_cycles.py: `a` and `b` import each other, `c` only `a`.
pub mod a;
pub mod b;
pub mod c;
