//! One cell (a board and the walls each player has): what it will cost, which method and
//! store solve it, the solve itself, and the value of any of its positions.

pub mod analysis;
pub mod estimate;
pub mod evaluate;
pub mod oracle;
pub mod outcome;
pub mod plan;
mod searching;
pub mod solve;
pub mod solver;
pub mod verify;
