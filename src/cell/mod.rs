//! One cell (a board and the walls each player has): what it will cost, which method and
//! store solve it (and what a request asks in vain), the solve itself and what a request
//! takes beside it, the value of any of its positions and where those answers come from,
//! and the check of a saved table.

pub mod analysis;
pub mod estimate;
pub mod evaluate;
pub mod fewer;
pub mod oracle;
pub mod outcome;
pub mod plan;
mod searching;
pub mod solve;
pub mod solver;
pub mod verify;
