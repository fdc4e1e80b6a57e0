// "crate::b" in a comment and a string is not an import.
use crate::a::Ay;
pub const NAME: &str = "crate::b::Bee";
pub fn take(_: Ay) {}
